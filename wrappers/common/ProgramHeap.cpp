//===- ProgramHeap.cpp - The program's malloc and free, with redzones -----===//
//
// See ProgramHeap.h. One reserved range of address space (PROT_NONE,
// MAP_NORESERVE, so it costs nothing until used) holds every block: its
// first half small blocks, in slots of 64 bytes to 64 KiB carved from
// chunks and reused through a free list per size; its second half large
// blocks, each page-granular, followed by an inaccessible guard page, made
// inaccessible when freed and reused by size.
//
// A block is [slot, slot + slotBytes): a leading redzone (padding up to
// the alignment), a 32-byte header just below the pointer returned, the
// program's bytes, and a trailing redzone of at least 16 bytes to the end
// of the slot. Redzones hold a pattern that free checks. The free lists and
// the large blocks' records are kept apart from the blocks, so that a
// program that writes over freed memory cannot misdirect the allocator.
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/ProgramHeap.h"

#include "wrappers/Runtime.h"
#include "wrappers/common/RuntimeError.h"
#include "wrappers/common/Sanitizers.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#ifdef GPU_RUNNER_ASAN
// From the sanitizers' allocator_interface.h, which GCC does not install;
// both compilers' runtimes define them.
extern "C" int __sanitizer_get_ownership(const volatile void *pointer);
extern "C" size_t __sanitizer_get_allocated_size(const volatile void *pointer);
#endif

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

namespace gpu_runner {

namespace {

/// Volatile: the compiler knows that free and malloc read no memory of
/// ours, and would otherwise drop or move the stores around their calls.
thread_local const char *volatile heapCall = nullptr;

/// Marks the calling thread as running the C library's `function` for the
/// program while the scope lasts.
class HeapCallScope {
public:
  explicit HeapCallScope(const char *function) : saved(heapCall) {
    heapCall = function;
  }
  ~HeapCallScope() { heapCall = saved; }

private:
  const char *saved;
};

constexpr uint64_t kHeaderBytes = 32;
constexpr uint64_t kMinRedzoneBytes = 16;
constexpr unsigned char kRedzoneByte = 0xfb;
constexpr uint64_t kLiveCheck = 0x9e3779b97f4a7c15ULL;
constexpr uint64_t kFreedCheck = 0xc2b2ae3d27d4eb4fULL;

/// Small slots are 64 << i bytes.
constexpr int kSmallClasses = 11;
constexpr uint64_t kSmallestSlot = 64;
constexpr uint64_t kLargestSmallSlot = kSmallestSlot << (kSmallClasses - 1);
constexpr uint64_t kChunkBytes = 256 * 1024;

/// Where the heap's range is asked for: 16 TiB, a hint mmap may ignore.
void *const kPreferredAddress = reinterpret_cast<void *>(uintptr_t(1) << 44);

struct BlockHeader {
  /// kLiveCheck or kFreedCheck, xor the block's address.
  uint64_t check;
  char *slot;
  uint64_t slotBytes;
  uint64_t requested;
};
static_assert(sizeof(BlockHeader) == kHeaderBytes);

uint64_t roundUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// A fatal error of the program's free (or realloc).
[[noreturn]] void heapError(const char *function, const std::string &message) {
  reportFatalError(function, message);
}

std::string corruptionAdvice() {
  return "the program wrote outside the block; run with --check-bounds to "
         "find the write";
}

class Heap {
public:
  static Heap &get() {
    // Never destroyed: the program's destructors may free after exit.
    static Heap *heap = new Heap();
    return *heap;
  }

  bool usable() const { return begin != nullptr; }

  bool contains(const void *pointer) const {
    auto *address = static_cast<const char *>(pointer);
    return usable() && address >= begin && address < end;
  }

  void *allocate(uint64_t bytes, uint64_t alignment) {
    alignment = std::max<uint64_t>(alignment, 16);
    if (bytes > (uint64_t(1) << 46) || alignment > (uint64_t(1) << 30))
      return nullptr;
    uint64_t needed =
        kHeaderBytes + (alignment - 16) + bytes + kMinRedzoneBytes;
    std::lock_guard<std::mutex> lock(mutex);
    if (needed <= kLargestSmallSlot)
      return allocateSmall(needed, bytes, alignment);
    return allocateLarge(needed, bytes, alignment);
  }

