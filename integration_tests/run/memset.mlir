// RUN: %gpu-runner %s | FileCheck %s

// gpu.memset of every element width, and of one column of a matrix.

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF64(memref<*xf64>)
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefF16(memref<*xf16>) attributes { llvm.emit_c_interface }

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index

  // i8, widened to i32 on the host to print numbers rather than characters.
  %v8 = arith.constant -7 : i8
  %d8 = gpu.alloc () : memref<5xi8>
  gpu.memset %d8, %v8 : memref<5xi8>, i8
  %h8 = memref.alloc() : memref<5xi8>
  gpu.memcpy %h8, %d8 : memref<5xi8>, memref<5xi8>
  %w8 = memref.alloc() : memref<5xi32>
  scf.for %i = %c0 to %c5 step %c1 {
    %b = memref.load %h8[%i] : memref<5xi8>
    %w = arith.extsi %b : i8 to i32
    memref.store %w, %w8[%i] : memref<5xi32>
  }
  // CHECK: [-7,  -7,  -7,  -7,  -7]
  %u8 = memref.cast %w8 : memref<5xi32> to memref<*xi32>
  call @printMemrefI32(%u8) : (memref<*xi32>) -> ()

  // f16
  %v16 = arith.constant 2.5 : f16
  %d16 = gpu.alloc () : memref<3xf16>
  %t16 = gpu.memset async %d16, %v16 : memref<3xf16>, f16
  gpu.wait [%t16]
  %h16 = memref.alloc() : memref<3xf16>
  gpu.memcpy %h16, %d16 : memref<3xf16>, memref<3xf16>
  // CHECK: [2.5,  2.5,  2.5]
  %u16 = memref.cast %h16 : memref<3xf16> to memref<*xf16>
  call @printMemrefF16(%u16) : (memref<*xf16>) -> ()

  // i64, with a value no narrower memset could produce.
  %v64 = arith.constant 81985529216486895 : i64
  %d64 = gpu.alloc () : memref<2xi64>
  gpu.memset %d64, %v64 : memref<2xi64>, i64
  %h64 = memref.alloc() : memref<2xi64>
  gpu.memcpy %h64, %d64 : memref<2xi64>, memref<2xi64>
  // CHECK: [81985529216486895,  81985529216486895]
  %u64 = memref.cast %h64 : memref<2xi64> to memref<*xi64>
  call @printMemrefI64(%u64) : (memref<*xi64>) -> ()

  // f64
  %vf64 = arith.constant -0.125 : f64
  %df64 = gpu.alloc () : memref<2xf64>
  gpu.memset %df64, %vf64 : memref<2xf64>, f64
  %hf64 = memref.alloc() : memref<2xf64>
  gpu.memcpy %hf64, %df64 : memref<2xf64>, memref<2xf64>
  // CHECK: [-0.125,  -0.125]
  %uf64 = memref.cast %hf64 : memref<2xf64> to memref<*xf64>
  call @printMemrefF64(%uf64) : (memref<*xf64>) -> ()

  // Column 1 of a 4x3 matrix of zeros.
  %zero = arith.constant 0.0 : f32
  %seven = arith.constant 7.0 : f32
  %matrix = gpu.alloc () : memref<4x3xf32>
  gpu.memset %matrix, %zero : memref<4x3xf32>, f32
  %column = memref.subview %matrix[0, 1] [4, 1] [1, 1]
      : memref<4x3xf32> to memref<4x1xf32, strided<[3, 1], offset: 1>>
  gpu.memset %column, %seven : memref<4x1xf32, strided<[3, 1], offset: 1>>, f32
  %hm = memref.alloc() : memref<4x3xf32>
  gpu.memcpy %hm, %matrix : memref<4x3xf32>, memref<4x3xf32>
  // CHECK:      {{\[}}[0,   7,   0],
  // CHECK-NEXT:  [0,   7,   0],
  // CHECK-NEXT:  [0,   7,   0],
  // CHECK-NEXT:  [0,   7,   0]]
  %um = memref.cast %hm : memref<4x3xf32> to memref<*xf32>
  call @printMemrefF32(%um) : (memref<*xf32>) -> ()

  gpu.dealloc %d8 : memref<5xi8>
  gpu.dealloc %d16 : memref<3xf16>
  gpu.dealloc %d64 : memref<2xi64>
  gpu.dealloc %df64 : memref<2xf64>
  gpu.dealloc %matrix : memref<4x3xf32>
  return
}
