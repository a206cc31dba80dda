// A file named as a value without the '@' that reads it gets the '@'
// suggested, where it used to be called a number that does not parse: a
// .npy name, a raw file after its shape and type, and any file that exists.
// RUN: %expect-exit-1 %gpu-runner %s --input=a.npy 2>&1 | FileCheck %s --check-prefix=NPY
// RUN: %expect-exit-1 %gpu-runner %s --expected-output=b.npy --input=@%S/../../../examples/data/x.npy 2>&1 | FileCheck %s --check-prefix=EXPECTED
// RUN: %expect-exit-1 %gpu-runner %s --input=10xf32=x.bin 2>&1 | FileCheck %s --check-prefix=RAW
// RUN: rm -rf %t && mkdir %t && printf '0123456789abcdef' > %t/data
// RUN: cd %t && %expect-exit-1 %gpu-runner %s --input=data 2>&1 | FileCheck %s --check-prefix=EXISTS
// A word that names no file keeps the grammar's hint.
// RUN: %expect-exit-1 %gpu-runner %s --input=ones 2>&1 | FileCheck %s --check-prefix=WORD

// NPY: error: --input=a.npy: column 1: 'a.npy' is not a number; a NumPy file is read with '@', as in @a.npy
// EXPECTED: error: --expected-output=b.npy: column 1: 'b.npy' is not a number; a NumPy file is read with '@', as in @b.npy
// RAW: error: --input=10xf32=x.bin: column 8: 'x.bin' is not an f32 value; a file is read with '@', as in 10xf32=@x.bin
// EXISTS: error: --input=data: column 1: 'data' is not a number; a file of raw bytes is read with '@' after its shape and type, as in 4xf32=@data
// WORD: error: --input=ones: column 1: 'ones' is not a number; a shaped value is written SHAPExTYPE=VALUES, as in 4xf32=1,2,3,4

func.func @main(%x: memref<?xf32>) -> memref<?xf32> {
  return %x : memref<?xf32>
}
