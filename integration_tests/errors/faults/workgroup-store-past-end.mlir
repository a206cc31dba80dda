// Stores past the end of a block's workgroup memory: one element past it
// changes the margin after it (an error once the block has run); 4 KiB past
// it, or through gpu.dynamic_shared_memory in a launch that asked for none,
// it faults in the inaccessible pages around it, which is reported as an
// access out of bounds of workgroup memory. Each at the launch, naming the
// kernel and the block, with the threads as one loop, as loops cut at a
// barrier and as fibers; the runner's heap is never reached.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %expect-exit-1 %gpu-runner %s -e split 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: %expect-exit-1 %gpu-runner %s -e split --no-barrier-splitting 2>&1 | FileCheck %s --check-prefix=FIBERS
// RUN: %expect-exit-1 %gpu-runner %s -e far 2>&1 | FileCheck %s --check-prefix=FAR
// RUN: %expect-exit-1 %gpu-runner %s -e far_fibers --no-barrier-splitting 2>&1 | FileCheck %s --check-prefix=FAR-FIBERS
// RUN: %expect-exit-1 %gpu-runner %s -e dynamic 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: %expect-exit-1 %gpu-runner %s -e no_dynamic 2>&1 | FileCheck %s --check-prefix=NO-DYNAMIC

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

    // Thread 0 of block 1 stores at %idx of the dynamic part, as i32.
    gpu.func @store_dynamic(%out: memref<8xf32>, %idx: index, %n: index) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : i32
      %one = arith.constant 1.0 : f32
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %buf = memref.view %raw[%c0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi32, #gpu.address_space<workgroup>>
      %is_tid = arith.cmpi eq, %tid, %c0 : index
      %is_bid = arith.cmpi eq, %bid, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      scf.if %bad {
        memref.store %c7, %buf[%idx] : memref<?xi32, #gpu.address_space<workgroup>>
      }
      memref.store %one, %out[%tid] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant 16 : index
    %dev = gpu.alloc () : memref<8xf32>
    // LOOP: workgroup-store-past-end.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 0 to 3 past the end of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @split() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant 16 : index
    %dev = gpu.alloc () : memref<8xf32>
    // SPLIT: workgroup-store-past-end.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func: kernel 'store_barrier': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 0 to 3 past the end of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    // FIBERS: workgroup-store-past-end.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store_barrier': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 0 to 3 past the end of the block's 64 bytes of workgroup memory; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store_barrier blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @far() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    // 16 + 1024 elements: 4096 bytes past the end.
    %idx = arith.constant 1040 : index
    %dev = gpu.alloc () : memref<8xf32>
    // FAR: workgroup-store-past-end.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store': workgroup memory accessed out of bounds at 0x{{[0-9a-f]+}} in block (1, 0, 0): 4096 bytes past the end of the block's 64 bytes of workgroup memory; run with --check-bounds to find the load or store
    gpu.launch_func @kernels::@store blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @far_fibers() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %idx = arith.constant -1040 : index
    %dev = gpu.alloc () : memref<8xf32>
    // FAR-FIBERS: workgroup-store-past-end.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store_barrier': workgroup memory accessed out of bounds at 0x{{[0-9a-f]+}} in block (1, 0, 0), thread (0, 0, 0): 4160 bytes before the start of the block's 64 bytes of workgroup memory; run with --check-bounds to find the load or store
    gpu.launch_func @kernels::@store_barrier blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<8xf32>, %idx : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @dynamic() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %bytes = arith.constant 32 : i32
    %dev = gpu.alloc () : memref<8xf32>
    // DYNAMIC: workgroup-store-past-end.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store_dynamic': workgroup memory written out of bounds in block (1, 0, 0): a store changed bytes 0 to 3 past the end of the block's 32 bytes of workgroup memory; run with --check-bounds to find the store
    gpu.launch_func @kernels::@store_dynamic blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
        dynamic_shared_memory_size %bytes
        args(%dev : memref<8xf32>, %c8 : index, %c8 : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }

  func.func @no_dynamic() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %dev = gpu.alloc () : memref<8xf32>
    // NO-DYNAMIC: workgroup-store-past-end.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'store_dynamic': workgroup memory accessed out of bounds at 0x{{[0-9a-f]+}} in block (1, 0, 0): 0 bytes past the end of the block's 0 bytes of workgroup memory; run with --check-bounds to find the load or store
    gpu.launch_func @kernels::@store_dynamic blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%dev : memref<8xf32>, %c0 : index, %c0 : index)
    gpu.dealloc %dev : memref<8xf32>
    return
  }
}
