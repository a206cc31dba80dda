//===- RuntimeTest.cpp - The host backend's mgpu ops ----------------------===//
//
// The ops as the program calls them: copies and memsets between host and
// device memory on streams and synchronously, checks at enqueue time in
// program order, strided descriptors, host registration, the leak report,
// and (in child processes, since errors end the process) the extern "C"
// layer's exact diagnostics and exit status.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/Runtime.h"

#include "wrappers/Backend.h"
#include "wrappers/MgpuAbi.h"

#include "unittests/wrappers/TestSupport.h"

#include <atomic>
#include <cstring>
#include <numeric>
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

TEST_CASE("data goes to device memory and back through a stream", "[runtime]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  std::vector<int32_t> in(1000), out(1000, -1);
  std::iota(in.begin(), in.end(), 0);
  void *device = allocate(runtime, 4000, stream);
  REQUIRE_OK(runtime.memcpy(device, in.data(), 4000, stream, "gpu.memcpy"));
  REQUIRE_OK(runtime.memcpy(out.data(), device, 4000, stream, "gpu.memcpy"));
  REQUIRE_OK(runtime.free(device, stream, "gpu.dealloc"));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  CHECK(out == in);
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

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

TEST_CASE("copies are checked on both sides", "[runtime]") {
  HostRuntime runtime;
  void *device = allocate(runtime, 100, nullptr, "gpu.alloc@o.mlir:1:5");
  std::vector<char> host(200);
  REQUIRE_ERROR(runtime.memcpy(device, host.data(), 120, nullptr, "gpu.memcpy"),
                "out of bounds: the destination spans bytes [0, 120) of the "
                "100-byte allocation made by gpu.alloc at o.mlir:1:5: 20 bytes "
                "past its end");
  REQUIRE_ERROR(runtime.memcpy(host.data(), device, 101, nullptr, "gpu.memcpy"),
                "out of bounds: the source spans bytes [0, 101)");
  REQUIRE_ERROR(runtime.memcpy(nullptr, device, 1, nullptr, "gpu.memcpy"),
                "the destination is a null pointer");
  REQUIRE_OK(runtime.memcpy(host.data(), device, 100, nullptr, "gpu.memcpy"));
  REQUIRE_ERROR(runtime.memcpy(host.data(), device, 4,
                               reinterpret_cast<void *>(77), "gpu.memcpy"),
                "invalid stream handle 0x4d");
}

TEST_CASE("a synchronous copy waits for the streams before it", "[runtime]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  void *device = allocate(runtime, 4 * 256);
  Gate gate;
  hold(runtime, stream, gate);
  REQUIRE_OK(runtime.memset(device, 0x01020304, 4, 256, stream, "gpu.memset"));
  DelayedOpener opener(gate, 30ms);
  std::vector<uint32_t> out(256, 0);
  REQUIRE_OK(
      runtime.memcpy(out.data(), device, 4 * 256, nullptr, "gpu.memcpy"));
  CHECK(out == std::vector<uint32_t>(256, 0x01020304));
}

TEST_CASE("memsets of 1, 2, 4 and 8 byte elements fill device memory",
          "[runtime][memset]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  const uint64_t count = 101;
  void *device = allocate(runtime, 8 * (count + 1));
  std::vector<unsigned char> out(8 * (count + 1));

  REQUIRE_OK(
      runtime.memset(device, 0, 1, 8 * (count + 1), stream, "gpu.memset"));
  REQUIRE_OK(runtime.memset(device, 0xab, 1, count, stream, "gpu.memset"));
  REQUIRE_OK(
      runtime.memcpy(out.data(), device, out.size(), stream, "gpu.memcpy"));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  CHECK(out[0] == 0xab);
  CHECK(out[count - 1] == 0xab);
  CHECK(out[count] == 0);

  for (int64_t elementSize : {2, 4, 8}) {
    INFO("element size " << elementSize);
    const uint64_t value = 0x1122334455667788;
    REQUIRE_OK(
        runtime.memset(device, 0, 1, 8 * (count + 1), nullptr, "gpu.memset"));
    REQUIRE_OK(runtime.memset(device, value, elementSize, count, stream,
                              "gpu.memset"));
    REQUIRE_OK(
        runtime.memcpy(out.data(), device, out.size(), stream, "gpu.memcpy"));
    REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
    uint64_t mask = elementSize == 8 ? ~uint64_t(0)
                                     : (uint64_t(1) << (8 * elementSize)) - 1;
    bool right = true;
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t element = 0;
      std::memcpy(&element, out.data() + i * elementSize, elementSize);
      right &= element == (value & mask);
    }
    CHECK(right);
    CHECK(out[count * elementSize] == 0);
  }
  REQUIRE_ERROR(runtime.memset(device, 0, 4, 8 * count, stream, "gpu.memset"),
                "out of bounds: the destination spans bytes [0, 3232) of the "
                "816-byte allocation");
  REQUIRE_ERROR(runtime.memset(device, 0, 3, 1, stream, "gpu.memset"),
                "cannot fill elements of 3 bytes");
}

