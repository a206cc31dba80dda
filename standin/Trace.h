//===- Trace.h - The call trace and fault injection -----------------------===//
//
// Two test aids, each set by an environment variable:
//
// - GPU_RUNNER_STANDIN_TRACE=FILE writes one line per call to FILE:
//     cuMemsetD8Async(dstDevice=alloc#1+0, uc=0x0, N=4, hStream=stream#1)
//         -> CUDA_SUCCESS
//   (on one line), pointers shown as the allocation (or registration) they are
//   in and the offset into it, handles by kind and number, outputs after the
//   result.
// - GPU_RUNNER_STANDIN_FAULTS=ENTRY:N:ERROR[,...] makes the Nth call (from
//   1) of the exported entry point ENTRY fail with the vendor's error ERROR,
//   doing nothing else: cuMemAlloc_v2:1:CUDA_ERROR_OUT_OF_MEMORY.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_TRACE_H
#define GPU_RUNNER_STANDIN_TRACE_H

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace gpu_runner {
namespace standin {

struct Fault {
  std::string entry;
  uint64_t call = 0;
  int code = 0;
};

/// Parses GPU_RUNNER_STANDIN_FAULTS. `isEntry` says whether a name is an
/// entry point the library exports; `codeOf` gives an error name's code or
/// false. On failure, `error` says what is wrong with which part.
bool parseFaults(const std::string &text,
                 const std::function<bool(const std::string &)> &isEntry,
                 const std::function<bool(const std::string &, int &)> &codeOf,
                 std::vector<Fault> &faults, std::string &error);

/// The faults to inject, the count of each entry point's calls, and the
/// trace file. Thread-safe.
class CallLog {
public:
  void setFaults(std::vector<Fault> faults) {
    this->faults = std::move(faults);
  }
  /// Opens (and empties) the trace file; false if it cannot be written.
  bool openTrace(const std::string &path);
  bool isTracing() const { return fd >= 0; }

  /// Counts a call of `entry`; returns the code to fail it with, or 0.
  int countCall(const char *entry);
  /// Writes `line` and a newline, unbuffered, so that a trace is whole even
  /// when the process ends with _exit.
  void write(const std::string &line);

private:
  std::mutex mutex;
  std::vector<Fault> faults;
  std::map<std::string, uint64_t> calls;
  int fd = -1;
};

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_TRACE_H
