// RUN: %gpu-runner-opt --gpu-runner-host-kernels --split-input-file --verify-diagnostics %s

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
