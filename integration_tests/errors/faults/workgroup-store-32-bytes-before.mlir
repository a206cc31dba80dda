// A kernel's store eight f32 elements (32 bytes) before its workgroup
// memory, which once passed silently, changes the margin before it: an
// error at the launch, with the threads as one loop and as fibers.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %expect-exit-1 %gpu-runner %s -e split 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %expect-exit-1 %gpu-runner %s -e split --no-barrier-splitting 2>&1 | FileCheck %s --check-prefix=FIBERS

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
    %idx = arith.constant -8 : index
    %dev = gpu.alloc () : memref<8xf32>
    // LOOP: workgroup-store-32-bytes-before.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 32 to 29 before the start of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @split() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant -8 : index
    %dev = gpu.alloc () : memref<8xf32>
    // SPLIT: workgroup-store-32-bytes-before.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func: kernel 'store_barrier': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 32 to 29 before the start of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    // FIBERS: workgroup-store-32-bytes-before.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store_barrier': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 32 to 29 before the start of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store_barrier blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }
}
