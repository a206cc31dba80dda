//===- Memory.cpp - Device memory, managed memory and host ranges ---------===//

#include "standin/Memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace gpu_runner {
namespace standin {
namespace {

uint64_t roundUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

std::string hex(uintptr_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIxPTR, value);
  return text;
}

} // namespace

//===----------------------------------------------------------------------===//
// Arena
//===----------------------------------------------------------------------===//

std::unique_ptr<Arena> Arena::create(uint64_t bytes, bool hostVisible,
                                     std::string &error) {
  std::unique_ptr<Arena> arena(new Arena());
  arena->size = bytes;
  arena->hostVisible = hostVisible;
  if (hostVisible) {
    void *memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) {
      error =
          std::string("cannot reserve managed memory: ") + std::strerror(errno);
      return nullptr;
    }
    arena->base = reinterpret_cast<uintptr_t>(memory);
    arena->view = static_cast<char *>(memory);
  } else {
    // Two mappings of one memory file: the device addresses, which the host
    // cannot access, and the stand-in's view.
    arena->fd = memfd_create("gpu-runner-standin-device-memory", MFD_CLOEXEC);
    if (arena->fd < 0 || ftruncate(arena->fd, static_cast<off_t>(bytes)) != 0) {
      error =
          std::string("cannot create device memory: ") + std::strerror(errno);
      return nullptr;
    }
    void *device = mmap(nullptr, bytes, PROT_NONE, MAP_SHARED | MAP_NORESERVE,
                        arena->fd, 0);
    void *view = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_NORESERVE, arena->fd, 0);
    if (device == MAP_FAILED || view == MAP_FAILED) {
      error = std::string("cannot map device memory: ") + std::strerror(errno);
      return nullptr;
    }
    arena->base = reinterpret_cast<uintptr_t>(device);
    arena->view = static_cast<char *>(view);
  }
  arena->freeBlocks[0] = bytes;
  return arena;
}

Arena::~Arena() {
  if (base)
    munmap(reinterpret_cast<void *>(base), size);
  if (view && !hostVisible)
    munmap(view, size);
  if (fd >= 0)
    close(fd);
}

bool Arena::allocate(uint64_t bytes, uintptr_t &address) {
  for (auto it = freeBlocks.begin(); it != freeBlocks.end(); ++it) {
    if (it->second < bytes)
      continue;
    uint64_t offset = it->first;
    uint64_t rest = it->second - bytes;
    freeBlocks.erase(it);
    if (rest)
      freeBlocks[offset + bytes] = rest;
    used += bytes;
    address = base + offset;
    return true;
  }
  return false;
}

void Arena::release(uintptr_t address, uint64_t bytes) {
  uint64_t offset = address - base;
  used -= bytes;
  auto next = freeBlocks.lower_bound(offset);
  if (next != freeBlocks.end() && next->first == offset + bytes) {
    bytes += next->second;
    next = freeBlocks.erase(next);
  }
  if (next != freeBlocks.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {
      offset = previous->first;
      bytes += previous->second;
      freeBlocks.erase(previous);
    }
  }
  freeBlocks[offset] = bytes;
  // Give back the pages the free block covers whole, so that memory a
  // program freed costs nothing; they read as zeros when reused.
  uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  uint64_t first = roundUp(offset, page);
  uint64_t last = (offset + bytes) / page * page;
  if (last <= first)
    return;
  if (hostVisible)
    madvise(view + first, last - first, MADV_DONTNEED);
  else
    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
              static_cast<off_t>(first), static_cast<off_t>(last - first));
}

//===----------------------------------------------------------------------===//
// HostMappings
//===----------------------------------------------------------------------===//

bool HostMappings::covers(uintptr_t begin, uint64_t bytes, bool write) {
  // The copy read last may be out of date: mincore fails with ENOMEM where
  // a page is no longer mapped.
  if (coversLoaded(begin, bytes, write) && isMapped(begin, bytes))
    return true;
  reload();
  return coversLoaded(begin, bytes, write);
}

bool HostMappings::isMapped(uintptr_t begin, uint64_t bytes) {
  if (bytes == 0)
    return true;
  uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t first = begin / page * page;
  uint64_t length = begin + bytes - first;
  residency.resize((length + page - 1) / page);
  return mincore(reinterpret_cast<void *>(first), length, residency.data()) ==
         0;
}

