//===- PipelineOptions.h - What the pipelines take besides the backend ----===//
//
// The options of the lowering pipelines (Pipeline.h), chosen by the runner
// from its flags and, on a GPU backend, from the device (chooseGpuTarget in
// device/Targets.h). Plain data, without MLIR: the runner fills it in before
// it knows whether it compiles at all.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_PIPELINEOPTIONS_H
#define GPU_RUNNER_LOWERING_PIPELINEOPTIONS_H

#include "wrappers/CheckKinds.h"

#include <string>

namespace gpu_runner {

struct PipelineOptions {
  /// Run kernels whose barriers every thread reaches together as loops
  /// between the barriers (host backend); else all of them on fibers.
  bool splitBarriers = true;
  /// Run such kernels a subgroup at a time, its lanes' values in vectors,
  /// where they can (host backend); else as loops over the threads.
  bool subgroupVectors = true;

  /// The chip kernels are compiled for, and on CUDA the PTX version that
  /// goes with it (getPtxFeaturesForChip).
  std::string gpuChip = "sm_90";
  std::string gpuFeatures = "+ptx80";
  /// CUDA: the toolkit whose ptxas and fatbinary make fatbins; empty to
  /// compile kernels to PTX only, which the driver compiles when loading it.
  std::string cudaToolkitPath;
  /// HIP: a folder laid out as ROCm is (amdgcn/bitcode with the device
  /// libraries, llvm/bin/ld.lld) for the ROCDL target; see findRocmPath.
  std::string rocmPath;
  /// The optimization level of kernel code generation.
  unsigned gpuOptLevel = 2;
  /// Where each gpu.binary is written once compiled; empty for nowhere.
  std::string dumpGpuBinaryDir;
  /// What --check asks for. memcheck: the memref ops of the host code checked
  /// at run time (gpu-runner-verify-host-code), and on the host backend the
  /// memory the host code touches (gpu-runner-check-host-accesses) and the
  /// memref loads and stores of kernels (gpu-runner-check-bounds).
  CheckSet checks;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_PIPELINEOPTIONS_H
