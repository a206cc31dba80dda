//===- MgpuAbi.h - C prototypes of the mgpu runtime ABI -------------------===//
//
// Every backend's wrapper library defines exactly these functions; see
// MgpuAbi.def for the list and its conventions.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_MGPUABI_H
#define GPU_RUNNER_WRAPPERS_MGPUABI_H

#include <cstddef>
#include <cstdint>

extern "C" {
#define MGPU_FUNCTION(RET, NAME, PARAMS) RET NAME PARAMS;
#include "MgpuAbi.def"
}

#endif // GPU_RUNNER_WRAPPERS_MGPUABI_H
