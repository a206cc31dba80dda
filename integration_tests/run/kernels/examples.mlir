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
// RUN: %gpu-runner %S/../../../examples/prefix-scan.mlir | FileCheck %s --check-prefix=SCAN
// RUN: %gpu-runner --no-barrier-splitting %S/../../../examples/prefix-scan.mlir | FileCheck %s --check-prefix=SCAN
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

// SCAN:      block total: 1018
// SCAN:      [1,  3,  6,  10,  15,  21,  28,  29,  31,  34,  38,  43,  49,  56,  57,  59,  62,  66,  71,  77,  84,  85,  87,  90,  94,  99,  105,  112,  113,  115,  118,  122,  127,  133,  140,  141,  143,  146,  150,  155,  161,  168,  169,  171,  174,  178,  183,  189,  196,  197,  199,  202,  206,  211,  217,  224,  225,  227,  230,  234,  239,  245,  252,  253,  255,  258,  262,  267,  273,  280,  281,  283,  286,  290,  295,  301,  308,  309,  311,  314,  318,  323,  329,  336,  337,  339,  342,  346,  351,  357,  364,  365,  367,  370,  374,  379,  385,  392,  393,  395,  398,  402,  407,  413,  420,  421,  423,  426,  430,  435,  441,  448,  449,  451,  454,  458,  463,  469,  476,  477,  479,  482,  486,  491,  497,  504,  505,  507,  510,  514,  519,  525,  532,  533,  535,  538,  542,  547,  553,  560,  561,  563,  566,  570,  575,  581,  588,  589,  591,  594,  598,  603,  609,  616,  617,  619,  622,  626,  631,  637,  644,  645,  647,  650,  654,  659,  665,  672,  673,  675,  678,  682,  687,  693,  700,  701,  703,  706,  710,  715,  721,  728,  729,  731,  734,  738,  743,  749,  756,  757,  759,  762,  766,  771,  777,  784,  785,  787,  790,  794,  799,  805,  812,  813,  815,  818,  822,  827,  833,  840,  841,  843,  846,  850,  855,  861,  868,  869,  871,  874,  878,  883,  889,  896,  897,  899,  902,  906,  911,  917,  924,  925,  927,  930,  934,  939,  945,  952,  953,  955,  958,  962,  967,  973,  980,  981,  983,  986,  990,  995,  1001,  1008,  1009,  1011,  1014,  1018]
// SCAN-NEXT: wrong elements: 0

// PIPELINE:      sum: 16777216
// PIPELINE-NEXT: wrong elements: 0
