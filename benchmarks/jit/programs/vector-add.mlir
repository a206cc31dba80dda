// The program with a kernel: examples/vector-add.mlir. Two vectors are added
// by a kernel written inline with gpu.launch: 10 elements in blocks of 4
// threads, so the last block has threads past the end that must not write.
// Only gpu-runner runs it: upstream's tools cannot run gpu.launch on a CPU.
//
//   build/bin/gpu-runner-host benchmarks/jit/programs/vector-add.mlir
//
// prints
//
//   [0,  11,  22,  33,  44,  55,  66,  77,  88,  99]

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 10 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %ten = arith.constant 10.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %g = arith.mulf %f, %ten : f32
    memref.store %f, %a[%i] : memref<?xf32>
    memref.store %g, %b[%i] : memref<?xf32>
  }
  %da = gpu.alloc (%n) : memref<?xf32>
  %db = gpu.alloc (%n) : memref<?xf32>
  gpu.memcpy %da, %a : memref<?xf32>, memref<?xf32>
  gpu.memcpy %db, %b : memref<?xf32>, memref<?xf32>

  %blocks = arith.ceildivui %n, %c4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %i = gpu.global_id x
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
      %x = memref.load %da[%i] : memref<?xf32>
      %y = memref.load %db[%i] : memref<?xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %da[%i] : memref<?xf32>
    }
    gpu.terminator
  }

  gpu.memcpy %a, %da : memref<?xf32>, memref<?xf32>
  %u = memref.cast %a : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  gpu.dealloc %da : memref<?xf32>
  gpu.dealloc %db : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
