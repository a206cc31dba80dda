//===- MgpuAbi.h - C prototypes of the mgpu runtime ABI -------------------===//
//
// Every backend's wrapper library defines the functions of MgpuAbi.def (see
// there for the conventions); the host backend also those of
// HostKernelAbi.def.
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
}

#endif // GPU_RUNNER_WRAPPERS_MGPUABI_H
