//===- Backend.h - What the runner asks of a backend besides the mgpu ABI -===//
//
// The JIT'd program talks to a backend only through the mgpu ABI; the runner
// itself uses these few functions around the program's run. Each backend's
// wrapper library defines them.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_BACKEND_H
#define GPU_RUNNER_WRAPPERS_BACKEND_H

#include "wrappers/BackendKind.h"

#include <string>
#include <vector>

namespace gpu_runner {

/// The backend the binary was built with; its wrapper library defines it.
Backend getBackend();

struct BackendOptions {
  /// The device that runs the program.
  int device = 0;
};

/// A runtime function the JIT'd program may call.
struct RuntimeSymbol {
  const char *name;
  void *address;
};

/// Every runtime function of the backend: the mgpu ABI and the backend's
/// own additions, expanded from the same .def lists the lowering emits calls
/// from. The JIT resolves these names here and nowhere else.
std::vector<RuntimeSymbol> getRuntimeSymbols();

/// Writes one line per device the backend runs programs on, for
/// --list-devices. Returns false with `error` when no device answers.
bool describeDevices(std::string &text, std::string &error);

/// The chip that kernels for `device` are compiled for ("sm_90"), or an
/// empty string for a backend whose kernels run on the host. Returns false
/// with `error` when the device does not answer (no driver, no such device).
bool queryDeviceChip(int device, std::string &chip, std::string &error);

/// Prepares the backend before any runtime call. On failure returns false
/// and sets `error` to a sentence that says what is missing.
bool initializeBackend(const BackendOptions &options, std::string &error);

/// Blocks until all work the program enqueued so far, on every stream, has
/// run: the end of one timed run of the entry point (--benchmark-
/// repetitions). Runtime errors found here stop the process with exit status
/// 1 like any other. CUDA: cuCtxSynchronize.
void synchronizeBackend();

/// Called once the program's entry point has returned: waits for all work
/// still queued, reports what the program leaked (device allocations,
/// streams, ...) on stderr as warnings and releases the backend's
/// resources. Runtime errors found here stop the process with exit status 1
/// like any other.
void finalizeBackend();

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_BACKEND_H
