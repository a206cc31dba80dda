//===- HostMemoryTest.cpp - The host backend's device memory --------------===//
//
// Allocation in the arena, every check and its message, the quarantine that
// keeps freed records, the physical release of freed pages, and the host
// memory registry.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostMemory.h"

#include "unittests/wrappers/TestSupport.h"

#include <cstring>
#include <set>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::test;

namespace {

const char *const kAllocLoc = "gpu.alloc@a.mlir:3:7";
const char *const kFreeLoc = "gpu.dealloc@a.mlir:9:3";

void *allocate(DeviceMemory &memory, uint64_t bytes,
               const char *loc = kAllocLoc) {
  void *result = nullptr;
  Status status = memory.allocate(bytes, /*hostShared=*/false, loc, result);
  INFO(status.message());
  REQUIRE(status.ok());
  REQUIRE(result);
  return result;
}

/// Marks freed and releases at once, as a synchronous free does.
void freeNow(DeviceMemory &memory, void *ptr, const char *loc = kFreeLoc) {
  DeviceMemory::PendingRelease release;
  REQUIRE_OK(memory.markFreed(ptr, loc, release));
  memory.release(release);
}

char *bytesAt(void *ptr, uint64_t offset) {
  return static_cast<char *>(ptr) + offset;
}

} // namespace

TEST_CASE("allocations are page aligned, zero filled, writable and distinct",
          "[memory]") {
  DeviceMemory memory;
  const uint64_t page = memory.pageBytes();
  std::set<void *> seen;
  for (uint64_t bytes : {uint64_t(0), uint64_t(0), uint64_t(1), page - 1, page,
                         page + 1, 10 * page}) {
    void *ptr = allocate(memory, bytes);
    CHECK(reinterpret_cast<uintptr_t>(ptr) % page == 0);
    CHECK(memory.isDeviceMemory(ptr));
    CHECK(seen.insert(ptr).second);
    bool zero = true;
    for (uint64_t i = 0; i < bytes; ++i)
      zero &= bytesAt(ptr, i)[0] == 0;
    CHECK(zero);
    if (bytes)
      std::memset(ptr, 0x5a, bytes);
  }
  int onStack = 0;
  CHECK_FALSE(memory.isDeviceMemory(&onStack));
  CHECK(memory.liveAllocations().size() == 7);
}

TEST_CASE("ranges inside a live allocation pass, host memory is not checked",
          "[memory]") {
  DeviceMemory memory;
  void *ptr = allocate(memory, 100);
  REQUIRE_OK(memory.checkRange(ptr, 100, "destination"));
  REQUIRE_OK(memory.checkRange(bytesAt(ptr, 99), 1, "destination"));
  REQUIRE_OK(memory.checkRange(bytesAt(ptr, 100), 0, "destination"));
  std::vector<char> host(64);
  REQUIRE_OK(memory.checkRange(host.data(), host.size(), "source"));
  // Nothing is checked before the arena exists, except null.
  DeviceMemory fresh;
  REQUIRE_OK(fresh.checkRange(host.data(), host.size(), "source"));
  REQUIRE_ERROR(fresh.checkRange(nullptr, 4, "source"),
                "the source is a null pointer");
}

TEST_CASE("a range past the end of an allocation is out of bounds by the "
          "overrun",
          "[memory]") {
  DeviceMemory memory;
  void *ptr = allocate(memory, 100);
  Status status = memory.checkRange(bytesAt(ptr, 90), 20, "destination");
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() ==
        "out of bounds: the destination spans bytes [90, 110) of the "
        "100-byte allocation made by gpu.alloc at a.mlir:3:7: 10 bytes past "
        "its end");
  // Starting in the slack after the end counts the same way.
  REQUIRE_ERROR(memory.checkRange(bytesAt(ptr, 200), 8, "source"),
                "out of bounds: the source spans bytes [200, 208) of the "
                "100-byte allocation made by gpu.alloc at a.mlir:3:7: 108 "
                "bytes past its end");
}

TEST_CASE("a range that starts before an allocation is out of bounds",
          "[memory]") {
  DeviceMemory memory;
  void *first = allocate(memory, memory.pageBytes());
  void *second = allocate(memory, 64, "gpu.alloc@b.mlir:1:1");
  // Only the guard page lies between them; a range from inside it reaches
  // into the second allocation.
  REQUIRE(bytesAt(second, 0) == bytesAt(first, 2 * memory.pageBytes()));
  REQUIRE_ERROR(memory.checkRange(bytesAt(second, -16), 32, "source"),
                "out of bounds: the source spans bytes [-16, 16) of the "
                "64-byte allocation made by gpu.alloc at b.mlir:1:1: it "
                "starts 16 bytes before the allocation");
}

