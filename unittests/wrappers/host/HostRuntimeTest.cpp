//===- HostRuntimeTest.cpp - The host backend's mgpu ops ------------------===//
//
// What only the host backend does of the Runtime interface: checks at
// enqueue time before a held stream runs, the quarantine of freed memory,
// one device and no GPU binaries, a finalize that joins its workers and
// leaves the runtime usable, and event tokens its event functions refuse
// once released. The interface's own behaviour is the conformance suite's
// (unittests/wrappers/conformance/), which runs on every backend. Then, in
// child processes since errors end the process, the extern "C" layer's
// exact diagnostics and exit status, and Backend.h.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostRuntime.h"

#include "wrappers/Backend.h"
#include "wrappers/MgpuAbi.h"

#include "unittests/wrappers/TestSupport.h"

#include <cstring>
#include <thread>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::test;
using namespace std::chrono_literals;

namespace {

void *allocate(HostRuntime &runtime, uint64_t bytes, void *stream = nullptr,
               const char *loc = "gpu.alloc@r.mlir:1:1") {
  void *result = nullptr;
  REQUIRE_OK(runtime.allocate(bytes, stream, false, loc, result));
  REQUIRE(result);
  return result;
}

void *createStream(HostRuntime &runtime) {
  void *stream = nullptr;
  REQUIRE_OK(runtime.createStream(stream, kLoc));
  return stream;
}

/// Holds `stream` until `gate` opens.
void hold(HostRuntime &runtime, void *stream, Gate &gate) {
  REQUIRE_OK(runtime.streams().enqueue(
      stream,
      [&gate] {
        gate.wait();
        return Status();
      },
      "test"));
}

} // namespace

TEST_CASE("a copy enqueued after an asynchronous free is a use after free, "
          "even before the free runs",
          "[runtime]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  Gate gate;
  hold(runtime, stream, gate);
  void *device = allocate(runtime, 64, nullptr, "gpu.alloc@u.mlir:2:3");
  REQUIRE_OK(runtime.free(device, stream, "gpu.dealloc@u.mlir:5:3"));
  char host[64];
  REQUIRE_ERROR(
      runtime.memcpy(host, device, 64, stream, "gpu.memcpy@u.mlir:6:3"),
      "use after free: the source is in the 64-byte allocation made "
      "by gpu.alloc at u.mlir:2:3, which was freed by gpu.dealloc "
      "at u.mlir:5:3");
  // The pages are still there until the stream reaches the free.
  CHECK(runtime.memory().quarantinedBytes() == 0);
  gate.open();
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  CHECK(runtime.memory().quarantinedBytes() > 0);
}

