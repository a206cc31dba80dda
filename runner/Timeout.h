//===- Timeout.h - --timeout: stop a run that takes too long --------------===//

#ifndef GPU_RUNNER_RUNNER_TIMEOUT_H
#define GPU_RUNNER_RUNNER_TIMEOUT_H

#include "llvm/ADT/StringRef.h"

namespace gpu_runner {

/// After `seconds`, prints "error: timed out after N s (--timeout=N)" on
/// stderr, after what the program printed, and ends the process with exit
/// status 1, whatever the program is doing (a kernel that never ends, a
/// wait that never returns). A `location` ("FILE:LINE:COL", a part of
/// --split-input-file) comes before "error:". Called again, it starts over.
void startTimeout(unsigned seconds, llvm::StringRef location = {});

/// Stops the timer startTimeout started, if any.
void stopTimeout();

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_TIMEOUT_H
