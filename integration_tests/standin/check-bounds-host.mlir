// --check-bounds checks the host code on CUDA and HIP as on the host
// backend: a host load out of bounds, after a device round trip, is an
// error at the op on the stand-ins, status 1; so is a failed cf.assert of
// host code, with or without the flag.
// REQUIRES: cuda-standin-lib, hip-standin-lib
// RUN: %expect-exit-1 %gpu-runner-cuda-standin --check-bounds %s 2>&1 >%t.out | FileCheck %s --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner-hip-standin --check-bounds %s 2>&1 >%t.out | FileCheck %s --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner-cuda-standin -e assertion %s 2>&1 | FileCheck %s --check-prefix=ASSERT --implicit-check-not=error:
// RUN: %expect-exit-1 %gpu-runner-hip-standin -e assertion %s 2>&1 | FileCheck %s --check-prefix=ASSERT --implicit-check-not=error:

func.func private @printI64(i64)

func.func @printI32(%v: i32) {
  %w = arith.extsi %v : i32 to i64
  call @printI64(%w) : (i64) -> ()
  return
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %device = gpu.alloc (%c4) : memref<?xi32>
  %seven = arith.constant 7 : i32
  gpu.memset %device, %seven : memref<?xi32>, i32
  %host = memref.alloc (%c4) : memref<?xi32>
  gpu.memcpy %host, %device : memref<?xi32>, memref<?xi32>
  gpu.dealloc %device : memref<?xi32>
  // CHECK: check-bounds-host.mlir:[[# @LINE + 1]]:8: error: memcheck: memref.load: out-of-bounds access
  %v = memref.load %host[%c4] : memref<?xi32>
  call @printI32(%v) : (i32) -> ()
  memref.dealloc %host : memref<?xi32>
  return
}

func.func @assertion() {
  %false = arith.constant false
  // ASSERT: check-bounds-host.mlir:[[# @LINE + 1]]:3: error: cf.assert: never true
  cf.assert %false, "never true"
  return
}