TEST_CASE("null and unallocated device addresses are reported", "[memory]") {
  DeviceMemory memory;
  void *ptr = allocate(memory, 64);
  REQUIRE_ERROR(memory.checkRange(nullptr, 4, "source"),
                "the source is a null pointer");
  // Two pages on: past the allocation's page and its guard page, in arena
  // space no allocation holds.
  void *unallocated = bytesAt(ptr, 2 * memory.pageBytes());
  REQUIRE(memory.isDeviceMemory(unallocated));
  REQUIRE_ERROR(memory.checkRange(unallocated, 4, "destination"),
                "the destination " + formatPointer(unallocated) +
                    " is not a device allocation");
}

TEST_CASE("a use after free names where the memory was allocated and freed",
          "[memory]") {
  DeviceMemory memory;
  void *ptr = allocate(memory, 256);
  DeviceMemory::PendingRelease release;
  REQUIRE_OK(memory.markFreed(ptr, kFreeLoc, release));
  // Marked freed is enough: the physical release may still be queued.
  Status status = memory.checkRange(bytesAt(ptr, 8), 8, "source");
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() ==
        "use after free: the source is in the 256-byte allocation made by "
        "gpu.alloc at a.mlir:3:7, which was freed by gpu.dealloc at "
        "a.mlir:9:3");
  memory.release(release);
  REQUIRE_ERROR(memory.checkRange(ptr, 1, "destination"),
                "use after free: the destination is in the 256-byte "
                "allocation");
}

TEST_CASE("a kernel's access is a use after free only once the free has run",
          "[memory]") {
  DeviceMemory memory;
  void *ptr = allocate(memory, 256);
  DeviceMemory::PendingRelease release;
  REQUIRE_OK(memory.markFreed(ptr, kFreeLoc, release));
  // The free waits on its stream behind the kernel, which may still read.
  REQUIRE_OK(memory.checkAccess(bytesAt(ptr, 8), 8, "load"));
  memory.release(release);
  REQUIRE_ERROR(memory.checkAccess(bytesAt(ptr, 8), 8, "load"),
                "use after free: the load is in the 256-byte allocation made "
                "by gpu.alloc at a.mlir:3:7, which was freed by gpu.dealloc "
                "at a.mlir:9:3");
}

TEST_CASE("a double free names both the allocation and the first free",
          "[memory]") {
  DeviceMemory memory;
  void *ptr = allocate(memory, 32);
  freeNow(memory, ptr);
  DeviceMemory::PendingRelease release;
  Status status = memory.markFreed(ptr, "gpu.dealloc@a.mlir:12:3", release);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() ==
        "double free: the 32-byte allocation made by gpu.alloc at "
        "a.mlir:3:7 was already freed by gpu.dealloc at a.mlir:9:3");
  CHECK(release.reservedBytes == 0);
}

TEST_CASE("frees of interior, null and host pointers are errors", "[memory]") {
  DeviceMemory memory;
  void *ptr = allocate(memory, 64);
  DeviceMemory::PendingRelease release;
  REQUIRE_ERROR(memory.markFreed(bytesAt(ptr, 16), kFreeLoc, release),
                formatPointer(bytesAt(ptr, 16)) +
                    " is not the start of an allocation: it is 16 bytes past "
                    "the start of the 64-byte allocation made by gpu.alloc "
                    "at a.mlir:3:7");
  REQUIRE_ERROR(memory.markFreed(nullptr, kFreeLoc, release),
                "cannot free a null pointer");
  int onStack = 0;
  REQUIRE_ERROR(memory.markFreed(&onStack, kFreeLoc, release),
                formatPointer(&onStack) +
                    " is not device memory: it was not allocated by "
                    "gpu.alloc");
  void *unallocated = bytesAt(ptr, 2 * memory.pageBytes());
  REQUIRE_ERROR(memory.markFreed(unallocated, kFreeLoc, release),
                " is not a device allocation");
  // None of those freed anything.
  REQUIRE_OK(memory.checkRange(ptr, 64, "destination"));
  freeNow(memory, ptr);
  REQUIRE_ERROR(memory.markFreed(bytesAt(ptr, 16), kFreeLoc, release),
                "16 bytes past the start of the 64-byte allocation made by "
                "gpu.alloc at a.mlir:3:7, already freed by gpu.dealloc at "
                "a.mlir:9:3");
}

