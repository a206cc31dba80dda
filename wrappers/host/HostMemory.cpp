//===- HostMemory.cpp - The host backend's device memory ------------------===//
//
// See HostMemory.h. The arena is reserved with PROT_NONE and
// MAP_NORESERVE, so it costs address space only; an allocation makes its
// pages accessible with mprotect, a release gives them back with
// MADV_DONTNEED and makes them inaccessible again.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/HostMemory.h"

#include "wrappers/common/CheckReports.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include <sys/mman.h>
#include <unistd.h>

namespace gpu_runner {

namespace {

/// The smallest arena worth having; mmap failing at this size means the
/// process has no address space left.
constexpr uint64_t kMinArenaBytes = uint64_t(1) << 24;

/// Live allocations that get a guard page. Each guarded allocation costs the
/// kernel two memory mappings (its pages and its guard), and a process has
/// about 65530 (vm.max_map_count); unguarded neighbours merge into one
/// mapping, so past this many a program can still allocate without limit.
constexpr uint64_t kGuardedAllocationLimit = 16384;

std::string bytesText(uint64_t bytes) { return std::to_string(bytes); }

std::string describeAllocation(uint64_t size, const std::string &allocLoc) {
  return "the " + bytesText(size) + "-byte allocation made by " +
         describeOp(allocLoc);
}

} // namespace

DeviceMemory::DeviceMemory(Options memoryOptions)
    : options(memoryOptions),
      pageSize(static_cast<uint64_t>(sysconf(_SC_PAGESIZE))) {}

DeviceMemory::~DeviceMemory() { reset(); }

bool DeviceMemory::reserveArena() {
  // Address space limits (ulimit -v, sanitizers' shadow layouts) vary: ask
  // for less until the kernel agrees.
  for (uint64_t bytes = options.arenaBytes; bytes >= kMinArenaBytes;
       bytes /= 2) {
    void *arena = mmap(nullptr, bytes, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (arena == MAP_FAILED)
      continue;
    arenaBegin = reinterpret_cast<uintptr_t>(arena);
    arenaBytes = bytes;
    capacity = options.capacityBytes
                   ? options.capacityBytes
                   : uint64_t(sysconf(_SC_PHYS_PAGES)) * pageSize;
    quarantineLimit = std::min(options.quarantineBytes, bytes / 4);
    freeRanges.clear();
    // The start of the arena is never handed out, so that a view with a
    // negative offset into the first allocation still points into the
    // arena (and is reported) instead of into unchecked host memory.
    uint64_t lead = std::min<uint64_t>(uint64_t(1) << 30, bytes / 16);
    freeRanges.emplace(arenaBegin + lead, arenaBytes - lead);
    return true;
  }
  return false;
}

Status DeviceMemory::allocate(uint64_t bytes, bool hostShared, const char *loc,
                              void *&result) {
  result = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (!arenaBytes && !reserveArena())
    return Status::error(
        "cannot reserve address space for device memory: mmap failed: " +
        std::string(std::strerror(errno)));
  // A size past 2^63 is a negative size computed by the program.
  if (static_cast<int64_t>(bytes) < 0)
    return Status::error("cannot allocate a negative size: " +
                         std::to_string(static_cast<int64_t>(bytes)) +
                         " bytes");
  if (bytes > capacity - liveBytes)
    return Status::error("out of device memory: cannot allocate " +
                         byteCount(bytes) + " with " + byteCount(liveBytes) +
                         " already allocated: the host "
                         "backend's device memory is " +
                         byteCount(capacity) +
                         " (the machine's physical memory)");
  if (bytes > arenaBytes)
    return Status::error("out of device memory: cannot allocate " +
                         byteCount(bytes) +
                         ": the host backend's "
                         "device memory is " +
                         byteCount(arenaBytes) + " of address space");
  uint64_t accessible = (bytes + pageSize - 1) / pageSize * pageSize;
  // A guard page after an allocation makes an overrun by direct access fault
  // instead of landing in the next allocation. A 0-byte allocation still
  // takes a page of address space, so that its address is unique.
  bool guarded = liveCount < kGuardedAllocationLimit || accessible == 0;
  uint64_t reserved = accessible + (guarded ? pageSize : 0);

  uintptr_t base = takeFreeRange(reserved);
  while (!base && !quarantine.empty()) {
    evictOldestQuarantined();
    base = takeFreeRange(reserved);
  }
  if (!base)
    return Status::error("out of device memory: cannot allocate " +
                         byteCount(bytes) +
                         ": no free range that "
                         "large is left in the host backend's " +
                         byteCount(arenaBytes) + " of address space");
  if (accessible && mprotect(reinterpret_cast<void *>(base), accessible,
                             PROT_READ | PROT_WRITE) != 0) {
    int error = errno;
    addFreeRange(base, reserved);
    std::string message = "out of device memory: cannot allocate " +
                          byteCount(bytes) + ": " +
                          std::string(std::strerror(error));
    if (error == ENOMEM)
      message += " (out of physical memory, or the process reached its "
                 "limit of memory mappings, vm.max_map_count, with " +
                 std::to_string(liveCount) + " live allocations)";
    return Status::error(message);
  }
  ++liveCount;
  liveBytes += bytes;
  Record record;
  record.sequence = nextSequence++;
  record.size = bytes;
  record.accessibleBytes = accessible;
  record.reservedBytes = reserved;
  record.hostShared = hostShared;
  record.freed = false;
  record.allocLoc = loc ? loc : "";
  if (isCheckEnabled(Check::Initcheck))
    record.writtenBits = std::make_unique<uint8_t[]>((bytes + 7) / 8);
  records.emplace(base, std::move(record));
  result = reinterpret_cast<void *>(base);
  return Status();
}

Status DeviceMemory::markFreed(void *ptr, const char *loc,
                               PendingRelease &release) {
  release = PendingRelease();
  if (!ptr)
    return Status::error("cannot free a null pointer");
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mutex);
  if (!arenaBytes || !inArena(address))
    return Status::error(formatPointer(ptr) +
                         " is not device memory: it was not allocated by "
                         "gpu.alloc");
  auto it = findRecord(address);
  if (it == records.end())
    return Status::error(formatPointer(ptr) +
                         " is not a device allocation: it points into device "
                         "memory that no allocation holds");
  // The map's value is mutable through a non-const iterator only.
  Record &record = records.find(it->first)->second;
  uint64_t offset = address - it->first;
  if (offset != 0) {
    std::string message = formatPointer(ptr) +
                          " is not the start of an allocation: it is " +
                          byteCount(offset) + " past the start of " +
                          describeAllocation(record.size, record.allocLoc);
    if (record.freed)
      message += ", already freed by " + describeOp(record.freeLoc);
    return Status::error(message);
  }
  if (record.freed)
    return Status::error(
        "double free: " + describeAllocation(record.size, record.allocLoc) +
        " was already freed by " + describeOp(record.freeLoc));
  record.freed = true;
  lifeChanges.fetch_add(1, std::memory_order_acq_rel);
  record.freeLoc = loc ? loc : "";
  --liveCount;
  liveBytes -= record.size;
  release.base = address;
  release.accessibleBytes = record.accessibleBytes;
  release.reservedBytes = record.reservedBytes;
  return Status();
}

void DeviceMemory::release(const PendingRelease &release) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = records.find(release.base);
    if (it != records.end())
      it->second.released = true;
    lifeChanges.fetch_add(1, std::memory_order_acq_rel);
  }
  if (!release.reservedBytes)
    return;
  // The range is ours alone until it leaves the quarantine: no lock needed to
  // change its pages.
  if (release.accessibleBytes) {
    void *pages = reinterpret_cast<void *>(release.base);
    madvise(pages, release.accessibleBytes, MADV_DONTNEED);
    mprotect(pages, release.accessibleBytes, PROT_NONE);
  }
  std::lock_guard<std::mutex> lock(mutex);
  quarantine.emplace_back(release.base, release.reservedBytes);
  quarantineBytes += release.reservedBytes;
  while (quarantineBytes > quarantineLimit)
    evictOldestQuarantined();
}

