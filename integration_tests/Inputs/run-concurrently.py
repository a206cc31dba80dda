"""Runs one command N times at once and checks that every run succeeds
with the same output, which it prints once.

    run-concurrently.py N COMMAND [ARGS...]
"""

import subprocess
import sys


def main():
    count = int(sys.argv[1])
    command = sys.argv[2:]
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(count)
    ]
    results = [(run.wait(), run.stdout.read(), run.stderr.read()) for run in runs]
    failed = False
    for status, out, err in results:
        if status != 0:
            sys.stderr.write(
                "run-concurrently: exit status %d\n%s" % (status, err.decode())
            )
            failed = True
    outputs = {out for _, out, _ in results}
    if len(outputs) != 1:
        sys.stderr.write("run-concurrently: the runs printed different output\n")
        failed = True
    sys.stdout.write(results[0][1].decode())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
