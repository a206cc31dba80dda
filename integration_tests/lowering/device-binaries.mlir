// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm %s | FileCheck %s

// A gpu.binary becomes a constant with its object and a constructor that
// loads it and looks up each launched kernel once; a launch loads the
// kernel's handle and passes a pointer to each argument, memrefs expanded
// into their descriptor's fields. PTX gets its NUL and format 1.

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, "FATBIN">]
  gpu.binary @ptx [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "PTX">]

  // CHECK-LABEL: llvm.func @main(
  // CHECK-SAME: %[[ALLOCATED:[a-z0-9]+]]: !llvm.ptr, %[[ALIGNED:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[N:[a-z0-9]+]]: i32)
  func.func @main(%data: memref<8xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // A synchronous launch creates no stream: it runs on the default one.
    // CHECK-NOT: mgpuStreamCreateAt
    // CHECK: %[[VALUES:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, i64, i64, i32)>
    // CHECK: %[[PARAMS:.*]] = llvm.alloca %{{.*}} x !llvm.array<6 x ptr>
    // CHECK: %[[FIELD0:.*]] = llvm.getelementptr %[[VALUES]][0, 0]
    // CHECK: llvm.store %{{.*}}, %[[FIELD0]]
    // CHECK: %[[SLOT0:.*]] = llvm.getelementptr %[[PARAMS]][0]
    // CHECK: llvm.store %[[FIELD0]], %[[SLOT0]]
    // CHECK: %[[FIELD5:.*]] = llvm.getelementptr %[[VALUES]][0, 5]
    // CHECK: llvm.store %[[N]], %[[FIELD5]]
    // CHECK: %[[COUNT:.*]] = llvm.mlir.constant(6 : i64) : i64
    // CHECK: %[[NOSHARED:.*]] = llvm.mlir.constant(0 : i32) : i32
    // CHECK-NOT: mgpuStreamCreateAt
    // CHECK: %[[GLOBAL:.*]] = llvm.mlir.addressof @__gpu_runner_function_kernels_scale
    // CHECK-NOT: mgpuStreamCreateAt
    // CHECK: %[[FUNCTION:.*]] = llvm.load %[[GLOBAL]]
    // CHECK-NOT: mgpuStreamCreateAt
    // CHECK: llvm.call @mgpuLaunchKernelAt(%[[FUNCTION]], {{.*}}, %[[NOSHARED]], %{{.*}}, %[[PARAMS]], %[[COUNT]], %{{.*}})
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%data : memref<8xf32>, %n : i32)
    // CHECK: %[[STREAM:.*]] = llvm.call @mgpuStreamCreateAt
    // CHECK: llvm.mlir.addressof @__gpu_runner_function_ptx_fill
    // CHECK: llvm.call @mgpuLaunchClusterKernelAt(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %[[STREAM]],
    %t = gpu.launch_func async @ptx::@fill clusters in (%c1, %c1, %c1)
        blocks in (%c8, %c1, %c1) threads in (%c8, %c1, %c1)
        dynamic_shared_memory_size %n args(%n : i32)
    gpu.wait [%t]
    return
  }
}

// CHECK: llvm.mlir.global internal constant @__gpu_runner_binary_kernels("FATBIN")
// CHECK: llvm.mlir.global internal @__gpu_runner_module_kernels()
// CHECK: llvm.mlir.global internal @__gpu_runner_function_kernels_scale()
// CHECK-LABEL: llvm.func internal @__gpu_runner_load_kernels()
// CHECK: %[[DATA:.*]] = llvm.mlir.addressof @__gpu_runner_binary_kernels
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(6 : i64)
// CHECK: %[[FORMAT:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: %[[MODULE:.*]] = llvm.call @mgpuModuleLoadAt(%[[DATA]], %[[SIZE]], %[[FORMAT]],
// CHECK: %[[FN:.*]] = llvm.call @mgpuModuleGetFunctionAt(%[[MODULE]],
// CHECK: llvm.store %[[FN]], %{{.*}}
// CHECK-LABEL: llvm.func internal @__gpu_runner_unload_kernels()
// CHECK: llvm.call @mgpuModuleUnloadAt
// CHECK: llvm.mlir.global internal constant @__gpu_runner_binary_ptx("PTX\00")
// CHECK-LABEL: llvm.func internal @__gpu_runner_load_ptx()
// CHECK: llvm.mlir.constant(4 : i64)
// CHECK: llvm.mlir.constant(1 : i32)
// CHECK: llvm.mlir.global_ctors ctors = [@__gpu_runner_load_kernels, @__gpu_runner_load_ptx]
// CHECK: llvm.mlir.global_dtors dtors = [@__gpu_runner_unload_kernels, @__gpu_runner_unload_ptx]
// CHECK-NOT: gpu.binary
