// Threads that returned no longer count at a barrier (a GPU waits for the
// non-exited threads only), but the threads that have not returned still
// deadlock, and are reported, when they wait at different barriers or at a
// shuffle. In each kernel the threads at or above %n return first, and the
// others pass a first barrier together before they part.
// RUN: %expect-exit-1 %gpu-runner %s -e two_barriers 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: %expect-exit-1 %gpu-runner --no-barrier-splitting %s -e two_barriers 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: %expect-exit-1 %gpu-runner %s -e barrier_and_shuffle 2>&1 | FileCheck %s --check-prefix=SHUFFLE
// RUN: %expect-exit-1 %gpu-runner %s -e shuffle_of_exited 2>&1 | FileCheck %s --check-prefix=EXITED

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // The live threads below 16 wait at one barrier, the others at another.
    gpu.func @two_barriers(%n: index) kernel {
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %outside = arith.cmpi uge, %tid, %n : index
      cf.cond_br %outside, ^exit, ^work
    ^exit:
      gpu.return
    ^work:
      gpu.barrier
      %low = arith.cmpi ult, %tid, %c16 : index
      scf.if %low {
        // TWO: barrier-exit-deadlock.mlir:[[# @LINE + 1]]:9: error: gpu.barrier: deadlock in kernel 'two_barriers', block (0, 0, 0): thread (0, 0, 0) waits at this barrier, but thread (16, 0, 0) waits at another one, gpu.barrier at {{.*}}barrier-exit-deadlock.mlir:[[# @LINE + 3]]:9; all the threads of a block must wait at the same barrier
        gpu.barrier
      } else {
        gpu.barrier
      }
      gpu.return
    }

    // The first warp waits at a barrier while the live lanes of the second
    // wait at a shuffle that needs lanes which returned: neither can go on.
    gpu.func @barrier_and_shuffle(%n: index, %out: memref<64xi32>) kernel {
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %outside = arith.cmpi uge, %tid, %n : index
      cf.cond_br %outside, ^exit, ^work
    ^exit:
      gpu.return
    ^work:
      gpu.barrier
      %first_warp = arith.cmpi ult, %tid, %c32 : index
      cf.cond_br %first_warp, ^a, ^b
    ^a:
      // SHUFFLE: barrier-exit-deadlock.mlir:[[# @LINE + 1]]:7: error: gpu.barrier: deadlock in kernel 'barrier_and_shuffle', block (0, 0, 0): 32 of 64 threads wait at this barrier, 24 returned, but thread (32, 0, 0) waits at gpu.shuffle at {{.*}}barrier-exit-deadlock.mlir:[[# @LINE + 7]]:20
      gpu.barrier
      gpu.return
    ^b:
      %x = arith.constant 1 : i32
      %c1_i32 = arith.constant 1 : i32
      %c32_i32 = arith.constant 32 : i32
      %v, %valid = gpu.shuffle xor %x, %c1_i32, %c32_i32 : i32
      memref.store %v, %out[%tid] : memref<64xi32>
      gpu.return
    }

    // Every live thread reaches the shuffle, but in the second warp lanes 8
    // to 31 returned: gpu.shuffle needs "the first `width` lanes of the
    // subgroup" active (the op's description), and on CUDA a lane that
    // reads an exited one gets an undefined value. Reported, not made up.
    gpu.func @shuffle_of_exited(%n: index, %out: memref<64xi32>) kernel {
      %tid = gpu.thread_id x
      %outside = arith.cmpi uge, %tid, %n : index
      cf.cond_br %outside, ^exit, ^work
    ^exit:
      gpu.return
    ^work:
      gpu.barrier
      %x = arith.constant 1 : i32
      %c1_i32 = arith.constant 1 : i32
      %c32_i32 = arith.constant 32 : i32
      // EXITED: barrier-exit-deadlock.mlir:[[# @LINE + 1]]:20: error: gpu.shuffle: deadlock in kernel 'shuffle_of_exited', block (0, 0, 0): this shuffle of width 32 needs lanes 0-31 of subgroup 1, but lanes 8-31 (threads (40, 0, 0) to (63, 0, 0)) returned without reaching it
      %v, %valid = gpu.shuffle xor %x, %c1_i32, %c32_i32 : i32
      memref.store %v, %out[%tid] : memref<64xi32>
      gpu.return
    }
  }

  func.func @two_barriers() {
    %c1 = arith.constant 1 : index
    %c30 = arith.constant 30 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@two_barriers blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%c30 : index)
    return
  }

  func.func @barrier_and_shuffle() {
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xi32>
    gpu.launch_func @kernels::@barrier_and_shuffle blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%c40 : index, %out : memref<64xi32>)
    gpu.dealloc %out : memref<64xi32>
    return
  }

  func.func @shuffle_of_exited() {
    %c1 = arith.constant 1 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xi32>
    gpu.launch_func @kernels::@shuffle_of_exited blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%c40 : index, %out : memref<64xi32>)
    gpu.dealloc %out : memref<64xi32>
    return
  }
}
