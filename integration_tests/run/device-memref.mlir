// The ROCm runtime's mgpuMemGetDeviceMemRef1dFloat and ...1dInt32, as
// upstream's ROCm tests call them: a host memref that gpu.host_register
// registered, returned at the device's address (hipHostGetDevicePointer,
// cuMemHostGetDevicePointer), with its offset, size and stride. A kernel
// writes through it, and the host sees what it wrote.
// RUN: %gpu-runner %s | FileCheck %s

func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xf32>) -> memref<?xf32>
// Declared with a dynamic offset, which the runtime's descriptor carries.
func.func private @mgpuMemGetDeviceMemRef1dInt32(
    memref<?xi32, strided<[1], offset: ?>>)
    -> memref<?xi32, strided<[1], offset: ?>>
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.5 : f32
  %seven = arith.constant 7 : i32

  %floats = memref.alloc() : memref<5xf32>
  linalg.fill ins(%one : f32) outs(%floats : memref<5xf32>)
  %floats_unranked = memref.cast %floats : memref<5xf32> to memref<*xf32>
  gpu.host_register %floats_unranked : memref<*xf32>
  %floats_dynamic = memref.cast %floats : memref<5xf32> to memref<?xf32>
  %floats_device = call @mgpuMemGetDeviceMemRef1dFloat(%floats_dynamic)
      : (memref<?xf32>) -> memref<?xf32>

  // The last three elements of eight, registered whole: the device memref
  // keeps the offset of 5.
  %ints = memref.alloc() : memref<8xi32>
  linalg.fill ins(%seven : i32) outs(%ints : memref<8xi32>)
  %ints_unranked = memref.cast %ints : memref<8xi32> to memref<*xi32>
  gpu.host_register %ints_unranked : memref<*xi32>
  %tail = memref.subview %ints[5] [3] [1]
      : memref<8xi32> to memref<3xi32, strided<[1], offset: 5>>
  %tail_dynamic = memref.cast %tail
      : memref<3xi32, strided<[1], offset: 5>>
        to memref<?xi32, strided<[1], offset: ?>>
  %ints_device = call @mgpuMemGetDeviceMemRef1dInt32(%tail_dynamic)
      : (memref<?xi32, strided<[1], offset: ?>>)
        -> memref<?xi32, strided<[1], offset: ?>>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c5, %sy = %c1, %sz = %c1) {
    %x = memref.load %floats_device[%tx] : memref<?xf32>
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    %sum = arith.addf %x, %f : f32
    memref.store %sum, %floats_device[%tx] : memref<?xf32>
    %in_tail = arith.cmpi ult, %tx, %c2 : index
    scf.if %in_tail {
      memref.store %i, %ints_device[%tx]
          : memref<?xi32, strided<[1], offset: ?>>
    }
    gpu.terminator
  }

  // CHECK: [1.5,  2.5,  3.5,  4.5,  5.5]
  call @printMemrefF32(%floats_unranked) : (memref<*xf32>) -> ()
  // CHECK: [7,  7,  7,  7,  7,  0,  1,  7]
  call @printMemrefI32(%ints_unranked) : (memref<*xi32>) -> ()
  gpu.host_unregister %floats_unranked : memref<*xf32>
  gpu.host_unregister %ints_unranked : memref<*xi32>
  memref.dealloc %floats : memref<5xf32>
  memref.dealloc %ints : memref<8xi32>
  return
}
