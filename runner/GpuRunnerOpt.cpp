//===- GpuRunnerOpt.cpp - mlir-opt with gpu-runner's passes ---------------===//
//
// For lowering tests: the input dialects of the runner and the passes of its
// pipelines, run one by one as a test asks.
//
//===----------------------------------------------------------------------===//

#include "lowering/Pipeline.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  gpu_runner::registerInputDialects(registry);
  gpu_runner::registerPipelinePasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "gpu-runner-opt: gpu-runner's passes\n", registry));
}
