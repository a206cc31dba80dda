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
import math
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

# The call each backend's baseline makes.
NATIVE_CALL = {"host": "libc memcpy", "cuda": "cuMemcpyAsync"}

# The plot's colour of each kind, in the order of KINDS.
KIND_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]

# The GPU targets besides the ratio (README.md): pinned copies within 10% of
# the best the link measured, and at most 1 us of added host time per small
# copy.
LINK_SHARE = 0.9
ADDED_HOST_US = 1.0

# The top of the plot's scale of ours / native.
RATIO_SCALE = 2.0


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


def quote(text):
    """`text` as a gnuplot string in double quotes."""
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"').replace(
        "\n", "\\n")


def size_tics(sizes, most):
    """A gnuplot tic list for an axis of copy sizes: a tic at every size,
    at most `most` of them labelled, the largest always."""
    step = 1
    while len(sizes[::step]) > most:
        step *= 2
    labelled = set(sizes[::-1][::step])
    return "(%s)" % ", ".join(
        "%s %d %d" % (quote(size_text(s) if s in labelled else ""), s,
                      0 if s in labelled else 1)
        for s in sizes)


def log_tics(low, high):
    """A gnuplot tic list for a log axis from `low` to `high`: 1, 2 and 5
    times powers of ten, or evenly spaced tics where that gives fewer than
    three."""
    tics = []
    decade = 10.0 ** math.floor(math.log10(low))
    while decade <= high:
        tics.extend(m * decade for m in (1, 2, 5) if low <= m * decade <= high)
        decade *= 10
    if len(tics) < 3:
        step = nice_step((high - low) / 6)
        tics = [step * n for n in range(math.ceil(low / step),
                                        math.floor(high / step) + 1)]
    return "(%s)" % ", ".join("'%g' %.6g" % (t, t) for t in tics)


def nice_step(least):
    """The smallest of 1, 2 and 5 times a power of ten that is at least
    `least`: a step between tics."""
    decade = 10.0 ** math.floor(math.log10(least))
    return min(m * decade for m in (1, 2, 5, 10) if m * decade >= least)


