#!/usr/bin/python3
"""Runs the memcpy benchmark: gpu.memcpy as gpu-runner lowers it
(memcpy.mlir on gpu-runner-<backend>) against the same copies made with the
vendor's raw call (gpu-runner-memcpy-baseline-<backend>), alternately, and
prints a table of both and their ratio; writes CSV, JSON and, with gnuplot, a
PNG plot.

Methodology (nvbandwidth's): for each kind of copy and size, fresh buffers,
warm-up batches, then timed batches of copies between two timer points
(events on a GPU); the figure of a side is the median over all its samples of
all rounds. GB/s = 1e9 bytes/s; device-to-device bytes are counted once.
Every copy's destination is checked after the run; a wrong element is an
error.
"""

import argparse
import csv
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "memcpy.mlir")

# kind, entry point of memcpy.mlir, what it copies
KINDS = [
    ("h2d-pageable", "h2d_pageable", "host to device, pageable host memory"),
    ("h2d-pinned", "h2d_pinned", "host to device, registered host memory"),
    ("d2h-pageable", "d2h_pageable", "device to host, pageable host memory"),
    ("d2h-pinned", "d2h_pinned", "device to host, registered host memory"),
    ("d2d", "d2d", "device to device, bytes counted once"),
]

CONVENTION = ("GB/s = 1e9 bytes/s; device-to-device bytes counted once "
              "(bandwidthTest counts them twice)")

# A device whose name has this is gpu-runner's driver stand-in
# (GPU_RUNNER_CUDA_DRIVER), which copies host memory on host threads.
STANDIN_MARK = "stand-in"
STANDIN_NOTE = ("these figures are of the driver stand-in, which copies host "
                "memory: they check the harness, and say nothing of a GPU")

# The environment memcpy.mlir and the baselines read (see README.md).
FULL = {
    "MEMCPY_BENCH_MIN_BYTES": 4096,
    "MEMCPY_BENCH_MAX_BYTES": 1 << 30,
    "MEMCPY_BENCH_BATCH_BYTES": 1 << 28,
    "MEMCPY_BENCH_MAX_COPIES": 1000,
    "MEMCPY_BENCH_SAMPLES": 5,
    "MEMCPY_BENCH_WARMUP": 1,
    "MEMCPY_BENCH_SMALL_BYTES": 8,
    "MEMCPY_BENCH_SMALL_COPIES": 1000,
}
QUICK = {
    "MEMCPY_BENCH_MIN_BYTES": 4096,
    "MEMCPY_BENCH_MAX_BYTES": 1 << 20,
    "MEMCPY_BENCH_BATCH_BYTES": 1 << 20,
    "MEMCPY_BENCH_MAX_COPIES": 16,
    "MEMCPY_BENCH_SAMPLES": 3,
    "MEMCPY_BENCH_WARMUP": 1,
    "MEMCPY_BENCH_SMALL_BYTES": 8,
    "MEMCPY_BENCH_SMALL_COPIES": 100,
}


def fail(message):
    sys.exit("bench-memcpy: error: " + message)


