// racecheck: threads of a block that touch the same workgroup memory in one
// barrier interval, one of them writing, race: nothing orders them on a
// GPU. Each kind of hazard is reported once, at the op, with the other
// access; the program runs to its end, and the run fails with the summary.
// A barrier between the two accesses, or an atomic, is no race (the last
// two kernels). The same under fibers (--no-barrier-splitting).
// RUN: %expect-exit-1 %gpu-runner %s --check=racecheck 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %gpu-runner %s --check=racecheck --no-barrier-splitting 2>&1 | FileCheck %s
// Without the check, the host runs the threads in order and the reversal
// "works": thread t reads what thread 63 - t wrote only when it came first.
// RUN: %gpu-runner %s | FileCheck %s --check-prefix=UNCHECKED

// CHECK-DAG: racecheck-workgroup.mlir:[[# @LINE + 17]]:7: error: racecheck: memref.store: write-after-read hazard in kernel 'reverse', block (0, 0, 0): thread (32, 0, 0) writes bytes [128, 132) of workgroup memory, which thread (31, 0, 0) read at memref.load at {{.*}}racecheck-workgroup.mlir:[[# @LINE + 19]]:12 since the last barrier: nothing orders the two on a GPU (a gpu.barrier between them would)
// CHECK-DAG: racecheck-workgroup.mlir:[[# @LINE + 18]]:12: error: racecheck: memref.load: read-after-write hazard in kernel 'reverse', block (0, 0, 0): thread (32, 0, 0) reads bytes [124, 128) of workgroup memory, which thread (31, 0, 0) wrote at memref.store at {{.*}}racecheck-workgroup.mlir:[[# @LINE + 16]]:7 since the last barrier
// CHECK-DAG: racecheck-workgroup.mlir:[[# @LINE + 28]]:7: error: racecheck: memref.store: write-after-write hazard in kernel 'flag', block (0, 0, 0): thread (1, 0, 0) writes bytes [0, 4) of workgroup memory, which thread (0, 0, 0) wrote at memref.store at {{.*}}racecheck-workgroup.mlir:[[# @LINE + 28]]:7 since the last barrier
// CHECK: done
// CHECK-NEXT: --check=racecheck: 3 errors (racecheck 3)

// UNCHECKED: done

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Each thread writes its slot and reads its mirror's, with no barrier
    // in between.
    gpu.func @reverse(%out: memref<64xi32>)
        workgroup(%s: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c63 = arith.constant 63 : index
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %s[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      %mirror = arith.subi %c63, %t : index
      %v = memref.load %s[%mirror] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<64xi32>
      gpu.return
    }

    // Every thread writes the same slot.
    gpu.func @flag(%out: memref<64xi32>)
        workgroup(%s: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      memref.store %one, %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<64xi32>
      gpu.return
    }

    // The reversal done right: a barrier between the store and the load.
    gpu.func @reverse_with_barrier(%out: memref<64xi32>)
        workgroup(%s: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c63 = arith.constant 63 : index
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %s[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %mirror = arith.subi %c63, %t : index
      %v = memref.load %s[%mirror] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<64xi32>
      gpu.return
    }

    // Atomic adds to one counter, then a barrier and a read: no race.
    gpu.func @count(%out: memref<64xi32>)
        workgroup(%s: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %zero, %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %old = memref.atomic_rmw addi %one, %s[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
      gpu.barrier
      %v = memref.load %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<64xi32>
      gpu.return
    }
  }

  func.func private @printString(!llvm.ptr)
  llvm.mlir.global internal constant @done("done\0A\00")

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = gpu.alloc () : memref<64xi32>
    gpu.launch_func @kernels::@reverse blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    gpu.launch_func @kernels::@flag blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    gpu.launch_func @kernels::@reverse_with_barrier blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    gpu.launch_func @kernels::@count blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    gpu.dealloc %out : memref<64xi32>
    %text = llvm.mlir.addressof @done : !llvm.ptr
    call @printString(%text) : (!llvm.ptr) -> ()
    return
  }
}
