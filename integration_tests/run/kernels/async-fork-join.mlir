// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// async.execute regions around gpu ops: one copies to the device, two copy
// that buffer on in parallel (fork), a kernel adds both copies (join). The
// gpu tokens cross async.yield and async.await as upstream's
// gpu-async-region arranges them; the runtime needs no flag.

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %count = arith.constant 4 : index
  %h0 = memref.alloc(%count) : memref<?xi32>
  %h0_unranked = memref.cast %h0 : memref<?xi32> to memref<*xi32>
  gpu.host_register %h0_unranked : memref<*xi32>
  scf.for %i = %c0 to %count step %c1 {
    %v = arith.index_cast %i : index to i32
    %ten = arith.constant 10 : i32
    %w = arith.addi %v, %ten : i32
    memref.store %w, %h0[%i] : memref<?xi32>
  }

  %t0, %f0 = async.execute () -> !async.value<memref<?xi32>> {
    %b0 = gpu.alloc(%count) : memref<?xi32>
    gpu.memcpy %b0, %h0 : memref<?xi32>, memref<?xi32>
    async.yield %b0 : memref<?xi32>
  }
  %t1, %f1 = async.execute [%t0] (
    %f0 as %b0 : !async.value<memref<?xi32>>
  ) -> !async.value<memref<?xi32>> {
    %b1 = gpu.alloc(%count) : memref<?xi32>
    gpu.memcpy %b1, %b0 : memref<?xi32>, memref<?xi32>
    async.yield %b1 : memref<?xi32>
  }
  %t2, %f2 = async.execute [%t0] (
    %f0 as %b0 : !async.value<memref<?xi32>>
  ) -> !async.value<memref<?xi32>> {
    %b2 = gpu.alloc(%count) : memref<?xi32>
    gpu.memcpy %b2, %b0 : memref<?xi32>, memref<?xi32>
    async.yield %b2 : memref<?xi32>
  }
  %t3 = async.execute [%t1, %t2] (
    %f1 as %b1 : !async.value<memref<?xi32>>,
    %f2 as %b2 : !async.value<memref<?xi32>>
  ) {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %count, %sy = %c1, %sz = %c1) {
      %v1 = memref.load %b1[%tx] : memref<?xi32>
      %v2 = memref.load %b2[%tx] : memref<?xi32>
      %sum = arith.addi %v1, %v2 : i32
      memref.store %sum, %h0[%tx] : memref<?xi32>
      gpu.terminator
    }
    gpu.dealloc %b1 : memref<?xi32>
    gpu.dealloc %b2 : memref<?xi32>
    async.yield
  }
  async.await %t3 : !async.token
  %b0 = async.await %f0 : !async.value<memref<?xi32>>
  gpu.dealloc %b0 : memref<?xi32>

  // CHECK: [20,  22,  24,  26]
  call @printMemrefI32(%h0_unranked) : (memref<*xi32>) -> ()
  gpu.host_unregister %h0_unranked : memref<*xi32>
  return
}
