//===- Error.h - The stand-in's errors, before a vendor names them --------===//
//
// The stand-in's core is written once for both vendors: it fails with one of
// these, and each vendor's front end (CudaDriver.cpp, HipRuntime.cpp) turns
// it into the code its API documents for that case (Vendor::code).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_ERROR_H
#define GPU_RUNNER_STANDIN_ERROR_H

#include <string>

namespace gpu_runner {
namespace standin {

enum class Error {
  Success = 0,
  /// An argument breaks a documented rule.
  InvalidValue,
  OutOfMemory,
  /// CUDA: called before cuInit.
  NotInitialized,
  /// CUDA: no current context, or one that was released.
  InvalidContext,
  InvalidDevice,
  /// A stream, event, module or function handle that is not live.
  InvalidHandle,
  NotReady,
  /// cuModuleGetFunction: no function of that name.
  NotFound,
  /// Not an image the driver loads (not a fatbin, cubin, PTX or code object).
  InvalidImage,
  /// An image with no code for this device's chip.
  NoBinaryForGpu,
  /// PTX the driver cannot compile for this device.
  InvalidPtx,
  HostMemoryAlreadyRegistered,
  HostMemoryNotRegistered,
  /// A pitch smaller than the width it must hold (HIP names it apart).
  InvalidPitch,
  /// A copy kind that does not match its pointers (HIP names it apart).
  InvalidMemcpyDirection,
  /// Launch sizes beyond what the device or the kernel allows.
  InvalidConfiguration,
  LaunchOutOfResources,
  InvalidClusterSize,
  /// A valid launch of a module given no kernel IR: the stand-in runs
  /// kernels only from their IR (gpuRunnerStandinModuleAttachIR).
  KernelsNotRun,
  /// Kernel IR that uses what the stand-in does not implement.
  KernelNotSupported,
  /// A kernel reached memory it may not: sticky.
  IllegalAddress,
  /// A kernel broke the alignment its IR promised: sticky.
  MisalignedAddress,
  /// A kernel trapped, misused a barrier or warp instruction, or
  /// deadlocked: sticky.
  LaunchFailed,
  /// A device-side assertion failed: sticky.
  Assert,
  /// The sticky error a kernel left on the context, found while waiting.
  Sticky,
};

/// "InvalidValue": for the stand-in's own messages and unit tests.
const char *getErrorSpelling(Error error);

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_ERROR_H
