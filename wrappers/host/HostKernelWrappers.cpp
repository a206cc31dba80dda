//===- HostKernelWrappers.cpp - Kernels of the host backend, in C ---------===//
//
// The extern "C" functions of HostKernelAbi.def, by which kernels compiled
// into the program are launched, reach their barriers and shuffles and fail
// their assertions, and the host backend's runtime (a HostRuntime). Barriers
// and shuffles go straight to the calling fiber's block.
//
//===----------------------------------------------------------------------===//

#include "wrappers/HostKernelAbi.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/RunRecord.h"
#include "wrappers/common/CheckReports.h"
#include "wrappers/common/FaultHandler.h"
#include "wrappers/common/ProgramHeap.h"
#include "wrappers/common/RuntimeError.h"
#include "wrappers/host/Fibers.h"
#include "wrappers/host/HostKernels.h"
#include "wrappers/host/HostRuntime.h"
#include "wrappers/host/WorkgroupChecks.h"

#include <vector>

using namespace gpu_runner;

namespace {

/// Never destroyed: at exit, other threads (the program's, or workers the
/// program never let finish) may still call in, and static destructors run
/// in no useful order. finalizeBackend does the orderly shutdown.
HostRuntime &runtime() {
  static HostRuntime *instance = new HostRuntime();
  return *instance;
}

void check(const Status &status, const char *loc) {
  reportIfError(status, loc);
}

/// The context of a GPU thread that runs on a fiber; anything else reaching
/// a barrier or shuffle is a bug of the lowering.
HostKernelContext *fiberContext(void *context, const char *loc,
                                const char *op) {
  auto *threadContext = static_cast<HostKernelContext *>(context);
  if (!threadContext || !threadContext->runtime)
    reportFatalError(loc && *loc ? loc : op,
                     "a kernel launched without fibers reached this op: a "
                     "bug of the host kernel lowering, which launches every "
                     "kernel with barriers or shuffles with "
                     "kHostKernelUsesFibers");
  return threadContext;
}

/// "(x, y, z)".
std::string formatIds(const int64_t *id) {
  return "(" + std::to_string(id[0]) + ", " + std::to_string(id[1]) + ", " +
         std::to_string(id[2]) + ")";
}

/// "kernel 'NAME', block (x, y, z), thread (x, y, z)": the running kernel's
/// thread that calls.
std::string describeThread(int64_t threadX, int64_t threadY, int64_t threadZ,
                           int64_t blockX, int64_t blockY, int64_t blockZ) {
  const char *kernel = runningKernel().name;
  int64_t thread[3] = {threadX, threadY, threadZ};
  int64_t block[3] = {blockX, blockY, blockZ};
  return "kernel '" + std::string(kernel ? kernel : "(unknown)") + "', block " +
         formatIds(block) + ", thread " + formatIds(thread);
}

/// A kernel's access, as mgpuHostCheckAccessAt describes it.
struct KernelAccess {
  const char *address;
  int64_t bytes;
  bool isStore;
  bool isAtomic;
  HostAccessMemory memory;
  const char *what() const { return isStore ? "store" : "load"; }
};

/// memcheck: what is wrong with the access's indices or alignment, as
/// "<what>: <why>", or an empty string.
std::string findBadIndexOrAlignment(const KernelAccess &access,
                                    int32_t alignment, int32_t badDimension,
                                    int64_t badIndex, int64_t badSize) {
  const char *what = access.what();
  if (badDimension >= 0)
    return std::string("out-of-bounds ") + what + ": index " +
           std::to_string(badIndex) + " of dimension " +
           std::to_string(badDimension) + " is outside [0, " +
           std::to_string(badSize) + "), the memref's size there";
  auto offset =
      reinterpret_cast<uintptr_t>(access.address) % uintptr_t(alignment);
  if (alignment > 1 && offset != 0)
    return std::string("misaligned ") + what + ": address " +
           formatPointer(access.address) + " is " + std::to_string(offset) +
           " bytes past a multiple of " + std::to_string(alignment) +
           (alignment == 32
                ? ", which a warp matrix's first element must be at in "
                  "global memory (CUDA C++ Programming Guide, Warp Matrix "
                  "Functions: \"mptr must be a 256-bit aligned pointer\")"
                : ", the alignment a GPU requires of an access of " +
                      std::to_string(alignment) +
                      " bytes (PTX ISA, ld and st: the address must be "
                      "naturally aligned); a GPU fails with a misaligned "
                      "address");
  return std::string();
}

/// The live device allocation the access lies in: one of the last few the
/// calling thread found (while no allocation was freed since, they need no
/// lock), else from the allocation table. Null for memory outside the
/// device arena, and for an access there that is not fine, which `problem`
/// then describes as "invalid <what>: <why>".
const DeviceMemory::AccessRange *findDeviceRange(const KernelAccess &access,
                                                 std::string &problem) {
  constexpr size_t kKeptRanges = 4;
  thread_local DeviceMemory::AccessRange ranges[kKeptRanges];
  thread_local size_t nextRange = 0;
  DeviceMemory &memory = runtime().memory();
  auto begin = reinterpret_cast<uintptr_t>(access.address);
  auto bytes = static_cast<uint64_t>(access.bytes);
  uint64_t lifeChanges = memory.getLifeChanges();
  for (const DeviceMemory::AccessRange &range : ranges)
    if (begin >= range.begin && begin < range.end &&
        bytes <= range.end - begin && range.lifeChanges == lifeChanges)
      return &range;
  if (!memory.isDeviceMemory(access.address))
    return nullptr;
  DeviceMemory::AccessRange &range = ranges[nextRange];
  nextRange = (nextRange + 1) % kKeptRanges;
  Status status =
      memory.checkAccess(access.address, bytes, access.what(), range);
  if (!status.ok()) {
    problem = std::string("invalid ") + access.what() + ": " + status.message();
    return nullptr;
  }
  return &range;
}

/// memcheck: a kernel argument outside device memory, which must be
/// registered host memory; an empty string when it is.
std::string findUnreachableHostMemory(const KernelAccess &access) {
  if (runtime().registry().contains(access.address,
                                    static_cast<uint64_t>(access.bytes)))
    return std::string();
  return std::string("invalid ") + access.what() + ": " +
         formatPointer(access.address) + " is host memory" +
         (isInProgramHeap(access.address)
              ? " (the program's heap: memref.alloc or malloc)"
              : "") +
         ", given to the kernel as an argument; a GPU reaches only device "
         "memory (gpu.alloc), host_shared memory and host memory registered "
         "with gpu.host_register, and faults on any other address (an "
         "illegal address): copy the data to device memory with gpu.memcpy";
}

/// initcheck of device memory: a load of bytes nothing wrote is reported;
/// a store marks its bytes written.
template <typename DescribeThread>
void checkDeviceInit(const KernelAccess &access,
                     const DeviceMemory::AccessRange &range,
                     const DescribeThread &where, const char *loc) {
  uint64_t offset = reinterpret_cast<uintptr_t>(access.address) - range.begin;
  auto bytes = static_cast<uint64_t>(access.bytes);
  if (!access.isStore || access.isAtomic) {
    uint64_t first =
        DeviceMemory::findUnwritten(range.writtenBits, offset, bytes);
    if (first != offset + bytes) {
      std::string allocation = runtime().memory().describe(access.address);
      reportCheckError(
          Check::Initcheck, loc,
          std::string("uninitialized ") + access.what() + " in " + where() +
              ": byte " + std::to_string(first) + " of " + allocation +
              " was never written (no gpu.memset, gpu.memcpy or store since "
              "gpu.alloc); a GPU's new memory holds whatever was there",
          allocation);
    }
  }
  if (access.isStore)
    DeviceMemory::setWritten(range.writtenBits, offset, bytes);
}

/// The bytes in [begin, end) that do not hold the private memory margins'
/// pattern, as offsets from `origin` ("bytes 4 to 1", "byte 0"), or empty.
std::string describeChangedBytes(const char *begin, const char *end,
                                 const char *origin, bool before) {
  const char *first = nullptr;
  const char *last = nullptr;
  for (const char *p = begin; p < end; ++p)
    if (static_cast<unsigned char>(*p) != kHostPrivateMemoryPattern) {
      if (!first)
        first = p;
      last = p;
    }
  if (!first)
    return "";
  size_t from = before ? origin - first : first - origin;
  size_t to = before ? origin - last : last - origin;
  if (from == to)
    return "byte " + std::to_string(from);
  return "bytes " + std::to_string(from) + " to " + std::to_string(to);
}

/// The JIT'd program's abort(), which a failed cf.assert lowered by upstream
/// (in input already in the LLVM dialect) calls once it has printed its
/// message: an error with status 1 that says where it happened, instead of
/// a crash. gpu-runner's own lowering of cf.assert reports at the op.
[[noreturn]] void programAbort() {
  const RunningKernel &kernel = runningKernel();
  const char *cause = "a failed cf.assert (its message is printed above) or "
                      "a call of abort()";
  if (!kernel.name)
    reportFatalError(nullptr, std::string("the program aborted: ") + cause);
  std::string where = "block " + formatIds(kernel.blockId);
  if (kernel.threadId)
    where += ", thread " + formatIds(kernel.threadId);
  reportFatalError(kernel.launchLoc ? kernel.launchLoc : "gpu.launch_func",
                   "kernel '" + std::string(kernel.name) + "' aborted in " +
                       where + ": " + cause);
}

} // namespace

