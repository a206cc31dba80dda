// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// Dynamic shared memory, sized at launch, next to a static workgroup
// attribution: each block reverses its slice of the input through it.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reverse(%in: memref<?xi32>, %out: memref<?xi32>)
        workgroup(%flag: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %size = gpu.block_dim x
      %i = gpu.global_id x
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %buffer = memref.view %raw[%c0][%size] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi32, #gpu.address_space<workgroup>>
      %v = memref.load %in[%i] : memref<?xi32>
      memref.store %v, %buffer[%tid] : memref<?xi32, #gpu.address_space<workgroup>>
      // The dynamic part is as large as the launch asked.
      %bytes = memref.dim %raw, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
      %bytes32 = arith.index_cast %bytes : index to i32
      // One thread writes it: all of them writing it at once would race.
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %bytes32, %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %last = arith.subi %size, %c1 : index
      %j = arith.subi %last, %tid : index
      %w = memref.load %buffer[%j] : memref<?xi32, #gpu.address_space<workgroup>>
      %b = memref.load %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      %k = arith.constant 1000 : i32
      %tagged = arith.muli %b, %k : i32
      %r = arith.addi %w, %tagged : i32
      memref.store %r, %out[%i] : memref<?xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 16 : index
    %h = memref.alloc(%n) : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %h[%i] : memref<?xi32>
    }
    %in = gpu.alloc (%n) : memref<?xi32>
    %out = gpu.alloc (%n) : memref<?xi32>
    gpu.memcpy %in, %h : memref<?xi32>, memref<?xi32>
    %shared = arith.constant 32 : i32
    gpu.launch_func @kernels::@reverse blocks in (%c2, %c1, %c1) threads in (%c8, %c1, %c1)
        dynamic_shared_memory_size %shared
        args(%in : memref<?xi32>, %out : memref<?xi32>)
    gpu.memcpy %h, %out : memref<?xi32>, memref<?xi32>
    // CHECK: [32007,  32006,  32005,  32004,  32003,  32002,  32001,  32000,  32015,  32014,  32013,  32012,  32011,  32010,  32009,  32008]
    %u = memref.cast %h : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %in : memref<?xi32>
    gpu.dealloc %out : memref<?xi32>
    return
  }
}
