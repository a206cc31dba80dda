//===- SplitInput.h - --split-input-file: each part run on its own --------===//
//
// Many small programs in one file, each compiled and run on its own, in a
// child process of its own (SplitInput.cpp says why).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_SPLITINPUT_H
#define GPU_RUNNER_RUNNER_SPLITINPUT_H

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace gpu_runner {

/// Cuts `input` at its `// -----` lines and runs the parts in order, each
/// in a child process of its own, with `// -----` printed between their
/// outputs. In a child it returns that child's part, which the child runs
/// as its whole input: a buffer of the input's name in which the text
/// before the part is blank, so that its ops keep their lines and columns.
/// In this process it returns null once every part has ran and succeeded;
/// a part that failed makes it an AlreadyReported error (RunnerError.h)
/// with the run's exit status. This process is the parts' main: what
/// becomes of a part that cannot report it itself (an empty part, one
/// ended by a signal) is printed between the parts' outputs, in order.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
runPartsInChildren(const llvm::MemoryBuffer &input);

/// Where a part returned by runPartsInChildren starts, as its diagnostics
/// that are about the whole part say: "FILE:LINE:1", LINE its first line
/// that is not blank.
std::string getPartLocation(const llvm::MemoryBuffer &part);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_SPLITINPUT_H
