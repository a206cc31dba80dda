//===- WorkgroupMemory.h - A block's workgroup memory, fenced -------------===//
//
// The workgroup memory of the blocks that one BlockRunner runs. It lies in a
// mapping of its own, never in the runner's heap, so that a kernel's stray
// store cannot damage gpu-runner's own data:
//
//   [guard: PROT_NONE][far margin | margin | block's bytes | margin][guard]
//
// The accessible pages hold the block's bytes, at their end, and margins
// filled with a pattern (kPattern) around them: kMarginBytes before, and
// less than 128 after, up to the guard. check() runs once per block and
// reports a changed byte of those as a store out of bounds; checkFar(),
// once a runner has run its blocks of a grid, the rest of the pages before
// them (the far margin, up to a page), which only a store more than
// kMarginBytes before the start reaches: comparing a page after every
// block would cost a short block more than it runs. An access past a margin
// faults in a guard, which the fault handler reports as an access out of
// bounds of workgroup memory (RunningKernel's workgroup fields). A block
// without workgroup memory gets a pointer into the middle of a guard: any
// access through it within half a guard (128 KiB) faults, and there is
// nothing to check.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOST_WORKGROUPMEMORY_H
#define GPU_RUNNER_WRAPPERS_HOST_WORKGROUPMEMORY_H

#include "wrappers/common/RuntimeError.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpu_runner {

class WorkgroupMemory {
public:
  /// The most bytes a block may have (kMaxSharedMemoryBytes), and the
  /// padding of the static part before the dynamic one.
  static constexpr size_t kMaxBytes = 232448 + 15;
  /// Inaccessible bytes on each side of the accessible pages.
  static constexpr size_t kGuardBytes = 256 * 1024;
  /// Pattern bytes checked after every block before the block's bytes; at
  /// least as many (and fewer than 128) lie after them, up to the guard.
  static constexpr size_t kMarginBytes = 64;
  /// What the margins hold.
  static constexpr unsigned char kPattern = 0xa5;

  WorkgroupMemory() = default;
  ~WorkgroupMemory();
  WorkgroupMemory(const WorkgroupMemory &) = delete;
  WorkgroupMemory &operator=(const WorkgroupMemory &) = delete;

  /// Makes `bytes` (at most kMaxBytes) of workgroup memory ready for the
  /// next blocks, 64-byte aligned, not zero-filled (as on a GPU): the
  /// contents are kept while the size stays the same. Maps the memory at
  /// the first call; fails only when mmap or mprotect does.
  Status prepare(size_t bytes) {
    // Every block calls it: the same size as the last costs a compare.
    if (bytes == laidOutBytes && bytes != 0) {
      area = laidOutArea;
      areaBytes = bytes;
      return Status();
    }
    return layOut(bytes);
  }

  /// The block's bytes, valid after prepare().
  char *data() const { return area; }
  size_t size() const { return areaBytes; }

  /// Whether the margins still hold the pattern. If not, the message says
  /// which bytes changed, relative to the block's bytes ("bytes 4 to 1
  /// before the start of the block's 64 bytes of workgroup memory"), and the
  /// margins are filled again.
  Status check();
  /// The same for the far margin (as a message relative to the block's
  /// bytes of the last size prepared), and then the margins all around.
  Status checkFar();

  /// The whole mapping, guards included: an access there is out of bounds
  /// of the block's workgroup memory, or within it.
  const char *reservedBegin() const { return mapping; }
  const char *reservedEnd() const {
    return mapping ? mapping + mappingBytes : nullptr;
  }

private:
  Status reserve();
  Status layOut(size_t bytes);
  void fillMargins();
  /// The error for the changed bytes from `from` to the end of the pages;
  /// fills the margins again.
  Status describeChanges(const char *from);

  char *mapping = nullptr;
  size_t mappingBytes = 0;
  /// First accessible byte, and how many are accessible.
  char *accessible = nullptr;
  size_t accessibleBytes = 0;
  /// The bytes the margins were last filled around (0: never).
  size_t laidOutBytes = 0;
  char *laidOutArea = nullptr;
  char *area = nullptr;
  size_t areaBytes = 0;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOST_WORKGROUPMEMORY_H