TEST_CASE("freed records stay in quarantine until its bound forces reuse",
          "[memory]") {
  DeviceMemory::Options options;
  options.arenaBytes = uint64_t(1) << 30;
  const uint64_t page = DeviceMemory().pageBytes();
  // Each one-page allocation reserves two pages (one guard page): three of
  // them fit in the quarantine, a fourth pushes the oldest out.
  options.quarantineBytes = 6 * page;
  DeviceMemory memory(options);

  std::vector<void *> freed;
  for (int i = 0; i < 3; ++i) {
    freed.push_back(allocate(memory, page));
    freeNow(memory, freed.back());
  }
  CHECK(memory.quarantinedBytes() == 6 * page);
  CHECK(memory.recordCount() == 3);
  for (void *ptr : freed)
    REQUIRE_ERROR(memory.checkRange(ptr, 1, "source"), "use after free");

  // While the quarantine holds them, new allocations get fresh addresses.
  void *fresh = allocate(memory, page);
  for (void *ptr : freed)
    CHECK(fresh != ptr);

  // A fourth free evicts the oldest: its record goes, its range is reusable
  // (first fit, so the next allocation lands there, zero filled).
  freeNow(memory, fresh);
  CHECK(memory.recordCount() == 3);
  CHECK(memory.quarantinedBytes() == 6 * page);
  REQUIRE_ERROR(memory.checkRange(freed[0], 1, "source"),
                "is not a device allocation");
  REQUIRE_ERROR(memory.checkRange(freed[1], 1, "source"), "use after free");
  void *reused = allocate(memory, page);
  CHECK(reused == freed[0]);
  CHECK(bytesAt(reused, 0)[0] == 0);
  REQUIRE_OK(memory.checkRange(reused, page, "destination"));
}

TEST_CASE("freed pages are returned and fault on access", "[memory]") {
  DeviceMemory memory;
  void *ptr = allocate(memory, memory.pageBytes());
  std::memset(ptr, 1, memory.pageBytes());
  freeNow(memory, ptr);
  ChildResult result =
      runInChild([ptr] { *static_cast<volatile char *>(ptr) = 2; });
  // Killed by SIGSEGV, or a sanitizer's report of it with a failing status.
  CHECK_FALSE((result.exited && result.exitStatus == 0));
}

TEST_CASE("the arena's address space runs out with a clear error", "[memory]") {
  DeviceMemory::Options options;
  options.arenaBytes = uint64_t(1) << 26; // 64 MiB
  DeviceMemory memory(options);
  void *result = nullptr;
  REQUIRE_ERROR(memory.allocate(uint64_t(1) << 40, false, kAllocLoc, result),
                "out of device memory: cannot allocate 1099511627776 bytes");
  CHECK(result == nullptr);
  // Freed space is reused once the quarantine gives it up under pressure:
  // B is quarantined (8 MiB is under the 16 MiB bound), and only B's range
  // joined to the free tail after it holds 50 MiB.
  const uint64_t mib = uint64_t(1) << 20;
  void *a = allocate(memory, 8 * mib);
  void *b = allocate(memory, 8 * mib);
  (void)a;
  freeNow(memory, b);
  CHECK(memory.quarantinedBytes() > 0);
  void *big = allocate(memory, 50 * mib);
  CHECK(big == b);
  CHECK(memory.quarantinedBytes() == 0);
  REQUIRE_ERROR(memory.allocate(20 * mib, false, kAllocLoc, result),
                "out of device memory: cannot allocate 20971520 bytes: no "
                "free range that large is left");
}

