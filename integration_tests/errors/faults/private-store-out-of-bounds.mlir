// A GPU thread's store one element before or past an array in its private
// memory (a memref.alloca in a kernel, a private attribution) lands in a
// margin that holds a pattern, compared when the function returns: an error
// at the launch that names the kernel, the block, the thread and the bytes,
// never another variable of the thread or the runner's own frames changed.
// The same whether the block's threads run as one loop, as loops cut at a
// barrier, or as fibers, and for an inline gpu.launch.
// RUN: %expect-exit-1 %gpu-runner %s -e before 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: %expect-exit-1 %gpu-runner %s -e past 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: %expect-exit-1 %gpu-runner %s -e barrier_before 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %expect-exit-1 %gpu-runner %s -e barrier_before --no-barrier-splitting 2>&1 | FileCheck %s --check-prefix=FIBERS
// RUN: %expect-exit-1 %gpu-runner %s -e attribution_past --no-barrier-splitting 2>&1 | FileCheck %s --check-prefix=ATTRIBUTION
// RUN: %expect-exit-1 %gpu-runner %s -e inline_before 2>&1 | FileCheck %s --check-prefix=INLINE-BEFORE
// RUN: %expect-exit-1 %gpu-runner %s -e inline_past 2>&1 | FileCheck %s --check-prefix=INLINE-PAST
// Within bounds, the same kernels run and give their results.
// RUN: %gpu-runner %s -e in_bounds | FileCheck %s --check-prefix=IN-BOUNDS
// RUN: %gpu-runner %s -e in_bounds --no-barrier-splitting | FileCheck %s --check-prefix=IN-BOUNDS

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread 1 of block 1 stores at %idx of a 4-element private array, the
    // others at 0; each thread writes its array's element 1 to %out.
    gpu.func @store(%out: memref<8xf32>, %idx: index) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %buf = memref.alloca() : memref<4xf32>
      memref.store %one, %buf[%c1] : memref<4xf32>
      %is_tid = arith.cmpi eq, %tid, %c1 : index
      %is_bid = arith.cmpi eq, %bid, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      %i = arith.select %bad, %idx, %c0 : index
      memref.store %two, %buf[%i] : memref<4xf32>
      %v = memref.load %buf[%c1] : memref<4xf32>
      memref.store %v, %out[%tid] : memref<8xf32>
      gpu.return
    }

    // The same with a barrier between the store and the load.
    gpu.func @store_barrier(%out: memref<8xf32>, %idx: index) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %buf = memref.alloca() : memref<4xf32>
      memref.store %one, %buf[%c1] : memref<4xf32>
      %is_tid = arith.cmpi eq, %tid, %c1 : index
      %is_bid = arith.cmpi eq, %bid, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      %i = arith.select %bad, %idx, %c0 : index
      memref.store %two, %buf[%i] : memref<4xf32>
      gpu.barrier
      %v = memref.load %buf[%c1] : memref<4xf32>
      memref.store %v, %out[%tid] : memref<8xf32>
      gpu.return
    }

    // A private attribution of 4 i32, with a barrier.
    gpu.func @attribution(%out: memref<8xf32>, %idx: index)
        private(%buf: memref<4xi32, #gpu.address_space<private>>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %seven = arith.constant 7 : i32
      %is_tid = arith.cmpi eq, %tid, %c1 : index
      %is_bid = arith.cmpi eq, %bid, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      %i = arith.select %bad, %idx, %c0 : index
      memref.store %seven, %buf[%i] : memref<4xi32, #gpu.address_space<private>>
      gpu.barrier
      %v = memref.load %buf[%c0] : memref<4xi32, #gpu.address_space<private>>
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %out[%tid] : memref<8xf32>
      gpu.return
    }
  }

  func.func @launch(%idx: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %dev = gpu.alloc () : memref<8xf32>
    // BEFORE: private-store-out-of-bounds.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func: kernel 'store': private memory written out of bounds in block (1, 0, 0), thread (1, 0, 0): a store changed bytes 4 to 1 before the start of an array of 16 bytes on the thread's stack; run with --check-bounds to find the store
    // PAST: private-store-out-of-bounds.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store': private memory written out of bounds in block (1, 0, 0), thread (1, 0, 0): a store changed bytes 0 to 3 past the end of an array of 16 bytes on the thread's stack; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @before() {
    %idx = arith.constant -1 : index
    call @launch(%idx) : (index) -> ()
    return
  }

  func.func @past() {
    %idx = arith.constant 4 : index
    call @launch(%idx) : (index) -> ()
    return
  }

  func.func @barrier_before() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant -1 : index
    %dev = gpu.alloc () : memref<8xf32>
    // SPLIT: private-store-out-of-bounds.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func: kernel 'store_barrier': private memory written out of bounds in block (1, 0, 0), thread (1, 0, 0): a store changed bytes 4 to 1 before the start of an array of 16 bytes on the thread's stack; run with --check-bounds to find the store
    // FIBERS: private-store-out-of-bounds.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store_barrier': private memory written out of bounds in block (1, 0, 0), thread (1, 0, 0): a store changed bytes 4 to 1 before the start of an array of 16 bytes on the thread's stack; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store_barrier blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @attribution_past() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant 4 : index
    %dev = gpu.alloc () : memref<8xf32>
    // ATTRIBUTION: private-store-out-of-bounds.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'attribution': private memory written out of bounds in block (1, 0, 0), thread (1, 0, 0): a store changed bytes 0 to 3 past the end of an array of 16 bytes on the thread's stack; run with --check-bounds to find the store
    gpu.launch_func @kernels::@attribution blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @inline(%idx: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %dev = gpu.alloc () : memref<8xf32>
    // INLINE-BEFORE: private-store-out-of-bounds.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func: kernel 'inline_kernel': private memory written out of bounds in block (1, 0, 0), thread (1, 0, 0): a store changed bytes 8 to 1 before the start of an array of 32 bytes on the thread's stack; run with --check-bounds to find the store
    // INLINE-PAST: private-store-out-of-bounds.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'inline_kernel': private memory written out of bounds in block (1, 0, 0), thread (1, 0, 0): a store changed bytes 0 to 7 past the end of an array of 32 bytes on the thread's stack; run with --check-bounds to find the store
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %one = arith.constant 1.0 : f64
      %buf = memref.alloca() : memref<4xf64>
      %is_tid = arith.cmpi eq, %tx, %c1 : index
      %is_bid = arith.cmpi eq, %bx, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      %i = arith.select %bad, %idx, %c0 : index
      memref.store %one, %buf[%i] : memref<4xf64>
      %v = memref.load %buf[%c0] : memref<4xf64>
      %f = arith.truncf %v : f64 to f32
      memref.store %f, %dev[%tx] : memref<8xf32>
      gpu.terminator
    }
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @inline_before() {
    %idx = arith.constant -1 : index
    call @inline(%idx) : (index) -> ()
    return
  }

  func.func @inline_past() {
    %idx = arith.constant 4 : index
    call @inline(%idx) : (index) -> ()
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @in_bounds() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %idx = arith.constant 3 : index
    %dev = gpu.alloc () : memref<8xf32>
    %host = memref.alloc () : memref<8xf32>
    gpu.launch_func @kernels::@store_barrier blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.memcpy %host, %dev : memref<8xf32>, memref<8xf32>
    %cast = memref.cast %host : memref<8xf32> to memref<*xf32>
    // IN-BOUNDS: [1, 1, 1, 1, 1, 1, 1, 1]
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    gpu.launch_func @kernels::@attribution blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.memcpy %host, %dev : memref<8xf32>, memref<8xf32>
    // IN-BOUNDS: [7, 7, 7, 7, 7, 7, 7, 7]
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<8xf32>
    gpu.dealloc %dev : memref<8xf32>
    return
  }
}
