//===- Pipeline.h - The lowering pipeline of each backend -----------------===//

#ifndef GPU_RUNNER_LOWERING_PIPELINE_H
#define GPU_RUNNER_LOWERING_PIPELINE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace gpu_runner {

enum class Backend { Host };

/// The name of `backend` as the user sees it: "host".
llvm::StringRef getBackendName(Backend backend);

/// Registers the dialects a program may use, and what their lowering and
/// translation to LLVM IR need.
void registerInputDialects(mlir::DialectRegistry &registry);

/// Registers gpu-runner's passes, the upstream ones its pipelines use, and
/// each backend's whole pipeline (--gpu-runner-host-pipeline), for
/// gpu-runner-opt.
void registerPipelinePasses();

struct PipelineOptions {
  /// Run kernels whose barriers every thread reaches together as loops
  /// between the barriers (host backend); else all of them on fibers.
  bool splitBarriers = true;
  /// Check the memref loads and stores of kernels at run time
  /// (gpu-runner-check-bounds).
  bool checkBounds = false;
};

/// Adds the passes that take a program from the input dialects to the LLVM
/// dialect on `backend`, ending with the check that nothing else is left.
void buildLoweringPipeline(mlir::OpPassManager &pm, Backend backend,
                           const PipelineOptions &options = {});

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_PIPELINE_H
