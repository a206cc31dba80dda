#!/usr/bin/env python3
"""Compiles the gpu.module of an MLIR file with MLIR's NVVM pipeline and
writes the NVVM bitcode the target serialized (cubin-format=offloading keeps
it in the gpu.object: the module after libdevice was linked and the NVVM
optimizer ran, what became PTX otherwise).

    nvvm-bitcode.py MLIR_OPT INPUT.mlir OUTPUT.bc

Run with CUDA_ROOT set to the CUDA toolkit, whose libdevice the NVVM target
links.
"""

import re
import subprocess
import sys


def unescape(text):
    """The bytes of an MLIR string literal's contents."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            pair = text[i + 1:i + 3]
            if re.fullmatch(r"[0-9A-Fa-f]{2}", pair):
                out.append(int(pair, 16))
                i += 3
                continue
            out += text[i + 1].encode("latin-1")
            i += 2
            continue
        out += c.encode("utf-8")
        i += 1
    return bytes(out)


def main():
    mlir_opt, source, output = sys.argv[1:4]
    result = subprocess.run(
        [mlir_opt, source, "--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90 "
         "cubin-features=+ptx80 cubin-format=offloading"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        return 1
    match = re.search(r'offload = "((?:[^"\\]|\\.)*)"', result.stdout)
    if not match:
        sys.stderr.write("nvvm-bitcode.py: no offload object in the output\n")
        return 1
    with open(output, "wb") as file:
        file.write(unescape(match.group(1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
