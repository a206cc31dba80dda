// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

// A gpu.wait releases the streams of the tokens it waits on; using one of
// those tokens for new work afterwards is reported, not run on a dead stream.

func.func @main() {
  %dev = gpu.alloc () : memref<4xi32>
  %v = arith.constant 1 : i32
  %t0 = gpu.wait async
  gpu.wait [%t0]
  // CHECK: released-stream.mlir:[[# @LINE + 1]]:9: error: gpu.memset: {{.*}}released
  %t1 = gpu.memset async [%t0] %dev, %v : memref<4xi32>, i32
  gpu.wait [%t1]
  return
}
