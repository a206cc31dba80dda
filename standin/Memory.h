//===- Memory.h - Device memory, managed memory and host ranges -----------===//
//
// Where the stand-in keeps device memory, and how it decides whether a range
// a call names may be read or written:
//
// - Each device has an arena of its own: a reserved range of addresses that
//   the host cannot touch (mapped with no access), backed by a memory file
//   that the stand-in reaches through a second, writable mapping. A program
//   that dereferences device memory on the host faults, as it would with a
//   GPU; copies and memsets go through the second mapping.
// - Managed memory (cuMemAllocManaged) is in an arena of its own that both
//   the host and the stand-in reach at the same addresses.
// - Host memory is what the process has mapped with the access a copy needs,
//   as /proc/self/maps lists it; memory that cuMemHostRegister pinned is
//   known by its range.
//
// A range must lie within one allocation, or within host memory the stand-in
// can vouch for: a copy that would read or write anything else fails.
//
// Not thread-safe: the Driver calls it with its lock held.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_MEMORY_H
#define GPU_RUNNER_STANDIN_MEMORY_H

#include "standin/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpu_runner {
namespace standin {

/// CUDA C++ Programming Guide, "Device Memory Accesses": "Any address of a
/// variable residing in global memory or returned by one of the memory
/// allocation routines from the driver or runtime API is always aligned to
/// at least 256 bytes."
constexpr uint64_t kAllocationAlignment = 256;

/// A range of reserved addresses with a first-fit allocator.
class Arena {
public:
  ~Arena();
  Arena(const Arena &) = delete;
  Arena &operator=(const Arena &) = delete;

  /// Reserves `bytes` of addresses. A host-visible arena is one mapping the
  /// host reads and writes; otherwise the host's addresses have no access
  /// and access() returns the stand-in's own view of the same pages.
  static std::unique_ptr<Arena> create(uint64_t bytes, bool hostVisible,
                                       std::string &error);

  bool contains(uintptr_t address) const {
    return address >= base && address - base < size;
  }
  /// An aligned block of `bytes`, or false when no free block is that large.
  bool allocate(uint64_t bytes, uintptr_t &address);
  /// Returns a block allocate() gave, and the pages it covered alone.
  void release(uintptr_t address, uint64_t bytes);
  /// Where the stand-in reads and writes `address`.
  char *access(uintptr_t address) const { return view + (address - base); }
  uintptr_t getBase() const { return base; }
  uint64_t getSize() const { return size; }
  uint64_t getUsed() const { return used; }

private:
  Arena() = default;

  uintptr_t base = 0;
  char *view = nullptr;
  uint64_t size = 0;
  uint64_t used = 0;
  int fd = -1;
  bool hostVisible = false;
  /// Free blocks: offset -> bytes, never adjacent.
  std::map<uint64_t, uint64_t> freeBlocks;
};

/// The host's mappings, from /proc/self/maps, read again when a range is not
/// in the copy read last.
class HostMappings {
public:
  /// Whether [begin, begin + bytes) is mapped, readable, and writable when
  /// `write` is set.
  bool covers(uintptr_t begin, uint64_t bytes, bool write);

private:
  struct Mapping {
    uintptr_t begin, end;
    bool readable, writable;
  };
  bool coversLoaded(uintptr_t begin, uint64_t bytes, bool write) const;
  /// Whether every page of the range is still mapped.
  bool isMapped(uintptr_t begin, uint64_t bytes);
  void reload();
  std::vector<Mapping> mappings;
  std::vector<unsigned char> residency;
};

enum class MemoryKind { Device, Managed, Registered, Host };

struct Allocation {
  uint64_t id = 0;
  /// The device whose arena holds it; -1 for managed memory.
  int device = -1;
  uintptr_t begin = 0;
  uint64_t bytes = 0;
  /// The block the arena gave, rounded up to the alignment.
  uint64_t blockBytes = 0;
};

struct Registration {
  uint64_t id = 0;
  uintptr_t begin = 0;
  uint64_t bytes = 0;
  unsigned flags = 0;
  /// Registered for reading only: copies may not write it.
  bool readOnly = false;
};

/// A range resolved: what it is, and where the stand-in reaches its bytes.
struct Resolved {
  MemoryKind kind = MemoryKind::Host;
  const Allocation *allocation = nullptr;
  char *access = nullptr;
};

class Memory {
public:
  /// Arenas of `bytesPerDevice` for each of `devices`, and one as large for
  /// managed memory.
  Error initialize(int devices, uint64_t bytesPerDevice, std::string &error);

  Error allocate(int device, uint64_t bytes, bool managed, void *&pointer);
  /// `pointer` must be the start of a live allocation.
  Error free(void *pointer);

  /// Resolves [pointer, pointer + bytes) for reading, or writing when
  /// `write` is set: within one live allocation, one registration, or host
  /// memory mapped with that access. Fails with InvalidValue otherwise.
  Error resolve(const void *pointer, uint64_t bytes, bool write,
                Resolved &resolved);
  /// What a pointer is, without checking a range: for the memory-type
  /// fields of copies. Any address in a device's arena is device memory.
  MemoryKind classify(const void *pointer) const;

  /// cuMemHostRegister: the range must be host memory that is mapped, and
  /// overlap no other registration.
  Error registerHost(void *pointer, uint64_t bytes, unsigned flags,
                     bool readOnly);
  Error unregisterHost(void *pointer);
  /// The device's address of registered host memory: the stand-in reaches
  /// it at its own address, as a GPU with unified addressing does.
  /// InvalidValue for an address outside every registration.
  Error getMappedPointer(const void *pointer, void *&device) const;

  void getInfo(int device, uint64_t &freeBytes, uint64_t &totalBytes) const;

  /// The arenas, which never move: kernels reach them without the lock.
  const Arena &getDeviceArena(int device) const {
    return *deviceArenas.at(device);
  }
  const Arena &getManagedArena() const { return *managedArena; }

  /// "alloc#3+16", "managed#1+0", "registered#2+8", "host", "null", or
  /// "alloc#3(freed)+16", "device0:0x...(no allocation)": for the trace.
  std::string describe(const void *pointer) const;

  /// What is still allocated or registered, for the leak report.
  std::vector<Allocation> liveAllocations() const;
  std::vector<Registration> liveRegistrations() const;

private:
  Arena *arenaOf(uintptr_t address, int &device) const;
  /// The live allocation holding `address` in `table`, if any.
  static const Allocation *find(const std::map<uintptr_t, Allocation> &table,
                                uintptr_t address);

  std::vector<std::unique_ptr<Arena>> deviceArenas;
  std::unique_ptr<Arena> managedArena;
  /// Live allocations by start address, and freed ones for the trace.
  std::map<uintptr_t, Allocation> allocations;
  std::map<uintptr_t, Allocation> freed;
  std::map<uintptr_t, Registration> registrations;
  HostMappings host;
  uint64_t nextAllocationId = 1;
  uint64_t nextRegistrationId = 1;
};

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_MEMORY_H
