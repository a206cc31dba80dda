//===- HostMemory.h - The host backend's device memory --------------------===//
//
// "Device memory" on the host backend is host memory carved out of one
// reserved range of virtual addresses (the arena), so that any pointer can be
// classified exactly: inside the arena it is device memory, and the
// allocation table says which allocation it belongs to, whether that one is
// still live, and where it was made and freed. Outside the arena it is host
// memory. Freed memory goes back to the kernel and faults on access, and its
// addresses are not reused until much later, so a use after free is reported
// precisely instead of reading someone else's data.
//
// Also here: the registry of host memory registered with gpu.host_register.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_HOSTMEMORY_H
#define GPU_RUNNER_WRAPPERS_HOST_HOSTMEMORY_H

#include "wrappers/common/RuntimeError.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gpu_runner {

class DeviceMemory {
public:
  struct Options {
    /// Address space reserved at first use; halved until mmap accepts it.
    uint64_t arenaBytes = uint64_t(4) << 40;
    /// Freed address space held back from reuse, oldest first out. Capped at
    /// a quarter of the arena that mmap granted.
    uint64_t quarantineBytes = uint64_t(64) << 30;
    /// How much may be allocated at once, like a GPU's memory size; 0 means
    /// the machine's physical memory, so that an oversized allocation is an
    /// error instead of a process that swaps or gets killed.
    uint64_t capacityBytes = 0;
  };

  /// A freed allocation whose pages still have to be handed back: the stream
  /// that runs the free does it, in its turn (see markFreed).
  struct PendingRelease {
    uintptr_t base = 0;
    uint64_t accessibleBytes = 0;
    uint64_t reservedBytes = 0;
  };

  /// A live allocation, for the leak report.
  struct Leak {
    std::string loc;
    uint64_t bytes;
    bool hostShared;
  };

  DeviceMemory() : DeviceMemory(Options()) {}
  explicit DeviceMemory(Options options);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  /// Allocates `bytes` (page granular, zero-filled, followed by an
  /// inaccessible guard page unless the program holds very many allocations;
  /// 0 bytes still get a unique address) for the op at `loc`.
  Status allocate(uint64_t bytes, bool hostShared, const char *loc,
                  void *&result);

  /// Marks the allocation that starts at `ptr` as freed by the op at `loc`:
  /// from now on, in program order, every use of it is an error. The pages
  /// stay accessible until `release` is called with `release`, which the
  /// stream of the free does once the work before it has run.
  Status markFreed(void *ptr, const char *loc, PendingRelease &release);

  /// Returns the pages of an allocation marked freed to the kernel and makes
  /// them fault on access; its addresses join the quarantine.
  void release(const PendingRelease &release);

  /// Checks that [ptr, ptr + bytes) may be touched by an op: `what` names the
  /// side in the message ("source", "destination"). Device memory must lie
  /// inside one live allocation; host memory (outside the arena) is not
  /// checked beyond being non-null. An empty range is always fine.
  Status checkRange(const void *ptr, uint64_t bytes, const char *what) const;

  /// Checks both sides of a copy, [src, src + srcBytes) as the "source",
  /// then [dst, dst + dstBytes) as the "destination", like two checkRange
  /// calls but under one acquisition of the lock: this is on the path of
  /// every gpu.memcpy.
  Status checkCopy(const void *src, uint64_t srcBytes, const void *dst,
                   uint64_t dstBytes) const;

  /// Checks an access of a kernel as it runs, like `checkRange` but in the
  /// order of the streams: an allocation whose free is enqueued behind the
  /// kernel is still live for it, until the free has run.
  Status checkAccess(const void *ptr, uint64_t bytes, const char *what) const;

  /// The bytes of a live allocation, as checkAccess found them, and the
  /// count of lifeChanges() then: while the count is the same, any access
  /// within [begin, end) passes checkAccess, so a kernel's thread may keep
  /// one and skip the lock.
  struct AccessRange {
    uintptr_t begin = 0;
    uintptr_t end = 0;
    uint64_t lifeChanges = UINT64_MAX;
    /// initcheck: the allocation's written bytes, one bit a byte (see
    /// setWritten), or null when initcheck is off.
    uint8_t *writtenBits = nullptr;
  };
  /// checkAccess, which also gives the allocation's range when the access
  /// is in device memory and fine.
  Status checkAccess(const void *ptr, uint64_t bytes, const char *what,
                     AccessRange &range) const;
  uint64_t getLifeChanges() const {
    return lifeChanges.load(std::memory_order_acquire);
  }

  /// initcheck (on when the allocation was made): marks [ptr, ptr + bytes)
  /// written, as a gpu.memset or the destination of a gpu.memcpy; nothing
  /// for host memory.
  void markWritten(const void *ptr, uint64_t bytes);
  /// initcheck: marks the whole allocation that holds `ptr` written, for a
  /// write of the host code to host_shared memory, whose bytes the check
  /// is not told (only the memref's base).
  void markAllocationWritten(const void *ptr);
  /// initcheck: the first bytes of [ptr, ptr + bytes) that nothing wrote
  /// since gpu.alloc, as "bytes [8, 16) of the 64-byte allocation made by
  /// gpu.alloc at f.mlir:3:5", or an empty string (host memory, or all
  /// written).
  std::string describeUnwritten(const void *ptr, uint64_t bytes) const;
  /// Marks bits [offset, offset + count) of a written-bytes bitmap, which
  /// threads may do at once.
  static void setWritten(uint8_t *bits, uint64_t offset, uint64_t count);
  /// The first of bits [offset, offset + count) that is not set, or
  /// offset + count when all are.
  static uint64_t findUnwritten(const uint8_t *bits, uint64_t offset,
                                uint64_t count);

