// RUN: %gpu-runner-opt --gpu-runner-reject-kernels %s | FileCheck %s

// Device code that nothing launches is dropped; host code stays.
// CHECK-NOT: gpu.module
// CHECK:     func.func @host
module attributes {gpu.container_module} {
  gpu.module @unused {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @host() {
    return
  }
}
