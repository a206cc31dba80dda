// A program written for Vulkan, Level Zero or SYCL: its kernels are plain
// gpu dialect, and the SPIR-V attributes that those runners need (the
// module's spirv.target_env, each kernel's spirv.entry_point_abi) say how
// to compile them to SPIR-V, which gpu-runner does not do. The attributes
// parse, and the kernels run as on any backend.
// RUN: %gpu-runner %s | FileCheck %s

// CHECK: ( 11, 22, 33, 44, 55, 66 )

module attributes {gpu.container_module} {
  gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<
      #spirv.vce<v1.0, [Addresses, Int64, Kernel], []>, api=OpenCL,
      #spirv.resource_limits<>>} {
    gpu.func @add(%a: memref<6xi32>, %b: memref<6xi32>, %sum: memref<6xi32>)
        kernel attributes {spirv.entry_point_abi =
                           #spirv.entry_point_abi<workgroup_size = [3, 1, 1]>} {
      %block = gpu.block_id x
      %thread = gpu.thread_id x
      %size = gpu.block_dim x
      %base = arith.muli %block, %size : index
      %i = arith.addi %base, %thread : index
      %x = memref.load %a[%i] : memref<6xi32>
      %y = memref.load %b[%i] : memref<6xi32>
      %z = arith.addi %x, %y : i32
      memref.store %z, %sum[%i] : memref<6xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %hostA = arith.constant dense<[1, 2, 3, 4, 5, 6]> : vector<6xi32>
    %hostB = arith.constant dense<[10, 20, 30, 40, 50, 60]> : vector<6xi32>
    %a = gpu.alloc host_shared () : memref<6xi32>
    %b = gpu.alloc host_shared () : memref<6xi32>
    %sum = gpu.alloc host_shared () : memref<6xi32>
    %c0 = arith.constant 0 : index
    vector.store %hostA, %a[%c0] : memref<6xi32>, vector<6xi32>
    vector.store %hostB, %b[%c0] : memref<6xi32>, vector<6xi32>
    gpu.launch_func @kernels::@add blocks in (%c2, %c1, %c1)
        threads in (%c3, %c1, %c1)
        args(%a : memref<6xi32>, %b : memref<6xi32>, %sum : memref<6xi32>)
    %result = vector.load %sum[%c0] : memref<6xi32>, vector<6xi32>
    vector.print %result : vector<6xi32>
    gpu.dealloc %a : memref<6xi32>
    gpu.dealloc %b : memref<6xi32>
    gpu.dealloc %sum : memref<6xi32>
    return
  }
}