namespace gpu_runner {

Backend getBackend() { return Backend::Host; }

Runtime &getRuntime() { return runtime(); }

std::vector<RuntimeSymbol> getKernelAbiSymbols() {
  return {
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, reinterpret_cast<void *>(&NAME)},
#include "wrappers/HostKernelAbi.def"
      // The program's own abort(), so that a failed assertion is an error.
      {"abort", reinterpret_cast<void *>(&programAbort)},
  };
}

} // namespace gpu_runner

extern "C" {

//===----------------------------------------------------------------------===//
// Kernels compiled for the host (HostKernelAbi.def).
//===----------------------------------------------------------------------===//

void mgpuLaunchHostKernelAt(void *entry, int64_t clusterX, int64_t clusterY,
                            int64_t clusterZ, int64_t gridX, int64_t gridY,
                            int64_t gridZ, int64_t blockX, int64_t blockY,
                            int64_t blockZ, int64_t dynamicSharedBytes,
                            int64_t staticSharedBytes, int32_t flags,
                            void *args, int64_t argsBytes, void *stream,
                            const char *kernelName, const char *loc) {
  // The name and the arguments are the program's memory, read here.
  RunningOpScope running(loc);
  KernelLaunch launch;
  launch.entry = reinterpret_cast<HostKernelEntry>(entry);
  launch.cluster[0] = clusterX;
  launch.cluster[1] = clusterY;
  launch.cluster[2] = clusterZ;
  launch.grid[0] = gridX;
  launch.grid[1] = gridY;
  launch.grid[2] = gridZ;
  launch.block[0] = blockX;
  launch.block[1] = blockY;
  launch.block[2] = blockZ;
  launch.dynamicSharedBytes = dynamicSharedBytes;
  launch.staticSharedBytes = staticSharedBytes;
  launch.flags = flags;
  launch.name = kernelName && *kernelName ? kernelName : "(unnamed)";
  RecordedOp record("gpu.launch_func", loc, RecordKind::Launch, stream);
  record.setLaunch(launch.name.c_str(), launch.grid, launch.block,
                   dynamicSharedBytes);
  check(runtime().launchKernel(launch, args, argsBytes, stream, loc), loc);
}

void mgpuHostBarrierAt(void *context, const char *loc) {
  FiberBlock::barrier(fiberContext(context, loc, "gpu.barrier"), loc);
}

uint64_t mgpuHostShuffleAt(void *context, uint64_t value, int32_t sourceLane,
                           int32_t width, const char *loc) {
  return FiberBlock::shuffle(fiberContext(context, loc, "gpu.shuffle"), value,
                             sourceLane, width, loc);
}

uint64_t mgpuHostBroadcastAt(void *context, uint64_t value, int32_t sourceLane,
                             const char *loc) {
  return FiberBlock::broadcast(
      fiberContext(context, loc, "gpu.subgroup_broadcast"), value, sourceLane,
      loc);
}

void mgpuHostSubgroupGatherAt(void *context, void *slice, void *gathered,
                              int64_t sliceBytes, const char *loc) {
  FiberBlock::gather(fiberContext(context, loc, "gpu.subgroup_mma_compute"),
                     slice, gathered, sliceBytes, loc);
}

void mgpuHostMmaFailAt(int32_t reason, int64_t value, int64_t limit,
                       int64_t threadX, int64_t threadY, int64_t threadZ,
                       int64_t blockX, int64_t blockY, int64_t blockZ,
                       const char *loc) {
  std::string where =
      describeThread(threadX, threadY, threadZ, blockX, blockY, blockZ) + ": ";
  if (reason == 0)
    reportFatalError(
        loc, where + "the thread's subgroup has " + std::to_string(value) +
                 " of " + std::to_string(limit) +
                 " lanes (the block's size is not a multiple of " +
                 std::to_string(limit) +
                 "); warp matrix operations need every lane of the "
                 "subgroup, as on a GPU, where they \"must be called by all "
                 "threads in the warp\" (CUDA C++ Programming Guide, Warp "
                 "Matrix Functions)");
  reportFatalError(loc, where + "index " + std::to_string(value) +
                            " is outside [0, " + std::to_string(limit) +
                            "), the lane's part of the matrix: each of the " +
                            std::to_string(kHostSubgroupSize) +
                            " lanes holds " + std::to_string(limit) +
                            " of its elements");
}

void mgpuHostAssertFailAt(void *context, int64_t threadX, int64_t threadY,
                          int64_t threadZ, const char *message,
                          const char *file, int32_t line,
                          const char *function) {
  AssertionFailure failure;
  failure.threadId[0] = threadX;
  failure.threadId[1] = threadY;
  failure.threadId[2] = threadZ;
  failure.message = message;
  failure.file = file;
  failure.line = line;
  failure.function = function;
  // No block starts after this one; the failed threads print once their
  // block has finished (HostKernels.h).
  stopGridAfterAssertion();
  auto *threadContext = static_cast<HostKernelContext *>(context);
  if (threadContext && threadContext->runtime)
    FiberBlock::failAssertion(threadContext, failure);
  BlockRunner::failAssertion(failure);
}

void mgpuHostCheckAccessAt(intptr_t address, int64_t bytes, int32_t alignment,
                           int32_t flags, int32_t badDimension,
                           int64_t badIndex, int64_t badSize, int64_t threadX,
                           int64_t threadY, int64_t threadZ, int64_t blockX,
                           int64_t blockY, int64_t blockZ, intptr_t loc) {
  KernelAccess access{reinterpret_cast<const char *>(address), bytes,
                      (flags & 1) != 0, (flags & 16) != 0,
                      static_cast<HostAccessMemory>((flags >> 1) & 7)};
  const char *locString = reinterpret_cast<const char *>(loc);
  auto where = [&] {
    return describeThread(threadX, threadY, threadZ, blockX, blockY, blockZ);
  };
  auto fail = [&](std::string problem) {
    reportFatalCheckError(Check::Memcheck, locString,
                          problem.insert(problem.find(':'), " in " + where()));
  };
  bool memcheck = isCheckEnabled(Check::Memcheck);
  if (memcheck) {
    if (std::string problem = findBadIndexOrAlignment(
            access, alignment, badDimension, badIndex, badSize);
        !problem.empty())
      fail(std::move(problem));
  } else if (badDimension >= 0) {
    return; // outside its memref: nothing the other checks can tell
  }

  bool global = access.memory == HostAccessMemory::Global;
  bool unknown = access.memory == HostAccessMemory::Unknown;
  if (global || unknown) {
    std::string problem;
    const DeviceMemory::AccessRange *range = findDeviceRange(access, problem);
    if (!problem.empty()) {
      if (memcheck)
        fail(std::move(problem));
      return;
    }
    if (!range && global && memcheck)
      if (std::string host = findUnreachableHostMemory(access); !host.empty())
        fail(std::move(host));
    if (range && range->writtenBits)
      checkDeviceInit(access, *range, where, locString);
  }
  if (global)
    return;
  WorkgroupShadow *shadow = WorkgroupShadow::current();
  if (!shadow)
    return;
  int64_t thread[3] = {threadX, threadY, threadZ};
  WorkgroupShadow::Finding finding =
      shadow->access(access.address, bytes, access.isStore, access.isAtomic,
                     thread, locString);
  if (finding.detail.empty())
    return;
  int64_t block[3] = {blockX, blockY, blockZ};
  const char *kernel = runningKernel().name;
  reportCheckError(
      finding.race ? Check::Racecheck : Check::Initcheck, locString,
      finding.what + " in kernel '" + (kernel ? kernel : "(unknown)") +
          "', block " + formatIds(block) + ": " + finding.detail,
      finding.what + (finding.otherLoc ? finding.otherLoc : ""));
}

void mgpuHostCheckUnseenWritesAt(intptr_t address, int64_t bytes,
                                 int64_t threadX, int64_t threadY,
                                 int64_t threadZ, int64_t blockX,
                                 int64_t blockY, int64_t blockZ) {
  if (threadX != 0 || threadY != 0 || threadZ != 0)
    return;
  if (WorkgroupShadow *shadow = WorkgroupShadow::current())
    shadow->stopInitcheck();
  if (blockX == 0 && blockY == 0 && blockZ == 0 && bytes > 0)
    runtime().memory().markWritten(reinterpret_cast<const void *>(address),
                                   static_cast<uint64_t>(bytes));
}

void mgpuHostCheckBarrierAt(int64_t threadX, int64_t threadY, int64_t threadZ) {
  if (WorkgroupShadow *shadow = WorkgroupShadow::current()) {
    int64_t thread[3] = {threadX, threadY, threadZ};
    shadow->passBarrier(thread);
  }
}

void mgpuHostCheckHostAccessAt(intptr_t address, int32_t access, intptr_t loc) {
  const auto *pointer = reinterpret_cast<const void *>(address);
  const char *locString = reinterpret_cast<const char *>(loc);
  if (isCheckEnabled(Check::Memcheck)) {
    std::string memory = runtime().memory().describeHostAccess(pointer);
    if (!memory.empty()) {
      static const char *const kWhat[] = {
          "host code reads device memory", "host code writes device memory",
          "host code passes device memory to a function"};
      reportFatalCheckError(
          Check::Memcheck, locString,
          std::string(kWhat[access < 0 || access > 2 ? 0 : access]) + ": " +
              memory +
              "; on a GPU, the host cannot touch device memory (it faults): "
              "copy the data with gpu.memcpy, or allocate it with gpu.alloc "
              "host_shared");
    }
  }
  // A write, or a function handed the memory, which may write it: the
  // allocation counts as written (only host_shared memory gets here under
  // memcheck), as the check is not told which bytes.
  if (access != 0 && isCheckEnabled(Check::Initcheck))
    runtime().memory().markAllocationWritten(pointer);
  if (!isCheckEnabled(Check::Racecheck))
    return;
  // A function handed the memory is taken to read it.
  bool write = access == 1;
  if (const char *other = runtime().hazards().findHazard(pointer, write))
    reportCheckError(
        Check::Racecheck, locString,
        std::string("host code ") + (write ? "writes" : "reads") +
            " memory that " + describeOp(other) +
            " accesses on a stream, and nothing waited for it since: on a "
            "GPU the " +
            opName(other) +
            " may not have run yet (a gpu.wait on its token would order "
            "the two)",
        other);
}

void mgpuHostPrivateMemoryOutOfBounds(const char *array, int64_t bytes,
                                      int64_t marginBytes, int64_t threadX,
                                      int64_t threadY, int64_t threadZ,
                                      int64_t blockX, int64_t blockY,
                                      int64_t blockZ) {
  const RunningKernel &kernel = runningKernel();
  const char *end = array + bytes;
  std::string changed;
  std::string before =
      describeChangedBytes(array - marginBytes, array, array, true);
  if (!before.empty())
    changed = before + " before the start";
  std::string after = describeChangedBytes(end, end + marginBytes, end, false);
  if (!after.empty())
    changed += (changed.empty() ? "" : " and ") + after + " past the end";
  int64_t thread[3] = {threadX, threadY, threadZ};
  int64_t block[3] = {blockX, blockY, blockZ};
  reportFatalError(
      kernel.launchLoc ? kernel.launchLoc : "gpu.launch_func",
      "kernel '" + std::string(kernel.name ? kernel.name : "(unknown)") +
          "': private memory written out of bounds in block " +
          formatIds(block) + ", thread " + formatIds(thread) +
          ": a store changed " + changed + " of an array of " +
          std::to_string(bytes) +
          " bytes on the thread's stack; run with --check-bounds to find "
          "the store");
}

} // extern "C"
