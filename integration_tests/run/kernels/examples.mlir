// The example in examples/ with a kernel prints what its comment says.
// RUN: %gpu-runner %S/../../../examples/vector-add.mlir | FileCheck %s

// CHECK: [0,  11,  22,  33,  44,  55,  66,  77,  88,  99]