TEST_CASE("past 16384 live allocations, new ones come without guard pages",
          "[memory]") {
  // Guard pages cost the kernel a memory mapping each, and a process has
  // only about 65530: a program with very many allocations must still work.
  DeviceMemory memory;
  const uint64_t page = memory.pageBytes();
  void *previous = nullptr;
  std::vector<uint64_t> gaps;
  for (int i = 0; i < 16384 + 4; ++i) {
    void *ptr = allocate(memory, page);
    if (previous)
      gaps.push_back(reinterpret_cast<uintptr_t>(ptr) -
                     reinterpret_cast<uintptr_t>(previous));
    previous = ptr;
  }
  CHECK(gaps.front() == 2 * page);
  CHECK(gaps[16382] == 2 * page);
  CHECK(gaps.back() == page);
  CHECK(memory.liveAllocations().size() == 16388);
  // Each still checked exactly.
  REQUIRE_ERROR(memory.checkRange(previous, page + 1, "destination"),
                ": 1 byte past its end");
}

TEST_CASE("the leak list has every live allocation, oldest first", "[memory]") {
  DeviceMemory memory;
  void *a = allocate(memory, 4096, "gpu.alloc@l.mlir:1:1");
  void *b = allocate(memory, 8, "gpu.alloc@l.mlir:2:1");
  void *c = allocate(memory, 16, "gpu.alloc");
  (void)c;
  freeNow(memory, b);
  (void)a;
  std::vector<DeviceMemory::Leak> leaks = memory.liveAllocations();
  REQUIRE(leaks.size() == 2);
  CHECK(leaks[0].loc == "gpu.alloc@l.mlir:1:1");
  CHECK(leaks[0].bytes == 4096);
  CHECK(leaks[1].loc == "gpu.alloc");
  CHECK(leaks[1].bytes == 16);
  memory.reset();
  CHECK(memory.liveAllocations().empty());
  CHECK(memory.recordCount() == 0);
  CHECK_FALSE(memory.isDeviceMemory(a));
}

TEST_CASE("host memory is registered once and unregistered once",
          "[memory][register]") {
  DeviceMemory memory;
  HostRegistry registry;
  std::vector<char> host(256);
  const char *loc = "gpu.host_register@r.mlir:4:1";
  REQUIRE_OK(registry.registerRange(host.data(), 128, loc, memory));
  REQUIRE_OK(registry.registerRange(host.data() + 128, 128, loc, memory));
  CHECK(registry.size() == 2);
  REQUIRE_ERROR(registry.registerRange(host.data() + 100, 8, loc, memory),
                "is already registered: it overlaps the 128 bytes at " +
                    formatPointer(host.data()) +
                    " registered by gpu.host_register at r.mlir:4:1");
  REQUIRE_ERROR(registry.registerRange(host.data(), 128, loc, memory),
                "is already registered");
  REQUIRE_ERROR(registry.unregisterRange(host.data() + 4),
                formatPointer(host.data() + 4) +
                    " is not registered host memory: it is 4 bytes past the "
                    "start of the 128 bytes registered by gpu.host_register "
                    "at r.mlir:4:1");
  REQUIRE_OK(registry.unregisterRange(host.data()));
  REQUIRE_ERROR(registry.unregisterRange(host.data()),
                formatPointer(host.data()) +
                    " is not registered host memory: nothing registered "
                    "starts there");
  // Unregistered memory can be registered again.
  REQUIRE_OK(registry.registerRange(host.data(), 128, loc, memory));
  REQUIRE_ERROR(registry.registerRange(nullptr, 8, loc, memory),
                "cannot register a null pointer");
  REQUIRE_OK(registry.registerRange(nullptr, 0, loc, memory));
}

TEST_CASE("a registered range contains what lies wholly inside it",
          "[memory][register]") {
  DeviceMemory memory;
  HostRegistry registry;
  std::vector<char> host(256);
  REQUIRE_OK(registry.registerRange(host.data() + 64, 64, "r", memory));
  CHECK(registry.contains(host.data() + 64, 64));
  CHECK(registry.contains(host.data() + 100, 4));
  CHECK_FALSE(registry.contains(host.data() + 60, 8));  // starts before it
  CHECK_FALSE(registry.contains(host.data() + 124, 8)); // runs past its end
  CHECK_FALSE(registry.contains(host.data() + 128, 1)); // just after it
  CHECK_FALSE(registry.contains(host.data(), 1));       // before everything
}