Status DeviceMemory::checkRange(const void *ptr, uint64_t bytes,
                                const char *what) const {
  return checkRange(ptr, bytes, what, /*inStreamOrder=*/false);
}

Status DeviceMemory::checkAccess(const void *ptr, uint64_t bytes,
                                 const char *what) const {
  return checkRange(ptr, bytes, what, /*inStreamOrder=*/true);
}

Status DeviceMemory::checkAccess(const void *ptr, uint64_t bytes,
                                 const char *what, AccessRange &range) const {
  range = AccessRange();
  if (bytes == 0)
    return Status();
  std::lock_guard<std::mutex> lock(mutex);
  return checkRangeLocked(ptr, bytes, what, /*inStreamOrder=*/true, &range);
}

Status DeviceMemory::checkCopy(const void *src, uint64_t srcBytes,
                               const void *dst, uint64_t dstBytes) const {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(checkRangeLocked(src, srcBytes, "source",
                                              /*inStreamOrder=*/false));
  return checkRangeLocked(dst, dstBytes, "destination",
                          /*inStreamOrder=*/false);
}

Status DeviceMemory::checkRange(const void *ptr, uint64_t bytes,
                                const char *what, bool inStreamOrder) const {
  if (bytes == 0)
    return Status();
  std::lock_guard<std::mutex> lock(mutex);
  return checkRangeLocked(ptr, bytes, what, inStreamOrder);
}

