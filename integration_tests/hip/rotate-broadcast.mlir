// gpu.rotate and gpu.subgroup_broadcast compile for AMD GPUs: a rotation is
// a shuffle (ds_bpermute_b32), a broadcast upstream's ROCDL lowering, which
// reads the first active lane (v_readfirstlane_b32, EXEC's lowest lane) or
// the lane given (v_readlane_b32). gfx90a runs waves of 64 lanes, where a
// rotation of 64 lanes fits; on wave32 chips (gfx1100) it is an error.
// REQUIRES: hip-runner
// RUN: rm -rf %t && %gpu-runner-hip --compile-only --gpu-chip=gfx90a --dump-gpu-binary=%t %s
// RUN: llvm-objdump -d %t/kernels.hsaco | FileCheck %s
// RUN: %gpu-runner-hip --compile-only --gpu-chip=gfx90a %S/../errors/kernel-ops/rotate-too-wide.mlir
// RUN: %expect-exit-1 %gpu-runner-hip --compile-only --gpu-chip=gfx1100 %S/../errors/kernel-ops/rotate-too-wide.mlir 2>&1 | FileCheck %S/../errors/kernel-ops/rotate-too-wide.mlir

// CHECK-LABEL: <rotate>:
// CHECK:         ds_bpermute_b32
// CHECK-LABEL: <broadcast>:
// CHECK:         v_readfirstlane_b32
// CHECK:         v_readlane_b32 s{{[0-9]+}}, v{{[0-9]+}}, s{{[0-9]+}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rotate(%out: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      %f = arith.sitofp %v : i32 to f32
      %s, %ok = gpu.rotate %f, 1, 64 : f32
      memref.store %s, %out[%tid] : memref<64xf32>
      gpu.return
    }

    gpu.func @broadcast(%out: memref<64xi32>, %wide: memref<64xf64>, %lane: i32) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      %c16 = arith.constant 16 : index
      %high = arith.cmpi uge, %tid, %c16 : index
      scf.if %high {
        %b = gpu.subgroup_broadcast %v, first_active_lane : i32
        memref.store %b, %out[%tid] : memref<64xi32>
      }
      %f = arith.sitofp %v : i32 to f64
      %d = gpu.subgroup_broadcast %f, specific_lane %lane : f64
      memref.store %d, %wide[%tid] : memref<64xf64>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %lane = arith.constant 3 : i32
    %out = gpu.alloc () : memref<64xf32>
    %bits = gpu.alloc () : memref<64xi32>
    %wide = gpu.alloc () : memref<64xf64>
    gpu.launch_func @kernels::@rotate blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%out : memref<64xf32>)
    gpu.launch_func @kernels::@broadcast blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%bits : memref<64xi32>, %wide : memref<64xf64>, %lane : i32)
    gpu.dealloc %out : memref<64xf32>
    gpu.dealloc %bits : memref<64xi32>
    gpu.dealloc %wide : memref<64xf64>
    return
  }
}