  /// Whether `ptr` is in the arena (a live, freed or never-used part of it).
  bool isDeviceMemory(const void *ptr) const;

  /// What holds `ptr` if it is in the arena ("the 64-byte allocation made by
  /// gpu.alloc at f.mlir:3:5"), or an empty string for host memory.
  std::string describe(const void *ptr) const;

  /// What makes `ptr` memory that the host cannot touch on a GPU, for
  /// memcheck of the host code: "the 64-byte allocation made by gpu.alloc at
  /// f.mlir:3:5" (", freed by ..." once freed), or "an address in no
  /// allocation" of the device arena; an empty string for host memory and
  /// live host_shared allocations.
  std::string describeHostAccess(const void *ptr) const;

  /// Every live allocation, oldest first.
  std::vector<Leak> liveAllocations() const;

  /// Forgets every allocation, live or freed, and unmaps the arena; the next
  /// allocation reserves a new one.
  void reset();

  /// Introspection for tests.
  size_t recordCount() const;
  uint64_t quarantinedBytes() const;
  uint64_t pageBytes() const { return pageSize; }

private:
  struct Record {
    uint64_t sequence = 0; // allocation order, for the leak report
    uint64_t size = 0;
    uint64_t accessibleBytes = 0;
    uint64_t reservedBytes = 0;
    bool hostShared = false;
    bool freed = false;    // in program order: its free was called
    bool released = false; // in stream order: its free has run
    std::string allocLoc;
    std::string freeLoc;
    /// initcheck: one bit a byte, set once the byte was written.
    std::unique_ptr<uint8_t[]> writtenBits;
  };

  Status checkRange(const void *ptr, uint64_t bytes, const char *what,
                    bool inStreamOrder) const;
  /// checkRange's work, with `mutex` held; sets `range` to the allocation's
  /// bytes when the range lies in a live one.
  Status checkRangeLocked(const void *ptr, uint64_t bytes, const char *what,
                          bool inStreamOrder,
                          AccessRange *range = nullptr) const;
  bool reserveArena();
  bool inArena(uintptr_t address) const {
    return address >= arenaBegin && address - arenaBegin < arenaBytes;
  }
  /// The record whose reserved range holds `address`, or records.end().
  std::map<uintptr_t, Record>::const_iterator
  findRecord(uintptr_t address) const;
  /// Takes `bytes` of address space from the free ranges (first fit); 0 when
  /// none is large enough.
  uintptr_t takeFreeRange(uint64_t bytes);
  void addFreeRange(uintptr_t begin, uint64_t bytes);
  /// Makes the oldest quarantined range reusable and forgets its record.
  void evictOldestQuarantined();

  const Options options;
  const uint64_t pageSize;

  mutable std::mutex mutex;
  // Atomic so that isDeviceMemory, on the path of every checked access,
  // reads them without the lock; written with it.
  std::atomic<uintptr_t> arenaBegin{0};
  std::atomic<uint64_t> arenaBytes{0};
  /// Counts the changes that may end an allocation's life (frees, releases,
  /// resets), for the caches of AccessRange.
  std::atomic<uint64_t> lifeChanges{0};
  uint64_t quarantineLimit = 0;
  uint64_t nextSequence = 0;
  uint64_t liveCount = 0;
  /// Bytes requested by the live allocations, and the most there may be.
  uint64_t liveBytes = 0;
  uint64_t capacity = 0;
  /// Allocations by base address, live and freed-but-not-yet-reused.
  std::map<uintptr_t, Record> records;
  /// Reusable address ranges by begin address, coalesced.
  std::map<uintptr_t, uint64_t> freeRanges;
  /// Released ranges (base, reserved bytes), oldest first.
  std::deque<std::pair<uintptr_t, uint64_t>> quarantine;
  uint64_t quarantineBytes = 0;
};

/// The host memory registered with gpu.host_register. Pinning means nothing
/// on the host backend, but the registry still reports what CUDA would
/// reject: a range registered twice
/// (CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED), unregistering what is not
/// registered (..._NOT_REGISTERED), and device memory.
class HostRegistry {
public:
  /// Registers [ptr, ptr + bytes) for the op at `loc`. An empty range is
  /// accepted and not recorded.
  Status registerRange(const void *ptr, uint64_t bytes, const char *loc,
                       const DeviceMemory &memory);
  /// Unregisters the range that starts at `ptr`.
  Status unregisterRange(const void *ptr);
  /// Whether [ptr, ptr + bytes) lies in one registered range: host memory a
  /// kernel may touch.
  bool contains(const void *ptr, uint64_t bytes) const;
  size_t size() const;
  void reset();

private:
  struct Registration {
    uint64_t bytes;
    std::string loc;
  };
  mutable std::mutex mutex;
  std::map<uintptr_t, Registration> ranges;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_HOSTMEMORY_H