  /// Frees `pointer`, which `contains` says is in the heap.
  void free(void *pointer, const char *function) {
    std::lock_guard<std::mutex> lock(mutex);
    BlockHeader &header = checkedHeader(pointer, function);
    char *user = static_cast<char *>(pointer);
    header.check = kFreedCheck ^ reinterpret_cast<uintptr_t>(user);
    if (header.slot < largeBegin) {
      freeSmall[classOf(header.slotBytes)].push_back(header.slot);
      return;
    }
    // Freed pages go back to the system and fault on access: a use after
    // free in host code is a fault, not a read of reused memory.
    LargeBlock &block = largeBlocks.at(user);
    block.freed = true;
    madvise(block.slot, block.slotBytes, MADV_DONTNEED);
    mprotect(block.slot, block.slotBytes, PROT_NONE);
    freeLarge.emplace(block.slotBytes, user);
  }

  /// The live block that `pointer`, which `contains` says is in the heap,
  /// begins; its redzones are not checked (free does).
  std::optional<uint64_t> getBlockBytes(const void *pointer) {
    std::lock_guard<std::mutex> lock(mutex);
    char *user = const_cast<char *>(static_cast<const char *>(pointer));
    uintptr_t key = reinterpret_cast<uintptr_t>(user);
    bool live = user < largeBegin
                    ? user - begin >= static_cast<ptrdiff_t>(kHeaderBytes) &&
                          user < smallNext
                    : largeBlocks.count(user) != 0 && !largeBlocks[user].freed;
    auto *header = reinterpret_cast<BlockHeader *>(user - kHeaderBytes);
    if (!live || header->check != (kLiveCheck ^ key))
      return std::nullopt;
    return header->requested;
  }

