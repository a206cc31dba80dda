//===- HostKernelAbi.h - What a kernel run on the CPU receives ------------===//
//
// Every kernel function the host backend runs receives a pointer to a
// HostKernelContext, which the lowering reads as an array of 8-byte slots
// (HostKernelContextSlot) and the runtime fills in.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HOSTKERNELABI_H
#define GPU_RUNNER_WRAPPERS_HOSTKERNELABI_H

#include <cstddef>
#include <cstdint>

namespace gpu_runner {

/// Subgroup (warp) size of kernels run on the host, as on NVIDIA GPUs.
constexpr int64_t kHostSubgroupSize = 32;

/// `flags` of mgpuLaunchHostKernelAt.
enum HostKernelFlags : int32_t {
  /// Each GPU thread is a fiber (the kernel has barriers or shuffles).
  kHostKernelUsesFibers = 1,
  /// Without fibers: the kernel has a cf.assert, and its loops over the
  /// block's threads start at `threadId` (x, then y, then z, in row-major
  /// order), so that the block can go on after a thread that failed one.
  kHostKernelResumesAfterAssertions = 2,
};

struct HostKernelContext {
  /// The GPU thread's id in its block: set with kHostKernelUsesFibers only.
  /// With kHostKernelResumesAfterAssertions, the thread the block's loops
  /// start at instead ((0, 0, 0), or the one after a failed assertion).
  int64_t threadId[3];
  int64_t blockId[3];
  int64_t blockDim[3];
  int64_t gridDim[3];
  /// The block's workgroup memory: the static attributions, then the
  /// dynamic part at `dynamicSharedMemory`, 16-byte aligned.
  void *sharedMemory;
  void *dynamicSharedMemory;
  int64_t dynamicSharedBytes;
  /// Blocks per thread block cluster in each dimension: (1, 1, 1) for a
  /// launch without clusters, as CUDA reports it.
  int64_t clusterDim[3];
  /// The runtime's own state for the thread; the lowering never reads it.
  void *runtime;
};

/// Index of each field's first 8-byte slot, as the lowering addresses them.
enum HostKernelContextSlot : int32_t {
  kContextThreadId = 0,
  kContextBlockId = 3,
  kContextBlockDim = 6,
  kContextGridDim = 9,
  kContextSharedMemory = 12,
  kContextDynamicSharedMemory = 13,
  kContextDynamicSharedBytes = 14,
  kContextClusterDim = 15,
  kContextSlotCount = 19,
};

static_assert(offsetof(HostKernelContext, threadId) == 8 * kContextThreadId);
static_assert(offsetof(HostKernelContext, blockId) == 8 * kContextBlockId);
static_assert(offsetof(HostKernelContext, blockDim) == 8 * kContextBlockDim);
static_assert(offsetof(HostKernelContext, gridDim) == 8 * kContextGridDim);
static_assert(offsetof(HostKernelContext, sharedMemory) ==
              8 * kContextSharedMemory);
static_assert(offsetof(HostKernelContext, dynamicSharedMemory) ==
              8 * kContextDynamicSharedMemory);
static_assert(offsetof(HostKernelContext, dynamicSharedBytes) ==
              8 * kContextDynamicSharedBytes);
static_assert(offsetof(HostKernelContext, clusterDim) ==
              8 * kContextClusterDim);
static_assert(sizeof(HostKernelContext) == 8 * kContextSlotCount);

/// What memory a kernel's access touches, as far as its IR says: bits 1 and
/// 2 of mgpuHostCheckAccessAt's `flags` (bit 0 is a store).
enum class HostAccessMemory : int32_t {
  /// Nothing said: device memory is checked against its allocation, any
  /// other memory is taken as it is.
  Unknown = 0,
  /// A view of a kernel argument: memory that the host gave the kernel,
  /// which must be memory a GPU reaches (device, host_shared or registered).
  Global = 1,
  /// The block's workgroup memory (its address space, an attribution,
  /// gpu.dynamic_shared_memory).
  Workgroup = 2,
  /// The thread's private memory (its address space, memref.alloca).
  Private = 3,
  /// A memref.global of the kernel's module.
  Constant = 4,
};

/// Workgroup memory offsets and the dynamic part are aligned to this.
constexpr int64_t kHostSharedMemoryAlignment = 16;

/// The kind of the llvm.ubsantrap that host code (kernels included) runs
/// where it reaches an `unreachable` of the program: the fault handler tells
/// it from llvm.trap by it and says that unreachable code was reached.
constexpr uint8_t kUnreachableTrapKind = 0x75;

/// The function attribute (an LLVM string attribute, set through the LLVM
/// dialect's `passthrough`) that marks the host copies of a gpu.module's
/// functions: code generation puts a margin on each side of their static
/// allocas (a GPU thread's private memory), fills it with
/// kHostPrivateMemoryPattern, and compares it before each return, calling
/// mgpuHostPrivateMemoryOutOfBounds if a store changed it. The function's
/// first arguments are the implicit ones of the host kernel lowering (the
/// context, then the thread and block ids).
constexpr const char *kHostPrivateMemoryGuardAttr = "gpu-runner-private-memory";
/// The bytes of each margin, at least; more when the alloca is aligned to
/// more.
constexpr int64_t kHostPrivateMemoryMarginBytes = 16;
/// The byte each margin holds.
constexpr uint8_t kHostPrivateMemoryPattern = 0xa5;

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HOSTKERNELABI_H
