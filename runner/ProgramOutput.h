//===- ProgramOutput.h - What the program prints on stdout ----------------===//
//
// The program prints through C stdio, C++ streams and, for its results,
// the runner's own stream. Its output keeps the order it was written in,
// reaches the reader before any error that follows it, and is checked: a
// full disk or a closed stdout is an error of the run, not lost output.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_PROGRAMOUTPUT_H
#define GPU_RUNNER_RUNNER_PROGRAMOUTPUT_H

#include "llvm/Support/Error.h"

namespace gpu_runner {

/// Flushes everything the program may have printed, in the order it printed
/// it: C stdio, C++ streams, then our own stream.
void flushProgramOutput();

/// Opens /dev/null on whichever of stdin, stdout and stderr is closed, so
/// that no file the run opens takes its number (and the program's output
/// does not land in it); writes to it fail, as they would have.
void occupyClosedStandardStreams();

/// Flushes the program's output; an error when any of it could not be
/// written: a full disk, a closed stdout.
llvm::Error checkProgramOutput();

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_PROGRAMOUTPUT_H
