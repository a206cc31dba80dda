//===- Runner.h - The gpu-runner command ----------------------------------===//

#ifndef GPU_RUNNER_RUNNER_RUNNER_H
#define GPU_RUNNER_RUNNER_RUNNER_H

namespace gpu_runner {

/// Parses the command line, lowers and runs the program, and returns the
/// process's exit status: 0 on success, 1 on any error.
int runGpuRunnerMain(int argc, char **argv);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_RUNNER_H
