// RUN: %gpu-runner-opt --gpu-runner-host-kernels --gpu-runner-gpu-to-llvm %s | FileCheck %s
// RUN: %gpu-runner-opt --gpu-runner-host-kernels --gpu-runner-gpu-to-llvm %s | FileCheck %s --check-prefix=GONE

// The kernel module is gone once its launches are lowered: the host copies
// run the kernel.
// GONE-NOT: gpu.module
// GONE:     llvm.func @main

// CHECK-DAG: llvm.func @mgpuLaunchHostKernelAt(!llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global private constant @{{.*}}("scale\00")

// A launch packs the kernel's arguments into a struct of their LLVM types on
// the stack and starts the kernel's host entry over the grid, on the stream
// of its dependency.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%data: memref<?xf32>, %factor: f32, %n: index)
        workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      // A shuffle whose width is not a constant: the threads run on fibers
      // (flags = 1), where the runtime checks the width.
      %c1 = arith.constant 1 : i32
      %width = arith.index_cast %n : index to i32
      %s, %valid = gpu.shuffle xor %factor, %c1, %width : f32
      gpu.return
    }
  }

  // CHECK-LABEL: llvm.func @main
  // CHECK-SAME:    %[[T0:arg[0-9]+]]: !llvm.ptr) -> !llvm.ptr
  // CHECK:         %[[DYN32:.*]] = llvm.mlir.constant(256 : i32) : i32
  // CHECK:         %[[T:.*]] = llvm.call @mgpuStreamFromTokenAt(%[[T0]], %{{.*}})
  // CHECK:         %[[SP:.*]] = llvm.intr.stacksave
  // CHECK:         %[[P0:.*]] = llvm.mlir.poison : !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, f32, i64)>
  // CHECK:         %[[P1:.*]] = llvm.insertvalue %{{.*}}, %[[P0]][0]
  // CHECK:         %[[P2:.*]] = llvm.insertvalue %{{.*}}, %[[P1]][1]
  // CHECK:         %[[P3:.*]] = llvm.insertvalue %{{.*}}, %[[P2]][2]
  // CHECK:         %[[ARGS:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, f32, i64)>
  // CHECK:         llvm.store %[[P3]], %[[ARGS]]
  // CHECK:         %[[END:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, f32, i64)>
  // CHECK:         %[[BYTES:.*]] = llvm.ptrtoint %[[END]]
  // CHECK:         %[[DYN:.*]] = llvm.sext %[[DYN32]] : i32 to i64
  // CHECK:         %[[ENTRY:.*]] = llvm.mlir.addressof @__gpu_runner_kernels_scale_entry : !llvm.ptr
  // A launch without clusters passes clusters of 1 x 1 x 1 blocks.
  // CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK:         %[[STATIC:.*]] = llvm.mlir.constant(256 : i64) : i64
  // CHECK:         %[[FLAGS:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK:         llvm.call @mgpuLaunchHostKernelAt(%[[ENTRY]], %[[ONE]], %[[ONE]], %[[ONE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[DYN]], %[[STATIC]], %[[FLAGS]], %[[ARGS]], %[[BYTES]], %[[T]], %{{.*}}, %{{.*}})
  // CHECK:         llvm.intr.stackrestore %[[SP]]
  // CHECK:         llvm.return %[[T]]
  func.func @main(%data: memref<?xf32>, %factor: f32, %n: index, %t: !gpu.async.token) -> !gpu.async.token {
    %c1 = arith.constant 1 : index
    %dyn = arith.constant 256 : i32
    %t1 = gpu.launch_func async [%t] @kernels::@scale blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %dyn
        args(%data : memref<?xf32>, %factor : f32, %n : index)
    return %t1 : !gpu.async.token
  }

  // A launch with clusters passes their sizes first.
  // CHECK-LABEL: llvm.func @clusters
  // CHECK-SAME:    %[[CX:arg[0-9]+]]: i64, %[[CY:arg[0-9]+]]: i64, %[[CZ:arg[0-9]+]]: i64, %[[GX:arg[0-9]+]]: i64
  // CHECK:         llvm.call @mgpuLaunchHostKernelAt(%{{.*}}, %[[CX]], %[[CY]], %[[CZ]], %[[GX]],
  func.func @clusters(%cx: index, %cy: index, %cz: index, %gx: index, %data: memref<?xf32>, %factor: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@scale clusters in (%cx, %cy, %cz) blocks in (%gx, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%data : memref<?xf32>, %factor : f32, %c1 : index)
    return
  }
}
