// A kernel that writes far out of bounds faults; the fault is reported with
// the kernel, the block and (on fibers) the thread, at the launch, with exit
// status 1 and never as a raw segmentation fault. What the program printed
// before comes first.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %expect-exit-1 %gpu-runner %s -e fibers --no-barrier-splitting 2>&1 | FileCheck %s --check-prefix=FIBERS

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread 3 of block 1 writes 4 GB past the end.
    gpu.func @scatter(%out: memref<16xf32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %far = arith.constant 1000000000 : index
      %is_tid = arith.cmpi eq, %tid, %c3 : index
      %is_bid = arith.cmpi eq, %bid, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      %i = arith.select %bad, %far, %tid : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %out[%i] : memref<16xf32>
      gpu.return
    }

    // The same with a shuffle, so that with --no-barrier-splitting each GPU
    // thread is a fiber.
    gpu.func @scatter_shuffle(%out: memref<16xf32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c1_i32 = arith.constant 1 : i32
      %c32_i32 = arith.constant 32 : i32
      %far = arith.constant 1000000000 : index
      %one = arith.constant 1.0 : f32
      %v, %valid = gpu.shuffle xor %one, %c1_i32, %c32_i32 : f32
      %is_tid = arith.cmpi eq, %tid, %c3 : index
      %is_bid = arith.cmpi eq, %bid, %c1 : index
      %bad = arith.andi %is_tid, %is_bid : i1
      %i = arith.select %bad, %far, %tid : index
      memref.store %v, %out[%i] : memref<16xf32>
      gpu.return
    }
  }

  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : i64
    %dev = gpu.alloc () : memref<16xf32>
    // LOOP: {{^}}7{{$}}
    call @printI64(%c7) : (i64) -> ()
    call @printNewline() : () -> ()
    // LOOP: kernel-fault.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'scatter': invalid memory access at 0x{{[0-9a-f]+}} in block (1, 0, 0) (the kernel runs its block's threads as one loop: run with --check-bounds to name the thread, and the load or store)
    gpu.launch_func @kernels::@scatter blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<16xf32>)
    gpu.dealloc %dev : memref<16xf32>
    return
  }

  func.func @fibers() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %dev = gpu.alloc () : memref<16xf32>
    // FIBERS: kernel-fault.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func: kernel 'scatter_shuffle': invalid memory access at 0x{{[0-9a-f]+}} in block (1, 0, 0), thread (3, 0, 0); run with --check-bounds to find the load or store
    gpu.launch_func @kernels::@scatter_shuffle blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%dev : memref<16xf32>)
    gpu.dealloc %dev : memref<16xf32>
    return
  }
}
