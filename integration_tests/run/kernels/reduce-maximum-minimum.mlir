// gpu.subgroup_reduce and gpu.all_reduce with maximumf and minimumf, as
// arith.maximumf and arith.minimumf are: -0 is below +0, and one NaN makes
// the result NaN. In a block of 64 threads (2 subgroups), every thread holds
// -0 but thread 5, which holds +0, for the maximum; the negated values for
// the minimum; and 1 but a NaN at thread 40 for the NaN. Every thread writes
// what it got, so that a lane that got another answer shows. Where
// subgroups have 64 lanes (HIP's gfx9), the block is one subgroup, whose
// reductions are the block's.
// RUN: %gpu-runner %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%out: memref<6x64xf32>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c40 = arith.constant 40 : index
      %plus = arith.constant 0.0 : f32
      %minus = arith.constant -0.0 : f32
      %one = arith.constant 1.0 : f32
      %nan = arith.constant 0x7FC00000 : f32
      %isFive = arith.cmpi eq, %tid, %c5 : index
      %x = arith.select %isFive, %plus, %minus : f32
      %y = arith.negf %x : f32
      %isForty = arith.cmpi eq, %tid, %c40 : index
      %z = arith.select %isForty, %nan, %one : f32
      %smax = gpu.subgroup_reduce maximumf %x : (f32) -> f32
      %smin = gpu.subgroup_reduce minimumf %y : (f32) -> f32
      %snan = gpu.subgroup_reduce maximumf %z : (f32) -> f32
      %amax = gpu.all_reduce maximumf %x uniform {} : (f32) -> (f32)
      %amin = gpu.all_reduce minimumf %y uniform {} : (f32) -> (f32)
      %anan = gpu.all_reduce minimumf %z uniform {} : (f32) -> (f32)
      memref.store %smax, %out[%c0, %tid] : memref<6x64xf32>
      memref.store %smin, %out[%c1, %tid] : memref<6x64xf32>
      memref.store %snan, %out[%c2, %tid] : memref<6x64xf32>
      memref.store %amax, %out[%c3, %tid] : memref<6x64xf32>
      memref.store %amin, %out[%c4, %tid] : memref<6x64xf32>
      memref.store %anan, %out[%c5, %tid] : memref<6x64xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<6x64xf32>
    gpu.launch_func @kernels::@reduce blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%out : memref<6x64xf32>)
    %host = memref.alloc() : memref<6x64xf32>
    gpu.memcpy %host, %out : memref<6x64xf32>, memref<6x64xf32>
    gpu.dealloc %out : memref<6x64xf32>
    // Subgroup 0 holds thread 5's +0 and gets it; subgroup 1 has only -0.
    // SUBGROUP32:      {{\[}}[0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0],
    // SUBGROUP64:      {{\[}}[0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
    // SUBGROUP32-NEXT:  [-0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
    // SUBGROUP64-NEXT:  [-0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0],
    // Subgroup 1 holds the NaN.
    // SUBGROUP32-NEXT:  [1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan],
    // SUBGROUP64-NEXT:  [nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan],
    // The whole block: +0, -0 and NaN everywhere.
    // CHECK-NEXT:  [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
    // CHECK-NEXT:  [-0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0,   -0],
    // CHECK-NEXT:  [nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan,   nan]]
    %u = memref.cast %host : memref<6x64xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<6x64xf32>
    return
  }
}