TEST_CASE("a strided copy writes a 2x3 window of a 6x6 device matrix",
          "[runtime][strided]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  void *matrix = allocate(runtime, 36 * 4);
  REQUIRE_OK(runtime.memset(matrix, 0xffffffff, 4, 36, stream, "gpu.memset"));
  int32_t window[6] = {1, 2, 3, 4, 5, 6};
  {
    // Descriptors live on this block's stack only: the op must copy them.
    Descriptor<2> dst{matrix, matrix, 2 * 6 + 1, {2, 3}, {6, 1}};
    Descriptor<2> src{window, window, 0, {2, 3}, {3, 1}};
    REQUIRE_OK(runtime.memcpyStrided(2, &dst, &src, 4, stream, "gpu.memcpy"));
    std::memset(&dst, 0, sizeof(dst));
    std::memset(&src, 0, sizeof(src));
  }
  std::vector<int32_t> out(36);
  REQUIRE_OK(runtime.memcpy(out.data(), matrix, 36 * 4, stream, "gpu.memcpy"));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  std::vector<int32_t> expected(36, -1);
  int next = 1;
  for (int row = 2; row < 4; ++row)
    for (int column = 1; column < 4; ++column)
      expected[row * 6 + column] = next++;
  CHECK(out == expected);

  // The same window moved to (5, 4) runs off the matrix.
  Descriptor<2> offEnd{matrix, matrix, 5 * 6 + 4, {2, 3}, {6, 1}};
  Descriptor<2> src{window, window, 0, {2, 3}, {3, 1}};
  REQUIRE_ERROR(
      runtime.memcpyStrided(2, &offEnd, &src, 4, stream, "gpu.memcpy"),
      "out of bounds: the destination spans bytes [136, 172) of the "
      "144-byte allocation made by gpu.alloc at r.mlir:1:1: 28 bytes "
      "past its end");
  Descriptor<2> transposed{window, window, 0, {3, 2}, {2, 1}};
  REQUIRE_ERROR(
      runtime.memcpyStrided(2, &transposed, &src, 4, stream, "gpu.memcpy"),
      "shape mismatch: the source is 2x3 but the destination is 3x2");
  Descriptor<2> negative{window, window, 0, {-1, 3}, {3, 1}};
  REQUIRE_ERROR(
      runtime.memcpyStrided(2, &negative, &src, 4, stream, "gpu.memcpy"),
      "the destination has a negative size, -1, in dimension 0");
  // Empty copies touch nothing, whatever the pointers.
  Descriptor<2> emptyDst{nullptr, nullptr, 0, {0, 3}, {3, 1}};
  Descriptor<2> emptySrc{nullptr, nullptr, 0, {0, 3}, {3, 1}};
  REQUIRE_OK(
      runtime.memcpyStrided(2, &emptyDst, &emptySrc, 4, stream, "gpu.memcpy"));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
}

TEST_CASE("a strided memset fills one column of a device matrix",
          "[runtime][strided][memset]") {
  HostRuntime runtime;
  void *matrix = allocate(runtime, 4 * 5 * 8);
  Descriptor<2> column{matrix, matrix, 3, {4, 1}, {5, 1}};
  REQUIRE_OK(runtime.memsetStrided(2, &column, 8, 0xfedcba9876543210, nullptr,
                                   "gpu.memset"));
  std::vector<uint64_t> out(20);
  REQUIRE_OK(runtime.memcpy(out.data(), matrix, 160, nullptr, "gpu.memcpy"));
  for (int row = 0; row < 4; ++row)
    for (int c = 0; c < 5; ++c) {
      INFO("row " << row << " column " << c);
      CHECK(out[row * 5 + c] == (c == 3 ? 0xfedcba9876543210 : 0));
    }
  Descriptor<2> tooFar{matrix, matrix, 4, {5, 1}, {5, 1}};
  REQUIRE_ERROR(runtime.memsetStrided(2, &tooFar, 8, 0, nullptr, "gpu.memset"),
                "out of bounds: the destination spans bytes [32, 200) of the "
                "160-byte allocation");
}

