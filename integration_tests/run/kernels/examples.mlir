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

// The examples a CUDA programmer looks for. Every expected figure below was
// computed apart from gpu-runner, with NumPy, from the formula in the
// example's comment (the input), e.g. for the histogram
// np.bincount((i*i + i//3) % 16, minlength=16) with i = np.arange(1000).
// The examples with barriers run both ways the host runs a block.
// RUN: %gpu-runner %S/../../../examples/tiled-matmul.mlir | FileCheck %s --check-prefix=MATMUL
// RUN: %gpu-runner --no-barrier-splitting %S/../../../examples/tiled-matmul.mlir | FileCheck %s --check-prefix=MATMUL
// RUN: %gpu-runner %S/../../../examples/histogram.mlir | FileCheck %s --check-prefix=HISTOGRAM
// RUN: %gpu-runner --no-barrier-splitting %S/../../../examples/histogram.mlir | FileCheck %s --check-prefix=HISTOGRAM
// RUN: %gpu-runner %S/../../../examples/two-stream-pipeline.mlir | FileCheck %s --check-prefix=PIPELINE

// MATMUL:      {{\[}}[6,   3,   0,   -3,   144,   6,   3,   0,   -3,   144,   6,   3,   0,   -3,   144,   6],
// MATMUL-NEXT:  [13,   10,   -3,   -6,   6,   13,   10,   -3,   -6,   6,   13,   10,   -3,   -6,   6,   13],
// MATMUL-NEXT:  [13,   17,   1,   5,   -6,   13,   17,   1,   5,   -6,   13,   17,   1,   5,   -6,   13],
// MATMUL-NEXT:  [-8,   3,   -16,   -5,   -4,   -8,   3,   -16,   -5,   -4,   -8,   3,   -16,   -5,   -4,   -8],
// MATMUL-NEXT:  [20,   17,   9,   6,   -2,   20,   17,   9,   6,   -2,   20,   17,   9,   6,   -2,   20],
// MATMUL-NEXT:  [-1,   3,   -8,   -4,   0,   -1,   3,   -8,   -4,   0,   -1,   3,   -8,   -4,   0,   -1],
// MATMUL-NEXT:  [-1,   10,   -4,   7,   -12,   -1,   10,   -4,   7,   -12,   -1,   10,   -4,   7,   -12,   -1],
// MATMUL-NEXT:  [6,   3,   0,   -3,   144,   6,   3,   0,   -3,   144,   6,   3,   0,   -3,   144,   6],
// MATMUL-NEXT:  [13,   10,   -3,   -6,   6,   13,   10,   -3,   -6,   6,   13,   10,   -3,   -6,   6,   13],
// MATMUL-NEXT:  [13,   17,   1,   5,   -6,   13,   17,   1,   5,   -6,   13,   17,   1,   5,   -6,   13],
// MATMUL-NEXT:  [-8,   3,   -16,   -5,   -4,   -8,   3,   -16,   -5,   -4,   -8,   3,   -16,   -5,   -4,   -8],
// MATMUL-NEXT:  [20,   17,   9,   6,   -2,   20,   17,   9,   6,   -2,   20,   17,   9,   6,   -2,   20],
// MATMUL-NEXT:  [-1,   3,   -8,   -4,   0,   -1,   3,   -8,   -4,   0,   -1,   3,   -8,   -4,   0,   -1],
// MATMUL-NEXT:  [-1,   10,   -4,   7,   -12,   -1,   10,   -4,   7,   -12,   -1,   10,   -4,   7,   -12,   -1],
// MATMUL-NEXT:  [6,   3,   0,   -3,   144,   6,   3,   0,   -3,   144,   6,   3,   0,   -3,   144,   6],
// MATMUL-NEXT:  [13,   10,   -3,   -6,   6,   13,   10,   -3,   -6,   6,   13,   10,   -3,   -6,   6,   13]]
// MATMUL-NEXT: wrong elements: 0

// HISTOGRAM:      [83,  42,  83,  41,  84,  42,  84,  41,  83,  42,  84,  42,  84,  41,  82,  42]
// HISTOGRAM-NEXT: sum: 1000


// PIPELINE:      sum: 16777216
// PIPELINE-NEXT: wrong elements: 0
