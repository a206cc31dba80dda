#!/usr/bin/python3
"""Runs the kernel benchmarks on gpu-runner-host and their C++ baselines side
by side, alternating, and prints the median times and their ratio.

Each program prints the seconds of each timed launch after warm-up, then a
check value; JIT and compilation time are not in the figures. A round runs
each side once; the figure of a side is the median over all its timed
launches of all rounds.
"""

import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

BENCHMARKS = [
    # name, mlir program, baseline argument, expected check, target ratio
    ("elementwise: y = a*x + y, 2^24 floats", "elementwise.mlir", "saxpy",
     6.0, 1.5),
    ("block reduction with barriers, 2^22 ints, 256 threads a block",
     "reduction.mlir", "reduction", 12582912.0, 50.0),
]


def run(command):
    """The timed launches and the check value a program printed."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("error: %s failed:\n%s" % (" ".join(command), result.stderr))
    values = [float(line) for line in result.stdout.split()]
    return values[:-1], values[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    runner = os.path.join(args.build_dir, "bin", "gpu-runner-host")
    baseline = os.path.join(args.build_dir, "bin", "gpu-runner-kernel-baseline")

    print("%-62s %12s %12s %8s %8s" %
          ("benchmark (median seconds a launch)", "gpu-runner", "C++ -O3",
           "ratio", "target"))
    for name, program, argument, expected, target in BENCHMARKS:
        ours, native = [], []
        for round in range(args.rounds):
            print("  %s: round %d of %d" % (program, round + 1, args.rounds),
                  file=sys.stderr)
            times, check = run([runner, os.path.join(HERE, program)])
            if check != expected:
                sys.exit("error: %s computed %s, not %s" %
                         (program, check, expected))
            ours += times
            times, check = run([baseline, argument])
            if check != expected:
                sys.exit("error: the %s baseline computed %s, not %s" %
                         (argument, check, expected))
            native += times
        ours_median = statistics.median(ours)
        native_median = statistics.median(native)
        ratio = ours_median / native_median
        print("%-62s %12.6f %12.6f %8.2f %8s" %
              (name, ours_median, native_median, ratio, "<= %g" % target))


if __name__ == "__main__":
    main()
