//===- KernelRuntime.h - A launch run on the CPU --------------------------===//
//
// One launch of a compiled kernel (GridRun): its sizes, a copy of its
// parameters, the memory it may reach besides its device's arena, and how
// it ended. runGrid runs its blocks on a small pool of worker threads, each
// block on one worker (BlockThreads); KernelRuntime.cpp also defines the
// runtime functions rewritten kernels call (KernelAbi.h).
//
// The first failure of a thread (an illegal address, trap, a misused warp
// or barrier instruction, a deadlock) fails the grid: no block starts after
// it, and the blocks running stop at their next call into the runtime or
// check of an address. A failed assertion lets its block finish, as the
// host backend does, and stops the grid after it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_KERNELRUNTIME_H
#define GPU_RUNNER_STANDIN_KERNELRUNTIME_H

#include "standin/Error.h"
#include "standin/KernelCompiler.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gpu_runner {
namespace standin {

/// Host ranges a kernel may reach: managed memory and registrations, as
/// they were when the launch was made.
struct ReachableMemory {
  uintptr_t managedBase = 0;
  uint64_t managedSize = 0;
  struct Range {
    uintptr_t begin = 0;
    uint64_t bytes = 0;
    bool readOnly = false;
  };
  /// Sorted by begin.
  std::vector<Range> registrations;
};

struct GridRun {
  std::shared_ptr<const KernelProgram> program;
  const CompiledKernel *kernel = nullptr;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  /// Blocks per cluster; explicit when the launch asked for clusters.
  uint32_t cluster[3] = {1, 1, 1};
  bool explicitCluster = false;
  uint64_t dynamicSharedBytes = 0;
  /// The parameters' values, copied at the launch, and pointers to each.
  std::vector<uint64_t> paramStorage;
  std::vector<void *> params;
  ReachableMemory memory;
  /// A number for %gridid.
  uint64_t gridId = 0;

  uint64_t blockCount() const { return uint64_t(grid[0]) * grid[1] * grid[2]; }

  //===--------------------------------------------------------------------===//
  // Progress, and how it ended.
  //===--------------------------------------------------------------------===//

  std::atomic<uint64_t> nextBlock{0};
  /// Set by the first failure, or after a block with a failed assertion:
  /// no block starts after it.
  std::atomic<bool> stopped{false};
  /// Set by a failure that ends every thread at once.
  std::atomic<bool> failed{false};

  /// Fails the grid with `error` (IllegalAddress, LaunchFailed, ...) unless
  /// it failed already; `report` is printed on stderr once the grid ends.
  void fail(Error failure, const std::string &text);
  /// A block ended with failed assertions (their lines in `lines`).
  void failAssertions(uint64_t block, std::string lines);
  /// What a block printed, on stdout and on stderr.
  void addOutput(uint64_t block, std::string text, std::string errorText);

  std::mutex mutex;
  Error error = Error::Success;
  std::string report;
  /// printf's text (stdout, stderr) and the assertion lines, by block.
  std::map<uint64_t, std::string> output;
  std::map<uint64_t, std::string> errorOutput;
  std::map<uint64_t, std::string> assertions;
};

/// Runs every block of `grid` on the worker pool, and returns once all have
/// ended or the grid failed.
void runGrid(GridRun &grid);

class ThreadSlot;

/// wmma.mma.sync of a whole warp, the lanes waiting at it in lane order.
void runWmma(ThreadSlot *const lanes[kWarpSize]);

/// The runtime functions rewritten code calls, by name and address.
struct RuntimeSymbol {
  const char *name;
  void *address;
};
std::vector<RuntimeSymbol> getRuntimeSymbols();

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_KERNELRUNTIME_H
