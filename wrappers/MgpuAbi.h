//===- MgpuAbi.h - C prototypes of the mgpu runtime ABI -------------------===//
//
// Every backend's wrapper library defines the functions of MgpuAbi.def (see
// there for the conventions); the host backend also those of
// HostKernelAbi.def, the GPU backends those of DeviceKernelAbi.def.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_MGPUABI_H
#define GPU_RUNNER_WRAPPERS_MGPUABI_H

#include <cstddef>
#include <cstdint>

extern "C" {
#define MGPU_FUNCTION(RET, NAME, PARAMS) RET NAME PARAMS;
#include "MgpuAbi.def"
#define MGPU_FUNCTION(RET, NAME, PARAMS) RET NAME PARAMS;
#include "HostKernelAbi.def"
#define MGPU_FUNCTION(RET, NAME, PARAMS) RET NAME PARAMS;
#include "DeviceKernelAbi.def"
}

namespace gpu_runner {

/// `format` of mgpuModuleLoadAt.
enum DeviceObjectFormat : int32_t {
  /// A binary the driver loads as it is: a CUDA fatbin or cubin, an AMDGPU
  /// code object.
  kDeviceObjectBinary = 0,
  /// Assembly the driver compiles when loading it: PTX.
  kDeviceObjectAssembly = 1,
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_MGPUABI_H
