// A program that calls one of the gpu dialect's sparse ops (cuSPARSE calls)
// stops before it runs, with an error at the op that names it and says
// what to do instead: no backend runs them, the GPU ones included
// (cuda/sparse-op.mlir and hip/sparse-op.mlir compile it).
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %c4 = arith.constant 4 : index
  %t0 = gpu.wait async
  %rows, %t1 = gpu.alloc async [%t0] () : memref<5xindex>
  %cols, %t2 = gpu.alloc async [%t1] () : memref<4xindex>
  %vals, %t3 = gpu.alloc async [%t2] () : memref<4xf32>
  // CHECK: sparse-op.mlir:[[@LINE+1]]:17: error: 'gpu.create_csr' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead
  %spmat, %t4 = gpu.create_csr async [%t3] %c4, %c4, %c4, %rows, %cols, %vals : memref<5xindex>, memref<4xindex>, memref<4xf32>
  gpu.wait [%t4]
  return
}
