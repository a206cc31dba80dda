// RUN: %gpu-runner %s | FileCheck %s

// gpu.launch_func and gpu.launch that depend on a token a gpu.wait waited
// for already (tokens are values: run/tokens-after-wait.mlir): the
// dependency is satisfied and the launch runs on a stream of its own, alone
// or next to a live token. The completed token is waited for again at the
// end.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%data: memref<8xi32>, %value: i32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %data[%i] : memref<8xi32>
      %s = arith.addi %v, %value : i32
      memref.store %s, %data[%i] : memref<8xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1 : i32
    %ten = arith.constant 10 : i32
    %hundred = arith.constant 100 : i32
    %host = memref.alloc() : memref<8xi32>
    %print = memref.cast %host : memref<8xi32> to memref<*xi32>

    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<8xi32>
    %t2 = gpu.memset async [%t1] %dev, %one : memref<8xi32>, i32
    gpu.wait [%t2]

    // A launch that depends on the completed %t2 only.
    %t3 = gpu.launch_func async [%t2] @kernels::@add blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%dev : memref<8xi32>, %ten : i32)
    // An inline launch on the completed %t2 and the live %t3.
    %t4 = gpu.launch async [%t2, %t3] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %v = memref.load %dev[%tx] : memref<8xi32>
      %s = arith.addi %v, %hundred : i32
      memref.store %s, %dev[%tx] : memref<8xi32>
      gpu.terminator
    }
    %t5 = gpu.memcpy async [%t4] %host, %dev : memref<8xi32>, memref<8xi32>
    gpu.wait [%t5, %t2]
    // CHECK: [111,  111,  111,  111,  111,  111,  111,  111]
    call @printMemrefI32(%print) : (memref<*xi32>) -> ()

    // A launch whose live token comes first and completed one second.
    %t6 = gpu.wait async
    %t7 = gpu.launch_func async [%t6, %t5] @kernels::@add blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%dev : memref<8xi32>, %one : i32)
    %t8 = gpu.memcpy async [%t7] %host, %dev : memref<8xi32>, memref<8xi32>
    gpu.wait [%t8]
    // CHECK: [112,  112,  112,  112,  112,  112,  112,  112]
    call @printMemrefI32(%print) : (memref<*xi32>) -> ()

    gpu.dealloc %dev : memref<8xi32>
    memref.dealloc %host : memref<8xi32>
    return
  }
}
