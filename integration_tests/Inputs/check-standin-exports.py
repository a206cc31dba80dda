#!/usr/bin/env python3
"""Checks what a driver stand-in exports against the vendor's header and
the backend's table of entry points:

- it exports no name the header maps to a versioned one (cuMemAlloc is
  cuMemAlloc_v2), so a backend that looked up the unversioned name would
  fail to load, as it would with the vendor's library;
- it exports every entry point the backend's table loads, under the name
  the header maps it to;
- anything else it exports starts with OWN, the prefix of the stand-ins' own
  entry points (standin/StandinKernels.h), which no vendor library has.

    check-standin-exports.py LIBRARY HEADER TABLE PREFIX [OWN]

TABLE is the backend's DynamicSymbols.def, whose DRIVER_REQUIRED_SYMBOL(name),
DRIVER_OPTIONAL_SYMBOL(name) and DRIVER_REQUIRED_SYMBOL_TYPED(name, type)
lines list what it loads.
Prints one line per finding and a summary; exits 1 if any check fails.
"""

import re
import subprocess
import sys


def main():
    library, header, table, prefix = sys.argv[1:5]
    own = sys.argv[5] if len(sys.argv) > 5 else None
    symbols = subprocess.run(["nm", "-D", "--defined-only", library],
                             stdout=subprocess.PIPE, text=True,
                             check=True).stdout.split("\n")
    exported = {line.split()[-1] for line in symbols if line.strip()}
    entries = sorted(name for name in exported if name.startswith(prefix))
    ours = sorted(name for name in exported
                  if own and name.startswith(own))
    others = sorted(exported - set(entries) - set(ours))

    # cuda.h: `#define cuMemAlloc cuMemAlloc_v2`, and the per-thread-stream
    # forms `#define cuMemcpyAsync __CUDA_API_PTSZ(cuMemcpyAsync)`.
    renamed = {}
    define = re.compile(r"^\s*#\s*define\s+(%s\w+)\s+(?:__CUDA_API_PT[DS][SZ]\()?(%s\w+)\)?\s*$"
                        % (prefix, prefix))
    for line in open(header):
        match = define.match(line)
        if match and match.group(1) != match.group(2):
            renamed[match.group(1)] = match.group(2)

    loaded = re.findall(
        r"^\s*DRIVER_(?:REQUIRED|OPTIONAL)_SYMBOL(?:_TYPED)?\((%s\w+)[,)]"
        % prefix,
        open(table).read(), re.MULTILINE)
    failed = False
    for name in entries:
        if name in renamed:
            print("exported under its unversioned name: %s (the header "
                  "maps it to %s)" % (name, renamed[name]))
            failed = True
    for name in loaded:
        if renamed.get(name, name) not in exported:
            print("missing: %s" % renamed.get(name, name))
            failed = True
    for name in others:
        print("exported, but not an entry point: %s" % name)
        failed = True
    print("%d entry points exported; the backend loads %d of them"
          % (len(entries), len(loaded)))
    if own:
        print("the stand-in's own: %s" % " ".join(ours))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