Status DeviceMemory::checkRangeLocked(const void *ptr, uint64_t bytes,
                                      const char *what, bool inStreamOrder,
                                      AccessRange *range) const {
  auto isFreed = [&](const Record &record) {
    return inStreamOrder ? record.released : record.freed;
  };
  if (bytes == 0)
    return Status();
  // Built only for an error: this check is on the path of every copy.
  auto side = [what] { return std::string("the ") + what; };
  if (!ptr)
    return Status::error(side() + " is a null pointer");
  uintptr_t begin = reinterpret_cast<uintptr_t>(ptr);
  if (bytes - 1 > UINTPTR_MAX - begin)
    return Status::error(side() + " (" + byteCount(bytes) + " at " +
                         formatPointer(ptr) +
                         ") runs past the end of the address space");
  uintptr_t last = begin + (bytes - 1);

  if (!arenaBytes)
    return Status(); // no device memory yet: everything is host memory
  bool beginInArena = inArena(begin), lastInArena = inArena(last);
  if (!beginInArena && !lastInArena) {
    if (begin < arenaBegin && last >= arenaBegin + arenaBytes)
      return Status::error(side() + " (" + byteCount(bytes) + " at " +
                           formatPointer(ptr) +
                           ") spans both host memory and device memory");
    return Status(); // host memory
  }
  if (beginInArena != lastInArena)
    return Status::error(side() + " (" + byteCount(bytes) + " at " +
                         formatPointer(ptr) +
                         ") spans both host memory and device memory");

  auto it = findRecord(begin);
  bool beginInside = it != records.end() && begin - it->first < it->second.size;
  if (!beginInside) {
    // A range that starts outside any allocation (or in the slack and guard
    // page after one) but ends inside the next: a negative offset, most
    // likely, so it is reported against the allocation it ends in.
    auto lastIt = findRecord(last);
    if (lastIt != records.end() && lastIt != it && !isFreed(lastIt->second) &&
        last - lastIt->first < lastIt->second.size) {
      uint64_t before = lastIt->first - begin;
      return Status::error(
          "out of bounds: " + side() + " spans bytes [-" + bytesText(before) +
          ", " + bytesText(last + 1 - lastIt->first) + ") of " +
          describeAllocation(lastIt->second.size, lastIt->second.allocLoc) +
          ": it starts " + byteCount(before) + " before the allocation");
    }
  }
  if (it == records.end())
    return Status::error(side() + " " + formatPointer(ptr) +
                         " is not a device allocation: it points into device "
                         "memory that no allocation holds");
  const Record &record = it->second;
  if (isFreed(record))
    return Status::error("use after free: " + side() + " is in " +
                         describeAllocation(record.size, record.allocLoc) +
                         ", which was freed by " + describeOp(record.freeLoc));
  uint64_t offset = begin - it->first;
  uint64_t end = offset + bytes;
  if (end > record.size)
    return Status::error("out of bounds: " + side() + " spans bytes [" +
                         bytesText(offset) + ", " + bytesText(end) + ") of " +
                         describeAllocation(record.size, record.allocLoc) +
                         ": " + byteCount(end - record.size) + " past its end");
  if (range) {
    range->begin = it->first;
    range->end = it->first + record.size;
    range->lifeChanges = lifeChanges.load(std::memory_order_acquire);
    range->writtenBits = record.writtenBits.get();
  }
  return Status();
}

bool DeviceMemory::isDeviceMemory(const void *ptr) const {
  return arenaBytes && inArena(reinterpret_cast<uintptr_t>(ptr));
}

std::string DeviceMemory::describe(const void *ptr) const {
  std::lock_guard<std::mutex> lock(mutex);
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  if (!arenaBytes || !inArena(address))
    return "";
  auto it = findRecord(address);
  if (it == records.end())
    return "in no allocation";
  return describeAllocation(it->second.size, it->second.allocLoc);
}

std::string DeviceMemory::describeHostAccess(const void *ptr) const {
  // Host memory, the common case, without the lock.
  if (!isDeviceMemory(ptr))
    return "";
  std::lock_guard<std::mutex> lock(mutex);
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  auto it = findRecord(address);
  if (it == records.end())
    return "an address in no allocation";
  const Record &record = it->second;
  if (record.hostShared && !record.freed)
    return "";
  std::string text = describeAllocation(record.size, record.allocLoc);
  if (record.freed)
    text += ", freed by " + describeOp(record.freeLoc);
  return text;
}

