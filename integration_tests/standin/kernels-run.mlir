// A program with kernels on the CUDA stand-in: the runtime loads the same
// fatbin a GPU would, then gives the module the LLVM IR it was made from
// (gpuRunnerStandinModuleAttachIR, an optional entry point libcuda lacks),
// and the launches run that IR on the stand-in's device memory. The results
// are checked exactly: thread and block ids, and a block's threads
// exchanging values through shared memory across a barrier.
// REQUIRES: cuda-standin-lib, ptxas
// RUN: env GPU_RUNNER_STANDIN_TRACE=%t.trace %gpu-runner-cuda-standin --no-cache %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace

// TRACE:      cuModuleLoadData(format=fatbin) -> CUDA_SUCCESS [*module=[[M:module#[0-9]+]]]
// TRACE-NEXT: gpuRunnerStandinModuleAttachIR(module=[[M]]{{.*}}) -> CUDA_SUCCESS
// TRACE:      cuLaunchKernel(f={{.*}}(ids), grid=3x1x1, block=4x1x1, {{.*}}) -> CUDA_SUCCESS
// TRACE:      cuLaunchKernel(f={{.*}}(reverse), grid=2x1x1, block=8x1x1, {{.*}}) -> CUDA_SUCCESS

module attributes {gpu.container_module} {
  func.func private @printMemrefI32(memref<*xi32>)

  gpu.module @kernels {
    // out[i] = 100 * block + thread, i the global id.
    gpu.func @ids(%out: memref<12xi32>) kernel {
      %c100 = arith.constant 100 : index
      %block = gpu.block_id x
      %thread = gpu.thread_id x
      %i = gpu.global_id x
      %b = arith.muli %block, %c100 : index
      %v = arith.addi %b, %thread : index
      %w = arith.index_cast %v : index to i32
      memref.store %w, %out[%i] : memref<12xi32>
      gpu.return
    }

    // Each block reverses its 8 elements through shared memory.
    gpu.func @reverse(%data: memref<16xi32>)
        workgroup(%tile: memref<8xi32, #gpu.address_space<workgroup>>) kernel {
      %c7 = arith.constant 7 : index
      %thread = gpu.thread_id x
      %i = gpu.global_id x
      %v = memref.load %data[%i] : memref<16xi32>
      memref.store %v, %tile[%thread] : memref<8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %j = arith.subi %c7, %thread : index
      %r = memref.load %tile[%j] : memref<8xi32, #gpu.address_space<workgroup>>
      memref.store %r, %data[%i] : memref<16xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index

    %ids = gpu.alloc () : memref<12xi32>
    gpu.launch_func @kernels::@ids blocks in (%c3, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%ids : memref<12xi32>)
    %hids = memref.alloc () : memref<12xi32>
    gpu.memcpy %hids, %ids : memref<12xi32>, memref<12xi32>
    %pids = memref.cast %hids : memref<12xi32> to memref<*xi32>
    // CHECK: [0,  1,  2,  3,  100,  101,  102,  103,  200,  201,  202,  203]
    call @printMemrefI32(%pids) : (memref<*xi32>) -> ()

    %hdata = memref.alloc () : memref<16xi32>
    scf.for %i = %c0 to %c16 step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %hdata[%i] : memref<16xi32>
    }
    %data = gpu.alloc () : memref<16xi32>
    gpu.memcpy %data, %hdata : memref<16xi32>, memref<16xi32>
    gpu.launch_func @kernels::@reverse blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%data : memref<16xi32>)
    gpu.memcpy %hdata, %data : memref<16xi32>, memref<16xi32>
    %pdata = memref.cast %hdata : memref<16xi32> to memref<*xi32>
    // CHECK: [7,  6,  5,  4,  3,  2,  1,  0,  15,  14,  13,  12,  11,  10,  9,  8]
    call @printMemrefI32(%pdata) : (memref<*xi32>) -> ()

    gpu.dealloc %ids : memref<12xi32>
    gpu.dealloc %data : memref<16xi32>
    memref.dealloc %hids : memref<12xi32>
    memref.dealloc %hdata : memref<16xi32>
    return
  }
}
