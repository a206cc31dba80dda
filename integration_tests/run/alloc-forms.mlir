// RUN: %gpu-runner %s 2>&1 | FileCheck %s

// gpu.alloc and gpu.dealloc, sync and async, host_shared, and memory spaces
// given as #gpu.address_space.

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %nine = arith.constant 9 : i32

  // host_shared memory is accessible from the host as it is.
  %shared = gpu.alloc host_shared () : memref<4xi32>
  gpu.memset %shared, %nine : memref<4xi32>, i32
  %three = arith.constant 3 : i32
  memref.store %three, %shared[%c1] : memref<4xi32>
  // CHECK: [9,  3,  9,  9]
  %us = memref.cast %shared : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%us) : (memref<*xi32>) -> ()
  gpu.dealloc %shared : memref<4xi32>

  // Async allocation, memset, copy and free, in a global address space.
  %t0 = gpu.wait async
  %dev, %t1 = gpu.alloc async [%t0] (%c4) : memref<?xi32, #gpu.address_space<global>>
  %t2 = gpu.memset async [%t1] %dev, %three : memref<?xi32, #gpu.address_space<global>>, i32
  %host = memref.alloc(%c4) : memref<?xi32>
  %t3 = gpu.memcpy async [%t2] %host, %dev : memref<?xi32>, memref<?xi32, #gpu.address_space<global>>
  %t4 = gpu.dealloc async [%t3] %dev : memref<?xi32, #gpu.address_space<global>>
  gpu.wait [%t4]
  // CHECK: [3,  3,  3,  3]
  %uh = memref.cast %host : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%uh) : (memref<*xi32>) -> ()

  // Nothing was leaked, so nothing is reported at exit.
  // CHECK-NOT: warning
  return
}
