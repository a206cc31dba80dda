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
#include "wrappers/CheckKinds.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpu_runner {

/// The backend the binary was built with; its wrapper library defines it.
Backend getBackend();

struct BackendOptions {
  /// The device that runs the program.
  int device = 0;
  /// What --check asks the runtime to check and report.
  CheckSet checks;
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

// The functions below fail with an llvm::Error, the runner's own kind of
// error, whose message is a sentence that says what is wrong: the runner is
// their only caller, and reports it as it reports its own.

/// One line per device the backend runs programs on, for --list-devices;
/// fails when no device answers.
llvm::Expected<std::string> describeDevices();

/// The chip that kernels for `device` are compiled for ("sm_90"), or an
/// empty string for a backend whose kernels run on the host; fails when the
/// device does not answer (no driver, no such device).
llvm::Expected<std::string> queryDeviceChip(int device);

/// Prepares the backend before any runtime call; fails with what is
/// missing.
llvm::Error initializeBackend(const BackendOptions &options);

/// What `pointer` points into when it is the backend's device memory,
/// which the host cannot read ("the 16-byte allocation made by gpu.alloc
/// at a.mlir:3:10"); empty for any other pointer.
std::string describeDeviceMemory(const void *pointer);

/// The bytes of the live block of the program's heap (memref.alloc,
/// malloc) that `pointer` begins, for the runner to check a returned memref
/// against its allocation; nothing for any other pointer: one into a block
/// or freed, or memory the heap does not hold (the C library's, a global's,
/// the stack's). Every backend has the same heap (wrappers/common/
/// ProgramHeap.h).
std::optional<uint64_t> getProgramHeapBlockBytes(const void *pointer);

/// Blocks until all work the program enqueued so far, on every stream, has
/// run: the end of one timed run of the entry point (--benchmark-
/// repetitions). Runtime errors found here stop the process with exit status
/// 1 like any other. CUDA: cuCtxSynchronize.
void synchronizeBackend();

/// Called once the program's entry point has returned: waits for all work
/// still queued, reports what the program leaked (device allocations,
/// streams, ...) on stderr, as warnings or, under leakcheck, as errors,
/// releases the backend's resources and, under --check, prints the summary.
/// Returns how many findings the checks reported (the run then fails).
/// Runtime errors found here stop the process with exit status 1 like any
/// other.
unsigned finalizeBackend();

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_BACKEND_H
