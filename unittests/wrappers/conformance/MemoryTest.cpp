//===- MemoryTest.cpp - Conformance: memory, copies, memsets --------------===//
//
// The ops on memory as every backend must run them: copies and memsets
// between host and device memory on streams and synchronously, strided
// descriptors, the checks at enqueue time against the allocation table,
// host registration, and the leak report of finalize, one line per op.
//
//===----------------------------------------------------------------------===//

#include "unittests/wrappers/conformance/Conformance.h"

#include <cstring>
#include <numeric>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::conformance;
using namespace gpu_runner::test;
using namespace std::chrono_literals;

TEST_CASE_METHOD(RuntimeFixture,
                 "data goes to device memory and back through a stream",
                 "[memory]") {
  void *stream = createStream();
  std::vector<int32_t> in(1000), out(1000, -1);
  std::iota(in.begin(), in.end(), 0);
  void *device = allocate(4000, stream);
  REQUIRE_OK(runtime.memcpy(device, in.data(), 4000, stream, "gpu.memcpy"));
  REQUIRE_OK(runtime.memcpy(out.data(), device, 4000, stream, "gpu.memcpy"));
  REQUIRE_OK(runtime.free(device, stream, "gpu.dealloc"));
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  CHECK(out == in);
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "a copy enqueued after an asynchronous free is a use after "
                 "free",
                 "[memory]") {
  void *stream = createStream();
  void *device = allocate(64, nullptr, "gpu.alloc@u.mlir:2:3");
  REQUIRE_OK(runtime.free(device, stream, "gpu.dealloc@u.mlir:5:3"));
  char host[64];
  REQUIRE_ERROR(
      runtime.memcpy(host, device, 64, stream, "gpu.memcpy@u.mlir:6:3"),
      "use after free: the source is in " +
          allocation(64, "gpu.alloc at u.mlir:2:3") +
          ", which was freed by gpu.dealloc at u.mlir:5:3");
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

TEST_CASE_METHOD(RuntimeFixture, "copies are checked on both sides",
                 "[memory]") {
  void *device = allocate(100, nullptr, "gpu.alloc@o.mlir:1:5");
  std::vector<char> host(200);
  REQUIRE_ERROR(runtime.memcpy(device, host.data(), 120, nullptr, "gpu.memcpy"),
                "out of bounds: the destination spans bytes [0, 120) of " +
                    allocation(100, "gpu.alloc at o.mlir:1:5") +
                    ": 20 bytes past its end");
  REQUIRE_ERROR(runtime.memcpy(host.data(), device, 101, nullptr, "gpu.memcpy"),
                "out of bounds: the source spans bytes [0, 101)");
  REQUIRE_ERROR(runtime.memcpy(nullptr, device, 1, nullptr, "gpu.memcpy"),
                "the destination is a null pointer");
  REQUIRE_OK(runtime.memcpy(host.data(), device, 100, nullptr, "gpu.memcpy"));
  REQUIRE_ERROR(runtime.memcpy(host.data(), device, 4,
                               reinterpret_cast<void *>(77), "gpu.memcpy"),
                "invalid stream handle 0x4d");
}

TEST_CASE_METHOD(RuntimeFixture,
                 "a synchronous copy waits for the streams before it",
                 "[memory][hold]") {
  void *stream = createStream();
  void *device = allocate(4 * 256);
  Gate &gate = hold(stream);
  REQUIRE_OK(runtime.memset(device, 0x01020304, 4, 256, stream, "gpu.memset"));
  DelayedOpener opener(gate, 30ms);
  std::vector<uint32_t> out(256, 0);
  REQUIRE_OK(
      runtime.memcpy(out.data(), device, 4 * 256, nullptr, "gpu.memcpy"));
  CHECK(out == std::vector<uint32_t>(256, 0x01020304));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "memsets of 1, 2, 4 and 8 byte elements fill device memory",
                 "[memory][memset]") {
  void *stream = createStream();
  const uint64_t count = 101;
  void *device = allocate(8 * (count + 1));
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
                "out of bounds: the destination spans bytes [0, 3232) of " +
                    allocation(816, "gpu.alloc at r.mlir:1:1"));
  REQUIRE_ERROR(runtime.memset(device, 0, 3, 1, stream, "gpu.memset"),
                "cannot fill elements of 3 bytes");
  REQUIRE_ERROR(runtime.memset(device, 0, 0, 1, stream, "gpu.memset"),
                "cannot fill elements of 0 bytes");
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "a strided copy writes a 2x3 window of a 6x6 device matrix",
                 "[memory][strided]") {
  void *stream = createStream();
  void *matrix = allocate(36 * 4);
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
      "out of bounds: the destination spans bytes [136, 172) of " +
          allocation(144, "gpu.alloc at r.mlir:1:1") +
          ": 28 bytes past its end");
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
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "a strided memset fills one column of a device matrix",
                 "[memory][strided][memset]") {
  void *matrix = allocate(4 * 5 * 8);
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
                "out of bounds: the destination spans bytes [32, 200) of " +
                    allocation(160, "gpu.alloc at r.mlir:1:1"));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "a copy on a stream that takes no work reports the stream "
                 "before its ranges",
                 "[memory][strided]") {
  void *released = createStream();
  void *device = allocate(64);
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
  void *stream = createStream();
  REQUIRE_ERROR(runtime.memcpy(device, host.data(), 200, stream, "gpu.memcpy"),
                "out of bounds: the destination spans bytes [0, 200)");
  REQUIRE_ERROR(runtime.memcpyStrided(1, &dst, &src, 1, stream, "gpu.memcpy"),
                "the destination has a negative size, -1, in dimension 0");
  REQUIRE_OK(runtime.synchronizeStream(stream, kLoc));
  REQUIRE_OK(runtime.destroyStream(stream, kLoc));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "host memory is registered from a memref, exactly the bytes "
                 "it spans",
                 "[memory][register]") {
  std::vector<float> host(64);
  // A 4x4 window at (1, 2) of an 8x8 matrix: elements 10 .. 37.
  Descriptor<2> window{host.data(), host.data(), 10, {4, 4}, {8, 1}};
  REQUIRE_OK(runtime.hostRegisterMemRef(2, &window, 4,
                                        "gpu.host_register@h.mlir:1:1"));
  REQUIRE_ERROR(
      runtime.hostRegisterMemRef(2, &window, 4, "gpu.host_register@h.mlir:2:1"),
      backend.alreadyRegistered);
  // Bytes outside the span are free to register.
  REQUIRE_OK(runtime.hostRegister(host.data(), 40, "gpu.host_register"));
  REQUIRE_OK(runtime.hostRegister(host.data() + 38, 4, "gpu.host_register"));
  REQUIRE_OK(runtime.hostUnregisterMemRef(2, &window, 4, kLoc));
  REQUIRE_ERROR(runtime.hostUnregisterMemRef(2, &window, 4, kLoc),
                backend.notRegistered);
  REQUIRE_OK(runtime.hostUnregister(host.data(), kLoc));
  REQUIRE_ERROR(runtime.hostUnregister(host.data(), kLoc),
                backend.notRegistered);
  REQUIRE_OK(runtime.hostUnregister(host.data() + 38, kLoc));

  void *device = allocate(64);
  Descriptor<1> deviceMemRef{device, device, 0, {16}, {1}};
  REQUIRE_ERROR(
      runtime.hostRegisterMemRef(1, &deviceMemRef, 4, "gpu.host_register"),
      backend.deviceMemoryRegistered);
}

