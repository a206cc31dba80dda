//===- Targets.cpp - Chips and the tools that compile for them ------------===//

#include "lowering/device/Targets.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <unistd.h>

using llvm::SmallString;
using llvm::SmallVector;
using llvm::StringRef;

namespace gpu_runner {

std::string getPtxFeaturesForChip(StringRef chip) {
  unsigned version = 0;
  StringRef digits = chip;
  if (!digits.consume_front("sm_"))
    return "";
  char suffix = 0;
  if (digits.ends_with("a") || digits.ends_with("f")) {
    suffix = digits.back();
    digits = digits.drop_back();
  }
  if (digits.getAsInteger(10, version) || version < 75)
    return "";
  // The first PTX ISA version of each chip, from the PTX ISA's release
  // notes; sm_90 takes 8.0, as LLVM's NVPTX backend pairs them.
  static const std::pair<unsigned, unsigned> firstPtx[] = {
      {75, 64},  {80, 70},  {86, 71},  {87, 74},  {89, 78},  {90, 80},
      {100, 86}, {101, 86}, {103, 88}, {110, 90}, {120, 87}, {121, 88},
  };
  unsigned ptx = 0;
  for (auto [first, isa] : firstPtx)
    if (first <= version)
      ptx = std::max(ptx, isa);
  // The architecture- and family-specific variants came with PTX 8.0
  // (sm_90a) and 8.6 (the others), or with the chip itself.
  if (suffix)
    ptx = std::max(ptx, version == 90 ? 80u : 86u);
  return "+ptx" + std::to_string(ptx);
}

bool isAmdgpuChip(StringRef chip) {
  StringRef version = chip;
  return version.consume_front("gfx") && version.size() >= 3 &&
         llvm::all_of(version, llvm::isHexDigit);
}

unsigned getAmdgpuWaveSize(StringRef chip) {
  return chip.starts_with("gfx9") && chip.size() == 6 ? 64 : 32;
}

llvm::Expected<std::string> findRocmPath() {
  auto isRocmLayout = [](StringRef root) {
    SmallString<256> bitcode(root), lld(root);
    llvm::sys::path::append(bitcode, "amdgcn", "bitcode");
    llvm::sys::path::append(lld, "llvm", "bin", "ld.lld");
    return llvm::sys::fs::is_directory(bitcode) &&
           llvm::sys::fs::can_execute(lld);
  };
  if (const char *path = std::getenv("ROCM_PATH"); path && *path) {
    if (isRocmLayout(path))
      return std::string(path);
  }
  if (isRocmLayout("/opt/rocm"))
    return std::string("/opt/rocm");

  // Debian's packages put the pieces elsewhere: link them into the layout.
  StringRef amdgcn;
  for (StringRef candidate :
       {"/usr/lib/x86_64-linux-gnu/amdgcn", "/usr/lib/aarch64-linux-gnu/amdgcn",
        "/usr/lib/amdgcn"})
    if (llvm::sys::fs::is_directory(candidate + "/bitcode")) {
      amdgcn = candidate;
      break;
    }
  if (amdgcn.empty())
    return llvm::createStringError(
        "the ROCm device libraries are not installed (no amdgcn/bitcode "
        "under $ROCM_PATH, /opt/rocm or /usr/lib): install rocm-device-libs, "
        "or set ROCM_PATH");
  StringRef lld;
  for (StringRef candidate :
       {"/usr/lib/llvm-22/bin/ld.lld", "/usr/bin/ld.lld-22", "/usr/bin/ld.lld"})
    if (llvm::sys::fs::can_execute(candidate)) {
      lld = candidate;
      break;
    }
  if (lld.empty())
    return llvm::createStringError(
        "ld.lld is not installed: install lld-22, or set ROCM_PATH");

  SmallString<256> root;
  llvm::sys::path::system_temp_directory(/*erasedOnReboot=*/true, root);
  llvm::sys::path::append(root,
                          "gpu-runner-rocm-" + std::to_string(::getuid()));
  SmallString<256> bin(root);
  llvm::sys::path::append(bin, "llvm", "bin");
  if (std::error_code error = llvm::sys::fs::create_directories(bin))
    return llvm::createStringError("cannot create " + bin + ": " +
                                   error.message());
  SmallString<256> amdgcnLink(root), lldLink(bin);
  llvm::sys::path::append(amdgcnLink, "amdgcn");
  llvm::sys::path::append(lldLink, "ld.lld");
  // Links made by a concurrent run are as good as ours.
  const std::pair<StringRef, StringRef> links[] = {{amdgcn, amdgcnLink},
                                                   {lld, lldLink}};
  for (auto [target, link] : links) {
    std::error_code error = llvm::sys::fs::create_link(target, link);
    if (error && error != std::errc::file_exists)
      return llvm::createStringError("cannot create the link " + link + ": " +
                                     error.message());
  }
  if (!isRocmLayout(root))
    return llvm::createStringError(
        root + " does not link to the ROCm device libraries and ld.lld; "
               "remove it, or set ROCM_PATH");
  return std::string(root);
}

std::string findCudaToolkit() {
  SmallVector<std::string, 2> candidates;
  if (const char *path = std::getenv("CUDA_PATH"); path && *path)
    candidates.push_back(path);
  candidates.push_back("/usr/local/cuda");
  for (const std::string &candidate : candidates) {
    SmallString<256> ptxas(candidate);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(ptxas))
      return candidate;
  }
  return "";
}