bool HostMappings::coversLoaded(uintptr_t begin, uint64_t bytes,
                                bool write) const {
  if (bytes == 0)
    return true;
  if (begin + bytes < begin)
    return false;
  uintptr_t end = begin + bytes;
  auto it = std::upper_bound(
      mappings.begin(), mappings.end(), begin,
      [](uintptr_t address, const Mapping &m) { return address < m.end; });
  // Contiguous mappings, each with the access needed, up to the end.
  uintptr_t reached = begin;
  for (; it != mappings.end() && reached < end; ++it) {
    if (it->begin > reached || !it->readable || (write && !it->writable))
      return false;
    reached = it->end;
  }
  return reached >= end;
}

void HostMappings::reload() {
  mappings.clear();
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    unsigned long long begin = 0, end = 0;
    char permissions[8] = {};
    if (std::sscanf(line.c_str(), "%llx-%llx %7s", &begin, &end, permissions) !=
        3)
      continue;
    mappings.push_back({static_cast<uintptr_t>(begin),
                        static_cast<uintptr_t>(end), permissions[0] == 'r',
                        permissions[1] == 'w'});
  }
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Error Memory::initialize(int devices, uint64_t bytesPerDevice,
                         std::string &error) {
  for (int i = 0; i < devices; ++i) {
    std::unique_ptr<Arena> arena =
        Arena::create(bytesPerDevice, /*hostVisible=*/false, error);
    if (!arena)
      return Error::OutOfMemory;
    deviceArenas.push_back(std::move(arena));
  }
  managedArena = Arena::create(bytesPerDevice, /*hostVisible=*/true, error);
  return managedArena ? Error::Success : Error::OutOfMemory;
}

Arena *Memory::arenaOf(uintptr_t address, int &device) const {
  for (size_t i = 0; i < deviceArenas.size(); ++i) {
    if (deviceArenas[i]->contains(address)) {
      device = static_cast<int>(i);
      return deviceArenas[i].get();
    }
  }
  device = -1;
  if (managedArena && managedArena->contains(address))
    return managedArena.get();
  return nullptr;
}

Error Memory::allocate(int device, uint64_t bytes, bool managed,
                       void *&pointer) {
  Arena &arena = managed ? *managedArena : *deviceArenas.at(device);
  uint64_t block = roundUp(bytes, kAllocationAlignment);
  uintptr_t address = 0;
  if (block < bytes || !arena.allocate(block, address))
    return Error::OutOfMemory;
  // Forget what was freed here before: the trace names the new allocation.
  freed.erase(freed.lower_bound(address), freed.lower_bound(address + block));
  Allocation &record = allocations[address];
  record.id = nextAllocationId++;
  record.device = managed ? -1 : device;
  record.begin = address;
  record.bytes = bytes;
  record.blockBytes = block;
  pointer = reinterpret_cast<void *>(address);
  return Error::Success;
}

Error Memory::free(void *pointer) {
  auto it = allocations.find(reinterpret_cast<uintptr_t>(pointer));
  if (it == allocations.end())
    return Error::InvalidValue;
  Allocation record = it->second;
  allocations.erase(it);
  int device;
  arenaOf(record.begin, device)->release(record.begin, record.blockBytes);
  freed[record.begin] = record;
  return Error::Success;
}

const Allocation *Memory::find(const std::map<uintptr_t, Allocation> &table,
                               uintptr_t address) {
  auto it = table.upper_bound(address);
  if (it == table.begin())
    return nullptr;
  --it;
  if (address - it->first >= it->second.bytes)
    return nullptr;
  return &it->second;
}

MemoryKind Memory::classify(const void *pointer) const {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  int device;
  if (Arena *arena = arenaOf(address, device)) {
    (void)arena;
    return device >= 0 ? MemoryKind::Device : MemoryKind::Managed;
  }
  auto it = registrations.upper_bound(address);
  if (it != registrations.begin() &&
      address - std::prev(it)->first < std::prev(it)->second.bytes)
    return MemoryKind::Registered;
  return MemoryKind::Host;
}

Error Memory::resolve(const void *pointer, uint64_t bytes, bool write,
                      Resolved &resolved) {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  resolved = Resolved();
  if (!pointer)
    return Error::InvalidValue;
  if (address + bytes < address)
    return Error::InvalidValue;
  int device;
  if (Arena *arena = arenaOf(address, device)) {
    const Allocation *allocation = find(allocations, address);
    // Within one allocation: the bytes after its end are another's, or
    // nobody's.
    if (!allocation || bytes > allocation->begin + allocation->bytes - address)
      return Error::InvalidValue;
    resolved.kind = device >= 0 ? MemoryKind::Device : MemoryKind::Managed;
    resolved.allocation = allocation;
    resolved.access = arena->access(address);
    return Error::Success;
  }
  auto it = registrations.upper_bound(address);
  if (it != registrations.begin()) {
    const Registration &registration = std::prev(it)->second;
    if (address - registration.begin < registration.bytes &&
        bytes <= registration.begin + registration.bytes - address) {
      if (write && registration.readOnly)
        return Error::InvalidValue;
      resolved.kind = MemoryKind::Registered;
      resolved.access = const_cast<char *>(static_cast<const char *>(pointer));
      return Error::Success;
    }
  }
  // Host memory the program did not register: the stand-in reads or writes
  // it only where the process has it mapped with that access.
  if (!host.covers(address, bytes, write))
    return Error::InvalidValue;
  resolved.kind = MemoryKind::Host;
  resolved.access = const_cast<char *>(static_cast<const char *>(pointer));
  return Error::Success;
}

