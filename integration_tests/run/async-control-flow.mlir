// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// Control flow inside async.execute bodies: loops, branches and assertions
// become blocks, and upstream's coroutine lowering takes a body of one block
// only, so gpu-runner outlines what is not async out of each body
// (gpu-runner-outline-async-bodies). Values reach the bodies captured from
// above and as async operands; an await in a body still suspends it between
// two loops, with the body's stack memory alive across it; a nested
// async.execute runs inside an outer body.

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %h0 = memref.alloc() : memref<4xi32>
  %h1 = memref.alloc() : memref<4xi32>
  %sum = memref.alloc() : memref<4xi32>
  %print = memref.cast %sum : memref<4xi32> to memref<*xi32>

  // A loop stores into buffers captured from above; a passing cf.assert.
  // Its result leaves the region as an async value.
  %t0, %f0 = async.execute -> !async.value<i32> {
    cf.assert %true, "never fails"
    %total = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> index {
      %v = arith.index_cast %i : index to i32
      memref.store %v, %h0[%i] : memref<4xi32>
      %ten = arith.constant 10 : i32
      %w = arith.muli %v, %ten : i32
      memref.store %w, %h1[%i] : memref<4xi32>
      %next = arith.addi %acc, %i : index
      scf.yield %next : index
    }
    %r = arith.index_cast %total : index to i32
    async.yield %r : i32
  }

  // Both buffers copied to the device and back with gpu.memcpy inside a
  // loop, then summed; an scf.if puts the first region's value, passed as
  // an async operand, in the last element.
  %t1 = async.execute [%t0] (%f0 as %total : !async.value<i32>) {
    %d0 = gpu.alloc () : memref<4xi32>
    %d1 = gpu.alloc () : memref<4xi32>
    %back0 = memref.alloc() : memref<4xi32>
    %back1 = memref.alloc() : memref<4xi32>
    scf.for %round = %c0 to %c4 step %c1 {
      gpu.memcpy %d0, %h0 : memref<4xi32>, memref<4xi32>
      gpu.memcpy %d1, %h1 : memref<4xi32>, memref<4xi32>
      gpu.memcpy %back0, %d0 : memref<4xi32>, memref<4xi32>
      gpu.memcpy %back1, %d1 : memref<4xi32>, memref<4xi32>
    }
    scf.for %i = %c0 to %c4 step %c1 {
      %a = memref.load %back0[%i] : memref<4xi32>
      %b = memref.load %back1[%i] : memref<4xi32>
      %is_last = arith.cmpi eq, %i, %c3 : index
      %s = scf.if %is_last -> i32 {
        scf.yield %total : i32
      } else {
        %ab = arith.addi %a, %b : i32
        scf.yield %ab : i32
      }
      memref.store %s, %sum[%i] : memref<4xi32>
    }
    gpu.dealloc %d0 : memref<4xi32>
    gpu.dealloc %d1 : memref<4xi32>
    memref.dealloc %back0 : memref<4xi32>
    memref.dealloc %back1 : memref<4xi32>
    async.yield
  }
  async.await %t1 : !async.token
  // CHECK: [0,  11,  22,  6]
  call @printMemrefI32(%print) : (memref<*xi32>) -> ()

  // A nested async.execute inside a body, and an await between two loops:
  // the first loop's value crosses the await into the second.
  %t2, %f2 = async.execute -> !async.value<index> {
    %count = scf.for %i = %c0 to %c4 step %c1 iter_args(%n = %c0) -> index {
      %next = arith.addi %n, %c1 : index
      scf.yield %next : index
    }
    %inner = async.execute {
      scf.for %i = %c0 to %count step %c1 {
        %v = memref.load %h0[%i] : memref<4xi32>
        %w = arith.addi %v, %v : i32
        memref.store %w, %sum[%i] : memref<4xi32>
      }
      async.yield
    }
    async.await %inner : !async.token
    %last = scf.for %i = %c0 to %count step %c1 iter_args(%l = %c0) -> index {
      %v = memref.load %sum[%i] : memref<4xi32>
      %positive = arith.cmpi sge, %v, %v : i32
      cf.assert %positive, "a doubled value"
      scf.yield %i : index
    }
    async.yield %last : index
  }
  %last = async.await %f2 : !async.value<index>
  %last_i32 = arith.index_cast %last : index to i32
  memref.store %last_i32, %sum[%c0] : memref<4xi32>
  // CHECK: [3,  2,  4,  6]
  call @printMemrefI32(%print) : (memref<*xi32>) -> ()

  // Stack memory of the body lives across an await: the alloca stays in
  // the body, and the loops on either side of the await get it passed.
  %t3 = async.execute {
    %buffer = memref.alloca() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %h1[%i] : memref<4xi32>
      memref.store %v, %buffer[%i] : memref<4xi32>
    }
    async.await %t2 : !async.token
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %buffer[%i] : memref<4xi32>
      %w = arith.muli %v, %v : i32
      memref.store %w, %sum[%i] : memref<4xi32>
    }
    async.yield
  }
  async.await %t3 : !async.token
  // CHECK: [0,  100,  400,  900]
  call @printMemrefI32(%print) : (memref<*xi32>) -> ()

  memref.dealloc %h0 : memref<4xi32>
  memref.dealloc %h1 : memref<4xi32>
  memref.dealloc %sum : memref<4xi32>
  return
}
