//===- Pipeline.h - The lowering pipeline of each backend -----------------===//

#ifndef GPU_RUNNER_LOWERING_PIPELINE_H
#define GPU_RUNNER_LOWERING_PIPELINE_H

#include "lowering/PipelineOptions.h"
#include "wrappers/BackendKind.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace gpu_runner {

/// Registers the dialects a program may use, and what their lowering and
/// translation to LLVM IR need.
void registerInputDialects(mlir::DialectRegistry &registry);

/// Registers gpu-runner's passes, the upstream ones its pipelines use, and
/// each backend's whole pipeline (--gpu-runner-host-pipeline), for
/// gpu-runner-opt.
void registerPipelinePasses();

/// Adds the passes that take a program from the input dialects to the LLVM
/// dialect on `backend`, ending with the check that nothing else is left:
/// the three parts below, one after the other.
void buildLoweringPipeline(mlir::OpPassManager &pm, Backend backend,
                           const PipelineOptions &options = {});

/// The first part: kernels outlined into gpu.modules and, on a GPU backend,
/// the target they are compiled for attached to each.
void buildOutliningPipeline(mlir::OpPassManager &pm, Backend backend,
                            const PipelineOptions &options);

/// The second part, on a GPU backend: each gpu.module compiled into a
/// gpu.binary of the same name (and written to --dump-gpu-binary's folder).
/// It touches nothing but the gpu.modules, so it may run on a module that
/// holds only them, apart from the rest of the program.
void buildKernelPipeline(mlir::OpPassManager &pm, Backend backend,
                         const PipelineOptions &options);

/// The third part: the host code, with its launches, to the LLVM dialect.
/// On the host backend it first compiles the kernels into host functions.
void buildHostPipeline(mlir::OpPassManager &pm, Backend backend,
                       const PipelineOptions &options);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_PIPELINE_H