TEST_CASE("asynchronous ops on a released stream are errors", "[runtime]") {
  HostRuntime runtime;
  void *stream = createStream(runtime);
  void *device = allocate(runtime, 16);
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
  const char *released = "the stream of this op's async dependency was "
                         "already released by a gpu.wait";
  char host[16];
  REQUIRE_ERROR(runtime.memcpy(host, device, 16, stream, "gpu.memcpy"),
                released);
  REQUIRE_ERROR(runtime.memset(device, 0, 1, 16, stream, "gpu.memset"),
                released);
  void *result = nullptr;
  REQUIRE_ERROR(runtime.allocate(16, stream, false, "gpu.alloc", result),
                released);
  REQUIRE_ERROR(runtime.free(device, stream, "gpu.dealloc"), released);
  // The failed free did not mark anything.
  REQUIRE_OK(runtime.free(device, nullptr, "gpu.dealloc"));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

TEST_CASE("a token is a dependency again after a gpu.wait released it, as "
          "the lowering calls the runtime",
          "[runtime][token]") {
  HostRuntime runtime;
  void *device = allocate(runtime, 16);
  int32_t in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
  // %t0 = gpu.wait async; %t1 = gpu.memcpy async [%t0] ...; gpu.wait [%t1]
  void *t0 = createStream(runtime);
  void *t1 = nullptr;
  REQUIRE_OK(runtime.streamFromToken(t0, t1, kLoc));
  CHECK(t1 == t0);
  REQUIRE_OK(runtime.memcpy(device, in, 16, t1, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(t1, kLoc));
  REQUIRE_OK(runtime.destroyStream(t1, kLoc));
  // %t2 = gpu.memcpy async [%t1] ...: a stream of its own.
  void *t2 = nullptr;
  REQUIRE_OK(runtime.streamFromToken(t1, t2, kLoc));
  CHECK(t2 != t1);
  REQUIRE_OK(runtime.memcpy(out, device, 16, t2, kLoc));
  // gpu.wait [%t2]; gpu.wait [%t1]
  REQUIRE_OK(runtime.synchronizeStream(t2, kLoc));
  REQUIRE_OK(runtime.destroyStream(t2, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(t1, kLoc));
  REQUIRE_OK(runtime.destroyStream(t1, kLoc));
  CHECK(std::memcmp(in, out, sizeof(in)) == 0);
  // Joined into a live stream, and yielded: it is its own event.
  void *live = createStream(runtime);
  REQUIRE_OK(runtime.joinStream(live, t1, kLoc));
  void *event = nullptr;
  REQUIRE_OK(runtime.recordEventOnStream(t1, event, kLoc));
  CHECK(event == t1);
  REQUIRE_OK(runtime.destroyStream(live, kLoc));
  // A handle no token ever had is still an error.
  void *never = reinterpret_cast<void *>(12345);
  void *stream = nullptr;
  REQUIRE_ERROR(runtime.streamFromToken(never, stream, kLoc),
                "invalid stream handle 0x3039");
  REQUIRE_ERROR(runtime.synchronizeStream(never, kLoc),
                "invalid stream handle 0x3039");
  REQUIRE_OK(runtime.free(device, nullptr, kLoc));
}

TEST_CASE("a token that crossed an async.yield is an event: each stream "
          "made from it waits for the work before it",
          "[runtime]") {
  HostRuntime runtime;
  void *producer = createStream(runtime);
  Gate gate;
  std::atomic<bool> produced{false};
  REQUIRE_OK(runtime.streams().enqueue(
      producer,
      [&] {
        gate.wait();
        produced = true;
        return Status();
      },
      "test"));

  // Two consumers of the same producer, each from an event of its own, as
  // gpu-async-region yields a token once per awaiting region.
  void *first = nullptr, *second = nullptr;
  REQUIRE_OK(runtime.recordEventOnStream(producer, first, kLoc));
  REQUIRE_OK(runtime.recordEventOnStream(producer, second, kLoc));
  REQUIRE(runtime.streams().isEvent(first));
  REQUIRE_OK(runtime.destroyStream(producer, kLoc));

  void *a = nullptr, *b = nullptr;
  REQUIRE_OK(runtime.streamFromToken(first, a, kLoc));
  REQUIRE_OK(runtime.streamFromToken(second, b, kLoc));
  CHECK(a != b);
  CHECK_FALSE(runtime.streams().isEvent(a));
  std::atomic<int> sawProduced{0};
  for (void *stream : {a, b})
    REQUIRE_OK(runtime.streams().enqueue(
        stream,
        [&] {
          sawProduced += produced ? 1 : 0;
          return Status();
        },
        "test"));
  gate.open();
  REQUIRE_OK(runtime.synchronizeStream(a, kLoc));
  REQUIRE_OK(runtime.synchronizeStream(b, kLoc));
  CHECK(sawProduced == 2);

  // A stream made from a stream is that stream.
  void *same = nullptr;
  REQUIRE_OK(runtime.streamFromToken(a, same, kLoc));
  CHECK(same == a);

  // Join, synchronize and destroy take an event where they take a stream,
  // and release it.
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

TEST_CASE("host memory is registered from a memref, exactly the bytes it "
          "spans",
          "[runtime][register]") {
  HostRuntime runtime;
  std::vector<float> host(64);
  // A 4x4 window at (1, 2) of an 8x8 matrix: elements 10 .. 37.
  Descriptor<2> window{host.data(), host.data(), 10, {4, 4}, {8, 1}};
  REQUIRE_OK(runtime.hostRegisterMemRef(2, &window, 4,
                                        "gpu.host_register@h.mlir:1:1"));
  REQUIRE_ERROR(
      runtime.hostRegisterMemRef(2, &window, 4, "gpu.host_register@h.mlir:2:1"),
      "is already registered: it overlaps the 112 bytes at " +
          formatPointer(host.data() + 10) +
          " registered by gpu.host_register at h.mlir:1:1");
  // Bytes outside the span are free to register.
  REQUIRE_OK(runtime.hostRegister(host.data(), 40, "gpu.host_register"));
  REQUIRE_OK(runtime.hostRegister(host.data() + 38, 4, "gpu.host_register"));
  REQUIRE_OK(runtime.hostUnregisterMemRef(2, &window, 4, kLoc));
  REQUIRE_ERROR(runtime.hostUnregisterMemRef(2, &window, 4, kLoc),
                "is not registered host memory");
  REQUIRE_OK(runtime.hostUnregister(host.data(), kLoc));
  REQUIRE_ERROR(runtime.hostUnregister(host.data(), kLoc),
                "is not registered host memory");

  void *device = allocate(runtime, 64);
  Descriptor<1> deviceMemRef{device, device, 0, {16}, {1}};
  REQUIRE_ERROR(
      runtime.hostRegisterMemRef(1, &deviceMemRef, 4, "gpu.host_register"),
      "is device memory: only host memory can be registered");
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
    std::string error;
    if (!initializeBackend(BackendOptions(), error))
      std::printf("initialize failed: %s\n", error.c_str());
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
  std::string error;
  CHECK_FALSE(initializeBackend(options, error));
  CHECK(error == "the host backend has one device, 0: there is no device 3");
}

TEST_CASE("a copy on a stream that takes no work reports the stream before "
          "its ranges",
          "[runtime][strided]") {
  HostRuntime runtime;
  void *released = createStream(runtime);
  void *device = allocate(runtime, 64);
  std::vector<char> host(256);
  const char *const kReleasedStream =
      "the stream of this op's async dependency was already released by a "
      "gpu.wait";
  REQUIRE_OK(runtime.destroyStream(released, kLoc));
  void *unknown = reinterpret_cast<void *>(12345);
  // Ranges that pass, and ranges that fail: the stream's error either way.
  for (uint64_t bytes : {uint64_t(16), uint64_t(200)}) {
    REQUIRE_ERROR(
        runtime.memcpy(device, host.data(), bytes, released, "gpu.memcpy"),
        kReleasedStream);
    REQUIRE_ERROR(
        runtime.memcpy(host.data(), device, bytes, unknown, "gpu.memcpy"),
        "invalid stream handle 0x3039");
    Descriptor<1> dst{device, device, 0, {int64_t(bytes)}, {1}};
    Descriptor<1> src{host.data(), host.data(), 0, {int64_t(bytes)}, {1}};
    REQUIRE_ERROR(
        runtime.memcpyStrided(1, &dst, &src, 1, released, "gpu.memcpy"),
        kReleasedStream);
  }
  // A plan that fails: the stream's error too.
  Descriptor<1> dst{device, device, 0, {-1}, {1}};
  Descriptor<1> src{host.data(), host.data(), 0, {4}, {1}};
  REQUIRE_ERROR(runtime.memcpyStrided(1, &dst, &src, 1, unknown, "gpu.memcpy"),
                "invalid stream handle 0x3039");
  // On a stream that takes work the ranges' errors are reported.
  void *stream = createStream(runtime);
  REQUIRE_ERROR(runtime.memcpy(device, host.data(), 200, stream, "gpu.memcpy"),
                "out of bounds: the destination spans bytes [0, 200)");
  REQUIRE_ERROR(runtime.memcpyStrided(1, &dst, &src, 1, stream, "gpu.memcpy"),
                "the destination has a negative size, -1, in dimension 0");
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}
