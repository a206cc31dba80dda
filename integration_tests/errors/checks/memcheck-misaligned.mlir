// memcheck: an f32 view two bytes into a byte buffer makes every element's
// address 2 past a multiple of 4. PTX's ld and st require naturally aligned
// addresses, and CUDA fails such a load with "misaligned address"; the host
// backend, which loads any address, ran it silently before memcheck.
// RUN: %expect-exit-1 %gpu-runner %s --check=memcheck 2>&1 | FileCheck %s
// RUN: %gpu-runner %s | FileCheck %s --check-prefix=UNCHECKED

// CHECK: memcheck-misaligned.mlir:[[# @LINE + 6]]:12: error: memcheck: memref.load: misaligned load in kernel 'sum', block (0, 0, 0), thread (0, 0, 0): address 0x{{[0-9a-f]+}} is 2 bytes past a multiple of 4, the alignment a GPU requires of an access of 4 bytes (PTX ISA, ld and st: the address must be naturally aligned); a GPU fails with a misaligned address
// CHECK-NEXT: --check=memcheck: 1 error (memcheck 1)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum(%in: memref<4xf32>, %out: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%t] : memref<4xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i8
    %bytes = gpu.alloc () : memref<32xi8>
    gpu.memset %bytes, %zero : memref<32xi8>, i8
    %in = memref.view %bytes[%c2][] : memref<32xi8> to memref<4xf32>
    %out = gpu.alloc () : memref<4xf32>
    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%in : memref<4xf32>, %out : memref<4xf32>)
    %host = memref.alloc() : memref<4xf32>
    gpu.memcpy %host, %out : memref<4xf32>, memref<4xf32>
    // UNCHECKED: [0, 0, 0, 0]
    %cast = memref.cast %host : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<4xf32>
    gpu.dealloc %out : memref<4xf32>
    gpu.dealloc %bytes : memref<32xi8>
    return
  }
}
