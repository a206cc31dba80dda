//===- HostBackend.cpp - The conformance suite on the host backend --------===//
//
// HostRuntime, as the suite's backend: each case gets a runtime of its own,
// and a stream is held by a task of the test's own on it.
//
//===----------------------------------------------------------------------===//

#include "unittests/wrappers/conformance/Conformance.h"

#include "wrappers/host/HostRuntime.h"

using namespace gpu_runner;
using namespace gpu_runner::conformance;

const BackendUnderTest &gpu_runner::conformance::backendUnderTest() {
  static const BackendUnderTest backend = [] {
    BackendUnderTest host;
    host.name = "host";
    host.create = [](std::unique_ptr<Runtime> &runtime) {
      runtime = std::make_unique<HostRuntime>();
      return Status();
    };
    host.hold = [](Runtime &runtime, void *stream, test::Gate &gate) {
      return static_cast<HostRuntime &>(runtime).streams().enqueue(
          stream,
          [&gate] {
            gate.wait();
            return Status();
          },
          "test");
    };
    host.allocation = [](uint64_t bytes, const std::string &madeBy) {
      return "the " + std::to_string(bytes) + "-byte allocation made by " +
             madeBy;
    };
    host.alreadyRegistered = "is already registered: it overlaps";
    host.notRegistered = "is not registered host memory";
    host.deviceMemoryRegistered =
        "is device memory: only host memory can be registered";
    return host;
  }();
  return backend;
}
