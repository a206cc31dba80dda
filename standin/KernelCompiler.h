//===- KernelCompiler.h - NVVM IR compiled to run on the CPU --------------===//
//
// Turns the LLVM IR of a CUDA image (the bitcode the NVVM target optimized
// before it became PTX) into host code the stand-in runs, once per module
// load:
//
// - every function takes the GPU thread's context (KernelAbi.h) first;
//   each kernel gets an entry that unpacks cuLaunchKernel's kernelParams;
// - special registers are read from the context; barriers, warp-collective
//   instructions, printf, assert, trap and exit call the runtime; the math
//   intrinsics (libdevice's among them) and the inline PTX that libdevice
//   holds become host IR or runtime calls with the PTX ISA's semantics;
//   anything else NVVM-specific is refused, by name;
// - `addrspace(3)` globals become offsets in the block's shared memory
//   (static, then the launch's dynamic part for `extern` arrays); other
//   globals become host globals the kernel may reach;
// - every load, store, atomic and memory intrinsic is checked: an address in
//   the device's arena is translated to the stand-in's view of it inline,
//   anything else is checked by the runtime, and what is not memory the
//   kernel may reach fails the launch (an illegal address);
//
// then compiles it with ORC's LLJIT for the host.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_KERNELCOMPILER_H
#define GPU_RUNNER_STANDIN_KERNELCOMPILER_H

#include "standin/Error.h"
#include "standin/Images.h"
#include "standin/KernelAbi.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace gpu_runner {
namespace standin {

/// The device's arena: where its memory is, and where the stand-in reaches
/// it (Arena::access).
struct ArenaView {
  uintptr_t base = 0;
  uint64_t size = 0;
  /// The stand-in's view minus the device's address.
  uint64_t delta = 0;
};

struct CompiledKernel {
  std::string name;
  KernelEntry entry = nullptr;
  /// Each parameter's size, and its offset in a parameter buffer (the
  /// `extra` form), as the IR lays them out.
  std::vector<uint32_t> paramSizes;
  std::vector<uint32_t> paramOffsets;
  uint32_t paramBufferBytes = 0;
  /// Waits for other threads (barriers, warp-collective instructions):
  /// each thread needs a fiber of its own.
  bool needsFibers = false;
  /// Lanes per warp: kWarpSize, or the AMDGPU kernel's wave size.
  uint32_t warpSize = kWarpSize;
};

/// A host range the module's code owns: a global of the kernel IR.
struct GlobalRange {
  uintptr_t begin = 0;
  uint64_t bytes = 0;
  bool constant = false;
  std::string name;
};

class KernelProgram {
public:
  ~KernelProgram();

  /// Compiles `bytes` of bitcode for the image `image` describes, for a
  /// device whose memory `arena` is. Fails with InvalidImage (not bitcode,
  /// not NVVM IR, kernels or parameters that disagree with the image) or
  /// KernelNotSupported (what the stand-in does not implement), saying why
  /// in `message`.
  static Error compile(const void *bitcode, size_t bytes,
                       const ImageInfo &image, const ArenaView &arena,
                       std::unique_ptr<KernelProgram> &result,
                       std::string &message);

  const CompiledKernel *find(const std::string &name) const;
  /// The static shared memory all kernels' blocks get, and where the
  /// dynamic part starts.
  uint64_t getStaticSharedBytes() const { return staticSharedBytes; }
  uint64_t getDynamicSharedOffset() const { return dynamicSharedOffset; }
  const std::vector<GlobalRange> &getGlobals() const { return globals; }
  const ArenaView &getArena() const { return arena; }
  /// What call site `site` is, for messages: "store of 4 bytes in 'k'".
  const std::string &describeSite(uint32_t site) const;

private:
  KernelProgram();
  friend class ProgramBuilder;

  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::vector<CompiledKernel> kernels;
  std::vector<GlobalRange> globals;
  std::vector<std::string> sites;
  uint64_t staticSharedBytes = 0;
  uint64_t dynamicSharedOffset = 0;
  ArenaView arena;
};

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_KERNELCOMPILER_H
