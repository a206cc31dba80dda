//===- FaultHandler.h - Faults of kernels and host code, reported ---------===//
//
// A kernel that reads or writes memory it has no access to (far out of
// bounds, freed device memory, a null pointer, a thread's stack overflowing
// into its guard page) raises SIGSEGV or SIGBUS on the host backend, one
// that divides an integer by zero SIGFPE, and one that traps SIGILL. The
// handler installed here turns that into the project's error format and
// exit status 1, naming the kernel, the block and (on fibers) the thread,
// at the location of the launch:
//
//   k.mlir:30:5: error: gpu.launch_func: kernel 'k': invalid memory access
//   at 0x10 in block (1, 0, 0), thread (3, 0, 0); ...
//
// It knows what a thread runs from RunningKernel, a thread-local record that
// BlockRunner and FiberBlock keep up to date. A fault in the program's host
// code (JIT'd, outside any kernel), or in a copy or memset the runtime
// runs on host memory it cannot check, is reported as such with status 1. A
// fault anywhere else (gpu-runner itself, a library) is a bug: the handler
// says so and hands the signal back to the previous handler (LLVM's stack
// trace, or a sanitizer's report), so that it is never hidden. The CUDA and
// HIP backends install it too, where it reports the program's host code.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_COMMON_FAULTHANDLER_H
#define GPU_RUNNER_WRAPPERS_COMMON_FAULTHANDLER_H

#include "wrappers/common/FatalReport.h"

#include <cstddef>
#include <cstdint>

namespace gpu_runner {

/// What the calling OS thread runs, for the fault handler: plain data, since
/// a signal handler may read it at any point.
struct RunningKernel {
  /// The kernel's name; null while no kernel runs on this thread.
  const char *name = nullptr;
  /// The launch's loc ("gpu.launch_func@file:line:col"), or null.
  const char *launchLoc = nullptr;
  /// The block being run (3 ids).
  const int64_t *blockId = nullptr;
  /// The GPU thread being run on a fiber (3 ids); null when the kernel loops
  /// over its block's threads itself.
  const int64_t *threadId = nullptr;
  /// The running fiber's guard page, [guardBegin, guardEnd).
  const char *guardBegin = nullptr;
  const char *guardEnd = nullptr;
  /// Usable bytes of the running fiber's stack, for the message.
  size_t stackBytes = 0;
  /// The block's workgroup memory, [workgroupBegin, + workgroupBytes), and
  /// the mapping around it, guards included: a fault there is an access out
  /// of bounds of workgroup memory (host backend, WorkgroupMemory.h).
  const char *workgroupBegin = nullptr;
  size_t workgroupBytes = 0;
  const char *workgroupReservedBegin = nullptr;
  const char *workgroupReservedEnd = nullptr;
};

/// The calling thread's record.
RunningKernel &runningKernel();

/// Sets the record for the blocks of one kernel launch on this thread, and
/// clears it when the scope ends.
class RunningKernelScope {
public:
  RunningKernelScope(const char *name, const char *launchLoc,
                     const int64_t *blockId);
  ~RunningKernelScope();
  RunningKernelScope(const RunningKernelScope &) = delete;
  RunningKernelScope &operator=(const RunningKernelScope &) = delete;

private:
  RunningKernel saved;
};

/// Installs the handler of SIGSEGV, SIGBUS, SIGFPE (integer division by
/// zero), SIGILL (traps) and SIGABRT (the C library's heap checks) (once
/// per process) and an
/// alternate signal stack for the calling thread. Safe to call again.
void installFaultHandler();

/// Gives the calling thread an alternate signal stack, so that the handler
/// can run when the thread's stack itself overflowed; freed when the thread
/// ends. Cheap after the first call on a thread.
void ensureSignalStack();

/// Whether installFaultHandler ran: kernels are only worth annotating then.
bool faultHandlerInstalled();

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_COMMON_FAULTHANDLER_H
