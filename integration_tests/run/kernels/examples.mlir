// The example in examples/ with a kernel prints what its comment says.
// RUN: %gpu-runner %S/../../../examples/vector-add.mlir | FileCheck %s

// CHECK: [0,  11,  22,  33,  44,  55,  66,  77,  88,  99]

// examples/saxpy-kernel.mlir, run as its comment says.
// RUN: %gpu-runner %S/../../../examples/saxpy-kernel.mlir --launch=kernels::saxpy --grid=3 --block=4 --input=2 --input=@%S/../../../examples/data/x.npy --input=@%S/../../../examples/data/y.npy --output=- --output=@%t.npy --expected-output=@%S/../../../examples/data/x.npy --expected-output=@%S/../../../examples/data/expected-y.npy | FileCheck %s --check-prefix=SAXPY
// RUN: %gpu-runner %S/../../../examples/saxpy-kernel.mlir --launch=kernels::saxpy --grid=3 --block=4 --input=2 --input=10xf32=0 --input=@%t.npy | FileCheck %s --check-prefix=SAXPY-Y

// SAXPY:      result[0]: memref<?xf32>
// SAXPY-NEXT: [0,  1,  2,  3,  4,  5,  6,  7,  8,  9]
// SAXPY-NEXT: expected outputs: 2 results (20 elements) matched, floats within atol 1e-08 + rtol 1e-05 x |expected|
// SAXPY-Y:      result[1]: memref<?xf32>
// SAXPY-Y-NEXT: [0.5,  2.5,  4.5,  6.5,  8.5,  10.5,  12.5,  14.5,  16.5,  18.5]