// NOLINTNEXTLINE(readability-non-const-parameter): written by __atomic_*.
void DeviceMemory::setWritten(uint8_t *bits, uint64_t offset, uint64_t count) {
  uint64_t bit = offset, end = offset + count;
  // Whole bytes of the bitmap at once: a memset of megabytes marks them.
  for (; bit < end && bit % 8 != 0; ++bit)
    __atomic_fetch_or(&bits[bit / 8], uint8_t(1u << (bit % 8)),
                      __ATOMIC_RELAXED);
  for (; bit + 8 <= end; bit += 8)
    __atomic_store_n(&bits[bit / 8], uint8_t(0xff), __ATOMIC_RELAXED);
  for (; bit < end; ++bit)
    __atomic_fetch_or(&bits[bit / 8], uint8_t(1u << (bit % 8)),
                      __ATOMIC_RELAXED);
}

uint64_t DeviceMemory::findUnwritten(const uint8_t *bits, uint64_t offset,
                                     uint64_t count) {
  uint64_t end = offset + count;
  for (uint64_t bit = offset; bit < end;) {
    uint8_t byte = __atomic_load_n(&bits[bit / 8], __ATOMIC_RELAXED);
    if (bit % 8 == 0 && bit + 8 <= end && byte == 0xff) {
      bit += 8;
      continue;
    }
    if (!(byte & (1u << (bit % 8))))
      return bit;
    ++bit;
  }
  return end;
}

void DeviceMemory::markWritten(const void *ptr, uint64_t bytes) {
  if (bytes == 0 || !isDeviceMemory(ptr))
    return;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = findRecord(reinterpret_cast<uintptr_t>(ptr));
  if (it == records.end() || !it->second.writtenBits)
    return;
  uint64_t offset = reinterpret_cast<uintptr_t>(ptr) - it->first;
  if (offset >= it->second.size)
    return;
  setWritten(it->second.writtenBits.get(), offset,
             std::min(bytes, it->second.size - offset));
}

void DeviceMemory::markAllocationWritten(const void *ptr) {
  if (!isDeviceMemory(ptr))
    return;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = findRecord(reinterpret_cast<uintptr_t>(ptr));
  if (it == records.end() || !it->second.writtenBits)
    return;
  setWritten(it->second.writtenBits.get(), 0, it->second.size);
}

std::string DeviceMemory::describeUnwritten(const void *ptr,
                                            uint64_t bytes) const {
  if (bytes == 0 || !isDeviceMemory(ptr))
    return "";
  std::lock_guard<std::mutex> lock(mutex);
  auto it = findRecord(reinterpret_cast<uintptr_t>(ptr));
  if (it == records.end() || !it->second.writtenBits)
    return "";
  const Record &record = it->second;
  uint64_t offset = reinterpret_cast<uintptr_t>(ptr) - it->first;
  if (offset >= record.size)
    return "";
  uint64_t end = std::min(record.size, offset + bytes);
  uint64_t first =
      findUnwritten(record.writtenBits.get(), offset, end - offset);
  if (first == end)
    return "";
  uint64_t last = first;
  while (last < end && findUnwritten(record.writtenBits.get(), last, 1) == last)
    ++last;
  return "bytes [" + std::to_string(first) + ", " + std::to_string(last) +
         ") of " + describeAllocation(record.size, record.allocLoc);
}

