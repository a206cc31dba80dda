// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s

// A bounds-checked vector add over 1000 elements in blocks of 128 threads:
// the last block has threads past the end, which must not write.

module attributes {gpu.container_module} {
  func.func private @printMemrefF32(memref<*xf32>)

  gpu.module @kernels {
    gpu.func @add(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000 : index
    %padded = arith.constant 1024 : index
    %block = arith.constant 128 : index
    %blocks = arith.ceildivui %n, %block : index
    %ha = memref.alloc(%n) : memref<?xf32>
    %hb = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %g = arith.mulf %f, %f : f32
      memref.store %f, %ha[%i] : memref<?xf32>
      memref.store %g, %hb[%i] : memref<?xf32>
    }
    %a = gpu.alloc (%n) : memref<?xf32>
    %b = gpu.alloc (%n) : memref<?xf32>
    // The output has room past n, filled with a sentinel that must survive.
    %c = gpu.alloc (%padded) : memref<?xf32>
    %sentinel = arith.constant -1.0 : f32
    gpu.memset %c, %sentinel : memref<?xf32>, f32
    gpu.memcpy %a, %ha : memref<?xf32>, memref<?xf32>
    gpu.memcpy %b, %hb : memref<?xf32>, memref<?xf32>
    gpu.launch_func @kernels::@add blocks in (%blocks, %c1, %c1) threads in (%block, %c1, %c1)
        args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>, %n : index)
    %hc = memref.alloc(%padded) : memref<?xf32>
    gpu.memcpy %hc, %c : memref<?xf32>, memref<?xf32>

    // c[i] = i + i * i, checked on the host; then the elements around n.
    %ok = scf.for %i = %c0 to %n step %c1 iter_args(%good = %c0) -> index {
      %x = memref.load %ha[%i] : memref<?xf32>
      %y = memref.load %hb[%i] : memref<?xf32>
      %s = arith.addf %x, %y : f32
      %got = memref.load %hc[%i] : memref<?xf32>
      %same = arith.cmpf oeq, %s, %got : f32
      %one = arith.select %same, %c1, %c0 : index
      %next = arith.addi %good, %one : index
      scf.yield %next : index
    }
    // CHECK: 1000
    %ok64 = arith.index_cast %ok : index to i64
    vector.print %ok64 : i64
    %tail = memref.subview %hc[996] [8] [1] : memref<?xf32> to memref<8xf32, strided<[1], offset: 996>>
    %ut = memref.cast %tail : memref<8xf32, strided<[1], offset: 996>> to memref<*xf32>
    // CHECK: [993012,  995006,  997002,  999000,  -1,  -1,  -1,  -1]
    call @printMemrefF32(%ut) : (memref<*xf32>) -> ()
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
}
