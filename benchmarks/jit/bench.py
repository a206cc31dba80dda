#!/usr/bin/python3
"""Runs the start-up benchmark: the wall time of whole processes that run a
small MLIR program, from the start of the first process to the exit of the
last, on three sides:

  upstream  Debian's mlir-opt lowering the program to the LLVM dialect,
            piped into mlir-runner (programs without gpu ops only)
  cold      gpu-runner-host on an empty compile cache folder, a fresh one
            each run: it parses, lowers, compiles and stores the result
  warm      gpu-runner-host on a cache folder that already holds the program

and prints the median of each side and two ratios, cold / upstream and
warm / cold, with the targets (and warm / start's); and the time of
gpu-runner-host --version, what starting the process costs, which no cache
can save.

Before timing, each side runs each program once: all must print the same
(memref addresses aside), the run on an empty folder must report a compile
cache miss and the run on the folder it filled a hit (--timing). Every timed
run must print the same again. A round runs the sides of a program back to
back, the side that goes first rotating from round to round, so that drifts
of the machine hit all sides alike; the figure of a side is the median over
the rounds.
"""

import argparse
import csv
import datetime
import difflib
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

PROGRAMS = [
    # name, file under programs/, has gpu ops, what it is
    ("tiny", "tiny.mlir", False,
     "one loop and one printMemrefF32"),
    ("medium", "medium.mlir", False,
     "4 functions, nested loops, a reduction, linalg fill, generic, matmul "
     "and copy, a subview, 4 printMemrefF32"),
    ("vector-add", "vector-add.mlir", True,
     "examples/vector-add.mlir: gpu.alloc, gpu.memcpy and a gpu.launch "
     "kernel"),
]

# Upstream's lowering of the programs without gpu ops to the LLVM dialect,
# as mlir-opt 22 spells it.
UPSTREAM_PASSES = [
    "--convert-linalg-to-loops",
    "--lower-affine",
    "--convert-scf-to-cf",
    "--expand-strided-metadata",
    "--finalize-memref-to-llvm",
    "--convert-arith-to-llvm",
    "--convert-cf-to-llvm",
    "--convert-func-to-llvm",
    "--reconcile-unrealized-casts",
]
RUNNER_UTILS = ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]

SIDES = ("upstream", "cold", "warm")
COLD_TARGET = 1.0   # cold / upstream, programs without gpu ops
WARM_TARGET = 0.3   # warm / cold, every program
# The second round's: a cold run well under upstream's, and a warm run close
# to what starting the process costs.
FAST_COLD_TARGET = 0.7  # cold / upstream, programs without gpu ops
WARM_START_TARGET = 1.3  # warm / start (--version), every program

# printMemref prints where the memref is; that differs from run to run.
ADDRESS = re.compile(r"base@ = 0x[0-9a-fA-F]+")
# What --timing says of the compile cache, the first word after the colon.
CACHE_LINE = re.compile(r"\s*[\w -]*cache[\w -]*:\s*(hit|miss)\b",
                        re.IGNORECASE)


def fail(message):
    sys.exit("bench-jit: error: " + message)


class Run:
    """One timed run: the seconds, the last process's stdout, and each
    process's exit status and stderr."""

    def __init__(self, seconds, stdout, statuses, stderrs):
        self.seconds = seconds
        self.stdout = stdout
        self.statuses = statuses
        self.stderrs = stderrs


def run(commands, env):
    """Runs `commands` as a shell runs a pipeline: all started at once, each
    one's stdout into the next one's stdin. The time is from starting the
    first to the exit of the last of them; no shell is started."""
    errors = [tempfile.TemporaryFile() for _ in commands]
    begin = time.perf_counter()
    processes = []
    stdin = subprocess.DEVNULL
    for command, error in zip(commands, errors):
        process = subprocess.Popen(command, stdin=stdin,
                                   stdout=subprocess.PIPE, stderr=error,
                                   env=env)
        if processes:
            # The next process holds it now; the previous one must see the
            # pipe close if its reader exits.
            processes[-1].stdout.close()
        stdin = process.stdout
        processes.append(process)
    stdout, _ = processes[-1].communicate()
    for process in processes[:-1]:
        process.wait()
    seconds = time.perf_counter() - begin
    stderrs = []
    for error in errors:
        error.seek(0)
        stderrs.append(error.read().decode(errors="replace"))
        error.close()
    return Run(seconds, stdout.decode(errors="replace"),
               [p.returncode for p in processes], stderrs)