def plot(rows, backend, device, path, date, quick, rounds):
    """The run in one PNG, drawn with gnuplot: throughput against size, a
    small panel per kind (gpu.memcpy solid, the native call dashed, log
    scales); ours / native against size for every kind with the backend's
    target; and the small copies' microseconds per copy, where they ran and
    on the host to issue them. The title says the backend, the device, the
    date and whether it was a quick run. Returns whether it drew."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("bench-memcpy: no PNG: gnuplot is not installed "
              "(apt-get install gnuplot-nox)", file=sys.stderr)
        return False
    native = NATIVE_CALL.get(backend, "the native call")
    kinds = [(kind, what, KIND_COLORS[index])
             for index, (kind, _, what) in enumerate(KINDS)
             if any(r["kind"] == kind for r in rows)]
    throughput = [r for r in rows if r["measure"] == "throughput"]
    small = [r for r in rows if r["measure"] == "small"]
    sizes = sorted({r["bytes"] for r in throughput})

    script = ["set terminal pngcairo size 1600,1300 font 'sans,10' "
              "noenhanced",
              "set output %s" % quote(path)]
    # The figures as data blocks: $t<i>, the sizes of kind i (bytes, ours
    # GB/s, native GB/s, ratio); $small, one line per kind (position, ours
    # and native device us, ours and native host us, colour).
    for index, (kind, _, _) in enumerate(kinds):
        script.append("$t%d << EOD" % index)
        script.extend("%d %.6g %.6g %.6g" % (r["bytes"], r["ours_gbps"],
                                             r["native_gbps"], r["ratio"])
                      for r in throughput if r["kind"] == kind)
        script.append("EOD")
    script.append("$small << EOD")
    for index, (kind, _, color) in enumerate(kinds):
        for r in small:
            if r["kind"] == kind:
                script.append("%d %.6g %.6g %.6g %.6g %d" % (
                    index, r["ours_us_per_copy"], r["native_us_per_copy"],
                    r["ours_host_us_per_copy"], r["native_host_us_per_copy"],
                    int(color[1:], 16)))
    script.append("EOD")

    # The title, drawn with the first panel.
    how = "%d round%s, each figure the median of %d samples a side" % (
        rounds, "" if rounds == 1 else "s", rows[0]["samples"])
    if quick:
        how = "quick run (--quick), " + how
    script += [
        "set multiplot",
        "set label 90 %s at screen 0.5, 0.978 center font 'sans:Bold,15'" %
        quote("memcpy, backend %s: %s, %s" % (backend, device, date)),
        "set label 91 %s at screen 0.5, 0.957 center font 'sans,11'" %
        quote("gpu.memcpy (gpu-runner-%s) against %s; %s" %
              (backend, native, how)),
        "set label 92 %s at screen 0.5, 0.940 center font 'sans,11'" %
        quote(CONVENTION),
    ]
    warnings = []
    if quick:
        warnings.append("QUICK RUN: small sizes and few copies; it checks "
                        "that the harness works and measures nothing")
    if STANDIN_MARK in device:
        warnings.append(STANDIN_NOTE)
    for index, warning in enumerate(warnings):
        script.append("set label %d %s at screen 0.5, %.3f center "
                      "font 'sans:Bold,13' textcolor rgb '#cc0000'" %
                      (93 + index, quote(warning), 0.917 - 0.022 * index))
    top = 0.897 - 0.022 * len(warnings)

    def margins(left, right, upper, lower):
        script.extend([
            "set lmargin at screen %.4f" % left,
            "set rmargin at screen %.4f" % right,
            "set tmargin at screen %.4f" % upper,
            "set bmargin at screen %.4f" % lower,
        ])

    def reset():
        script.extend(["unset label", "unset arrow", "unset object",
                       "unset logscale", "unset title", "unset xlabel",
                       "unset ylabel", "set key default", "set grid",
                       "set autoscale", "set xtics autofreq",
                       "set xtics norotate", "set ytics autofreq",
                       "unset mxtics",
                       "unset mytics", "set format x '%g'",
                       "set format y '%g'"])

    # Throughput: one panel per kind, a log scale of GB/s shared by all,
    # under a heading with the key of all of them.
    split = 0.47 if throughput else top
    if throughput:
        values = [r[side + "_gbps"] for r in throughput
                  for side in ("ours", "native")]
        low, high = min(values) / 1.25, max(values) * 1.25
        width = (0.985 - 0.05) / len(kinds)
        for index, (kind, what, color) in enumerate(kinds):
            left = 0.05 + index * width
            margins(left + (0 if index == 0 else 0.035), left + width,
                    top - 0.07, split + 0.06)
            script += [
                "set title %s font 'sans,11'" % quote(kind + "\n" + what),
                "set logscale xy",
                "set xrange [%d:%d]" % (sizes[0] / 1.15, sizes[-1] * 1.15),
                "set xtics %s rotate by 30 right" % size_tics(sizes, 5),
                "set yrange [%.6g:%.6g]" % (low, high),
                "set ytics %s" % log_tics(low, high),
                "set grid xtics ytics",
                "unset key",
            ]
            if index == 0:
                script += [
                    "set ylabel 'GB/s (1e9 bytes/s), log scale'",
                    "set label 2 %s at screen 0.05, %.4f left "
                    "font 'sans:Bold,12'" %
                    (quote("Throughput against bytes per copy, one panel "
                           "per kind"), top - 0.008),
                    "set key at screen 0.985, %.4f right center horizontal "
                    "samplen 4 font ',11'" % (top - 0.008),
                ]
            if backend != "host" and kind in ("h2d-pinned", "d2h-pinned"):
                link = max(r["native_gbps"] for r in throughput
                           if r["kind"] == kind)
                script += [
                    "set arrow 1 from graph 0, first %.6g to graph 1, "
                    "first %.6g nohead dt 3 lw 2 lc rgb '#333333' front" %
                    (LINK_SHARE * link, LINK_SHARE * link),
                    "set label 1 'target: %d%% of native best' at graph "
                    "0.02, first %.6g offset 0,-0.7 font ',9'" %
                    (round(LINK_SHARE * 100), LINK_SHARE * link),
                ]
            script.append(
                "plot $t%d using 1:2 with linespoints lw 2 pt 7 ps 0.6 "
                "lc rgb '%s' notitle, \\\n"
                "  $t%d using 1:3 with linespoints lw 2 dt 2 pt 6 ps 0.6 "
                "lc rgb '%s' notitle, \\\n"
                "  keyentry with linespoints lw 2 pt 7 ps 0.6 "
                "lc rgb '#444444' title 'gpu.memcpy (solid)', \\\n"
                "  keyentry with linespoints lw 2 dt 2 pt 6 ps 0.6 "
                "lc rgb '#444444' title %s" % (index, color, index, color,
                                               quote(native + " (dashed)")))
            reset()

    # Ours / native against size, with the target.
    ratio_right = 0.60 if small else 0.94
    if throughput:
        lowest, smallest, largest, what = ratio_target(backend)
        # Up to 2 on the scale, so that the target stays readable; what
        # is above is counted in a note.
        ceiling = min(RATIO_SCALE, max(1.2, math.ceil(
            max(r["ratio"] for r in throughput) * 1.08 * 10) / 10))
        above = [r for r in throughput if r["ratio"] > ceiling]
        margins(0.05, ratio_right, split - 0.08, 0.06)
        script += [
            "set title %s font 'sans:Bold,12' offset 0,3.1" %
            quote("ours / native throughput against bytes per copy: above "
                  "1, gpu.memcpy is faster"),
            "set logscale x",
            "set xrange [%d:%d]" % (sizes[0] / 1.15, sizes[-1] * 1.15),
            "set xtics %s" % size_tics(sizes, 12),
            "set xlabel 'bytes per copy'",
            "set yrange [0:%.6g]" % ceiling,
            "set ytics %g" % (0.1 if ceiling <= 1.6 else 0.2),
            "set clip two",
            "set ylabel %s" % quote("gpu.memcpy GB/s / %s GB/s" % native),
            "set grid xtics ytics",
            "set arrow 2 from graph 0, first 1 to graph 1, first 1 nohead "
            "lw 1 lc rgb '#888888' back",
            "set arrow 1 from graph 0, first %g to graph 1, first %g nohead "
            "lw 2 dt 2 lc rgb '#000000' front" % (lowest, lowest),
            "set key at graph 0.5, graph 1 center bottom horizontal "
            "maxrows 1 samplen 3 font ',11'",
        ]
        reached = [s for s in sizes if s >= smallest and
                   (largest is None or s <= largest)]
        if reached:
            script.append(
                "set object 1 rect from first %.6g, graph 0 to first %.6g, "
                "graph 1 behind fillcolor rgb '#e3f1dc' fillstyle solid "
                "noborder" % (max(sizes[0] / 1.15, reached[0] / 2 ** 0.5),
                              min(sizes[-1] * 1.15, reached[-1] * 2 ** 0.5)))
            where = "shaded"
        else:
            where = "sizes this run did not reach"
        script += [
            "set label 1 %s at graph 0.5, graph 1 center offset 0,2.4 "
            "font ',11'" % quote("dashed line: the target, %s (%s)" %
                                 (what, where)),
            "set label 2 %s at graph 1, first %g left offset 0.8,0 "
            "font 'sans:Bold,10'" % (quote("target\n%g" % lowest),
                                     lowest),
        ]
        if above:
            highest = max(above, key=lambda r: r["ratio"])
            script.append(
                "set label 4 %s at graph 0.99, graph 0.97 right "
                "font ',10' front" %
                quote("off the scale: %d above %g, the highest %.3g (%s, "
                      "%s)" % (len(above), ceiling, highest["ratio"],
                               highest["kind"],
                               size_text(highest["bytes"]))))
        if quick:
            script.append(
                "set label 3 'quick run: measures nothing' at graph 0.5, "
                "graph 0.9 center font 'sans:Bold,26' "
                "textcolor rgb '#f5cccc' back")
        script.append("plot " + ", \\\n  ".join(
            "$t%d using 1:4 with linespoints lw 2 pt 7 ps 0.7 lc rgb '%s' "
            "title %s" % (index, color, quote(kind))
            for index, (kind, _, color) in enumerate(kinds)))
        reset()

    # The small copies: microseconds per copy, ours and native per kind.
    if small:
        size = size_text(small[0]["bytes"])
        panels = [(2, 3, "where they ran ('device'), us per copy"),
                  (4, 5, "on the host, to issue them, us per copy")]
        if backend != "host":
            panels[1] = (4, 5, panels[1][2] + "\ndashes: native + %g us, the "
                         "target" % ADDED_HOST_US)
        left = ratio_right + 0.07 if throughput else 0.05
        upper = split - 0.08
        height = (upper - 0.06 - 0.085) / 2
        script.append("label(us) = sprintf(us < 1 ? '%.3f' : us < 10 ? "
                      "'%.2f' : us < 100 ? '%.1f' : '%.0f', us)")
        values = [r[k] for r in small for k in (
            "ours_us_per_copy", "native_us_per_copy",
            "ours_host_us_per_copy", "native_host_us_per_copy")]
        for ours, theirs, what in panels:
            margins(left, 0.985, upper, upper - height)
            upper -= height + 0.085
            ceiling = max(values) * 1.3 or 1
            if backend != "host" and ours == 4:
                ceiling = max(ceiling, (max(r["native_host_us_per_copy"]
                                            for r in small) +
                                        ADDED_HOST_US) * 1.15)
            script += [
                "set title %s font 'sans,11' offset 0,1.2" %
                quote("%s copies, time %s" % (size, what)),
                "set xrange [-0.55:%g]" % (len(kinds) - 0.45),
                "set xtics (%s) scale 0" % ", ".join(
                    "%s %d" % (quote(kind), index)
                    for index, (kind, _, _) in enumerate(kinds)),
                "set yrange [0:%.6g]" % ceiling,
                "set ytics %g" % nice_step(ceiling / 5),
                "set ylabel 'us per copy'",
                "set grid ytics",
                "set key at graph 0.5, graph 1 center bottom horizontal "
                "maxrows 1 samplen 1.5 font ',9'",
            ]
            plots = [
                "$small using ($1 - 0.22):%d:(0.42):6 with boxes "
                "fillstyle solid 0.9 noborder lc rgb variable notitle" % ours,
                "$small using ($1 + 0.22):%d:(0.42):6 with boxes "
                "fillstyle pattern 4 lc rgb variable notitle" % theirs,
                "$small using ($1 - 0.22):%d:(label($%d)) with labels "
                "offset 0,0.6 font ',8' notitle" % (ours, ours),
                "$small using ($1 + 0.22):%d:(label($%d)) with labels "
                "offset 0,0.6 font ',8' notitle" % (theirs, theirs),
                "keyentry with boxes fillstyle solid 0.9 noborder "
                "lc rgb '#555555' title 'gpu.memcpy'",
                "keyentry with boxes fillstyle pattern 4 "
                "lc rgb '#555555' title %s" % quote(native),
            ]
            if backend != "host" and ours == 4:
                plots.append(
                    "$small using ($1 - 0.45):($5 + %g):(0.9):(0) with "
                    "vectors nohead lw 2 dt 2 lc rgb '#000000' notitle" %
                    ADDED_HOST_US)
            script.append("plot " + ", \\\n  ".join(plots))
            reset()
    script.append("unset multiplot")
    result = subprocess.run([gnuplot], input="\n".join(script) + "\n",
                            text=True, capture_output=True)
    if result.returncode != 0:
        fail("gnuplot failed:\n" + result.stderr)
    return True


def ratio_target(backend):
    """The backend's target for ours / native on large copies: (the lowest
    ratio, the smallest size it applies to, the largest or None, what it
    says)."""
    if backend == "host":
        return (0.95, 256 << 20, 256 << 20,
                "ours / libc >= 0.95 at 256 MiB, every kind")
    return (0.98, 64 << 20, None,
            "ours / native >= 0.98 from 64 MiB, every kind")


def target_lines(rows, backend):
    """The issue's targets against this run's figures: what they measured
    and whether they were met. Figures, not a test: nothing fails here."""
    def throughput(kind=None, at_least=0, at_most=None):
        return [r for r in rows if r["measure"] == "throughput" and
                (kind is None or r["kind"] == kind) and
                r["bytes"] >= at_least and
                (at_most is None or r["bytes"] <= at_most)]

    lines = []
    lowest, smallest, largest, what = ratio_target(backend)
    big = throughput(at_least=smallest, at_most=largest)
    if big:
        worst = min(big, key=lambda r: r["ratio"])
        where = worst["kind"]
        if smallest != largest:
            where += ", " + size_text(worst["bytes"])
        lines.append((what, "lowest %.3f (%s)" % (worst["ratio"], where),
                      worst["ratio"] >= lowest))
    if backend == "host":
        return lines
    for kind in ("h2d-pinned", "d2h-pinned"):
        sizes = throughput(kind)
        if sizes:
            link = max(r["native_gbps"] for r in sizes)
            ours = max(r["ours_gbps"] for r in sizes)
            lines.append(("%s within 10%% of the link's best" % kind,
                          "ours best %.2f GB/s, native best %.2f GB/s" %
                          (ours, link), ours >= LINK_SHARE * link))
    small = [r for r in rows if r["measure"] == "small"]
    if small:
        worst = max(small, key=lambda r: r["ours_host_us_per_copy"] -
                    r["native_host_us_per_copy"])
        added = (worst["ours_host_us_per_copy"] -
                 worst["native_host_us_per_copy"])
        lines.append(("< 1 us of added host time per small copy",
                      "highest %.3f us (%s)" % (added, worst["kind"]),
                      added < ADDED_HOST_US))
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
    now = datetime.datetime.now(datetime.timezone.utc)
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
            "date": now.isoformat(timespec="seconds"),
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
    if rows and plot(rows, args.backend, device, stem + ".png",
                     now.strftime("%Y-%m-%d %H:%M UTC"), args.quick, rounds):
        written.append(stem + ".png")
    print()
    print("wrote " + ", ".join(written))
    print("bench-memcpy: done in %.0f s" % (time.time() - started),
          file=sys.stderr)


if __name__ == "__main__":
    main()
