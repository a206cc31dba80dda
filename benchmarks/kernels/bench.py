#!/usr/bin/python3
"""Runs the kernel benchmarks on gpu-runner-host and their C++ baselines side
by side, alternating, and prints the median times and their ratio as a
markdown table (the shape of the figures table in README.md).

Each program prints the seconds of each timed launch after warm-up, then a
check value; JIT and compilation time are not in the figures. A round runs
each side once; the figure of a side is the median over all its timed
launches of all rounds. Every program with barriers or shuffles also runs
with --no-subgroup-vectors (loops over the threads, not over subgroups) and
with --no-barrier-splitting (every thread on a fiber, with fewer launches),
each as a row of its own.

With --check LIST, each program runs instead under --check=LIST against
itself without the flag, alternating in each round, and the table gives the
checks' cost: the ratio of the medians, checked to unchecked.
"""

import argparse
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

FIBERS = "--no-barrier-splitting"
LOOPS = "--no-subgroup-vectors"


class Row:
    """One line of the table: a program run in one mode against its baseline."""

    def __init__(self, name, label, program, baseline, warmup, runs, check,
                 target, flags=(), rtol=0.0):
        self.name = name            # for --only
        self.label = label          # the table's first column
        self.program = program      # the .mlir file in this folder
        self.baseline = baseline    # gpu-runner-kernel-baseline's argument
        self.warmup = warmup        # untimed launches a side, each round
        self.runs = runs            # timed launches a side, each round
        self.check = check          # expected check value, from the counts
        self.target = target        # ratio, or None: for comparison only
        self.flags = list(flags)    # gpu-runner-host's extra flags
        self.rtol = rtol            # relative tolerance of the check


def constant(value):
    return lambda warmup, runs: value


# The sums' checksums are exact (see each program's header); the element-wise
# kernel adds 0.5 to every element at each launch; the softmax checksum,
# computed in double precision, is 4026.74153918783.
ELEMENTWISE = lambda warmup, runs: 0.5 * (warmup + runs)
REDUCTION = constant(12582912)
ALLREDUCE = constant(-65535)
SHUFFLE = constant(-524301)
SOFTMAX = constant(4026.74153918783)

# Fiber runs take about a second a launch: 1 warm-up and 2 timed launches a
# round keep a full run within minutes.
ROWS = [
    Row("elementwise", "element-wise, 2^24 floats", "elementwise.mlir",
        "saxpy", 2, 10, ELEMENTWISE, 1.1),
    Row("elementwise-fibers",
        "element-wise, 2^24 floats, " + FIBERS + " (no barriers: the same)",
        "elementwise.mlir", "saxpy", 2, 10, ELEMENTWISE, None, [FIBERS]),
    Row("reduction", "block reduction with barriers, 2^22 ints",
        "reduction.mlir", "reduction", 1, 5, REDUCTION, 2.0),
    Row("reduction-loops",
        "block reduction with barriers, 2^22 ints, " + LOOPS,
        "reduction.mlir", "reduction", 1, 5, REDUCTION, None, [LOOPS]),
    Row("reduction-fibers",
        "block reduction with barriers, 2^22 ints, " + FIBERS,
        "reduction.mlir", "reduction", 1, 2, REDUCTION, None, [FIBERS]),
    Row("allreduce", "gpu.all_reduce add, 2^22 ints", "allreduce.mlir",
        "allreduce", 1, 3, ALLREDUCE, 2.0),
    Row("allreduce-loops", "gpu.all_reduce add, 2^22 ints, " + LOOPS,
        "allreduce.mlir", "allreduce", 1, 3, ALLREDUCE, None, [LOOPS]),
    Row("allreduce-fibers", "gpu.all_reduce add, 2^22 ints, " + FIBERS,
        "allreduce.mlir", "allreduce", 1, 2, ALLREDUCE, None, [FIBERS]),
    Row("shuffle", "gpu.shuffle xor warp sums, 2^22 ints", "shuffle.mlir",
        "shuffle", 1, 3, SHUFFLE, 2.0),
    Row("shuffle-loops", "gpu.shuffle xor warp sums, 2^22 ints, " + LOOPS,
        "shuffle.mlir", "shuffle", 1, 3, SHUFFLE, None, [LOOPS]),
    Row("shuffle-fibers", "gpu.shuffle xor warp sums, 2^22 ints, " + FIBERS,
        "shuffle.mlir", "shuffle", 1, 2, SHUFFLE, None, [FIBERS]),
    Row("softmax", "row softmax, 4096x1024 floats", "softmax.mlir",
        "softmax", 1, 3, SOFTMAX, 1.1, rtol=1e-5),
    Row("softmax-loops", "row softmax, 4096x1024 floats, " + LOOPS,
        "softmax.mlir", "softmax", 1, 3, SOFTMAX, None, [LOOPS], rtol=1e-5),
    Row("softmax-fibers", "row softmax, 4096x1024 floats, " + FIBERS,
        "softmax.mlir", "softmax", 1, 2, SOFTMAX, None, [FIBERS], rtol=1e-5),
]