std::vector<DeviceMemory::Leak> DeviceMemory::liveAllocations() const {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::pair<uint64_t, Leak>> live;
  for (const auto &entry : records)
    if (!entry.second.freed)
      live.push_back(
          {entry.second.sequence, Leak{entry.second.allocLoc, entry.second.size,
                                       entry.second.hostShared}});
  std::sort(live.begin(), live.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<Leak> leaks;
  leaks.reserve(live.size());
  for (auto &entry : live)
    leaks.push_back(std::move(entry.second));
  return leaks;
}

void DeviceMemory::reset() {
  std::lock_guard<std::mutex> lock(mutex);
  lifeChanges.fetch_add(1, std::memory_order_acq_rel);
  if (arenaBytes)
    munmap(reinterpret_cast<void *>(arenaBegin.load()), arenaBytes);
  arenaBegin = 0;
  arenaBytes = 0;
  records.clear();
  freeRanges.clear();
  quarantine.clear();
  quarantineBytes = 0;
  liveCount = 0;
  liveBytes = 0;
}

size_t DeviceMemory::recordCount() const {
  std::lock_guard<std::mutex> lock(mutex);
  return records.size();
}

uint64_t DeviceMemory::quarantinedBytes() const {
  std::lock_guard<std::mutex> lock(mutex);
  return quarantineBytes;
}

std::map<uintptr_t, DeviceMemory::Record>::const_iterator
DeviceMemory::findRecord(uintptr_t address) const {
  auto it = records.upper_bound(address);
  if (it == records.begin())
    return records.end();
  --it;
  if (address - it->first < it->second.reservedBytes)
    return it;
  return records.end();
}

uintptr_t DeviceMemory::takeFreeRange(uint64_t bytes) {
  // First fit: low addresses are reused first, which keeps the arena's used
  // part compact.
  for (auto it = freeRanges.begin(); it != freeRanges.end(); ++it) {
    if (it->second < bytes)
      continue;
    uintptr_t begin = it->first;
    uint64_t left = it->second - bytes;
    freeRanges.erase(it);
    if (left)
      freeRanges.emplace(begin + bytes, left);
    return begin;
  }
  return 0;
}

void DeviceMemory::addFreeRange(uintptr_t begin, uint64_t bytes) {
  auto next = freeRanges.lower_bound(begin);
  if (next != freeRanges.end() && begin + bytes == next->first) {
    bytes += next->second;
    next = freeRanges.erase(next);
  }
  if (next != freeRanges.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == begin) {
      previous->second += bytes;
      return;
    }
  }
  freeRanges.emplace(begin, bytes);
}

void DeviceMemory::evictOldestQuarantined() {
  auto [base, reserved] = quarantine.front();
  quarantine.pop_front();
  quarantineBytes -= reserved;
  records.erase(base);
  addFreeRange(base, reserved);
}

Status HostRegistry::registerRange(const void *ptr, uint64_t bytes,
                                   const char *loc,
                                   const DeviceMemory &memory) {
  if (bytes == 0)
    return Status();
  if (!ptr)
    return Status::error("cannot register a null pointer");
  uintptr_t begin = reinterpret_cast<uintptr_t>(ptr);
  if (bytes > UINTPTR_MAX - begin)
    return Status::error("cannot register " + byteCount(bytes) + " at " +
                         formatPointer(ptr) +
                         ": the range runs past the end of the address space");
  uintptr_t end = begin + bytes;
  if (memory.isDeviceMemory(ptr) ||
      memory.isDeviceMemory(reinterpret_cast<void *>(end - 1)))
    return Status::error(formatPointer(ptr) +
                         " is device memory: only host memory can be "
                         "registered");

  std::lock_guard<std::mutex> lock(mutex);
  // Registered ranges never overlap, so only the last one that begins before
  // `end` can overlap the new one.
  auto next = ranges.lower_bound(end);
  if (next != ranges.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second.bytes > begin)
      return Status::error(
          "the host memory [" + formatPointer(ptr) + ", " +
          formatPointer(reinterpret_cast<void *>(end)) +
          ") is already registered: it overlaps the " +
          byteCount(previous->second.bytes) + " at " +
          formatPointer(reinterpret_cast<void *>(previous->first)) +
          " registered by " + describeOp(previous->second.loc));
  }
  ranges.emplace(begin, Registration{bytes, loc ? loc : ""});
  return Status();
}

Status HostRegistry::unregisterRange(const void *ptr) {
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mutex);
  auto next = ranges.upper_bound(address);
  if (next != ranges.begin()) {
    auto it = std::prev(next);
    if (it->first == address) {
      ranges.erase(it);
      return Status();
    }
    if (address - it->first < it->second.bytes)
      return Status::error(
          formatPointer(ptr) + " is not registered host memory: it is " +
          byteCount(address - it->first) + " past the start of the " +
          byteCount(it->second.bytes) + " registered by " +
          describeOp(it->second.loc));
  }
  return Status::error(formatPointer(ptr) +
                       " is not registered host memory: nothing registered "
                       "starts there");
}

bool HostRegistry::contains(const void *ptr, uint64_t bytes) const {
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mutex);
  auto next = ranges.upper_bound(address);
  if (next == ranges.begin())
    return false;
  auto it = std::prev(next);
  uint64_t offset = address - it->first;
  return offset < it->second.bytes && bytes <= it->second.bytes - offset;
}

size_t HostRegistry::size() const {
  std::lock_guard<std::mutex> lock(mutex);
  return ranges.size();
}

void HostRegistry::reset() {
  std::lock_guard<std::mutex> lock(mutex);
  ranges.clear();
}

} // namespace gpu_runner
