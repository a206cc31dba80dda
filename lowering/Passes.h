//===- Passes.h - gpu-runner's passes -------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_PASSES_H
#define GPU_RUNNER_LOWERING_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace gpu_runner {

#define GEN_PASS_DECL
#include "lowering/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "lowering/Passes.h.inc"

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_PASSES_H
