// A kernel computes on the float types LLVM has no type for as host code
// does (small-floats.mlir): through f32, rounded once to the type. The GPU
// backends refuse it at the op (lowering/refuse-target-ops-invalid.mlir).
// UNSUPPORTED: cuda, cuda-standin, hip, hip-standin
// RUN: %gpu-runner %s | FileCheck %s

// 1.5 and 3 in f8E4M3FN.
memref.global "private" constant @bits : memref<2xi8> = dense<[60, 68]>

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bits = memref.get_global @bits : memref<2xi8>
  %out = gpu.alloc host_shared () : memref<1xf8E4M3FN>
  %device = gpu.alloc () : memref<2xi8>
  gpu.memcpy %device, %bits : memref<2xi8>, memref<2xi8>
  // 1.5 * 3 + 1.5 = 6.
  // CHECK: 6
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %kx = memref.load %device[%c0] : memref<2xi8>
    %ky = memref.load %device[%c1] : memref<2xi8>
    %ka = arith.bitcast %kx : i8 to f8E4M3FN
    %kb = arith.bitcast %ky : i8 to f8E4M3FN
    %kp = arith.mulf %ka, %kb : f8E4M3FN
    %ks = arith.addf %kp, %ka : f8E4M3FN
    memref.store %ks, %out[%c0] : memref<1xf8E4M3FN>
    gpu.terminator
  }
  %result = memref.load %out[%c0] : memref<1xf8E4M3FN>
  vector.print %result : f8E4M3FN
  gpu.dealloc %device : memref<2xi8>
  gpu.dealloc %out : memref<1xf8E4M3FN>
  return
}
