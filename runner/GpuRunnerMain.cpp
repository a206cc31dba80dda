//===- GpuRunnerMain.cpp - Entry of every gpu-runner-<backend> binary -----===//
//
// The backend is the wrapper library this file is linked with.
//
//===----------------------------------------------------------------------===//

#include "runner/Runner.h"

int main(int argc, char **argv) {
  return gpu_runner::runGpuRunnerMain(argc, argv);
}
