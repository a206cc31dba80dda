"""Writes a NumPy .npy file by hand, without NumPy, for tests of the reader.

make-npy.py PATH DESCR SHAPE VALUES [--version N] [--fortran] [--drop N]
  [--extra N] [--header TEXT]
SHAPE is comma-separated sizes ("" for a 0-d array), VALUES comma-separated
numbers packed with DESCR's struct format; --drop removes N bytes from the
end, --extra appends N zero bytes, --header replaces the header's dict.
"""
import argparse
import struct

FORMATS = {"b1": "?", "i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i",
           "u4": "I", "i8": "q", "u8": "Q", "f2": "e", "f4": "f", "f8": "d"}

parser = argparse.ArgumentParser()
parser.add_argument("path")
parser.add_argument("descr")
parser.add_argument("shape")
parser.add_argument("values")
parser.add_argument("--version", type=int, default=1)
parser.add_argument("--fortran", action="store_true")
parser.add_argument("--drop", type=int, default=0)
parser.add_argument("--extra", type=int, default=0)
parser.add_argument("--header")
args = parser.parse_args()

shape = [int(s) for s in args.shape.split(",") if s]
shape_text = "(%s)" % ("%d," % shape[0] if len(shape) == 1 else
                       ", ".join(str(s) for s in shape))
header = args.header or "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
    args.descr, "True" if args.fortran else "False", shape_text)
prefix = 10 if args.version == 1 else 12
total = (prefix + len(header) + 1 + 63) // 64 * 64
header = header + " " * (total - prefix - len(header) - 1) + "\n"
out = b"\x93NUMPY" + bytes([args.version, 0])
out += struct.pack("<H" if args.version == 1 else "<I", len(header))
out += header.encode("latin1")
order = args.descr[0] if args.descr[0] in "<>" else "<"
kind = args.descr[1:]
values = [v for v in args.values.split(",") if v]
if kind in FORMATS:
    code = FORMATS[kind]
    parse = float if kind.startswith("f") else int
    out += struct.pack(order + code * len(values), *[parse(v) for v in values])
out += b"\0" * args.extra
if args.drop:
    out = out[:-args.drop]
with open(args.path, "wb") as f:
    f.write(out)
