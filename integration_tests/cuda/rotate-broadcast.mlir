// gpu.rotate and gpu.subgroup_broadcast compile for NVIDIA GPUs, whose
// upstream lowering has neither: a rotation is a shfl.sync among the lanes
// below its width, executed by those lanes only (a lane outside a
// shfl.sync's member mask must not execute it, PTX ISA "shfl.sync"); a
// broadcast a shfl.sync among the lanes __activemask() names, from the
// lowest of them for first_active_lane, so that it may stand in divergent
// code. A rotation wider than the warp is an error at the op.
// REQUIRES: cuda-runner, ptxas
// RUN: %gpu-runner-cuda --compile-only --gpu-chip=sm_90 --print-ir-after-all %s 2>&1 | FileCheck %s
// RUN: rm -rf %t && %gpu-runner-cuda --compile-only --gpu-chip=sm_75 --dump-gpu-binary=%t %s
// RUN: %python %S/Inputs/list-fatbin.py %t/kernels.fatbin | FileCheck %s --check-prefix=FATBIN
// RUN: %expect-exit-1 %gpu-runner-cuda --compile-only %S/../errors/kernel-ops/rotate-too-wide.mlir 2>&1 | FileCheck %S/../errors/kernel-ops/rotate-too-wide.mlir

// FATBIN: elf sm_75 (ELF for sm_75)

// CHECK-LABEL: IR Dump After ConvertGpuOpsToNVVMOps
// CHECK-LABEL: llvm.func @rotate
// CHECK-DAG:     %[[ONES:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-DAG:     %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
// A whole warp: every lane that exists executes it, with the mask of them
// (-1 >> (32 - w), w = min(32, lanes of the warp that exist)).
// CHECK:         nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// 8 lanes: only lanes 0 to 7 get to the shuffle, whose mask
// (-1 >> (32 - w), w = min(8, lanes of the warp that exist)) names them.
// CHECK:         %[[INSIDE:.*]] = llvm.icmp "ult" %{{.*}}, %[[EIGHT]] : i32
// CHECK:         llvm.cond_br %[[INSIDE]], ^[[SHUFFLE:.*]], ^
// CHECK:       ^[[SHUFFLE]]:
// CHECK:         %[[W:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[EIGHT]] : i1, i32
// CHECK:         llvm.cond_br
// CHECK:         %[[UNUSED:.*]] = llvm.sub %{{.*}}, %[[W]] : i32
// CHECK:         %[[MEMBERS:.*]] = llvm.lshr %[[ONES]], %[[UNUSED]] : i32
// CHECK:         nvvm.shfl.sync idx %[[MEMBERS]], %{{.*}}, %{{.*}}, %{{.*}} {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
// CHECK-LABEL: llvm.func @broadcast
// CHECK:         %[[MASK:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
// CHECK:         %[[LOWEST:.*]] = "llvm.intr.cttz"(%[[MASK]]) <{is_zero_poison = true}> : (i32) -> i32
// CHECK:         nvvm.shfl.sync idx %[[MASK]], %{{.*}}, %[[LOWEST]], %{{.*}} : i32 -> i32
// CHECK:         %[[MASK2:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
// CHECK:         nvvm.shfl.sync idx %[[MASK2]], %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:         nvvm.shfl.sync idx %[[MASK2]], %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-NOT:     gpu.subgroup_broadcast
// CHECK-LABEL: IR Dump After

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rotate(%out: memref<32xf32>, %bits: memref<32xi32>) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      %r, %ok = gpu.rotate %v, 1, 32 : i32
      memref.store %r, %bits[%tid] : memref<32xi32>
      %f = arith.sitofp %v : i32 to f32
      %s, %ok2 = gpu.rotate %f, 7, 8 : f32
      memref.store %s, %out[%tid] : memref<32xf32>
      gpu.return
    }

    gpu.func @broadcast(%out: memref<32xi32>, %wide: memref<32xf64>, %lane: i32) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      %c16 = arith.constant 16 : index
      %high = arith.cmpi uge, %tid, %c16 : index
      scf.if %high {
        %b = gpu.subgroup_broadcast %v, first_active_lane : i32
        memref.store %b, %out[%tid] : memref<32xi32>
      }
      %f = arith.sitofp %v : i32 to f64
      %d = gpu.subgroup_broadcast %f, specific_lane %lane : f64
      memref.store %d, %wide[%tid] : memref<32xf64>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %lane = arith.constant 3 : i32
    %out = gpu.alloc () : memref<32xf32>
    %bits = gpu.alloc () : memref<32xi32>
    %wide = gpu.alloc () : memref<32xf64>
    gpu.launch_func @kernels::@rotate blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%out : memref<32xf32>, %bits : memref<32xi32>)
    gpu.launch_func @kernels::@broadcast blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%bits : memref<32xi32>, %wide : memref<32xf64>, %lane : i32)
    gpu.dealloc %out : memref<32xf32>
    gpu.dealloc %bits : memref<32xi32>
    gpu.dealloc %wide : memref<32xf64>
    return
  }
}