def checked(commands, env, what):
    """`run`, which must succeed."""
    result = run(commands, env)
    for command, status, stderr in zip(commands, result.statuses,
                                       result.stderrs):
        if status != 0:
            fail("%s: %s exited with status %d:\n%s" %
                 (what, " ".join(command), status, stderr))
    return result


def same_output(expected, result, what):
    """Fails unless `result` printed `expected` (memref addresses aside)."""
    output = ADDRESS.sub("base@ = <address>", result.stdout)
    if output != expected:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(True), output.splitlines(True),
            "cold run", what))
        fail("%s printed something else than the first cold run:\n%s" %
             (what, diff))


def cache_status(stderr):
    """'hit' or 'miss' from the line --timing writes about the compile cache
    ("compile cache: hit, <entry>"), or None when it wrote neither or
    both."""
    found = set()
    for line in stderr.splitlines():
        match = CACHE_LINE.match(line)
        if match:
            found.add(match.group(1).lower())
    return found.pop() if len(found) == 1 else None


def expect_cache(result, expected, name, which_run):
    """Stops the harness unless the run's --timing report says the compile
    cache did what `expected` ('hit' or 'miss') says."""
    status = cache_status(result.stderrs[0])
    if status != expected:
        fail("%s: %s did not report a compile cache %s with --timing "
             "(found: %s); its stderr:\n%s" %
             (name, which_run, expected, status, result.stderrs[0]))


def median_ms(values):
    return statistics.median(values) * 1e3 if values else None


def ratio(a, b):
    return a / b if a is not None and b else None


