// RUN: %gpu-runner-opt --gpu-runner-reject-kernels --split-input-file --verify-diagnostics %s

func.func @inline_launch(%m: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'gpu.launch': running kernels on the host backend is not supported yet}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @outlined_launch() {
    %c1 = arith.constant 1 : index
    // expected-error @below {{'gpu.launch_func': running kernels on the host backend is not supported yet}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
