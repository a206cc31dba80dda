#!/usr/bin/env python3
"""Compiles every program under the given folders with --compile-only and
prints one line per program, "ok NAME" or "failed NAME" followed by the
runner's errors; exits 1 if any failed. Programs whose RUN lines pass other
flags are compiled with the entry point and passes (--passes) that their
first RUN line of the runner names (or the kernel their comments --launch,
with its --grid and --block), and part by part where a RUN line passes
--split-input-file; those
that need a library of the test's own, have no entry point, say
"REQUIRES: host" (they use what only the host backend compiles), or say
"UNSUPPORTED:" with the runner's backend (gpu-runner-hip: hip) are listed
as "skipped NAME".

    compile-all.py "RUNNER [FLAGS]" ROOT FOLDER...
"""

import os
import re
import subprocess
import sys

# Programs that need more than the runner and the file: a library of the
# test's own, or no entry point of their own.
NEEDS_MORE = {"shared-libs.mlir", "examples.mlir", "examples-printf.mlir"}
# Programs for the host backend only (the feature `host`, not `host-cxx`).
HOST_ONLY = re.compile(r"REQUIRES:.*(?<![\w-])host(?![\w-])")


def main():
    runner, root, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
    backend = os.path.basename(runner.split()[0]).replace("gpu-runner-", "")
    unsupported = re.compile(r"UNSUPPORTED:.*(?<![\w-])" + re.escape(backend) +
                             r"(?![\w-])")
    failed = False
    for folder in folders:
        directory = os.path.join(root, folder)
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".mlir"):
                continue
            label = folder + "/" + name
            if name in NEEDS_MORE:
                print("skipped " + label)
                continue
            path = os.path.join(directory, name)
            lines = open(path).readlines()
            if any(HOST_ONLY.search(line) or unsupported.search(line)
                   for line in lines):
                print("skipped " + label)
                continue
            # The entry point the first RUN line names, if it names one.
            flags = []
            run_lines = [line for line in lines if "RUN:" in line]
            # The first that runs the runner (not an `rm -rf %t`).
            first = next((line for line in run_lines if "%gpu-runner" in line),
                         "")
            entry = re.search(r"(?:^|\s)(-e \S+)", first)
            if entry:
                flags += entry.group(1).split()
            result_flag = re.search(r"--entry-point-result=[a-z0-9]+", first)
            if result_flag:
                flags.append(result_flag.group(0))
            passes = re.search(r"--passes=('[^']*'|\S+)", first)
            if passes:
                flags.append("--passes=" + passes.group(1).strip("'"))
            if any(re.search(r"(?:^|\s)--split-input-file(?:\s|$)", line)
                   for line in run_lines):
                flags.append("--split-input-file")
            # A file of kernels alone is compiled for the kernel its
            # comments launch.
            text = "".join(lines)
            launch = re.search(r"--launch=\S+", text)
            if launch and not entry:
                flags.append(launch.group(0))
                flags += re.findall(r"--(?:grid|block)=[0-9,]+", text)[:2]
            result = subprocess.run(runner.split() + ["--compile-only"] +
                                    flags + [path],
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
            if result.returncode == 0:
                print("ok " + label)
            else:
                failed = True
                print("failed " + label)
                print(result.stdout)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
