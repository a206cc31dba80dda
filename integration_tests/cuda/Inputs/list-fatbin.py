#!/usr/bin/env python3
"""Lists what a CUDA fatbin holds, one entry a line: "elf sm_90" for machine
code, "ptx sm_90" for PTX, from the fatbin's entry headers; for machine code
also the chip that the embedded ELF file's header names. The CUDA toolkit's
cuobjdump lists the same, where it is installed.

    list-fatbin.py FILE
"""

import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
KINDS = {1: "ptx", 2: "elf"}
EM_CUDA = 190


def main():
    data = open(sys.argv[1], "rb").read()
    magic, _, header_size, body_size = struct.unpack_from("<IHHQ", data, 0)
    if magic != FATBIN_MAGIC:
        sys.exit("not a fatbin: the magic number is %#x" % magic)
    offset, end = header_size, header_size + body_size
    while offset < end:
        kind, _, entry_header_size, payload_size = struct.unpack_from(
            "<HHIQ", data, offset)
        arch = struct.unpack_from("<I", data, offset + 28)[0]
        line = "%s sm_%d" % (KINDS.get(kind, "kind%d" % kind), arch)
        payload = data[offset + entry_header_size:
                       offset + entry_header_size + payload_size]
        if payload[:4] == b"\x7fELF":
            machine = struct.unpack_from("<H", payload, 18)[0]
            flags = struct.unpack_from("<I", payload, 48)[0]
            if machine == EM_CUDA:
                # The chip is the second byte of e_flags.
                line += " (ELF for sm_%d)" % ((flags >> 8) & 0xFF)
        print(line)
        offset += entry_header_size + payload_size


if __name__ == "__main__":
    main()
