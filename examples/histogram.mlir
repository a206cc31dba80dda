// A histogram with atomics, as a CUDA programmer writes one: each block
// counts its part of the input into a private histogram in workgroup
// (shared) memory with atomic adds, waits at a barrier, and adds its counts
// to the global histogram with atomic adds. The private histogram is dynamic
// shared memory, sized at the launch (CUDA's extern __shared__ and the third
// launch parameter).
//
// The input is x[i] = (i * i + i / 3) mod 16 for i < 1000, in 4 blocks of
// 256 threads (the last 24 threads have no element). The histogram has 16
// bins, and the program prints it and its sum, which is 1000.
//
//   scripts/run examples/histogram.mlir
//
// prints
//
//   [83,  42,  83,  41,  84,  42,  84,  41,  83,  42,  84,  42,  84,  41,  82,  42]
//   sum: 1000

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @histogram(%x: memref<?xi32>, %n: index, %bins: memref<16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %i = gpu.global_id x
      // extern __shared__ char raw[]; int *local = (int *)raw;
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %local = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xi32, #gpu.address_space<workgroup>>
      // The first 16 threads clear the block's histogram.
      %clears = arith.cmpi ult, %tid, %c16 : index
      scf.if %clears {
        memref.store %zero, %local[%tid] : memref<16xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %x[%i] : memref<?xi32>
        %bin = arith.index_cast %v : i32 to index
        // atomicAdd(&local[bin], 1) on shared memory.
        %old = memref.atomic_rmw addi %one, %local[%bin] : (i32, memref<16xi32, #gpu.address_space<workgroup>>) -> i32
      }
      gpu.barrier
      scf.if %clears {
        %count = memref.load %local[%tid] : memref<16xi32, #gpu.address_space<workgroup>>
        // atomicAdd(&bins[tid], count) on global memory.
        %old = memref.atomic_rmw addi %count, %bins[%tid] : (i32, memref<16xi32>) -> i32
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1000 : index
    %hx = memref.alloc(%n) : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.muli %i, %i : index
      %third = arith.divui %i, %c3 : index
      %s = arith.addi %ii, %third : index
      %bin = arith.remui %s, %c16 : index
      %v = arith.index_cast %bin : index to i32
      memref.store %v, %hx[%i] : memref<?xi32>
    }
    %x = gpu.alloc (%n) : memref<?xi32>
    %bins = gpu.alloc () : memref<16xi32>
    gpu.memcpy %x, %hx : memref<?xi32>, memref<?xi32>
    %zero = arith.constant 0 : i32
    gpu.memset %bins, %zero : memref<16xi32>, i32

    %blocks = arith.ceildivui %n, %c256 : index
    // 16 counters of 4 bytes: histogram<<<blocks, 256, 64>>>(x, n, bins).
    %shared = arith.constant 64 : i32
    gpu.launch_func @kernels::@histogram blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1)
        dynamic_shared_memory_size %shared
        args(%x : memref<?xi32>, %n : index, %bins : memref<16xi32>)

    %hbins = memref.alloc() : memref<16xi32>
    gpu.memcpy %hbins, %bins : memref<16xi32>, memref<16xi32>
    %u = memref.cast %hbins : memref<16xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %sum = scf.for %b = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> i32 {
      %count = memref.load %hbins[%b] : memref<16xi32>
      %next = arith.addi %acc, %count : i32
      scf.yield %next : i32
    }
    vector.print str "sum: "
    vector.print %sum : i32
    gpu.dealloc %x : memref<?xi32>
    gpu.dealloc %bins : memref<16xi32>
    memref.dealloc %hx : memref<?xi32>
    memref.dealloc %hbins : memref<16xi32>
    return
  }
}