llvm::Error chooseGpuTarget(
    Backend backend, StringRef gpuChip, bool compileOnly,
    llvm::function_ref<llvm::Expected<std::string>()> queryDeviceChip,
    PipelineOptions &pipeline) {
  assert(backend != Backend::Host && "the host backend has no GPU target");
  std::string chip = gpuChip.str();
  // Where the chip came from, for messages.
  std::string named = "--gpu-chip=" + chip;
  if (chip.empty()) {
    llvm::Expected<std::string> deviceChip = queryDeviceChip();
    if (deviceChip) {
      chip = std::move(*deviceChip);
      named = "the device's chip, " + chip + ",";
    } else if (!compileOnly) {
      return deviceChip.takeError();
    } else {
      llvm::consumeError(deviceChip.takeError());
      chip =
          (backend == Backend::Cuda ? kDefaultCudaChip : kDefaultHipChip).str();
    }
  }
  pipeline.gpuChip = chip;

  if (backend == Backend::Hip) {
    if (!isAmdgpuChip(chip))
      return llvm::createStringError(
          named +
          " is not an AMD GPU: use its gfx name, such as gfx90a or gfx942");
    llvm::Expected<std::string> rocmPath = findRocmPath();
    if (!rocmPath)
      return llvm::createStringError("cannot compile kernels for " + chip +
                                     ": " +
                                     llvm::toString(rocmPath.takeError()));
    pipeline.rocmPath = std::move(*rocmPath);
    return llvm::Error::success();
  }

  pipeline.gpuFeatures = getPtxFeaturesForChip(chip);
  if (pipeline.gpuFeatures.empty())
    return llvm::createStringError(
        named +
        " is not a CUDA chip that CUDA 13 supports: use sm_75 or newer, such "
        "as sm_80, sm_90 or sm_90a");
  pipeline.cudaToolkitPath = findCudaToolkit();
  return llvm::Error::success();
}

std::string getDeviceObjectGlobalName(StringRef binary) {
  return ("__gpu_runner_binary_" + binary).str();
}

std::string getDeviceObjectSizeGlobalName(StringRef binary) {
  return ("__gpu_runner_binary_size_" + binary).str();
}

std::string getKernelIRGlobalName(StringRef binary) {
  return ("__gpu_runner_kernel_ir_" + binary).str();
}

std::string getKernelIRSizeGlobalName(StringRef binary) {
  return ("__gpu_runner_kernel_ir_size_" + binary).str();
}

} // namespace gpu_runner