  /// The bytes the block at `pointer` holds, checked like free checks.
  uint64_t usableSize(void *pointer, const char *function) {
    std::lock_guard<std::mutex> lock(mutex);
    return checkedHeader(pointer, function).requested;
  }

private:
  Heap() : pageSize(static_cast<uint64_t>(sysconf(_SC_PAGESIZE))) {
    for (uint64_t bytes = uint64_t(1) << 40; bytes >= (uint64_t(1) << 30);
         bytes /= 2) {
      // Asked for far from the libraries, the stacks and the device arena
      // (which mmap places top-down below them), so that a pointer off a
      // heap block by a wild offset lands in unmapped memory and faults.
      void *range = mmap(kPreferredAddress, bytes, PROT_NONE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (range == MAP_FAILED)
        continue;
      begin = static_cast<char *>(range);
      end = begin + bytes;
      largeBegin = begin + bytes / 2;
      smallNext = begin;
      largeNext = largeBegin;
      return;
    }
    // Without a range of its own, the program uses the C library's heap.
  }

  char *alignDown(const char *address) const {
    return reinterpret_cast<char *>(reinterpret_cast<uintptr_t>(address) /
                                    pageSize * pageSize);
  }

  static int classOf(uint64_t slotBytes) {
    int index = 0;
    while ((kSmallestSlot << index) < slotBytes)
      ++index;
    return index;
  }

  void *allocateSmall(uint64_t needed, uint64_t bytes, uint64_t alignment) {
    int index = classOf(needed);
    uint64_t slotBytes = kSmallestSlot << index;
    std::vector<char *> &slots = freeSmall[index];
    if (slots.empty()) {
      if (smallNext + kChunkBytes > largeBegin ||
          mprotect(smallNext, kChunkBytes, PROT_READ | PROT_WRITE) != 0)
        return nullptr;
      for (uint64_t offset = kChunkBytes; offset >= slotBytes;
           offset -= slotBytes)
        slots.push_back(smallNext + offset - slotBytes);
      smallNext += kChunkBytes;
    }
    char *slot = slots.back();
    slots.pop_back();
    char *user = reinterpret_cast<char *>(
        roundUp(reinterpret_cast<uintptr_t>(slot) + kHeaderBytes, alignment));
    return makeBlock(slot, slotBytes, user, bytes);
  }

  void *allocateLarge(uint64_t needed, uint64_t bytes, uint64_t alignment) {
    uint64_t slotBytes = roundUp(needed, pageSize);
    char *slot = nullptr;
    auto reusable = freeLarge.lower_bound(slotBytes);
    if (reusable != freeLarge.end() && reusable->first <= 2 * slotBytes) {
      slotBytes = reusable->first;
      auto old = largeBlocks.find(reusable->second);
      slot = old->second.slot;
      largeBlocks.erase(old);
      freeLarge.erase(reusable);
    } else {
      if (static_cast<uint64_t>(end - largeNext) < slotBytes + pageSize)
        return nullptr;
      slot = largeNext;
      largeNext += slotBytes + pageSize; // and a guard page
    }
    if (mprotect(slot, slotBytes, PROT_READ | PROT_WRITE) != 0)
      return nullptr;
    // The block ends as close to the guard page as its alignment allows, so
    // that a write far past it faults at once.
    uintptr_t last = reinterpret_cast<uintptr_t>(slot) + slotBytes -
                     kMinRedzoneBytes - bytes;
    char *user = reinterpret_cast<char *>(last / alignment * alignment);
    largeBlocks[user] = LargeBlock{slot, slotBytes, false};
    return makeBlock(slot, slotBytes, user, bytes);
  }

  void *makeBlock(char *slot, uint64_t slotBytes, char *user, uint64_t bytes) {
    auto *header = reinterpret_cast<BlockHeader *>(user - kHeaderBytes);
    std::memset(slot, kRedzoneByte, reinterpret_cast<char *>(header) - slot);
    header->check = kLiveCheck ^ reinterpret_cast<uintptr_t>(user);
    header->slot = slot;
    header->slotBytes = slotBytes;
    header->requested = bytes;
    std::memset(user + bytes, kRedzoneByte, slot + slotBytes - user - bytes);
    return user;
  }

  /// The live block at `pointer`'s header, its redzones checked; a fatal
  /// error otherwise.
  BlockHeader &checkedHeader(void *pointer, const char *function) {
    char *user = static_cast<char *>(pointer);
    std::string where = formatPointer(user);
    // Small slots are always accessible; a large block's header only while
    // the block is live, which its record says.
    bool readable =
        user < largeBegin
            ? user - begin >= static_cast<ptrdiff_t>(kHeaderBytes) &&
                  user < smallNext
            : largeBlocks.count(user) != 0;
    if (user >= largeBegin && readable && largeBlocks[user].freed)
      heapError(function,
                "double free: the block at " + where + " was already freed");
    auto *header = reinterpret_cast<BlockHeader *>(user - kHeaderBytes);
    uintptr_t key = reinterpret_cast<uintptr_t>(user);
    if (readable && header->check == (kFreedCheck ^ key))
      heapError(function,
                "double free: the block at " + where + " was already freed");
    if (!readable || header->check != (kLiveCheck ^ key) ||
        header->slot > user || header->slot + header->slotBytes < user)
      heapError(function, where +
                              " is not a pointer that malloc returned, or the "
                              "program wrote over the bytes just before it (" +
                              corruptionAdvice() + ")");
    char *slot = header->slot;
    char *slotEnd = slot + header->slotBytes;
    char *userEnd = user + header->requested;
    std::string block =
        "the " + std::to_string(header->requested) + "-byte block at " + where;
    for (char *c = userEnd; c < slotEnd; ++c)
      if (static_cast<unsigned char>(*c) != kRedzoneByte)
        heapError(function,
                  "heap corruption: the program wrote past the "
                  "end of " +
                      block + ": byte " + std::to_string(c - userEnd) +
                      " past its end was changed; " + corruptionAdvice());
    for (char *c = slot; c < reinterpret_cast<char *>(header); ++c)
      if (static_cast<unsigned char>(*c) != kRedzoneByte)
        heapError(function, "heap corruption: the program wrote before the "
                            "start of " +
                                block + "; " + corruptionAdvice());
    return *header;
  }

  const uint64_t pageSize;
  std::mutex mutex;
  char *begin = nullptr;
  char *end = nullptr;
  char *largeBegin = nullptr;
  char *smallNext = nullptr;
  char *largeNext = nullptr;
  std::vector<char *> freeSmall[kSmallClasses];
  struct LargeBlock {
    char *slot;
    uint64_t slotBytes;
    bool freed;
  };
  /// Large blocks by the pointer returned, live and freed (until reused).
  std::map<char *, LargeBlock> largeBlocks;
  /// Freed large blocks by slot size.
  std::multimap<uint64_t, char *> freeLarge;
};

/// Fails the free of `pointer` if it is device memory.
void checkNotDeviceMemory(void *pointer, const char *function) {
  std::string owner = getRuntime().describeDeviceMemory(pointer);
  if (!owner.empty())
    heapError(function, formatPointer(pointer) + " is device memory (" + owner +
                            "): free it with gpu.dealloc, not memref.dealloc "
                            "or free");
}

void *programMalloc(size_t bytes) {
  Heap &heap = Heap::get();
  if (!heap.usable()) {
    HeapCallScope scope("malloc");
    return std::malloc(bytes);
  }
  void *result = heap.allocate(bytes, 16);
  if (!result)
    errno = ENOMEM;
  return result;
}

void *programAlignedAlloc(size_t alignment, size_t bytes) {
  Heap &heap = Heap::get();
  if (!heap.usable()) {
    HeapCallScope scope("aligned_alloc");
    return std::aligned_alloc(alignment, bytes);
  }
  if (alignment == 0 || (alignment & (alignment - 1))) {
    errno = EINVAL;
    return nullptr;
  }
  void *result = heap.allocate(bytes, alignment);
  if (!result)
    errno = ENOMEM;
  return result;
}

void *programCalloc(size_t count, size_t bytes) {
  size_t total;
  if (__builtin_mul_overflow(count, bytes, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  void *result = programMalloc(total);
  if (result)
    std::memset(result, 0, total);
  return result;
}

int programPosixMemalign(void **result, size_t alignment, size_t bytes) {
  if (alignment < sizeof(void *) || (alignment & (alignment - 1)))
    return EINVAL;
  void *block = programAlignedAlloc(alignment, bytes);
  if (!block)
    return ENOMEM;
  *result = block;
  return 0;
}

void *programMemalign(size_t alignment, size_t bytes) {
  return programAlignedAlloc(alignment, bytes);
}

void programFree(void *pointer) { freeProgramMemory(pointer, "free"); }

void *programRealloc(void *pointer, size_t bytes) {
  Heap &heap = Heap::get();
  if (!pointer)
    return programMalloc(bytes);
  if (!heap.contains(pointer)) {
    checkNotDeviceMemory(pointer, "realloc");
    HeapCallScope scope("realloc");
    return std::realloc(pointer, bytes);
  }
  uint64_t old = heap.usableSize(pointer, "realloc");
  void *result = programMalloc(bytes);
  if (!result)
    return nullptr; // the old block stays, as realloc's contract says
  std::memcpy(result, pointer, std::min<uint64_t>(old, bytes));
  heap.free(pointer, "realloc");
  return result;
}

size_t programMallocUsableSize(void *pointer) {
  if (!pointer)
    return 0;
  Heap &heap = Heap::get();
  if (heap.contains(pointer))
    return heap.usableSize(pointer, "malloc_usable_size");
  HeapCallScope scope("malloc_usable_size");
  return malloc_usable_size(pointer);
}

} // namespace

std::vector<RuntimeSymbol> getProgramHeapSymbols() {
#ifdef GPU_RUNNER_ASAN
  return {};
#else
  return {
      {"malloc", reinterpret_cast<void *>(&programMalloc)},
      {"calloc", reinterpret_cast<void *>(&programCalloc)},
      {"realloc", reinterpret_cast<void *>(&programRealloc)},
      {"aligned_alloc", reinterpret_cast<void *>(&programAlignedAlloc)},
      {"posix_memalign", reinterpret_cast<void *>(&programPosixMemalign)},
      {"memalign", reinterpret_cast<void *>(&programMemalign)},
      {"malloc_usable_size",
       reinterpret_cast<void *>(&programMallocUsableSize)},
      {"free", reinterpret_cast<void *>(&programFree)},
  };
#endif
}

void freeProgramMemory(void *pointer, const char *loc) {
  if (!pointer)
    return;
#ifndef GPU_RUNNER_ASAN
  Heap &heap = Heap::get();
  if (heap.contains(pointer)) {
    heap.free(pointer, loc);
    return;
  }
#endif
  checkNotDeviceMemory(pointer, loc);
  // The C library's memory (strdup, a library's allocation), or the
  // sanitizer's.
  HeapCallScope scope("free");
  std::free(pointer);
}

const char *programHeapCall() { return heapCall; }

bool isInProgramHeap(const void *pointer) {
#ifdef GPU_RUNNER_ASAN
  (void)pointer;
  return false;
#else
  return Heap::get().contains(pointer);
#endif
}

std::optional<uint64_t> getProgramHeapBlockBytes(const void *pointer) {
#ifdef GPU_RUNNER_ASAN
  // The program's malloc is the sanitizer's.
  if (pointer && __sanitizer_get_ownership(pointer))
    return __sanitizer_get_allocated_size(pointer);
  return std::nullopt;
#else
  Heap &heap = Heap::get();
  if (!heap.contains(pointer))
    return std::nullopt;
  return heap.getBlockBytes(pointer);
#endif
}

} // namespace gpu_runner