TEST_CASE("a large copy or fill runs in parts on the kernels' threads and "
          "writes every byte of its range, and no other",
          "[runtime]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  // Past the size that goes in parts, and not a whole number of parts.
  const uint64_t bytes = kParallelCopyBytes + (uint64_t(3) << 20) + 4104;
  const uint64_t margin = 64;
  std::vector<unsigned char> host(bytes);
  for (uint64_t i = 0; i < bytes; ++i)
    host[i] = static_cast<unsigned char>(i * 131 % 251);
  auto *device =
      static_cast<unsigned char *>(allocate(runtime, bytes + 2 * margin));
  std::memset(device, 0xee, bytes + 2 * margin);
  REQUIRE_OK(runtime.memcpy(device + margin, host.data(), bytes, stream, kLoc));
  std::vector<unsigned char> back(bytes + margin, 0xdd);
  REQUIRE_OK(runtime.memcpy(back.data(), device + margin, bytes, stream, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  CHECK(std::memcmp(back.data(), host.data(), bytes) == 0);
  CHECK(back[bytes] == 0xdd);
  CHECK(device[margin - 1] == 0xee);
  CHECK(device[margin + bytes] == 0xee);
  if (std::thread::hardware_concurrency() > 1)
    CHECK(runtime.kernels().workerCount() ==
          std::thread::hardware_concurrency() - 1);

  // Overlapping ranges stay one memmove.
  REQUIRE_OK(runtime.memcpy(device + 2 * margin, device + margin,
                            bytes - margin, stream, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  CHECK(std::memcmp(device + 2 * margin, host.data(), bytes - margin) == 0);

  // Fills of a pattern whose bytes differ, in parts of whole elements.
  REQUIRE_OK(
      runtime.memset(device + margin, 0x1234, 2, bytes / 2, stream, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < bytes / 2; ++i) {
    uint16_t element;
    std::memcpy(&element, device + margin + 2 * i, 2);
    wrong += element != 0x1234;
  }
  CHECK(wrong == 0);
  CHECK(device[margin - 1] == 0xee);
  REQUIRE_OK(runtime.memset(device + margin, 0x0102030405060708ULL, 8,
                            bytes / 8, stream, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  for (uint64_t i = 0; i < bytes / 8; ++i) {
    uint64_t element;
    std::memcpy(&element, device + margin + 8 * i, 8);
    wrong += element != 0x0102030405060708ULL;
  }
  CHECK(wrong == 0);
  CHECK(device[margin + bytes] == 0xee);
  REQUIRE_OK(runtime.free(device, nullptr, kLoc));
}

TEST_CASE("GPU binaries and other devices are not supported", "[runtime]") {
  HostRuntime runtime;
  REQUIRE_OK(runtime.setDefaultDevice(0, kLoc));
  REQUIRE_ERROR(runtime.setDefaultDevice(1, kLoc),
                "the host backend has one device, 0: there is no device 1");
  void *module = nullptr;
  REQUIRE_ERROR(
      runtime.loadModule("binary", 6, kDeviceObjectBinary, 2, module, kLoc),
      "the host backend cannot load or launch GPU binaries: it "
      "runs the kernels that gpu-runner's host lowering compiles "
      "into the program");
}

TEST_CASE("finalize drains the streams, lists the leaks and frees them",
          "[runtime]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  void *kept = allocate(runtime, 4096, nullptr, "gpu.alloc@leak.mlir:3:5");
  void *freed = allocate(runtime, 8, nullptr, "gpu.alloc@leak.mlir:4:5");
  allocate(runtime, 12, nullptr, "gpu.alloc");
  Gate gate;
  hold(runtime, stream, gate);
  REQUIRE_OK(runtime.free(freed, stream, "gpu.dealloc"));
  DelayedOpener opener(gate, 20ms);
  std::vector<HostRuntime::Warning> leaks;
  REQUIRE_OK(runtime.finalize(leaks));
  REQUIRE(leaks.size() == 2);
  CHECK(formatDiagnostic(leaks[0].loc.c_str(), "warning", leaks[0].message) ==
        "leak.mlir:3:5: warning: gpu.alloc: 4096 bytes of device memory "
        "allocated here were never freed");
  CHECK(formatDiagnostic(leaks[1].loc.c_str(), "warning", leaks[1].message) ==
        "warning: gpu.alloc: 12 bytes of device memory allocated here were "
        "never freed");
  CHECK_FALSE(runtime.memory().isDeviceMemory(kept));
  CHECK(runtime.streams().workerCount() == 0);
  // Usable again.
  allocate(runtime, 16);
  REQUIRE_OK(runtime.finalize(leaks));
  CHECK(leaks.size() == 1);
}

TEST_CASE("tokens that crossed an async.yield are events of the stream "
          "manager, which its event functions refuse once released",
          "[runtime][token]") {
  HostRuntime runtime;
  void *producer = createStream(runtime);
  void *first = nullptr, *second = nullptr;
  REQUIRE_OK(runtime.recordEventOnStream(producer, first, kLoc));
  REQUIRE_OK(runtime.recordEventOnStream(producer, second, kLoc));
  REQUIRE(runtime.streams().isEvent(first));
  REQUIRE_OK(runtime.destroyStream(producer, kLoc));
  void *a = nullptr, *b = nullptr;
  REQUIRE_OK(runtime.streamFromToken(first, a, kLoc));
  REQUIRE_OK(runtime.streamFromToken(second, b, kLoc));
  CHECK_FALSE(runtime.streams().isEvent(a));

  // Released by a join or a destroy, an event is destroyed as far as the
  // event functions can tell (the GPU backends accept it there too).
  void *event = nullptr;
  REQUIRE_OK(runtime.recordEventOnStream(a, event, kLoc));
  REQUIRE_OK(runtime.joinStream(b, event, kLoc));
  REQUIRE_ERROR(runtime.destroyEvent(event, kLoc), "event");
  REQUIRE_OK(runtime.recordEventOnStream(a, event, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(event, kLoc));
  REQUIRE_OK(runtime.destroyStream(event, kLoc));
  REQUIRE_ERROR(runtime.synchronizeEvent(event, kLoc), "event");
  REQUIRE_OK(runtime.destroyStream(a, kLoc));
  REQUIRE_OK(runtime.destroyStream(b, kLoc));
}

//===----------------------------------------------------------------------===//
// The extern "C" layer, in child processes: its errors end the process.
//===----------------------------------------------------------------------===//

TEST_CASE("an error in an mgpu call prints the op's location and exits with "
          "status 1",
          "[abi]") {
  ChildResult result = runInChild([] {
    void *device = mgpuMemAllocAt(100, nullptr, false, "gpu.alloc@p.mlir:2:8");
    char host[128];
    std::printf("before the error");
    mgpuMemcpyAt(host, device, 128, nullptr, "gpu.memcpy@p.mlir:5:3");
    std::printf("never printed");
  });
  CHECK(result.exited);
  CHECK(result.exitStatus == 1);
  CHECK(result.out == "before the error");
  CHECK(result.err ==
        "p.mlir:5:3: error: gpu.memcpy: out of bounds: the source spans bytes "
        "[0, 128) of the 100-byte allocation made by gpu.alloc at p.mlir:2:8: "
        "28 bytes past its end\n");
}

TEST_CASE("upstream mgpu calls name their op without a location", "[abi]") {
  ChildResult result = runInChild([] { mgpuMemFree(nullptr, nullptr); });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "error: gpu.dealloc: cannot free a null pointer\n");

  result = runInChild([] {
    void *device = mgpuMemAlloc(64, nullptr, false);
    mgpuMemset32(device, 7, 16, nullptr);
    mgpuMemset16(device, 7, 33, nullptr);
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err ==
        "error: gpu.memset: out of bounds: the destination spans bytes "
        "[0, 66) of the 64-byte allocation made by gpu.alloc: 2 bytes past "
        "its end\n");

  result = runInChild([] { mgpuSetDefaultDevice(2); });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "error: gpu.set_default_device: the host backend has "
                      "one device, 0: there is no device 2\n");
}

TEST_CASE("the upstream module and kernel functions report that the host "
          "backend runs no GPU binaries",
          "[abi]") {
  // Each error is at the op the function serves.
  auto expected = [](const char *op) {
    return "error: " + std::string(op) +
           ": the host backend cannot load or launch GPU binaries: it runs "
           "the kernels that gpu-runner's host lowering compiles into the "
           "program\n";
  };
  ChildResult result = runInChild([] { mgpuModuleLoad(nullptr, 0); });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == expected("gpu.binary"));
  result = runInChild([] { mgpuModuleLoadJIT(nullptr, 2); });
  CHECK(result.err == expected("gpu.binary"));
  result = runInChild([] { mgpuModuleUnload(nullptr); });
  CHECK(result.err == expected("gpu.binary"));
  result = runInChild([] { mgpuModuleGetFunction(nullptr, "kernel"); });
  CHECK(result.err == expected("gpu.launch_func"));
  result = runInChild([] {
    mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr,
                     0);
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == expected("gpu.launch_func"));
}

TEST_CASE("finalizeBackend warns about leaks and the program exits normally",
          "[abi]") {
  ChildResult result = runInChild([] {
    if (llvm::Error error = initializeBackend(BackendOptions()))
      std::printf("initialize failed: %s\n",
                  llvm::toString(std::move(error)).c_str());
    void *leaked = mgpuMemAllocAt(4096, nullptr, false, "gpu.alloc@m.mlir:3:5");
    void *freed = mgpuMemAllocAt(16, nullptr, true, "gpu.alloc@m.mlir:4:5");
    mgpuMemset8At(leaked, 1, 4096, nullptr, "gpu.memset@m.mlir:5:5");
    mgpuMemFreeAt(freed, nullptr, "gpu.dealloc@m.mlir:6:5");
    finalizeBackend();
  });
  CHECK(result.exitStatus == 0);
  CHECK(result.out.empty());
  CHECK(result.err == "m.mlir:3:5: warning: gpu.alloc: 4096 bytes of device "
                      "memory allocated here were never freed\n");
}

TEST_CASE("the backend names itself and rejects other devices", "[abi]") {
  CHECK(getBackend() == Backend::Host);
  CHECK(std::string(getBackendName(getBackend())) == "host");
  BackendOptions options;
  options.device = 3;
  llvm::Error error = initializeBackend(options);
  REQUIRE(static_cast<bool>(error));
  CHECK(llvm::toString(std::move(error)) ==
        "the host backend has one device, 0: there is no device 3");
}
