#!/usr/bin/env python3
"""Runs the shell commands that README.md's set-up section and docs/testing.md
show in ```sh blocks, from the source folder, and fails if one exits non-zero,
so that the commands a newcomer copies stay true.

A command that would take minutes or change the machine is not run as
written: SKIPPED names each with the reason, and NARROWED gives the
environment that runs a lit command on one quick test only (lit reads
LIT_FILTER), so that its tool, folder and flags are still checked. A
command that is in neither list and not found in the docs any more fails
the check too, so that the lists follow the docs.

    run-doc-commands.py SOURCE_DIR TOOL

TOOL is a binary of the build under test (BUILD_DIR/bin/NAME), which tells
where the build is.
"""

import os
import re
import subprocess
import sys

# (file, section heading or None for the whole file).
SOURCES = [
    ("README.md", "## Two commands"),
    ("docs/testing.md", None),
]

SKIPPED = {
    "scripts/run examples/memcpy-round-trip.mlir":
        "runs scripts/setup, which may install packages and builds",
    "scripts/test":
        "runs scripts/setup and then every test (minutes)",
}

# One quick test of run/ that writes no files of its own, so that running it
# beside the suite that runs this check races with nothing.
QUICK_TEST = r"run/alloc-size-zero\.mlir$"

# The nested runs keep a compile cache folder of their own (lit.cfg.py).
NESTED = {"LIT_FILTER": QUICK_TEST,
          "GPU_RUNNER_LIT_CACHE_NAME": "compile-cache-docs"}

NARROWED = {
    "lit-22 -sv build/integration_tests": NESTED,
    "lit-22 -sv build/integration_tests/run": NESTED,
}

# ctest inside the ctest that may run this check would share its logs under
# build/Testing: listed (-N), not run.
LISTED = {
    "(cd build && ctest -R '^lit$')":
        ("(cd build && ctest -N -R '^lit$')", "Total Tests: 1"),
}


def section_lines(text, heading):
    lines = text.splitlines()
    if heading is None:
        return lines
    start = lines.index(heading) + 1
    level = heading.split(" ")[0]
    for end in range(start, len(lines)):
        if lines[end].startswith("#") and \
                lines[end].split(" ")[0] in ("#", level):
            return lines[start:end]
    return lines[start:]


def sh_commands(lines):
    commands, inside, pending = [], False, ""
    for line in lines:
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if not inside:
            continue
        # A comment after two spaces or more ends the command.
        line = re.split(r"\s{2,}#", line)[0].rstrip()
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        command = (pending + line.strip()).strip()
        pending = ""
        if command and not command.startswith("#"):
            commands.append(command)
    return commands


def main():
    source = sys.argv[1]
    build = os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[2])))
    if os.path.realpath(os.path.join(source, "build")) != \
            os.path.realpath(build):
        print("FAILED: the docs' commands name build/, and this build is "
              "in " + build)
        return 1
    failed = 0
    seen = set()
    for name, heading in SOURCES:
        with open(os.path.join(source, name)) as f:
            commands = sh_commands(section_lines(f.read(), heading))
        if not commands:
            print("%s: no sh commands found" % name)
            failed += 1
        for command in commands:
            seen.add(command)
            if command in SKIPPED:
                print("%s: skipped: %s: %s" % (name, command,
                                               SKIPPED[command]))
                continue
            env = dict(os.environ)
            run, expected = command, ""
            if command in NARROWED:
                env.update(NARROWED[command])
            elif command in LISTED:
                run, expected = LISTED[command]
            done = subprocess.run(["bash", "-c", run], cwd=source, env=env,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
            if done.returncode != 0 or expected not in done.stdout:
                print("%s: FAILED (exit %d%s): %s\n%s" %
                      (name, done.returncode,
                       ", without '%s'" % expected
                       if expected not in done.stdout else "",
                       run, done.stdout))
                failed += 1
            else:
                print("%s: ok: %s" % (name, command))
    for command in sorted(set(SKIPPED) | set(NARROWED) | set(LISTED)):
        if command not in seen:
            print("FAILED: '%s' is in this check's lists but in no doc it "
                  "reads: update the lists" % command)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
