// Barriers reached by every thread together, in the kernel's body and inside
// a loop and a branch that are the same for all threads of a block; values
// each thread computes before a barrier and uses after it. The kernel runs
// as loops over the threads between barriers, or, with
// --no-barrier-splitting, on fibers: both print the same.
// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @rotate(%out: memref<2x32xi32>)
        workgroup(%ring: memref<32xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bid = gpu.block_id x
      // A 4 x 8 block: linear id l = 4 y + x.
      %l = affine.apply affine_map<(x, y) -> (y * 4 + x)>(%tx, %ty)
      // mine = 3 l + 100 b, needed after every barrier below.
      %mine_index = affine.apply affine_map<(l, b) -> (l * 3 + b * 100)>(%l, %bid)
      %mine = arith.index_cast %mine_index : index to i32
      %pair = vector.broadcast %mine : i32 to vector<2xi32>
      memref.store %mine, %ring[%l] : memref<32xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      // Three rotations of the ring by one, a barrier between reading and
      // writing; the loop-carried sum is the same for all threads.
      %zero = arith.constant 0 : i32
      %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> i32 {
        %next_index = affine.apply affine_map<(l) -> ((l + 1) mod 32)>(%l)
        %neighbour = memref.load %ring[%next_index] : memref<32xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %one = arith.constant 1 : i32
        %plus = arith.addi %neighbour, %one : i32
        memref.store %plus, %ring[%l] : memref<32xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %k32 = arith.index_cast %k : index to i32
        %acc_next = arith.addi %acc, %k32 : i32
        scf.yield %acc_next : i32
      }
      // Block 0 doubles its ring, with a barrier inside the branch, and
      // returns each thread's value from before.
      %first_block = arith.cmpi eq, %bid, %c0 : index
      %before = scf.if %first_block -> (i32) {
        %x = memref.load %ring[%l] : memref<32xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %doubled = arith.addi %x, %x : i32
        memref.store %doubled, %ring[%l] : memref<32xi32, #gpu.address_space<workgroup>>
        scf.yield %x : i32
      } else {
        scf.yield %zero : i32
      }
      gpu.barrier
      %r = memref.load %ring[%l] : memref<32xi32, #gpu.address_space<workgroup>>
      %from_vector = vector.extract %pair[1] : i32 from vector<2xi32>
      %a = arith.addi %r, %mine : i32
      %b = arith.addi %a, %from_vector : i32
      %c = arith.addi %b, %sum : i32
      %d = arith.addi %c, %before : i32
      memref.store %d, %out[%bid, %l] : memref<2x32xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %out = gpu.alloc () : memref<2x32xi32>
    gpu.launch_func @kernels::@rotate blocks in (%c2, %c1, %c1) threads in (%c4, %c8, %c1)
        args(%out : memref<2x32xi32>)
    %h = memref.alloc() : memref<2x32xi32>
    gpu.memcpy %h, %out : memref<2x32xi32>, memref<2x32xi32>
    // CHECK:      {{\[}}[39,   54,   69,   84,   99,   114,   129,   144,   159,   174,   189,   204,   219,   234,   249,   264,   279,   294,   309,   324,   339,   354,   369,   384,   399,   414,   429,   444,   459,   186,   201,   216],
    // CHECK-NEXT:  [315,   324,   333,   342,   351,   360,   369,   378,   387,   396,   405,   414,   423,   432,   441,   450,   459,   468,   477,   486,   495,   504,   513,   522,   531,   540,   549,   558,   567,   480,   489,   498]]
    %u = memref.cast %h : memref<2x32xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %out : memref<2x32xi32>
    return
  }
}
