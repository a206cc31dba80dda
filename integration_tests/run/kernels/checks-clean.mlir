// Correct programs that a wrong check would report: atomics under
// contention, barriers in a loop, workgroup memory reused across barrier
// intervals, device memory reused after gpu.dealloc, async copies that are
// waited for, and host_shared memory that the host code writes (stores,
// memref.copy) before a kernel reads it. Under `--param checks=all` (ctest's lit-host-checks) they
// must run with no report at all; everywhere they print the same.
// RUN: %gpu-runner %s 2>&1 | FileCheck %s

// CHECK-NOT: error:
// CHECK: atomic sum: 2016
// CHECK-NEXT: scan: 64 2080
// CHECK-NEXT: reused: 7
// CHECK-NEXT: copied: 5
// CHECK-NEXT: shared: 18 10
// CHECK-NOT: error:

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // 64 threads add their ids to one workgroup counter, then one thread
    // copies it out after a barrier.
    gpu.func @atomic_sum(%out: memref<1xi32>)
        workgroup(%counter: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %zero = arith.constant 0 : i32
        memref.store %zero, %counter[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %ti = arith.index_cast %t : index to i32
      %old = memref.atomic_rmw addi %ti, %counter[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
      gpu.barrier
      scf.if %first {
        %v = memref.load %counter[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%c0] : memref<1xi32>
      }
      gpu.return
    }

    // A Hillis-Steele inclusive scan of 1s over 64 threads: each step reads
    // a neighbour's value, a barrier, writes its own, another barrier; the
    // buffer is reused by every step. Element i ends as i + 1: the last is
    // 64, and they add up to 2080.
    gpu.func @scan(%out: memref<64xi32>)
        workgroup(%buffer: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %one = arith.constant 1 : i32
      memref.store %one, %buffer[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = scf.while (%offset = %c1) : (index) -> index {
        %more = arith.cmpi ult, %offset, %c64 : index
        scf.condition(%more) %offset : index
      } do {
      ^bb0(%offset: index):
        %mine = memref.load %buffer[%t] : memref<64xi32, #gpu.address_space<workgroup>>
        %has = arith.cmpi uge, %t, %offset : index
        %from = arith.subi %t, %offset : index
        %source = arith.select %has, %from, %t : index
        %theirs = memref.load %buffer[%source] : memref<64xi32, #gpu.address_space<workgroup>>
        %zero = arith.constant 0 : i32
        %add = arith.select %has, %theirs, %zero : i32
        %sum = arith.addi %mine, %add : i32
        gpu.barrier
        memref.store %sum, %buffer[%t] : memref<64xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %doubled = arith.addi %offset, %offset : index
        scf.yield %doubled : index
      }
      %v = memref.load %buffer[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<64xi32>
      gpu.return
    }

    gpu.func @twice(%in: memref<4xi32>, %out: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<4xi32>
      %w = arith.addi %v, %v : i32
      memref.store %w, %out[%t] : memref<4xi32>
      gpu.return
    }

    gpu.func @fill(%m: memref<4xi32>, %value: i32) kernel {
      %t = gpu.thread_id x
      memref.store %value, %m[%t] : memref<4xi32>
      gpu.return
    }
  }

  func.func private @printI64(i64)
  func.func @print(%v: i32) {
    %w = arith.extsi %v : i32 to i64
    call @printI64(%w) : (i64) -> ()
    return
  }
  func.func private @printString(!llvm.ptr)
  func.func private @printNewline()
  llvm.mlir.global internal constant @sum_label("atomic sum: \00")
  llvm.mlir.global internal constant @scan_label("scan: \00")
  llvm.mlir.global internal constant @reused_label("reused: \00")
  llvm.mlir.global internal constant @copied_label("copied: \00")
  llvm.mlir.global internal constant @shared_label("shared: \00")
  llvm.mlir.global internal constant @space(" \00")

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %space = llvm.mlir.addressof @space : !llvm.ptr

    %sum = gpu.alloc () : memref<1xi32>
    gpu.launch_func @kernels::@atomic_sum blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%sum : memref<1xi32>)
    %hsum = memref.alloc() : memref<1xi32>
    gpu.memcpy %hsum, %sum : memref<1xi32>, memref<1xi32>
    %s = memref.load %hsum[%c0] : memref<1xi32>
    %sum_label = llvm.mlir.addressof @sum_label : !llvm.ptr
    call @printString(%sum_label) : (!llvm.ptr) -> ()
    call @print(%s) : (i32) -> ()
    call @printNewline() : () -> ()
    gpu.dealloc %sum : memref<1xi32>

    // The scan runs in two blocks: the workgroup memory is reused.
    %scan = gpu.alloc () : memref<64xi32>
    gpu.launch_func @kernels::@scan blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%scan : memref<64xi32>)
    gpu.launch_func @kernels::@scan blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%scan : memref<64xi32>)
    %hscan = memref.alloc() : memref<64xi32>
    gpu.memcpy %hscan, %scan : memref<64xi32>, memref<64xi32>
    %last = memref.load %hscan[%c63] : memref<64xi32>
    %total = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> index {
      %v = memref.load %hscan[%i] : memref<64xi32>
      %vi = arith.index_cast %v : i32 to index
      %next = arith.addi %acc, %vi : index
      scf.yield %next : index
    }
    %scan_label = llvm.mlir.addressof @scan_label : !llvm.ptr
    call @printString(%scan_label) : (!llvm.ptr) -> ()
    call @print(%last) : (i32) -> ()
    call @printString(%space) : (!llvm.ptr) -> ()
    %total32 = arith.index_cast %total : index to i32
    call @print(%total32) : (i32) -> ()
    call @printNewline() : () -> ()
    gpu.dealloc %scan : memref<64xi32>

    // Memory freed, then allocated again (maybe at the same address) and
    // written before it is read.
    %seven = arith.constant 7 : i32
    %a = gpu.alloc () : memref<4xi32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xi32>, %seven : i32)
    gpu.dealloc %a : memref<4xi32>
    %b = gpu.alloc () : memref<4xi32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%b : memref<4xi32>, %seven : i32)
    %hb = memref.alloc() : memref<4xi32>
    gpu.memcpy %hb, %b : memref<4xi32>, memref<4xi32>
    %r = memref.load %hb[%c0] : memref<4xi32>
    %reused_label = llvm.mlir.addressof @reused_label : !llvm.ptr
    call @printString(%reused_label) : (!llvm.ptr) -> ()
    call @print(%r) : (i32) -> ()
    call @printNewline() : () -> ()
    gpu.dealloc %b : memref<4xi32>

    // An async fill and copy back, waited for before the host reads.
    %five = arith.constant 5 : i32
    %t0 = gpu.wait async
    %c, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.launch_func async [%t1] @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%c : memref<4xi32>, %five : i32)
    %hc = memref.alloc() : memref<4xi32>
    %t3 = gpu.memcpy async [%t2] %hc, %c : memref<4xi32>, memref<4xi32>
    %t4 = gpu.dealloc async [%t3] %c : memref<4xi32>
    gpu.wait [%t4]
    %q = memref.load %hc[%c0] : memref<4xi32>
    %copied_label = llvm.mlir.addressof @copied_label : !llvm.ptr
    call @printString(%copied_label) : (!llvm.ptr) -> ()
    call @print(%q) : (i32) -> ()
    call @printNewline() : () -> ()

    // host_shared memory written by the host code's stores, then by
    // memref.copy, and read by a kernel.
    %nine = arith.constant 9 : i32
    %shared = gpu.alloc host_shared () : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %nine, %shared[%i] : memref<4xi32>
    }
    %doubled = gpu.alloc host_shared () : memref<4xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%shared : memref<4xi32>, %doubled : memref<4xi32>)
    %d1 = memref.load %doubled[%c0] : memref<4xi32>
    memref.copy %hc, %shared : memref<4xi32> to memref<4xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%shared : memref<4xi32>, %doubled : memref<4xi32>)
    %d2 = memref.load %doubled[%c0] : memref<4xi32>
    %shared_label = llvm.mlir.addressof @shared_label : !llvm.ptr
    call @printString(%shared_label) : (!llvm.ptr) -> ()
    call @print(%d1) : (i32) -> ()
    call @printString(%space) : (!llvm.ptr) -> ()
    call @print(%d2) : (i32) -> ()
    call @printNewline() : () -> ()
    gpu.dealloc %shared : memref<4xi32>
    gpu.dealloc %doubled : memref<4xi32>

    memref.dealloc %hsum : memref<1xi32>
    memref.dealloc %hscan : memref<64xi32>
    memref.dealloc %hb : memref<4xi32>
    memref.dealloc %hc : memref<4xi32>
    return
  }
}
