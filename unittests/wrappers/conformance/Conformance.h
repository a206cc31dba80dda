//===- Conformance.h - One runtime test suite, run on every backend -------===//
//
// The runtime conformance suite: Catch2 cases over the Runtime interface
// (wrappers/Runtime.h), compiled once and linked into one test binary per
// backend, as IREE's hal/cts runs one suite per driver. Each binary links
// one backend's wrapper library and one definition of backendUnderTest()
// (HostBackend.cpp, GpuBackend.cpp): how to make a runtime for a case, the
// wording of the errors that are the backend's own, and the cases it
// cannot run, each with the reason (ConformanceMain.cpp leaves those out
// and prints why). The GPU binaries run on the driver stand-ins (standin/),
// which ctest loads through GPU_RUNNER_CUDA_DRIVER and
// GPU_RUNNER_HIP_RUNTIME.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_UNITTESTS_WRAPPERS_CONFORMANCE_CONFORMANCE_H
#define GPU_RUNNER_UNITTESTS_WRAPPERS_CONFORMANCE_CONFORMANCE_H

#include "wrappers/Runtime.h"

#include "unittests/wrappers/TestSupport.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpu_runner {
namespace conformance {

/// Cases a backend cannot run: those with `tag`, and why.
struct Exclusion {
  std::string tag;
  std::string reason;
};

/// The backend a conformance binary runs the suite on.
struct BackendUnderTest {
  /// How the binary names it: "host", "cuda", "hip".
  std::string name;
  /// A runtime of its own for one case, ready for ops on device 0.
  std::function<Status(std::unique_ptr<Runtime> &runtime)> create;
  /// Holds the work enqueued on `stream` after this call until `gate`
  /// opens; null where the backend has no way to (cases tagged [hold]).
  std::function<Status(Runtime &runtime, void *stream, test::Gate &gate)> hold;
  /// How its errors name an allocation of `bytes` made by `madeBy`
  /// ("gpu.alloc at f.mlir:3:5"): "the 64-byte allocation made by ...".
  std::function<std::string(uint64_t bytes, const std::string &madeBy)>
      allocation;
  /// Its errors for host registrations, which the GPU backends leave to the
  /// driver: a range that overlaps a registration, a pointer that starts
  /// none, and device memory.
  std::string alreadyRegistered;
  std::string notRegistered;
  std::string deviceMemoryRegistered;
  /// The error of an op between finalize and the next initialize; empty
  /// where the op runs (the host backend's finalize leaves it usable).
  std::string afterFinalize;
  /// The cases it cannot run.
  std::vector<Exclusion> cannotRun;
};

/// Defined once per binary, by the backend's file.
const BackendUnderTest &backendUnderTest();

/// The fixture of every case: a runtime of the backend under test, made for
/// the case and finalized at its end, with the helpers the cases share.
class RuntimeFixture {
public:
  RuntimeFixture();
  ~RuntimeFixture();
  RuntimeFixture(const RuntimeFixture &) = delete;
  RuntimeFixture &operator=(const RuntimeFixture &) = delete;

protected:
  /// `bytes` of device memory, allocated by the op at `loc`.
  void *allocate(uint64_t bytes, void *stream = nullptr,
                 const char *loc = "gpu.alloc@r.mlir:1:1");
  void *createStream();
  /// Holds `stream` (BackendUnderTest::hold) until the gate returned
  /// opens, at the end of the case at the latest.
  test::Gate &hold(void *stream);
  /// BackendUnderTest::allocation.
  std::string allocation(uint64_t bytes, const std::string &madeBy) const;

  const BackendUnderTest &backend;
  std::unique_ptr<Runtime> owned;
  Runtime &runtime;

private:
  std::vector<std::unique_ptr<test::Gate>> gates;
};

} // namespace conformance
} // namespace gpu_runner

#endif // GPU_RUNNER_UNITTESTS_WRAPPERS_CONFORMANCE_CONFORMANCE_H
