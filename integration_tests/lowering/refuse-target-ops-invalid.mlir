// RUN: %gpu-runner-opt --pass-pipeline='builtin.module(gpu.module(gpu-runner-refuse-target-ops{nvvm=true}))' --split-input-file --verify-diagnostics %s
// RUN: not %gpu-runner-opt --pass-pipeline='builtin.module(gpu.module(gpu-runner-refuse-target-ops))' --split-input-file %s 2>&1 | FileCheck %s --check-prefix=ROCDL

// What upstream's NVVM lowering cannot take is refused by name, for CUDA;
// for AMD GPUs (ROCDL), whose lowering has none, every mma op.

gpu.module @kernels {
  gpu.func @thread_local(%x: f32, %i: index) kernel {
    // ROCDL: refuse-target-ops-invalid.mlir:[[# @LINE + 1]]:10: error: 'gpu.subgroup_mma_constant_matrix' cannot be compiled for AMD GPUs: upstream MLIR lowers the gpu dialect's mma ops to NVVM only; run the program with gpu-runner-host or gpu-runner-cuda
    %m = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @below {{'gpu.subgroup_mma_extract_thread_local' cannot be compiled for NVIDIA GPUs: upstream's NVVM lowering has no pattern for it; gpu-runner-host runs it}}
    %v = gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @insert(%x: f32, %i: index) kernel {
    %m = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @below {{'gpu.subgroup_mma_insert_thread_local' cannot be compiled for NVIDIA GPUs: upstream's NVVM lowering has no pattern for it; gpu-runner-host runs it}}
    %n = gpu.subgroup_mma_insert_thread_local %x, %m[%i] : f32, !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @subf(%x: f32) kernel {
    %m = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x16xf32, "COp">
    %sum = gpu.subgroup_mma_elementwise addf %m, %m : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    // expected-error @below {{'gpu.subgroup_mma_elementwise' cannot be compiled for NVIDIA GPUs: subf is not among the element-wise ops upstream's NVVM lowering has (addf, mulf, divf, maxf, minf); gpu-runner-host runs it}}
    %d = gpu.subgroup_mma_elementwise subf %sum, %m : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.return
  }
}

// -----

// Neither GPU has 128-bit floating point: arithmetic, math and conversions
// on f128 would need library functions no device library defines. Moving
// its bits is fine.
gpu.module @kernels {
  gpu.func @wide(%x: f128, %c: i1, %m: memref<2xf128>) kernel {
    %k = arith.constant 1.0 : f128
    %s = arith.select %c, %x, %k : f128
    %c0 = arith.constant 0 : index
    memref.store %s, %m[%c0] : memref<2xf128>
    // ROCDL: refuse-target-ops-invalid.mlir:[[# @LINE + 2]]:10: error: 'math.atan2' on f128 cannot be compiled for AMD GPUs: they have no 128-bit floating point, and their device libraries no functions for it; compute in f64, or run the program with gpu-runner-host
    // expected-error @below {{'math.atan2' on f128 cannot be compiled for NVIDIA GPUs: they have no 128-bit floating point, and their device libraries no functions for it; compute in f64, or run the program with gpu-runner-host}}
    %a = math.atan2 %s, %k : f128
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @narrow(%x: vector<2xf128>) kernel {
    // ROCDL: refuse-target-ops-invalid.mlir:[[# @LINE + 2]]:10: error: 'arith.truncf' on f128 cannot be compiled for AMD GPUs
    // expected-error @below {{'arith.truncf' on f128 cannot be compiled for NVIDIA GPUs}}
    %t = arith.truncf %x : vector<2xf128> to vector<2xf64>
    gpu.return
  }
}

// -----

// The float types LLVM has no type for: host code computes on them through
// the runtime's conversions, which a kernel on a GPU cannot call. Loading,
// storing and moving their bits is fine.
gpu.module @kernels {
  gpu.func @small(%m: memref<2xf8E4M3FN>, %c: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %x = memref.load %m[%c0] : memref<2xf8E4M3FN>
    %y = memref.load %m[%c1] : memref<2xf8E4M3FN>
    %s = arith.select %c, %x, %y : f8E4M3FN
    memref.store %s, %m[%c0] : memref<2xf8E4M3FN>
    // ROCDL: refuse-target-ops-invalid.mlir:[[# @LINE + 2]]:10: error: 'arith.mulf' on 'f8E4M3FN' cannot be compiled for AMD GPUs by gpu-runner yet: it computes on the float types LLVM has no type for through conversions that run in host code only; convert to f32 in host code, or run the program with gpu-runner-host
    // expected-error @below {{'arith.mulf' on 'f8E4M3FN' cannot be compiled for NVIDIA GPUs by gpu-runner yet}}
    %p = arith.mulf %x, %y : f8E4M3FN
    gpu.return
  }
}

// -----

// Each GPU's own dialect compiles for that GPU only.
gpu.module @kernels {
  gpu.func @vendor(%x: vector<4x2xf16>, %y: vector<2x2xf16>,
                   %z: vector<2x2xf32>) kernel {
    // ROCDL: refuse-target-ops-invalid.mlir:[[# @LINE + 1]]:10: error: 'nvgpu.mma.sync' cannot be compiled for AMD GPUs: it is an NVIDIA GPU operation; gpu-runner-cuda compiles it
    %d = nvgpu.mma.sync(%x, %y, %z) {mmaShape = [16, 8, 16]}
        : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    // expected-error @below {{'amdgpu.lds_barrier' cannot be compiled for NVIDIA GPUs: it is an AMD GPU operation; gpu-runner-hip compiles it}}
    amdgpu.lds_barrier
    gpu.return
  }
}