TEST_CASE("the host code may touch host memory and host_shared memory only",
          "[memory]") {
  DeviceMemory memory;
  std::vector<char> host(16);
  CHECK(memory.describeHostAccess(host.data()).empty());
  void *shared = nullptr;
  REQUIRE_OK(memory.allocate(64, /*hostShared=*/true, kAllocLoc, shared));
  CHECK(memory.describeHostAccess(shared).empty());
  void *device = allocate(memory, 64);
  CHECK(memory.describeHostAccess(static_cast<char *>(device) + 8) ==
        "the 64-byte allocation made by gpu.alloc at a.mlir:3:7");
  DeviceMemory::PendingRelease release;
  REQUIRE_OK(memory.markFreed(shared, "gpu.dealloc@a.mlir:9:1", release));
  CHECK(memory.describeHostAccess(shared) ==
        "the 64-byte allocation made by gpu.alloc at a.mlir:3:7, freed by "
        "gpu.dealloc at a.mlir:9:1");
}

TEST_CASE("device memory cannot be registered as host memory",
          "[memory][register]") {
  DeviceMemory memory;
  HostRegistry registry;
  void *ptr = allocate(memory, 64);
  REQUIRE_ERROR(registry.registerRange(ptr, 64, "gpu.host_register", memory),
                formatPointer(ptr) +
                    " is device memory: only host memory can be registered");
  CHECK(registry.size() == 0);
}

TEST_CASE("device memory has a capacity, like a GPU's", "[memory]") {
  DeviceMemory::Options options;
  options.capacityBytes = 1 << 20;
  DeviceMemory memory(options);
  void *half = allocate(memory, 512 << 10);
  void *result = nullptr;
  Status status = memory.allocate(768 << 10, false, kAllocLoc, result);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() ==
        "out of device memory: cannot allocate 786432 bytes with 524288 bytes "
        "already allocated: the host backend's device memory is 1048576 "
        "bytes (the machine's physical memory)");
  CHECK(result == nullptr);

  // Freeing gives the capacity back.
  freeNow(memory, half);
  void *all = allocate(memory, 1 << 20);
  CHECK(memory.isDeviceMemory(all));
}

TEST_CASE("a negative size is reported as such", "[memory]") {
  DeviceMemory memory;
  void *result = nullptr;
  Status status =
      memory.allocate(static_cast<uint64_t>(-16), false, kAllocLoc, result);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == "cannot allocate a negative size: -16 bytes");
}

TEST_CASE("a copy's check reports the source first, then the destination, "
          "with checkRange's messages",
          "[memory]") {
  DeviceMemory memory;
  void *src = allocate(memory, 256);
  void *dst = allocate(memory, 128);
  std::vector<char> host(64);
  REQUIRE_OK(memory.checkCopy(src, 128, dst, 128));
  REQUIRE_OK(memory.checkCopy(host.data(), 64, dst, 64));
  REQUIRE_OK(memory.checkCopy(nullptr, 0, nullptr, 0));
  REQUIRE_ERROR(memory.checkCopy(src, 200, dst, 200),
                "out of bounds: the destination spans bytes [0, 200) of the "
                "128-byte allocation made by gpu.alloc at a.mlir:3:7: 72 "
                "bytes past its end");
  REQUIRE_ERROR(memory.checkCopy(bytesAt(src, 200), 100, dst, 300),
                "out of bounds: the source spans bytes [200, 300) of the "
                "256-byte allocation");
  REQUIRE_ERROR(memory.checkCopy(nullptr, 4, nullptr, 4),
                "the source is a null pointer");
  freeNow(memory, dst);
  REQUIRE_ERROR(memory.checkCopy(src, 8, dst, 8),
                "use after free: the destination is in the 128-byte "
                "allocation made by gpu.alloc at a.mlir:3:7, which was freed "
                "by gpu.dealloc at a.mlir:9:3");
}

TEST_CASE("a written-bytes bitmap marks and finds runs of any alignment",
          "[memory][initcheck]") {
  uint8_t bits[8] = {};
  DeviceMemory::setWritten(bits, 3, 30); // bits 3 to 32
  CHECK(DeviceMemory::findUnwritten(bits, 0, 40) == 0);
  CHECK(DeviceMemory::findUnwritten(bits, 3, 30) == 33);
  CHECK(DeviceMemory::findUnwritten(bits, 8, 16) == 24); // whole bytes
  CHECK(DeviceMemory::findUnwritten(bits, 30, 10) == 33);
  CHECK(bits[0] == 0xf8);
  CHECK(bits[1] == 0xff);
  CHECK(bits[4] == 0x01);
  DeviceMemory::setWritten(bits, 0, 64);
  CHECK(DeviceMemory::findUnwritten(bits, 0, 64) == 64);
}
