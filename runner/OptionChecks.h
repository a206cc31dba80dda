//===- OptionChecks.h - What the flags and the input must be --------------===//
//
// The checks a run makes before it compiles anything: the flags against
// each other and against the backend, the input's first bytes, and the
// target kernels are compiled for. Each returns the first mistake as an
// error.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_OPTIONCHECKS_H
#define GPU_RUNNER_RUNNER_OPTIONCHECKS_H

#include "lowering/device/Targets.h"
#include "runner/Options.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

namespace gpu_runner {

/// Checks the flags against each other and against the backend, before
/// anything is read.
llvm::Error checkOptions(const RunnerOptions &options, Backend backend);

/// The first of LLVM's own options (not gpu-runner's flags, which are
/// members of `options`) among `argv`, as "-name", or empty. Such an option
/// changes what LLVM compiles (-matrix-default-layout=row-major) in a way
/// that the compile cache's key cannot say. Only the arguments and the
/// registry's names and addresses are read: an option that a library
/// registered is not touched.
std::string findGivenLlvmOption(const RunnerOptions &options, int argc,
                                char **argv);

/// Text MLIR is UTF-8 without NUL bytes, and bytecode starts with its magic
/// number; anything else is an error here, at the line and column of the
/// first byte that is neither, before the parser tries to echo a line of
/// binary back at the user.
llvm::Error checkInputIsMLIR(const llvm::MemoryBuffer &input);

/// The pipeline the flags ask for on `backend`, with the chip kernels are
/// compiled for (chooseGpuTarget), or why there is none.
llvm::Expected<PipelineOptions> choosePipeline(const RunnerOptions &options,
                                               Backend backend);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_OPTIONCHECKS_H
