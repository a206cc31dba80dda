"""Reads a --trace file with Python's json and prints what FileCheck checks.

Checks the file's shape first (every event has the fields Chrome's trace
event format asks of its phase; every track has a name; slices nest on
their track) and exits with status 1 on the first thing wrong. Then prints,
one line per event, sorted by track and then by time:

  track <name>: <event name> [<loc line>] key=value ...

and one line per flow, from the producer's slice to the consumer's, with
"ordered" when the consumer began after the producer ended (a host wait:
returned after it), as a token orders them:

  flow <track>:<event> line <n> -> <track>:<event> line <n> ordered
"""

import json
import sys


def fail(message):
    print("summarize_trace: " + message, file=sys.stderr)
    sys.exit(1)


def line_of(event):
    loc = event.get("args", {}).get("loc", "")
    return loc.rsplit(":", 2)[1] if loc.count(":") >= 2 else "-"


def main():
    with open(sys.argv[1]) as f:
        trace = json.load(f)
    uncertainty = trace.get("otherData", {}).get(
        "stream_clock_uncertainty_us")
    if not isinstance(uncertainty, (int, float)) or uncertainty < 0:
        fail("no stream_clock_uncertainty_us in otherData")
    events = trace.get("traceEvents")
    if not isinstance(events, list):
        fail("no traceEvents list")
    names = {}
    slices = []
    flows = {}
    for event in events:
        phase = event.get("ph")
        if phase == "M":
            if event["name"] == "thread_name":
                names[event["tid"]] = event["args"]["name"]
        elif phase == "X":
            for key in ("name", "cat", "pid", "tid", "ts", "dur", "args"):
                if key not in event:
                    fail("a complete event without %r: %r" % (key, event))
            if event["dur"] < 0 or event["ts"] < 0:
                fail("a negative time: %r" % event)
            slices.append(event)
        elif phase in ("s", "f"):
            flows.setdefault(event["id"], {})[phase] = event
        else:
            fail("an event of phase %r" % phase)
    for event in slices:
        if event["tid"] not in names:
            fail("a track with no name: %r" % event["tid"])

    # Slices on one track either nest or follow each other.
    by_track = {}
    for event in slices:
        by_track.setdefault(event["tid"], []).append(event)
    for tid, track in by_track.items():
        track.sort(key=lambda e: (e["ts"], -e["dur"]))
        open_ends = []
        for event in track:
            end = event["ts"] + event["dur"]
            while open_ends and open_ends[-1] <= event["ts"]:
                open_ends.pop()
            if open_ends and end > open_ends[-1] + 1e-3:
                fail("slices overlap on track %r: %r" % (names[tid], event))
            open_ends.append(end)

    show_phases = "--phases" in sys.argv
    for tid in sorted(by_track):
        for event in by_track[tid]:
            if event["cat"] == "phase" and not show_phases:
                continue
            args = event["args"]
            extra = " ".join(
                "%s=%s" % (key, args[key])
                for key in ("direction", "bytes", "kernel", "grid", "block",
                            "unfinished") if key in args)
            print("track %s: %s [%s] %s %s" % (names[tid], event["name"],
                                               event["cat"], line_of(event),
                                               extra))

    def enclosing(flow_event):
        """The slice a flow event binds to on its track."""
        best = None
        for event in by_track.get(flow_event["tid"], []):
            if event["cat"] == "phase":
                continue
            if event["ts"] <= flow_event["ts"] <= event["ts"] + event["dur"]:
                best = event
        if best is None:
            fail("a flow event outside every slice: %r" % flow_event)
        return best

    for flow_id in sorted(flows):
        pair = flows[flow_id]
        if set(pair) != {"s", "f"}:
            fail("flow %r is not a start and a finish" % flow_id)
        start, finish = enclosing(pair["s"]), enclosing(pair["f"])
        # An op that waits on a stream begins after the token's op ends; a
        # host wait returns after it. Between a stream's track and the
        # host's, the times agree within what the trace says of its clocks.
        waited = finish["ts"] + (finish["dur"] if finish["name"] == "gpu.wait"
                                 else 0)
        slack = 1e-3
        if start["cat"] != finish["cat"]:
            slack += uncertainty
        ordered = waited + slack >= start["ts"] + start["dur"]
        print("flow %s:%s line %s -> %s:%s line %s %s" %
              (names[start["tid"]], start["name"], line_of(start),
               names[finish["tid"]], finish["name"], line_of(finish),
               "ordered" if ordered else "NOT ORDERED"))


main()
