//===- Images.h - What a module image holds, read as far as it is cheap ---===//
//
// cuModuleLoadData and hipModuleLoadData take an image with no size: a CUDA
// fatbin, cubin or NUL-terminated PTX, or an AMDGPU code object (an ELF
// file, or clang's offload bundle of them). The stand-in recognizes each by
// its header, refuses what is none of them, refuses an image with no code
// for the device's chip, and reads the kernels' names (and, where the image
// says, their parameter sizes and static shared memory) so that a lookup of
// a name the image lacks fails as the driver's does.
//
// The CUDA fatbin container is not documented by NVIDIA; its layout here is
// the one public parsers read (ZLUDA's zluda_dump, cricket's cpu-elf2.c),
// checked against the fatbins the toolkit's fatbinary writes. Where a
// part cannot be read cheaply (a compressed entry), any kernel name is
// accepted.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_IMAGES_H
#define GPU_RUNNER_STANDIN_IMAGES_H

#include "standin/Error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpu_runner {
namespace standin {

struct KernelInfo {
  std::string name;
  /// The parameters' sizes in bytes, in order, when the image lists them.
  /// An AMDGPU kernel's are its explicit arguments, not the hidden ones the
  /// runtime appends, which its IR reads through `implicitarg.ptr`.
  bool paramsKnown = false;
  std::vector<uint32_t> paramSizes;
  /// Their offsets in the parameter buffer, where the image gives them (a
  /// cubin's records, a code object's metadata); empty otherwise.
  std::vector<uint32_t> paramOffsets;
  /// Static shared (CUDA) or group segment (AMDGPU) memory.
  uint64_t sharedBytes = 0;
  /// AMDGPU: the lanes of its waves, 32 where its kernel descriptor enables
  /// wave32 (AMDGPUUsage, "Kernel Descriptor": ENABLE_WAVEFRONT_SIZE32, on
  /// GFX10 and later), else 64. 0 for a CUDA image's.
  uint32_t waveSize = 0;
};

struct ImageInfo {
  /// "fatbin", "cubin", "PTX", "code object", "offload bundle".
  std::string format;
  /// Whether `kernels` lists every kernel; if not, any name is accepted.
  bool namesKnown = false;
  std::vector<KernelInfo> kernels;

  const KernelInfo *find(const std::string &name) const;
};

/// Whether the stand-in may read `bytes` of host memory at `pointer`.
using CanRead = std::function<bool(const void *pointer, uint64_t bytes)>;

/// A CUDA image for a device of compute capability `arch` (90 for sm_90).
/// Fails with InvalidImage, NoBinaryForGpu or InvalidPtx, and says why in
/// `log`.
Error readCudaImage(const void *image, int arch, const CanRead &canRead,
                    ImageInfo &info, std::string &log);

/// An AMDGPU image for a device whose chip is `chip` ("gfx90a").
Error readAmdgpuImage(const void *image, const std::string &chip,
                      const CanRead &canRead, ImageInfo &info,
                      std::string &log);

/// The parameters of each `.entry` of PTX text, and its `.target`
/// (0 when it has none).
bool readPtx(const std::string &text, int &targetArch,
             std::vector<KernelInfo> &kernels);

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_IMAGES_H
