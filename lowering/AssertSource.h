//===- AssertSource.h - Where a failed cf.assert says it is -----*- C++ -*-===//
//
// The file, line and function a failed assertion's line names, chosen from
// the op's location as upstream's NVVM lowering of cf.assert chooses the
// arguments of CUDA's __assertfail, so that a program prints the same place
// on every backend: the host kernels' runtime, CUDA's __assertfail, and
// HIP's device assert (DeviceAsserts.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_ASSERTSOURCE_H
#define GPU_RUNNER_LOWERING_ASSERTSOURCE_H

#include "mlir/IR/Location.h"

#include <cstdint>
#include <string>

namespace gpu_runner {

struct AssertSource {
  std::string file = "(unknown)";
  std::string function = "(unknown)";
  int32_t line = 0;
};

/// Call sites are followed to their callee; a file location gives the file
/// and line, a name location the function (and the file and line of its
/// child); anything else "(unknown)" and line 0.
AssertSource getAssertSource(mlir::Location loc);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_ASSERTSOURCE_H