Error Memory::registerHost(void *pointer, uint64_t bytes, unsigned flags,
                           bool readOnly) {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  if (!pointer || bytes == 0 || address + bytes < address)
    return Error::InvalidValue;
  int device;
  if (arenaOf(address, device) || arenaOf(address + bytes - 1, device))
    return Error::InvalidValue;
  // cuda.h, CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED: "the memory range
  // passed to cuMemHostRegister() has already been registered"; any
  // overlap counts.
  auto it = registrations.lower_bound(address + bytes);
  if (it != registrations.begin()) {
    const Registration &previous = std::prev(it)->second;
    if (previous.begin + previous.bytes > address)
      return Error::HostMemoryAlreadyRegistered;
  }
  if (!host.covers(address, bytes, !readOnly))
    return Error::InvalidValue;
  Registration &record = registrations[address];
  record.id = nextRegistrationId++;
  record.begin = address;
  record.bytes = bytes;
  record.flags = flags;
  record.readOnly = readOnly;
  return Error::Success;
}

Error Memory::unregisterHost(void *pointer) {
  if (!pointer)
    return Error::InvalidValue;
  // cuda.h, cuMemHostUnregister: "The base address must be the same one
  // specified to cuMemHostRegister()."
  auto it = registrations.find(reinterpret_cast<uintptr_t>(pointer));
  if (it == registrations.end())
    return Error::HostMemoryNotRegistered;
  registrations.erase(it);
  return Error::Success;
}

Error Memory::getMappedPointer(const void *pointer, void *&device) const {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  auto it = registrations.upper_bound(address);
  if (it == registrations.begin())
    return Error::InvalidValue;
  const Registration &registration = std::prev(it)->second;
  if (address - registration.begin >= registration.bytes)
    return Error::InvalidValue;
  device = const_cast<void *>(pointer);
  return Error::Success;
}

void Memory::getInfo(int device, uint64_t &freeBytes,
                     uint64_t &totalBytes) const {
  const Arena &arena = *deviceArenas.at(device);
  totalBytes = arena.getSize();
  freeBytes = arena.getSize() - arena.getUsed();
}

std::string Memory::describe(const void *pointer) const {
  if (!pointer)
    return "null";
  auto address = reinterpret_cast<uintptr_t>(pointer);
  int device;
  if (arenaOf(address, device)) {
    const char *prefix = device >= 0 ? "alloc#" : "managed#";
    if (const Allocation *live = find(allocations, address))
      return prefix + std::to_string(live->id) + "+" +
             std::to_string(address - live->begin);
    if (const Allocation *dead = find(freed, address))
      return prefix + std::to_string(dead->id) + "(freed)+" +
             std::to_string(address - dead->begin);
    return (device >= 0 ? "device" + std::to_string(device) : "managed") + ":" +
           hex(address) + "(no allocation)";
  }
  auto it = registrations.upper_bound(address);
  if (it != registrations.begin() &&
      address - std::prev(it)->first < std::prev(it)->second.bytes)
    return "registered#" + std::to_string(std::prev(it)->second.id) + "+" +
           std::to_string(address - std::prev(it)->first);
  return "host";
}

std::vector<Allocation> Memory::liveAllocations() const {
  std::vector<Allocation> result;
  result.reserve(allocations.size());
  for (const auto &[begin, record] : allocations)
    result.push_back(record);
  std::sort(
      result.begin(), result.end(),
      [](const Allocation &a, const Allocation &b) { return a.id < b.id; });
  return result;
}

std::vector<Registration> Memory::liveRegistrations() const {
  std::vector<Registration> result;
  result.reserve(registrations.size());
  for (const auto &[begin, record] : registrations)
    result.push_back(record);
  std::sort(
      result.begin(), result.end(),
      [](const Registration &a, const Registration &b) { return a.id < b.id; });
  return result;
}

} // namespace standin
} // namespace gpu_runner
