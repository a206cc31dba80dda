//===- WorkgroupMemory.cpp - A block's workgroup memory, fenced -----------===//
//
// See WorkgroupMemory.h. The accessible pages change only when a block
// needs another number of them (an mprotect per change of size, not per
// block); the margins are filled when the size changes. The block's bytes
// lie at the end of the pages, so that the margins next to them are a few
// words, compared with the pattern after every block; the rest of the page
// before them (up to 4 KiB) is compared once a runner is done with a grid.
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/WorkgroupMemory.h"

#include "wrappers/common/Sanitizers.h"

#include <cerrno>
#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

#ifdef GPU_RUNNER_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace gpu_runner {

namespace {

size_t pageSize() {
  static const size_t bytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

size_t roundUp(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

constexpr uint64_t kPatternWord = 0xa5a5a5a5a5a5a5a5ull;
static_assert(static_cast<unsigned char>(kPatternWord) ==
              WorkgroupMemory::kPattern);

/// Whether [begin, begin + bytes) all hold the pattern: words compared
/// without a branch each, since this runs after every block.
bool holdsPattern(const char *begin, size_t bytes) {
  while (bytes && reinterpret_cast<uintptr_t>(begin) % 8) {
    if (static_cast<unsigned char>(*begin) != WorkgroupMemory::kPattern)
      return false;
    ++begin;
    --bytes;
  }
  uint64_t changed = 0;
  const auto *words = reinterpret_cast<const uint64_t *>(begin);
  size_t count = bytes / 8;
  for (size_t i = 0; i < count; ++i)
    changed |= words[i] ^ kPatternWord;
  for (size_t i = count * 8; i < bytes; ++i)
    changed |= static_cast<unsigned char>(begin[i]) ^ WorkgroupMemory::kPattern;
  return changed == 0;
}

/// The first and last bytes of [begin, end) that do not hold the pattern;
/// false if none.
bool findChanged(const char *begin, const char *end, const char *&first,
                 const char *&last) {
  first = last = nullptr;
  for (const char *p = begin; p < end; ++p)
    if (static_cast<unsigned char>(*p) != WorkgroupMemory::kPattern) {
      if (!first)
        first = p;
      last = p;
    }
  return first != nullptr;
}

/// "byte 4" or "bytes 4 to 1".
std::string byteRange(size_t from, size_t to) {
  if (from == to)
    return "byte " + std::to_string(from);
  return "bytes " + std::to_string(from) + " to " + std::to_string(to);
}

} // namespace

WorkgroupMemory::~WorkgroupMemory() {
  if (mapping)
    munmap(mapping, mappingBytes);
}

Status WorkgroupMemory::reserve() {
  size_t bytes =
      2 * kGuardBytes + roundUp(kMaxBytes + 2 * kMarginBytes + 64, pageSize());
  void *reserved = mmap(nullptr, bytes, PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED)
    return Status::error("cannot map workgroup memory: " +
                         std::string(std::strerror(errno)));
#ifdef GPU_RUNNER_ASAN
  // The range may have held a thread's or a fiber's stack, whose redzones
  // AddressSanitizer leaves in its shadow when the stack is unmapped.
  ASAN_UNPOISON_MEMORY_REGION(reserved, bytes);
#endif
  mapping = static_cast<char *>(reserved);
  mappingBytes = bytes;
  accessible = mapping + kGuardBytes;
  accessibleBytes = 0;
  return Status();
}

Status WorkgroupMemory::layOut(size_t bytes) {
  if (bytes > kMaxBytes)
    return Status::error(std::to_string(bytes) +
                         " bytes of workgroup memory: the host backend maps "
                         "at most " +
                         std::to_string(kMaxBytes) + " for a block");
  if (!mapping)
    GPU_RUNNER_RETURN_IF_ERROR(reserve());
  if (bytes == 0) {
    // In the middle of the guard before the accessible pages: every access
    // through it faults.
    area = mapping + kGuardBytes / 2;
    areaBytes = 0;
    return Status();
  }
  if (bytes != laidOutBytes) {
    // Room for a margin each side and for aligning the start down.
    size_t needed =
        roundUp(kMarginBytes + bytes + kMarginBytes + 64, pageSize());
    if (needed > accessibleBytes &&
        mprotect(accessible + accessibleBytes, needed - accessibleBytes,
                 PROT_READ | PROT_WRITE) != 0)
      return Status::error("cannot make workgroup memory accessible: " +
                           std::string(std::strerror(errno)));
    // Pages a smaller block does not need become a guard again, so that
    // the margin after its bytes ends at an inaccessible page.
    if (needed < accessibleBytes &&
        mprotect(accessible + needed, accessibleBytes - needed, PROT_NONE) != 0)
      return Status::error("cannot protect workgroup memory: " +
                           std::string(std::strerror(errno)));
    accessibleBytes = needed;
    laidOutBytes = bytes;
    // At the end of the pages, 64-byte aligned: at most 127 bytes lie
    // between its end and the guard after it.
    laidOutArea =
        accessible + (accessibleBytes - kMarginBytes - bytes) / 64 * 64;
    fillMargins();
  }
  area = laidOutArea;
  areaBytes = bytes;
  return Status();
}

void WorkgroupMemory::fillMargins() {
  char *areaEnd = laidOutArea + laidOutBytes;
  std::memset(accessible, kPattern, laidOutArea - accessible);
  std::memset(areaEnd, kPattern, accessible + accessibleBytes - areaEnd);
}

Status WorkgroupMemory::check() {
  if (areaBytes == 0)
    return Status();
  char *areaEnd = area + areaBytes;
  char *accessibleEnd = accessible + accessibleBytes;
  if (holdsPattern(area - kMarginBytes, kMarginBytes) &&
      holdsPattern(areaEnd, accessibleEnd - areaEnd))
    return Status();
  return describeChanges(area - kMarginBytes);
}

Status WorkgroupMemory::checkFar() {
  if (!laidOutArea ||
      holdsPattern(accessible, laidOutArea - kMarginBytes - accessible))
    return Status();
  return describeChanges(accessible);
}

Status WorkgroupMemory::describeChanges(const char *from) {
  char *areaEnd = laidOutArea + laidOutBytes;
  std::string changed;
  const char *first = nullptr;
  const char *last = nullptr;
  if (findChanged(from, laidOutArea, first, last))
    changed = byteRange(laidOutArea - first, laidOutArea - last) +
              " before the start";
  if (findChanged(areaEnd, accessible + accessibleBytes, first, last)) {
    if (!changed.empty())
      changed += " and ";
    changed += byteRange(first - areaEnd, last - areaEnd) + " past the end";
  }
  fillMargins();
  return Status::error(changed + " of the block's " +
                       std::to_string(laidOutBytes) +
                       " bytes of workgroup memory");
}

} // namespace gpu_runner
