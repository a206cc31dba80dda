//===- DeviceAsserts.h - cf.assert in HIP kernels ---------------*- C++ -*-===//
//
// `gpu-runner-assert-to-rocdl`, run on kernel modules for HIP before the
// ROCDL lowering, which has no device assert: each cf.assert becomes what
// HIP's own assert does in device code (HIP's amd_device_functions.h,
// __assert_fail): the line
//
//   FILE:LINE: FUNCTION: Device-side assertion `MESSAGE' failed.
//
// written to stderr through the device libraries' hostcall printf, then a
// trap, which ends the launch (on ROCm the runtime then reports the queue's
// error, or ends the process):
//
//   cf.assert %ok, "x must be 0"
//   // becomes
//   scf.if (not %ok) {
//     %d0 = llvm.call @__ockl_fprintf_stderr_begin()
//     %d1 = llvm.call @__ockl_fprintf_append_string_n(%d0, %format, ...)
//     ... FILE, LINE, FUNCTION, then MESSAGE as the last piece
//     llvm.intr.trap
//   }
//
// FILE, LINE and FUNCTION come from the op's location as on the other
// backends (AssertSource.h).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_DEVICE_DEVICEASSERTS_H
#define GPU_RUNNER_LOWERING_DEVICE_DEVICEASSERTS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace gpu_runner {

std::unique_ptr<mlir::Pass> createAssertToROCDL();
/// Makes the pass known to gpu-runner-opt by its flag.
void registerAssertToROCDL();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_DEVICE_DEVICEASSERTS_H