TEST_CASE_METHOD(RuntimeFixture,
                 "registered host memory has a device address, other memory "
                 "none",
                 "[memory][register]") {
  std::vector<float> host(16);
  void *device = nullptr;
  REQUIRE_ERROR(runtime.getDevicePointer(host.data() + 2, device, kLoc),
                "is not in host memory that gpu.host_register registered");
  REQUIRE_OK(runtime.hostRegister(host.data(), 64, "gpu.host_register"));
  // Anywhere in the registered bytes, not only at their start.
  REQUIRE_OK(runtime.getDevicePointer(host.data() + 2, device, kLoc));
  CHECK(device != nullptr);
  REQUIRE_ERROR(runtime.getDevicePointer(host.data() + 16, device, kLoc),
                "is not in host memory that gpu.host_register registered");
  REQUIRE_OK(runtime.hostUnregister(host.data(), kLoc));
  REQUIRE_ERROR(runtime.getDevicePointer(host.data() + 2, device, kLoc),
                "is not in host memory that gpu.host_register registered");
  // Device memory is not host memory.
  void *allocation = allocate(64);
  REQUIRE_ERROR(runtime.getDevicePointer(allocation, device, kLoc),
                "is not in host memory that gpu.host_register registered");
}

TEST_CASE_METHOD(RuntimeFixture,
                 "finalize lists the leaks, oldest first, and the runtime is "
                 "usable again",
                 "[memory][finalize]") {
  void *stream = createStream();
  void *large = allocate(1 << 20, nullptr, "gpu.alloc@leak.mlir:2:5");
  allocate(4096, nullptr, "gpu.alloc@leak.mlir:3:5");
  void *freed = allocate(8, nullptr, "gpu.alloc@leak.mlir:4:5");
  REQUIRE_OK(runtime.free(large, nullptr, "gpu.dealloc"));
  // Where a backend reuses the freed addresses, this one lies below the
  // older leak: the report still lists it last.
  allocate(12, nullptr, "gpu.alloc");
  REQUIRE_OK(runtime.free(freed, stream, "gpu.dealloc"));
  std::vector<Runtime::Warning> leaks;
  REQUIRE_OK(runtime.finalize(leaks));
  REQUIRE(leaks.size() == 2);
  CHECK(formatDiagnostic(leaks[0].loc.c_str(), "warning", leaks[0].message) ==
        "leak.mlir:3:5: warning: gpu.alloc: 4096 bytes of device memory "
        "allocated here were never freed");
  CHECK(formatDiagnostic(leaks[1].loc.c_str(), "warning", leaks[1].message) ==
        "warning: gpu.alloc: 12 bytes of device memory allocated here were "
        "never freed");
  // Usable again, after the initialization a program's run starts with.
  REQUIRE_OK(runtime.initialize(0));
  allocate(16);
  REQUIRE_OK(runtime.finalize(leaks));
  CHECK(leaks.size() == 1);
}

