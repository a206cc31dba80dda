//===- WorkgroupChecks.cpp - racecheck and initcheck of workgroup memory --===//

#include "wrappers/host/WorkgroupChecks.h"

#include "wrappers/common/RuntimeError.h"

#include <algorithm>

namespace gpu_runner {

namespace {

thread_local WorkgroupShadow *currentShadow = nullptr;

} // namespace

WorkgroupShadow *WorkgroupShadow::current() { return currentShadow; }

void WorkgroupShadow::setCurrent(WorkgroupShadow *shadow) {
  currentShadow = shadow;
}

void WorkgroupShadow::beginBlock(const char *blockBase, size_t blockBytes,
                                 const int64_t *dim, bool races, bool init) {
  checkRaces = races;
  checkInit = init;
  base = blockBase;
  bytes = blockBytes;
  for (int i = 0; i < 3; ++i)
    blockDim[i] = dim[i];
  // Stamp 0 means never: the first block is serial 1.
  if (++serial == 0) {
    serial = 1;
    std::fill(state.begin(), state.end(), ByteState());
  }
  if (state.size() < bytes)
    state.resize(bytes);
  intervals.assign(static_cast<size_t>(dim[0] * dim[1] * dim[2]), 0);
}

uint32_t WorkgroupShadow::linearId(const int64_t *thread) const {
  return static_cast<uint32_t>(
      thread[0] + blockDim[0] * (thread[1] + blockDim[1] * thread[2]));
}

std::string WorkgroupShadow::describeThread(uint32_t linear) const {
  int64_t x = linear % blockDim[0];
  int64_t y = linear / blockDim[0] % blockDim[1];
  int64_t z = linear / blockDim[0] / blockDim[1];
  return "thread (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
         std::to_string(z) + ")";
}

void WorkgroupShadow::passBarrier(const int64_t *thread) {
  uint32_t linear = linearId(thread);
  if (linear < intervals.size())
    ++intervals[linear];
}

WorkgroupShadow::Finding
WorkgroupShadow::access(const char *address, int64_t accessBytes, bool isStore,
                        bool isAtomic, const int64_t *thread, const char *loc) {
  Finding finding;
  if (address < base || accessBytes <= 0 ||
      static_cast<size_t>(address - base) >= bytes)
    return finding;
  size_t begin = static_cast<size_t>(address - base);
  size_t end = std::min(bytes, begin + static_cast<size_t>(accessBytes));
  uint32_t self = linearId(thread);
  if (self >= intervals.size())
    return finding;
  uint64_t stamp = uint64_t(serial) << 32 | intervals[self];
  auto range = [&] {
    return "bytes [" + std::to_string(begin) + ", " + std::to_string(end) +
           ") of workgroup memory";
  };

  bool reads = !isStore || isAtomic;
  for (size_t offset = begin; offset < end && finding.detail.empty();
       ++offset) {
    ByteState &byte = state[offset];
    if (checkInit && reads && byte.writtenIn != serial) {
      finding.what = isAtomic ? "uninitialized atomic" : "uninitialized load";
      finding.detail = describeThread(self) + " reads " + range() +
                       " that no thread of the block wrote: a GPU's "
                       "workgroup memory holds whatever was there before "
                       "the block";
      break;
    }
    if (isAtomic || !checkRaces)
      continue;
    const char *hazard = nullptr;
    std::string other;
    const char *otherLoc = nullptr;
    if (byte.writeStamp == stamp && byte.writer != self) {
      hazard = isStore ? "write-after-write" : "read-after-write";
      other = describeThread(byte.writer) + " wrote";
      otherLoc = byte.writeLoc;
    } else if (isStore && byte.readStamp == stamp &&
               (byte.reader != self || byte.manyReaders)) {
      hazard = "write-after-read";
      other = byte.reader != self ? describeThread(byte.reader) + " read"
                                  : std::string("other threads read");
      otherLoc = byte.readLoc;
    }
    if (hazard) {
      finding.race = true;
      finding.otherLoc = otherLoc;
      finding.what = std::string(hazard) + " hazard";
      finding.detail = describeThread(self) + " " +
                       (isStore ? "writes " : "reads ") + range() + ", which " +
                       other + " at " + describeOp(otherLoc) +
                       " since the last barrier: nothing orders the two on "
                       "a GPU (a gpu.barrier between them would)";
    }
  }
  // Recorded whatever was found, so that one hazard is reported once.
  for (size_t offset = begin; offset < end; ++offset) {
    ByteState &byte = state[offset];
    if (isStore) {
      byte.writtenIn = serial;
      if (!isAtomic) {
        byte.writeStamp = stamp;
        byte.writer = self;
        byte.writeLoc = loc;
      }
    } else if (!isAtomic) {
      if (byte.readStamp != stamp) {
        byte.readStamp = stamp;
        byte.reader = self;
        byte.readLoc = loc;
        byte.manyReaders = false;
      } else if (byte.reader != self) {
        byte.manyReaders = true;
      }
    }
  }
  return finding;
}

} // namespace gpu_runner