def size_text(size):
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return "%d %s" % (size // scale, unit)
    return "%d B" % size


def run(command, env):
    """stdout of `command`, which must succeed."""
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        fail("%s failed with exit status %d:\n%s" %
             (" ".join(command), result.returncode, result.stderr))
    return result.stdout


def parse(output, kind, side, params):
    """The samples of one run, {(tag, bytes): [(copies, device_ns,
    host_ns)]}, after checking that every size was checked and right."""
    samples, checked = {}, set()
    for line in output.splitlines():
        fields = line.split()
        if not fields:
            continue
        if fields[0] in ("sample", "small") and len(fields) == 6:
            if fields[1] != kind:
                fail("%s printed a line of %s in a run of %s: %s" %
                     (side, fields[1], kind, line))
            bytes_, copies, device_ns, host_ns = map(int, fields[2:])
            if device_ns <= 0:
                fail("%s: a batch took %d ns: %s" % (side, device_ns, line))
            samples.setdefault((fields[0], bytes_), []).append(
                (copies, device_ns, host_ns))
        elif fields[0] == "check" and len(fields) == 4:
            bytes_, wrong = int(fields[2]), int(fields[3])
            if wrong != 0:
                fail("%s, %s, %s: %d elements of the destination are wrong "
                     "after the copies" % (side, kind, size_text(bytes_),
                                           wrong))
            checked.add(bytes_)
        else:
            fail("%s printed a line this harness does not know: %r" %
                 (side, line))
    for (tag, bytes_), values in samples.items():
        if bytes_ not in checked:
            fail("%s, %s: the %s copies were never checked" %
                 (side, kind, size_text(bytes_)))
        if len(values) != params["MEMCPY_BENCH_SAMPLES"]:
            fail("%s, %s, %s: %d samples, not %d" %
                 (side, kind, size_text(bytes_), len(values),
                  params["MEMCPY_BENCH_SAMPLES"]))
    sizes = sorted(b for t, b in samples if t == "sample")
    expected, size = [], params["MEMCPY_BENCH_MIN_BYTES"]
    while size <= params["MEMCPY_BENCH_MAX_BYTES"]:
        expected.append(size)
        size *= 2
    if sizes != expected:
        fail("%s, %s: measured sizes %s, expected %s" %
             (side, kind, sizes, expected))
    return samples


def memory_cap(baseline, backend, env):
    """The largest power of two the sweep may use, from the baseline's view
    of free memory, and the device's name."""
    info = {}
    for line in run([baseline, "info"], env).splitlines():
        key, _, value = line.partition(" ")
        info[key] = value
    host = int(info.get("host_available_bytes", 0))
    device = int(info.get("device_free_bytes", 0))
    # Up to three host buffers of a size at once (source, destination and a
    # staging buffer for filling or checking), with room to spare; on a GPU,
    # two device buffers in 90% of the free memory.
    limit = host // 6
    if backend != "host":
        limit = min(limit, device * 9 // 20)
    cap = 1
    while cap * 2 <= limit:
        cap *= 2
    return cap, info.get("device", "unknown")


def gbps(bytes_, copies, ns):
    return bytes_ * copies / ns


def summarize(samples, tag, bytes_):
    values = samples.get((tag, bytes_), [])
    return {
        "gbps": statistics.median(gbps(bytes_, c, d) for c, d, h in values),
        "us_per_copy": statistics.median(d / c / 1e3 for c, d, h in values),
        "host_us_per_copy": statistics.median(h / c / 1e3
                                              for c, d, h in values),
        "copies": values[0][0],
        "samples": len(values),
    }


def plot(rows, backend, device, path):
    """Throughput against size, one line per direction and side, with
    gnuplot; returns whether it drew."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("bench-memcpy: no PNG: gnuplot is not installed "
              "(apt-get install gnuplot-nox)", file=sys.stderr)
        return False
    data = path[:-len(".png")] + ".dat"
    series = []
    with open(data, "w") as out:
        for kind, _, _ in KINDS:
            for side in ("ours", "native"):
                points = [(r["bytes"], r[side + "_gbps"]) for r in rows
                          if r["kind"] == kind and r["measure"] == "throughput"]
                if not points:
                    continue
                out.write("# %s %s\n" % (kind, side))
                for x, y in points:
                    out.write("%d %.6g\n" % (x, y))
                out.write("\n\n")
                series.append((kind, side))
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]
    plots = []
    for index, (kind, side) in enumerate(series):
        color = colors[[k for k, _, _ in KINDS].index(kind) % len(colors)]
        label = "%s, %s" % (kind, "gpu.memcpy" if side == "ours" else "native")
        dash = "1" if side == "ours" else "2"
        plots.append("'%s' index %d using 1:2 with linespoints lw 2 pt 7 "
                     "ps 0.6 dt %s lc rgb '%s' title '%s'" %
                     (data, index, dash, color, label))
    script = "\n".join([
        "set terminal pngcairo size 1100,700 font 'sans,10'",
        "set output '%s'" % path,
        "set title \"memcpy throughput on %s (%s): gpu.memcpy (solid) "
        "against the native call (dashed)\\n%s\"" %
        (backend, device.replace('"', "'"), CONVENTION),
        "set logscale x 2",
        "set format x '%.0b %BB'",
        "set xlabel 'bytes per copy'",
        "set ylabel 'GB/s (1e9 bytes/s)'",
        "set grid",
        "set key outside right top",
        "set yrange [0:*]",
        "plot " + ", \\\n  ".join(plots),
    ])
    result = subprocess.run([gnuplot], input=script, text=True,
                            capture_output=True)
    if result.returncode != 0:
        fail("gnuplot failed:\n" + result.stderr)
    os.remove(data)
    return True


def target_lines(rows, backend):
    """The issue's targets against this run's figures: what they measured
    and whether they were met. Figures, not a test: nothing fails here."""
    def throughput(kind=None, at_least=0, exactly=None):
        return [r for r in rows if r["measure"] == "throughput" and
                (kind is None or r["kind"] == kind) and
                r["bytes"] >= at_least and
                (exactly is None or r["bytes"] == exactly)]

    lines = []
    if backend == "host":
        at = throughput(exactly=256 << 20)
        if at:
            worst = min(at, key=lambda r: r["ratio"])
            lines.append(("ours / libc >= 0.95 at 256 MiB, every kind",
                          "lowest %.3f (%s)" % (worst["ratio"], worst["kind"]),
                          worst["ratio"] >= 0.95))
        return lines
    big = throughput(at_least=64 << 20)
    if big:
        worst = min(big, key=lambda r: r["ratio"])
        lines.append(("ours / native >= 0.98 from 64 MiB, every kind",
                      "lowest %.3f (%s, %s)" % (worst["ratio"], worst["kind"],
                                                size_text(worst["bytes"])),
                      worst["ratio"] >= 0.98))
    for kind in ("h2d-pinned", "d2h-pinned"):
        sizes = throughput(kind)
        if sizes:
            link = max(r["native_gbps"] for r in sizes)
            ours = max(r["ours_gbps"] for r in sizes)
            lines.append(("%s within 10%% of the link's best" % kind,
                          "ours best %.2f GB/s, native best %.2f GB/s" %
                          (ours, link), ours >= 0.9 * link))
    small = [r for r in rows if r["measure"] == "small"]
    if small:
        worst = max(small, key=lambda r: r["ours_host_us_per_copy"] -
                    r["native_host_us_per_copy"])
        added = (worst["ours_host_us_per_copy"] -
                 worst["native_host_us_per_copy"])
        lines.append(("< 1 us of added host time per small copy",
                      "highest %.3f us (%s)" % (added, worst["kind"]),
                      added < 1.0))
    return lines


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--backend", default="host",
                        help="host (default), cuda or hip: runs "
                        "gpu-runner-BACKEND and "
                        "gpu-runner-memcpy-baseline-BACKEND")
    parser.add_argument("--quick", action="store_true",
                        help="sizes 4 KiB to 1 MiB, few copies, one round: "
                        "a check that the harness works, not a measurement")
    parser.add_argument("--rounds", type=int,
                        help="times each side runs each kind (default 3; "
                        "1 with --quick)")
    parser.add_argument("--min-bytes", type=int,
                        help="smallest copy of the sweep (default 4 KiB)")
    parser.add_argument("--max-bytes", type=int,
                        help="largest copy (default 1 GiB, capped by free "
                        "memory)")
    parser.add_argument("--no-small", action="store_true",
                        help="skip the small copies")
    parser.add_argument("--kinds", default=",".join(k for k, _, _ in KINDS),
                        help="comma-separated kinds to run (default: all)")
    parser.add_argument("--device", type=int, default=0,
                        help="the GPU to use (default 0)")
    parser.add_argument("--out-dir",
                        help="where the CSV, JSON and PNG go (default: "
                        "BUILD_DIR/benchmarks/memcpy)")
    args = parser.parse_args()

    bin_dir = os.path.join(args.build_dir, "bin")
    runner = os.path.join(bin_dir, "gpu-runner-" + args.backend)
    baseline = os.path.join(bin_dir,
                            "gpu-runner-memcpy-baseline-" + args.backend)
    for path in (runner, baseline):
        if not os.access(path, os.X_OK):
            fail("%s is not built (backend %s)" % (path, args.backend))
    kinds = [k for k in KINDS if k[0] in args.kinds.split(",")]
    if not kinds:
        fail("--kinds names none of %s" % ", ".join(k for k, _, _ in KINDS))
    out_dir = args.out_dir or os.path.join(args.build_dir, "benchmarks",
                                           "memcpy")
    os.makedirs(out_dir, exist_ok=True)
    rounds = args.rounds or (1 if args.quick else 3)

    params = dict(QUICK if args.quick else FULL)
    env = dict(os.environ)
    env["MEMCPY_BENCH_DEVICE"] = str(args.device)
    cap, device = memory_cap(baseline, args.backend, env)
    if args.min_bytes:
        params["MEMCPY_BENCH_MIN_BYTES"] = args.min_bytes
    if args.max_bytes:
        params["MEMCPY_BENCH_MAX_BYTES"] = args.max_bytes
    if args.no_small:
        params["MEMCPY_BENCH_SMALL_COPIES"] = 0
    if params["MEMCPY_BENCH_MAX_BYTES"] > cap:
        print("bench-memcpy: copies capped at %s by free memory" %
              size_text(cap), file=sys.stderr)
        params["MEMCPY_BENCH_MAX_BYTES"] = cap
    env.update({k: str(v) for k, v in params.items()})
    runner_flags = ["--device=%d" % args.device] if args.device else []

    # Both sides of a kind back to back, the one that goes first swapped
    # every round: drifts of the machine hit both sides alike.
    results = {}
    steps = rounds * len(kinds) * 2
    step = 0
    started = time.time()
    for round_ in range(rounds):
        for kind, entry, _ in kinds:
            sides = ("ours", "native")
            for side in sides if round_ % 2 == 0 else sides[::-1]:
                step += 1
                if side == "ours":
                    command = [runner] + runner_flags + ["-e", entry, PROGRAM]
                else:
                    command = [baseline, kind]
                print("[%2d/%d] round %d of %d, %-12s %-7s ..." %
                      (step, steps, round_ + 1, rounds, kind, side),
                      end="", file=sys.stderr, flush=True)
                begin = time.time()
                samples = parse(run(command, env), kind, side, params)
                print(" %.1f s" % (time.time() - begin), file=sys.stderr,
                      flush=True)
                for key, values in samples.items():
                    results.setdefault((side, kind) + key, []).extend(values)

    rows = []
    for kind, _, _ in kinds:
        keys = sorted(k[3] for k in results
                      if k[0] == "ours" and k[1] == kind and k[2] == "sample")
        small = sorted(k[3] for k in results
                       if k[0] == "ours" and k[1] == kind and k[2] == "small")
        for tag, measure, sizes in (("sample", "throughput", keys),
                                    ("small", "small", small)):
            for bytes_ in sizes:
                ours = summarize({(tag, bytes_): results[("ours", kind, tag,
                                                          bytes_)]},
                                 tag, bytes_)
                native = summarize({(tag, bytes_): results[("native", kind,
                                                            tag, bytes_)]},
                                   tag, bytes_)
                rows.append({
                    "measure": measure,
                    "kind": kind,
                    "bytes": bytes_,
                    "copies": ours["copies"],
                    "samples": ours["samples"],
                    "ours_gbps": ours["gbps"],
                    "native_gbps": native["gbps"],
                    "ratio": ours["gbps"] / native["gbps"],
                    "ours_us_per_copy": ours["us_per_copy"],
                    "native_us_per_copy": native["us_per_copy"],
                    "ours_host_us_per_copy": ours["host_us_per_copy"],
                    "native_host_us_per_copy": native["host_us_per_copy"],
                })

    # The table.
    print("memcpy throughput, backend %s (%s), %s" %
          (args.backend, device, "quick run" if args.quick else
           "%d rounds" % rounds))
    print(CONVENTION + "; each figure the median of %d samples a side" %
          (rounds * params["MEMCPY_BENCH_SAMPLES"]))
    if STANDIN_MARK in device:
        print(STANDIN_NOTE)
    print()
    print("%-13s %9s %7s %12s %12s %12s" %
          ("kind", "size", "copies", "ours GB/s", "native GB/s",
           "ours/native"))
    for row in rows:
        if row["measure"] == "throughput":
            print("%-13s %9s %7d %12.3f %12.3f %12.3f" %
                  (row["kind"], size_text(row["bytes"]), row["copies"],
                   row["ours_gbps"], row["native_gbps"], row["ratio"]))
    small_rows = [r for r in rows if r["measure"] == "small"]
    if small_rows:
        print()
        print("small copies: microseconds per copy, where the copies ran "
              "(device) and to issue them (host)")
        print("%-13s %7s %11s %11s %11s %11s %11s" %
              ("kind", "size", "ours dev", "native dev", "ours host",
               "native host", "added host"))
        for row in small_rows:
            print("%-13s %7s %11.3f %11.3f %11.3f %11.3f %11.3f" %
                  (row["kind"], size_text(row["bytes"]),
                   row["ours_us_per_copy"], row["native_us_per_copy"],
                   row["ours_host_us_per_copy"],
                   row["native_host_us_per_copy"],
                   row["ours_host_us_per_copy"] -
                   row["native_host_us_per_copy"]))

    targets = target_lines(rows, args.backend)
    if targets:
        print()
        print("targets (figures, not tests)")
        for what, measured, met in targets:
            print("  %-50s %-48s %s" % (what, measured,
                                         "met" if met else "not met"))

    stem = os.path.join(out_dir, "memcpy-" + args.backend)
    fields = list(rows[0].keys()) if rows else []
    with open(stem + ".csv", "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    with open(stem + ".json", "w") as out:
        json.dump({
            "backend": args.backend,
            "device": device,
            "machine": "%s, %s %s, %d CPUs" %
                       (platform.machine(), platform.system(),
                        platform.release(), os.cpu_count() or 0),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
                timespec="seconds"),
            "quick": args.quick,
            "rounds": rounds,
            "parameters": params,
            "convention": CONVENTION,
            "note": STANDIN_NOTE if STANDIN_MARK in device else "",
            "rows": rows,
            "targets": [{"target": what, "measured": measured, "met": met}
                        for what, measured, met in targets],
            "samples": [{
                "side": side, "kind": kind, "measure": tag, "bytes": b,
                "batches": [{"copies": c, "device_ns": d, "host_ns": h}
                            for c, d, h in values]}
                for (side, kind, tag, b), values in sorted(results.items())],
        }, out, indent=1)
    written = [stem + ".csv", stem + ".json"]
    if rows and plot(rows, args.backend, device, stem + ".png"):
        written.append(stem + ".png")
    print()
    print("wrote " + ", ".join(written))
    print("bench-memcpy: done in %.0f s" % (time.time() - started),
          file=sys.stderr)


if __name__ == "__main__":
    main()
