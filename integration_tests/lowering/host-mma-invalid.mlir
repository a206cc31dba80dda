// RUN: %gpu-runner-opt --gpu-runner-host-kernels --split-input-file --verify-diagnostics %s

// What the gpu dialect's verifier accepts but NVIDIA GPUs do not have (CUDA
// C++ Programming Guide, Warp Matrix Functions, Element Types and Matrix
// Sizes) is refused at the op, as is what the host backend does not do.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tf32(%m: memref<16x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @below {{'gpu.subgroup_mma_load_matrix' cannot run on the host backend: NVIDIA GPUs have no '!gpu.mma_matrix<16x8xf32, "AOp">' (A and B matrices of f32 are TF32 on NVIDIA GPUs (wmma m16n16k8), whose rounding of the operands the host backend does not reproduce; use f16 or f64)}}
      %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 8 : index} : memref<16x8xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f64_shape(%m: memref<16x16xf64>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @below {{'gpu.subgroup_mma_load_matrix' cannot run on the host backend: NVIDIA GPUs have no '!gpu.mma_matrix<16x16xf64, "COp">' (f64 matrices are 8x4 (A), 4x8 (B) and 8x8 (C))}}
      %c = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf64> -> !gpu.mma_matrix<16x16xf64, "COp">
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @c_shape(%x: f32) kernel {
      // expected-error @below {{'gpu.subgroup_mma_constant_matrix' cannot run on the host backend: NVIDIA GPUs have no '!gpu.mma_matrix<16x8xf32, "COp">' (C matrices of f16, f32 and i32 are 16x16, 32x8 or 8x32)}}
      %c = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x8xf32, "COp">
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @accumulator(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %x: i32) kernel {
      %c = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x16xi32, "COp">
      // expected-error @below {{'gpu.subgroup_mma_compute' cannot run on the host backend: f16 A and B accumulate into f16 or f32, si8 and ui8 into i32, f64 into f64}}
      %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @lead_dimension(%m: memref<16x12xf16>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @below {{'gpu.subgroup_mma_load_matrix' cannot run on the host backend: the leading dimension (12 elements of 2 bytes) must be a positive multiple of 16 bytes, as CUDA requires}}
      %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 12 : index} : memref<16x12xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @element_type(%m: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @below {{'gpu.subgroup_mma_load_matrix' cannot run on the host backend: the memref's element type must be the matrix's}}
      %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf16, "AOp">
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @two_indices(%x: f32) kernel {
      %c0 = arith.constant 0 : index
      %m = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x16xf32, "COp">
      // expected-error @below {{'gpu.subgroup_mma_extract_thread_local' cannot run on the host backend: a lane's part of a matrix is indexed with one index on the host backend}}
      %v = gpu.subgroup_mma_extract_thread_local %m[%c0, %c0] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @float_op_on_integers(%x: i32) kernel {
      %m = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x16xi32, "COp">
      // expected-error @below {{'gpu.subgroup_mma_elementwise' cannot run on the host backend: addf works on matrices of floats}}
      %s = gpu.subgroup_mma_elementwise addf %m, %m : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @narrowing(%x: f32) kernel {
      %m = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x16xf32, "COp">
      // expected-error @below {{'gpu.subgroup_mma_elementwise' cannot run on the host backend: extf makes a matrix of a wider float type}}
      %s = gpu.subgroup_mma_elementwise extf %m : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @one_operand(%x: f32) kernel {
      %m = gpu.subgroup_mma_constant_matrix %x : !gpu.mma_matrix<16x16xf32, "COp">
      // expected-error @below {{'gpu.subgroup_mma_elementwise' cannot run on the host backend: mulf takes two matrices}}
      %s = gpu.subgroup_mma_elementwise mulf %m : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.return
    }
  }
}
