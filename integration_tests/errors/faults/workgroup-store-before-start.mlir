// A kernel's store one element before its workgroup memory changes the
// pattern-filled margin before it: an error at the launch that names the
// kernel, the block and the bytes, never the runner's heap corrupted. The
// same whether the block's threads run as one loop, as loops cut at a
// barrier, or as fibers, and for an inline gpu.launch. A store further
// before (400 bytes) lands in the rest of the page, which is checked once
// each thread has run its blocks of the launch: the error then says "one of
// its blocks".
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %expect-exit-1 %gpu-runner %s -e split 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %expect-exit-1 %gpu-runner %s -e split --no-barrier-splitting 2>&1 | FileCheck %s --check-prefix=FIBERS
// RUN: %expect-exit-1 %gpu-runner %s -e inline 2>&1 | FileCheck %s --check-prefix=INLINE
// RUN: %expect-exit-1 %gpu-runner %s -e far_before 2>&1 | FileCheck %s --check-prefix=FAR

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread 0 of block 1 stores at %idx.
    gpu.func @store(%out: memref<8xf32>, %idx: index)
        workgroup(%buf: memref<16xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %is_tid = arith.cmpi eq, %tid, %c0 : index
      %is_bid = arith.cmpi eq, %bid, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      %i = arith.select %bad, %idx, %tid : index
      memref.store %one, %buf[%i] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %one, %out[%tid] : memref<8xf32>
      gpu.return
    }

    // The same, then a barrier and a load of the thread's element.
    gpu.func @store_barrier(%out: memref<8xf32>, %idx: index)
        workgroup(%buf: memref<16xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %is_tid = arith.cmpi eq, %tid, %c0 : index
      %is_bid = arith.cmpi eq, %bid, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      %i = arith.select %bad, %idx, %tid : index
      memref.store %one, %buf[%i] : memref<16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %buf[%tid] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tid] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant -1 : index
    %dev = gpu.alloc () : memref<8xf32>
    // LOOP: workgroup-store-before-start.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 4 to 1 before the start of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @split() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant -1 : index
    %dev = gpu.alloc () : memref<8xf32>
    // SPLIT: workgroup-store-before-start.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func: kernel 'store_barrier': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 4 to 1 before the start of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    // FIBERS: workgroup-store-before-start.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store_barrier': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 4 to 1 before the start of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store_barrier blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @far_before() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant -100 : index
    %dev = gpu.alloc () : memref<8xf32>
    // FAR: workgroup-store-before-start.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store': workgroup memory written out of bounds in one of its blocks: a store changed bytes 400 to 397 before the start of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @inline() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant -1 : index
    %dev = gpu.alloc () : memref<8xf32>
    // INLINE: workgroup-store-before-start.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'inline_kernel': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 4 to 1 before the start of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
        workgroup(%buf: memref<16xf32, #gpu.address_space<workgroup>>) {
      %one = arith.constant 1.0 : f32
      %is_tid = arith.cmpi eq, %tx, %c0 : index
      %is_bid = arith.cmpi eq, %bx, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      %i = arith.select %bad, %idx, %tx : index
      memref.store %one, %buf[%i] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %one, %dev[%tx] : memref<8xf32>
      gpu.terminator
    }
    gpu.dealloc %dev : memref<8xf32>
    return
  }
}
