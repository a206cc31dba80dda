"""Reads a --benchmark-out file and checks it against Google Benchmark's
JSON schema, as its compare.py reads it: a `context` object, then under
`benchmarks` one "iteration" entry per repetition of each family and the
aggregates mean, median, stddev, min and max, each with real_time,
cpu_time and time_unit. Exits with status 1 on the first thing wrong;
prints one line per family, then the repetition count and the aggregates'
order, for FileCheck."""

import json
import math
import statistics
import sys

UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
AGGREGATES = ["mean", "median", "stddev", "min", "max"]


def fail(message):
    print("check_benchmark_json: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    with open(sys.argv[1]) as f:
        report = json.load(f)
    context = report.get("context")
    if not isinstance(context, dict):
        fail("no context object")
    for key in ("date", "host_name", "executable", "num_cpus",
                "library_build_type"):
        if key not in context:
            fail("the context has no %r" % key)
    families = {}
    for entry in report.get("benchmarks", []):
        for key in ("name", "family_index", "per_family_instance_index",
                    "run_name", "run_type", "repetitions", "threads",
                    "iterations", "real_time", "cpu_time", "time_unit"):
            if key not in entry:
                fail("an entry without %r: %r" % (key, entry))
        if entry["time_unit"] not in UNITS:
            fail("unknown time unit %r" % entry["time_unit"])
        if not all(isinstance(entry[k], (int, float)) and
                   math.isfinite(entry[k]) and entry[k] >= 0
                   for k in ("real_time", "cpu_time")):
            fail("a time that is not a number of at least 0: %r" % entry)
        families.setdefault(entry["run_name"], []).append(entry)
    if not families:
        fail("no benchmarks")
    for name, entries in families.items():
        runs = [e for e in entries if e["run_type"] == "iteration"]
        aggregates = [e for e in entries if e["run_type"] == "aggregate"]
        if [e["repetition_index"] for e in runs] != list(range(len(runs))):
            fail("%s: repetitions out of order" % name)
        if any(e["repetitions"] != len(runs) for e in entries):
            fail("%s: a repetition count that is not %d" % (name, len(runs)))
        if [e["aggregate_name"] for e in aggregates] != AGGREGATES:
            fail("%s: aggregates %r" %
                 (name, [e.get("aggregate_name") for e in aggregates]))
        # The aggregates are those of the runs.
        times = [e["real_time"] for e in runs]
        expected = {
            "mean": statistics.mean(times),
            "median": statistics.median(times),
            "stddev": statistics.stdev(times) if len(times) > 1 else 0.0,
            "min": min(times),
            "max": max(times),
        }
        for entry in aggregates:
            want = expected[entry["aggregate_name"]]
            if not math.isclose(entry["real_time"], want, rel_tol=1e-9,
                                abs_tol=1e-9):
                fail("%s: %s is %r, the runs give %r" %
                     (name, entry["name"], entry["real_time"], want))
            if entry["name"] != name + "_" + entry["aggregate_name"]:
                fail("an aggregate named %r" % entry["name"])
        print("family %s: %d runs, aggregates %s" %
              (name, len(runs), " ".join(e["aggregate_name"]
                                         for e in aggregates)))


main()
