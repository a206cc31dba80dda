// RUN: %gpu-runner-opt --gpu-runner-host-kernels --split-input-file --verify-diagnostics %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mma(%out: memref<16x16xf16>) kernel {
      %f = arith.constant 1.0 : f16
      // expected-error @below {{'gpu.subgroup_mma_constant_matrix' is not supported in kernels on the host backend}}
      %m = gpu.subgroup_mma_constant_matrix %f : !gpu.mma_matrix<16x16xf16, "COp">
      %c0 = arith.constant 0 : index
      gpu.subgroup_mma_store_matrix %m, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{'llvm.func' cannot run on the host backend: a kernel module may hold gpu.func, func.func, memref.global and external llvm.func declarations only}}
    llvm.func @lowered() {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @wide(%v: i128) kernel {
      %c1 = arith.constant 1 : i32
      // expected-error @below {{shuffles of more than 64 bits are not supported on the host backend}}
      %s, %ok = gpu.shuffle xor %v, %c1, %c1 : i128
      gpu.return
    }
  }
}
