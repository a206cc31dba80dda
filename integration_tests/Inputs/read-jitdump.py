#!/usr/bin/env python3
"""Prints what a perf jitdump file holds, for FileCheck.

    read-jitdump.py FOLDER

reads the one jitdump file (jit-<pid>.dump) under FOLDER, as gpu-runner
--perf-jitdump writes it under $JITDUMPDIR, and prints, sorted by name so
that the order the JIT linked the functions in does not matter:

    load NAME SIZE          a function's code (one code load record)
    lines NAME FILE:LINE    a line its code comes from (debug info records),
                            each line once
    close                   the record that ends the file

The format is perf's (tools/perf/Documentation/jitdump-specification.txt in
Linux). No file, two files, a file that ends inside a record, or a record
whose size does not hold it is an error (status 1), so that a damaged or
missing file fails the test that reads it.
"""

import fnmatch
import os
import struct
import sys

MAGIC = 0x4A695444  # "JiTD"
HEADER = struct.Struct("<IIIIIIQQ")
RECORD = struct.Struct("<IIQ")
CODE_LOAD = struct.Struct("<IIQQQQ")
DEBUG_INFO = struct.Struct("<QQ")
DEBUG_ENTRY = struct.Struct("<QII")
CODE_LOAD_KIND, DEBUG_INFO_KIND, CLOSE_KIND = 0, 2, 3


def fail(message):
    sys.exit("read-jitdump: " + message)


def read_string(data, offset, end):
    """The NUL-terminated string at `offset`, and the offset after it."""
    nul = data.find(b"\0", offset, end)
    if nul < 0:
        fail("a name at byte %d has no end" % offset)
    return data[offset:nul].decode("utf-8", "replace"), nul + 1


def find_dump(folder):
    # os.walk rather than glob: glob skips the hidden .debug folder.
    dumps = [os.path.join(parent, name)
             for parent, _, names in os.walk(folder)
             for name in fnmatch.filter(names, "jit-*.dump")]
    if len(dumps) != 1:
        fail("%d jitdump files under %s, not one: %s" %
             (len(dumps), folder, " ".join(dumps)))
    return dumps[0]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(find_dump(sys.argv[1]), "rb") as f:
        data = f.read()
    if len(data) < HEADER.size:
        fail("the file is shorter than a header")
    magic, _, header_size, _, _, pid, _, _ = HEADER.unpack_from(data)
    if magic != MAGIC:
        fail("not a jitdump file (magic %#x)" % magic)
    loads = {}  # code address -> (name, size)
    lines = {}  # code address -> [(file, line)]
    closed = False
    offset = header_size
    while offset < len(data):
        if offset + RECORD.size > len(data):
            fail("the file ends inside a record at byte %d" % offset)
        kind, size, _ = RECORD.unpack_from(data, offset)
        end = offset + size
        if size < RECORD.size or end > len(data):
            fail("the record at byte %d has size %d" % (offset, size))
        body = offset + RECORD.size
        if kind == CODE_LOAD_KIND:
            record_pid, _, _, address, code_size, _ = CODE_LOAD.unpack_from(
                data, body)
            if record_pid != pid:
                fail("a load record of pid %d in the file of pid %d" %
                     (record_pid, pid))
            name, after = read_string(data, body + CODE_LOAD.size, end)
            if after + code_size != end:
                fail("the code of %s does not fill its record" % name)
            loads[address] = (name, code_size)
        elif kind == DEBUG_INFO_KIND:
            address, count = DEBUG_INFO.unpack_from(data, body)
            entry = body + DEBUG_INFO.size
            for _ in range(count):
                _, line, _ = DEBUG_ENTRY.unpack_from(data, entry)
                path, entry = read_string(data, entry + DEBUG_ENTRY.size, end)
                lines.setdefault(address, []).append((path, line))
        elif kind == CLOSE_KIND:
            closed = True
        offset = end
    for address in lines:
        if address not in loads:
            fail("line records for code at %#x, which no load record has" %
                 address)
    for address, (name, size) in sorted(loads.items(),
                                        key=lambda item: item[1]):
        print("load %s %d" % (name, size))
        # Line 0 is code of no line (what the compiler added).
        for path, line in sorted(set(lines.get(address, []))):
            if line:
                print("lines %s %s:%d" % (name, path, line))
    if closed:
        print("close")


if __name__ == "__main__":
    main()
