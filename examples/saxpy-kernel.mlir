// One kernel and no host code: gpu-runner's --launch runs it on data from
// NumPy files and checks the result against an expected one. y = a * x + y
// over 10 elements, in 3 blocks of 4 threads; the last block's threads past
// the end do nothing.
//
//   scripts/run examples/saxpy-kernel.mlir --launch=kernels::saxpy \
//     --grid=3 --block=4 --input=2 --input=@examples/data/x.npy \
//     --input=@examples/data/y.npy --output=- --output=@/tmp/y.npy \
//     --expected-output=@examples/data/x.npy \
//     --expected-output=@examples/data/expected-y.npy
//
// prints x (the kernel's first memref, unchanged), writes the new y to
// /tmp/y.npy, and prints
//
//   result[0]: memref<?xf32>
//   [0,  1,  2,  3,  4,  5,  6,  7,  8,  9]
//   expected outputs: 2 results (20 elements) matched, floats within atol 1e-08 + rtol 1e-05 x |expected|
//
// examples/data/make-saxpy-data.py writes the .npy files with NumPy.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %block = gpu.block_id x
      %size = gpu.block_dim x
      %thread = gpu.thread_id x
      %first = arith.muli %block, %size : index
      %i = arith.addi %first, %thread : index
      %n = memref.dim %y, %c0 : memref<?xf32>
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xi : f32
        %sum = arith.addf %ax, %yi : f32
        memref.store %sum, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
