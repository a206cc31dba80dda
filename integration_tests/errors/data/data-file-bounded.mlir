// A data file is read no further than its value needs: raw bytes up to
// their shape's size (and one byte more, to tell a longer file), a .npy
// file up to the data its header describes. A device that never ends, as
// /dev/zero, is refused at once, and --max-input-size bounds data files
// as it bounds the program. `timeout 20` turns a runaway read into a
// failure.
// RUN: %expect-exit-1 timeout 20 %gpu-runner %s --input=3xf32=@/dev/zero 2>&1 | FileCheck %s --check-prefix=RAW-ZERO
// RUN: rm -f %t-zero.npy && ln -s /dev/zero %t-zero.npy
// RUN: %expect-exit-1 timeout 20 %gpu-runner %s --input=@%t-zero.npy 2>&1 | FileCheck %s --check-prefix=NPY-ZERO
// RUN: %expect-exit-1 timeout 20 %gpu-runner %s --input=1048576xf32=@/dev/zero --max-input-size=3 2>&1 | FileCheck %s --check-prefix=RAW-LIMIT
// RUN: sh -c 'head -c 4194304 /dev/zero | timeout 20 %gpu-runner %s --input=1048576xf32=@/dev/stdin --expected-output=1048576xf32=0 --output=@%t.out --max-input-size=4' | FileCheck %s --check-prefix=RAW-FITS
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-big.npy '<f4' 1048576 ''
// RUN: %expect-exit-1 timeout 20 %gpu-runner %s --input=@%t-big.npy --max-input-size=3 2>&1 | FileCheck %s --check-prefix=NPY-LIMIT
// RUN: %expect-exit-1 timeout 20 %gpu-runner %s --input=@%t-big.npy 2>&1 | FileCheck %s --check-prefix=NPY-SHORT
// A file longer than its value is still an error, from a pipe too.
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-long.npy '<f4' 2 1,2 --extra 3
// RUN: %expect-exit-1 sh -c 'cat %t-long.npy | timeout 20 %gpu-runner %s --input=2xf32=@/dev/stdin' 2>&1 | FileCheck %s --check-prefix=PIPE-LONG
// RUN: sh -c 'printf "\0\0\200\77\0\0\0\100" | timeout 20 %gpu-runner %s --input=2xf32=@/dev/stdin' | FileCheck %s --check-prefix=PIPE

// RAW-ZERO: error: /dev/zero: 3xf32 is 12 bytes, but the file has more (it goes on past them)
// NPY-ZERO: error: {{.*}}-zero.npy: not a NumPy file: it does not start with NumPy's magic string
// RAW-LIMIT: error: --input=1048576xf32=@/dev/zero: column 1: 1048576xf32 is larger than the 3 MiB --max-input-size allows a data file
// RAW-FITS: expected outputs: 1 result (1048576 elements) matched
// NPY-LIMIT: error: {{.*}}-big.npy: the shape 1048576 is larger than the 3 MiB --max-input-size allows a data file
// NPY-SHORT: error: {{.*}}-big.npy: header says 1048576 f32 (4194304 bytes of data) but the file has 0
// PIPE-LONG: error: /dev/stdin: 2xf32 is 8 bytes, but the file has more (it goes on past them)
// PIPE:      result[0]: memref<?xf32>
// PIPE-NEXT: [1,  2]

func.func @main(%v: memref<?xf32>) -> memref<?xf32> {
  return %v : memref<?xf32>
}