def run(command):
    """The timed launches and the check value a program printed."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("error: %s failed:\n%s" % (" ".join(command), result.stderr))
    values = [float(line) for line in result.stdout.split()]
    return values[:-1], values[-1]


def verify(what, command, check, expected, rtol):
    if rtol == 0.0:
        good = check == expected
    else:
        good = math.isclose(check, expected, rel_tol=rtol)
    if not good:
        sys.exit("error: %s computed %r, not %r%s\n  command: %s" %
                 (what, check, expected,
                  " (relative tolerance %g)" % rtol if rtol else "",
                  " ".join(command)))


def milliseconds(seconds):
    return "%.2f ms" % (seconds * 1e3) if seconds >= 1e-3 else \
        "%.3f ms" % (seconds * 1e3)


def measure_checks(runner, rows, rounds, quick, checks, started):
    """Each row unchecked and under each --check list, alternating; prints
    the medians and the ratios to the unchecked run."""
    variants = [[]] + [["--check=" + check] for check in checks]
    table = []
    for row in rows:
        warmup, runs = (0, 1) if quick else (row.warmup, row.runs)
        expected = row.check(warmup, runs)
        times = [[] for _ in variants]
        for round in range(rounds):
            print("  [%s] round %d of %d, %.0f s" %
                  (row.name, round + 1, rounds, time.monotonic() - started),
                  file=sys.stderr)
            for index, flags in enumerate(variants):
                command = [runner] + row.flags + flags + [
                    "-e", "bench", "--input=i64=%d" % warmup,
                    "--input=i64=%d" % runs, os.path.join(HERE, row.program)]
                launches, check = run(command)
                verify(row.program + " " + " ".join(row.flags + flags),
                       command, check, expected, row.rtol)
                times[index] += launches
        table.append((row, [statistics.median(t) for t in times]))

    print("the checks' cost on gpu-runner-host: median time a launch over %d "
          "round%s, and its ratio to the unchecked run" %
          (rounds, "" if rounds == 1 else "s"))
    print()
    print("| benchmark | unchecked | " +
          " | ".join("--check=%s | ratio" % check for check in checks) + " |")
    print("|---|---|" + "---|---|" * len(checks))
    for row, medians in table:
        cells = [milliseconds(medians[0])]
        for median in medians[1:]:
            ratio = median / medians[0]
            cells += [milliseconds(median),
                      "%.*f" % (1 if ratio < 100 else 0, ratio)]
        print("| %s | %s |" % (row.label, " | ".join(cells)))
    print("bench-kernels: done in %.0f s" % (time.monotonic() - started),
          file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--only", action="append", metavar="NAME",
        help="run only these rows (repeatable, or comma-separated): a "
        "program (elementwise, reduction, allreduce, shuffle, softmax: every "
        "mode) or a row (e.g. softmax-fibers, softmax-loops)")
    parser.add_argument(
        "--no-fibers", action="store_true",
        help="skip the " + FIBERS + " rows")
    parser.add_argument(
        "--no-loops", action="store_true",
        help="skip the " + LOOPS + " rows")
    parser.add_argument(
        "--quick", action="store_true",
        help="1 round of 1 timed launch a row, no warm-up: checks that "
        "everything runs and agrees; the figures mean little")
    parser.add_argument(
        "--check", action="append", metavar="LIST",
        help="measure what --check=LIST costs (repeatable: a column each) "
        "against the unchecked run, instead of the C++ baselines")
    args = parser.parse_args()
    runner = os.path.join(args.build_dir, "bin", "gpu-runner-host")
    baseline = os.path.join(args.build_dir, "bin", "gpu-runner-kernel-baseline")

    rows = ROWS
    if args.only:
        wanted = {name for names in args.only for name in names.split(",")}
        known = {row.name for row in ROWS} | \
            {row.program[:-len(".mlir")] for row in ROWS}
        unknown = wanted - known
        if unknown:
            sys.exit("error: no row or program %s; known: %s" %
                     (", ".join(sorted(unknown)), ", ".join(sorted(known))))
        rows = [row for row in rows if row.name in wanted or
                row.program[:-len(".mlir")] in wanted]
    if args.no_fibers:
        rows = [row for row in rows if FIBERS not in row.flags]
    if args.no_loops:
        rows = [row for row in rows if LOOPS not in row.flags]
    rounds = 1 if args.quick else args.rounds

    started = time.monotonic()
    if args.check:
        measure_checks(runner, rows, rounds, args.quick, args.check, started)
        return
    results = []
    for row in rows:
        warmup, runs = (0, 1) if args.quick else (row.warmup, row.runs)
        counts = [str(warmup), str(runs)]
        ours_command = [runner] + row.flags + [
            "-e", "bench", "--input=i64=%d" % warmup, "--input=i64=%d" % runs,
            os.path.join(HERE, row.program)]
        native_command = [baseline, row.baseline] + counts
        expected = row.check(warmup, runs)
        ours, native = [], []
        for round in range(rounds):
            print("  [%s] round %d of %d, %.0f s" %
                  (row.name, round + 1, rounds, time.monotonic() - started),
                  file=sys.stderr)
            times, check = run(ours_command)
            verify(row.program + " " + " ".join(row.flags), ours_command,
                   check, expected, row.rtol)
            ours += times
            times, check = run(native_command)
            verify("the %s baseline" % row.baseline, native_command, check,
                   expected, row.rtol)
            native += times
        results.append((row, warmup, runs, statistics.median(ours),
                        statistics.median(native)))

    print("kernel benchmarks, gpu-runner-host against C++ -O3 on %d threads: "
          "median time a launch over %d round%s (launches a round: %s)" %
          (os.cpu_count(), rounds, "" if rounds == 1 else "s",
           ", ".join("%s %d+%d" % (row.name, warmup, runs)
                     for row, warmup, runs, _, _ in results)))
    print()
    print("| benchmark | gpu-runner | C++ -O3 | ratio | target |")
    print("|---|---|---|---|---|")
    for row, warmup, runs, ours, native in results:
        ratio = ours / native
        target = "for comparison" if row.target is None else \
            "<= %g%s" % (row.target, "" if ratio <= row.target else
                         " (not met)")
        print("| %s | %s | %s | %.*f | %s |" %
              (row.label, milliseconds(ours), milliseconds(native),
               2 if ratio < 100 else 0, ratio, target))
    print("bench-kernels: done in %.0f s" % (time.monotonic() - started),
          file=sys.stderr)


if __name__ == "__main__":
    main()