TEST_CASE_METHOD(RuntimeFixture,
                 "device memory is named with its allocation, for the "
                 "program's free and the entry point's results",
                 "[memory]") {
  auto *device =
      static_cast<char *>(allocate(64, nullptr, "gpu.alloc@describe.mlir:3:8"));
  const std::string named =
      "the 64-byte allocation made by gpu.alloc at describe.mlir:3:8";
  CHECK(runtime.describeDeviceMemory(device) == named);
  CHECK(runtime.describeDeviceMemory(device + 63) == named);
  int onTheStack = 0;
  CHECK(runtime.describeDeviceMemory(&onTheStack).empty());
  REQUIRE_OK(runtime.free(device, nullptr, "gpu.dealloc"));
}

TEST_CASE_METHOD(RuntimeFixture,
                 "finalize reports the leaks of one op in one line, with "
                 "their count and bytes",
                 "[memory][finalize]") {
  // An op in a loop, another op between its allocations, a freed one.
  for (int i = 0; i < 1000; ++i) {
    void *pointer = allocate(32, nullptr, "gpu.alloc@loop.mlir:7:10");
    if (i == 0)
      allocate(8, nullptr, "gpu.alloc@loop.mlir:3:5");
    if (i == 999)
      REQUIRE_OK(runtime.free(pointer, nullptr, "gpu.dealloc"));
  }
  std::vector<Runtime::Warning> leaks;
  REQUIRE_OK(runtime.finalize(leaks));
  REQUIRE(leaks.size() == 2);
  CHECK(formatDiagnostic(leaks[0].loc.c_str(), "warning", leaks[0].message) ==
        "loop.mlir:7:10: warning: gpu.alloc: 999 allocations made here "
        "(31968 bytes of device memory in all) were never freed");
  CHECK(formatDiagnostic(leaks[1].loc.c_str(), "warning", leaks[1].message) ==
        "loop.mlir:3:5: warning: gpu.alloc: 8 bytes of device memory "
        "allocated here were never freed");
}

TEST_CASE_METHOD(RuntimeFixture,
                 "an op after finalize runs or says that the backend is not "
                 "initialized, and initialize starts it again",
                 "[memory][finalize]") {
  std::vector<Runtime::Warning> leaks;
  REQUIRE_OK(runtime.finalize(leaks));
  void *device = nullptr;
  Status status = runtime.allocate(16, nullptr, false, "gpu.alloc", device);
  if (backend.afterFinalize.empty()) {
    REQUIRE_OK(status);
    REQUIRE_OK(runtime.free(device, nullptr, "gpu.dealloc"));
  } else {
    REQUIRE_ERROR(status, backend.afterFinalize);
  }
  REQUIRE_OK(runtime.initialize(0));
  device = allocate(16);
  REQUIRE_OK(runtime.memset(device, 1, 1, 16, nullptr, "gpu.memset"));
  REQUIRE_OK(runtime.free(device, nullptr, "gpu.dealloc"));
}
