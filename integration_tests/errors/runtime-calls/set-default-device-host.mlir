// The host backend has one device, 0: choosing another is an error at the
// op, before anything runs on a device that is not there. (The driver
// stand-ins have two: standin/devices.mlir.)
// RUN: %expect-exit-1 %gpu-runner-host %s 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %one = arith.constant 1 : i32
  // CHECK: set-default-device-host.mlir:[[@LINE+1]]:3: error: gpu.set_default_device: the host backend has one device, 0: there is no device 1
  gpu.set_default_device %one
  return
}