def number(value, width, digits):
    return ("%*.*f" % (width, digits, value) if value is not None
            else "%*s" % (width, "-"))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                        help="the build folder (default: the repository's "
                        "build/)")
    parser.add_argument("--runner",
                        help="gpu-runner-host to measure (default: "
                        "BUILD_DIR/bin/gpu-runner-host)")
    parser.add_argument("--opt-level", type=int, choices=range(4), default=2,
                        help="the LLVM optimization level of both sides, "
                        "-O<N> to gpu-runner-host and mlir-runner (default "
                        "%(default)s, gpu-runner's default)")
    parser.add_argument("--runner-flags", default="",
                        help="more flags for every gpu-runner-host run, "
                        "space-separated")
    parser.add_argument("--llvm-bin-dir", default="/usr/lib/llvm-22/bin",
                        help="where mlir-opt and mlir-runner are (default "
                        "%(default)s)")
    parser.add_argument("--llvm-lib-dir", default="/usr/lib/llvm-22/lib",
                        help="where MLIR's runner utility libraries are "
                        "(default %(default)s)")
    parser.add_argument("--rounds", type=int, default=20,
                        help="timed runs of each side of each program "
                        "(default %(default)s)")
    parser.add_argument("--programs",
                        default=",".join(p[0] for p in PROGRAMS),
                        help="comma-separated programs to run (default: "
                        "all: %(default)s)")
    parser.add_argument("--out-dir",
                        help="where jit.csv and jit.json go (default: "
                        "BUILD_DIR/benchmarks/jit)")
    parser.add_argument("--no-files", action="store_true",
                        help="print the table only")
    parser.add_argument("--work-dir",
                        help="where the cache folders are made, in a "
                        "temporary folder removed at the end (default: "
                        "$TMPDIR or /tmp)")
    args = parser.parse_args()

    if args.rounds < 1:
        fail("--rounds must be at least 1")
    runner = os.path.abspath(args.runner or os.path.join(
        args.build_dir, "bin", "gpu-runner-host"))
    mlir_opt = os.path.join(args.llvm_bin_dir, "mlir-opt")
    mlir_runner = os.path.join(args.llvm_bin_dir, "mlir-runner")
    libraries = [os.path.join(args.llvm_lib_dir, name)
                 for name in RUNNER_UTILS]
    names = args.programs.split(",")
    programs = [p for p in PROGRAMS if p[0] in names]
    unknown = [n for n in names if n not in [p[0] for p in PROGRAMS]]
    if unknown or not programs:
        fail("--programs: %s is none of %s" %
             (",".join(unknown) or "''", ", ".join(p[0] for p in PROGRAMS)))
    upstream_needed = any(not gpu for _, _, gpu, _ in programs)
    for path in [runner] + ([mlir_opt, mlir_runner] if upstream_needed
                            else []):
        if not os.access(path, os.X_OK):
            fail("%s is not there or not executable" % path)
    for path in libraries if upstream_needed else []:
        if not os.path.exists(path):
            fail("%s is not there" % path)
    usage = subprocess.run([runner, "--help"], capture_output=True,
                           text=True)
    for flag in ("--cache-dir", "--timing"):
        if flag not in usage.stdout + usage.stderr:
            fail("%s has no %s flag: it was built before the compile cache" %
                 (runner, flag))

    # The cache folder is always given; nothing may point elsewhere.
    env = dict(os.environ)
    env.pop("GPU_RUNNER_CACHE_DIR", None)
    work = tempfile.mkdtemp(prefix="bench-jit-", dir=args.work_dir)
    try:
        return measure(args, runner, mlir_opt, mlir_runner, libraries,
                       programs, env, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(args, runner, mlir_opt, mlir_runner, libraries, programs, env,
            work):
    started = time.time()
    load_before = os.getloadavg()[0]
    folders = [0]

    def fresh_folder():
        folders[0] += 1
        path = os.path.join(work, "cache-%d" % folders[0])
        os.mkdir(path, 0o700)  # A cache folder must be ours alone.
        return path

    level = "-O%d" % args.opt_level
    flags = [level] + shlex.split(args.runner_flags)

    def ours(program, cache, timing=False):
        return [[runner, "--cache-dir=" + cache] + flags +
                (["--timing"] if timing else []) + [program]]

    def upstream(program):
        return [[mlir_opt] + UPSTREAM_PASSES + [program],
                [mlir_runner, level, "-e", "main",
                 "--entry-point-result=void",
                 "--shared-libs=" + ",".join(libraries)]]

    # Each program once on each side, untimed: the outputs agree, the cache
    # misses and then hits, and the binaries and libraries are read into the
    # page cache before any run is timed.
    expected, warm_folder = {}, {}
    for name, file, gpu, _ in programs:
        program = os.path.join(HERE, "programs", file)
        folder = fresh_folder()
        result = checked(ours(program, folder, timing=True), env,
                         "%s, cold" % name)
        expect_cache(result, "miss", name, "a run on an empty cache folder")
        expected[name] = ADDRESS.sub("base@ = <address>", result.stdout)
        if not expected[name].strip():
            fail("%s printed nothing" % name)
        result = checked(ours(program, folder, timing=True), env,
                         "%s, warm" % name)
        expect_cache(result, "hit", name,
                     "a run on the cache folder the first run filled")
        same_output(expected[name], result, "%s, warm" % name)
        warm_folder[name] = folder
        if not gpu:
            same_output(expected[name],
                        checked(upstream(program), env, "%s, upstream" % name),
                        "%s, upstream" % name)

    # What starting and ending the process costs, which no cache saves: the
    # floor of a warm run.
    start_command = [[runner, "--version"]]
    checked(start_command, env, "%s --version" % runner)
    samples, start = {}, []
    for round_ in range(args.rounds):
        start.append(checked(start_command, env, "%s --version" %
                             runner).seconds)
        for name, file, gpu, _ in programs:
            program = os.path.join(HERE, "programs", file)
            sides = SIDES[1:] if gpu else SIDES
            first = round_ % len(sides)
            times = {}
            for side in sides[first:] + sides[:first]:
                what = "%s, %s, round %d" % (name, side, round_ + 1)
                if side == "upstream":
                    result = checked(upstream(program), env, what)
                elif side == "cold":
                    folder = fresh_folder()
                    result = checked(ours(program, folder), env, what)
                    shutil.rmtree(folder)
                else:
                    result = checked(ours(program, warm_folder[name]), env,
                                     what)
                same_output(expected[name], result, what)
                samples.setdefault((name, side), []).append(result.seconds)
                times[side] = result.seconds
            print("[round %d of %d] %-10s %s" %
                  (round_ + 1, args.rounds, name,
                   ", ".join("%s %.1f ms" % (side, times[side] * 1e3)
                             for side in sides)),
                  file=sys.stderr, flush=True)
    load_after = os.getloadavg()[0]

    start_ms = median_ms(start)
    rows = []
    for name, _, gpu, description in programs:
        upstream_ms = median_ms(samples.get((name, "upstream")))
        cold_ms = median_ms(samples[(name, "cold")])
        warm_ms = median_ms(samples[(name, "warm")])
        rows.append({
            "program": name,
            "gpu_ops": gpu,
            "runs": args.rounds,
            "upstream_ms": upstream_ms,
            "cold_ms": cold_ms,
            "warm_ms": warm_ms,
            "cold_over_upstream": ratio(cold_ms, upstream_ms),
            "warm_over_cold": ratio(warm_ms, cold_ms),
            "warm_over_start": ratio(warm_ms, start_ms),
        })
    # (ratio, its name, the target): each for every row that has the ratio.
    checks = [("cold_over_upstream", "cold / upstream", COLD_TARGET),
              ("warm_over_cold", "warm / cold", WARM_TARGET),
              ("cold_over_upstream", "cold / upstream", FAST_COLD_TARGET),
              ("warm_over_start", "warm / start", WARM_START_TARGET)]
    targets = [("%s <= %.1f, %s" % (name, target, row["program"]),
                row[key], row[key] <= target)
               for key, name, target in checks
               for row in rows if row[key] is not None]

    cpus = os.cpu_count() or 0
    print("jit start-up: gpu-runner-host%s against mlir-opt | mlir-runner "
          "%s, %d rounds" % ("".join(" " + f for f in flags), level,
                             args.rounds))
    print("whole-process wall time in ms, the median of %d runs a side; "
          "load average %.2f before, %.2f after, %d CPUs" %
          (args.rounds, load_before, load_after, cpus))
    print("upstream: mlir-opt piped into mlir-runner; cold: gpu-runner-host, "
          "an empty cache folder each run; warm: the folder filled")
    print()
    print("%-11s %7s %9s %9s %9s %14s %10s" %
          ("program", "gpu ops", "upstream", "cold", "warm", "cold/upstream",
           "warm/cold"))
    for row in rows:
        print("%-11s %7s %s %s %s %s %s" %
              (row["program"], "yes" if row["gpu_ops"] else "no",
               number(row["upstream_ms"], 9, 1), number(row["cold_ms"], 9, 1),
               number(row["warm_ms"], 9, 1),
               number(row["cold_over_upstream"], 14, 3),
               number(row["warm_over_cold"], 10, 3)))
    print("start: %.1f ms for gpu-runner-host --version, starting and ending "
          "the process, which no cache saves" % start_ms)
    print()
    print("targets (figures, not tests)")
    for what, measured, met in targets:
        print("  %-34s %7.3f  %s" % (what, measured,
                                     "met" if met else "not met"))

    if not args.no_files:
        out_dir = args.out_dir or os.path.join(args.build_dir, "benchmarks",
                                               "jit")
        os.makedirs(out_dir, exist_ok=True)
        stem = os.path.join(out_dir, "jit")
        with open(stem + ".csv", "w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()))
            writer.writeheader()
            writer.writerows(rows)
        with open(stem + ".json", "w") as out:
            json.dump({
                "runner": runner,
                "runner_flags": flags,
                "opt_level": args.opt_level,
                "upstream": {"mlir-opt": mlir_opt,
                             "passes": UPSTREAM_PASSES,
                             "mlir-runner": mlir_runner,
                             "shared-libs": libraries},
                "machine": "%s, %s %s, %d CPUs" %
                           (platform.machine(), platform.system(),
                            platform.release(), cpus),
                "load_average": {"before": load_before, "after": load_after},
                "date": datetime.datetime.now(
                    datetime.timezone.utc).isoformat(timespec="seconds"),
                "rounds": args.rounds,
                "programs": {name: {"file": "programs/" + file,
                                    "gpu_ops": gpu, "what": description}
                             for name, file, gpu, description in programs},
                "rows": rows,
                "start_ms": start_ms,
                "start_runs_ms": [s * 1e3 for s in start],
                "targets": [{"target": what, "measured": measured,
                             "met": met}
                            for what, measured, met in targets],
                "samples_ms": [{"program": name, "side": side,
                                "runs": [s * 1e3 for s in values]}
                               for (name, side), values in samples.items()],
            }, out, indent=1)
        print()
        print("wrote %s.csv, %s.json" % (stem, stem))
    print("bench-jit: done in %.0f s" % (time.time() - started),
          file=sys.stderr)


if __name__ == "__main__":
    main()
