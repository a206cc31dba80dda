//===- DeviceKernelWrappers.cpp - Kernels of the GPU backends, in C -------===//
//
// The extern "C" functions of DeviceKernelAbi.def, by which the lowering of
// gpu.binary and gpu.launch_func loads GPU binaries and launches their
// kernels on the CUDA and HIP backends.
//
//===----------------------------------------------------------------------===//

#include "wrappers/MgpuAbi.h"
#include "wrappers/RunRecord.h"
#include "wrappers/Runtime.h"

#include <array>

using namespace gpu_runner;

namespace {

void check(const Status &status, const char *loc) {
  reportIfError(status, loc);
}

/// A launch, with thread block clusters when `cluster` is not null.
void launchKernel(void *function, const std::array<int64_t, 3> *cluster,
                  const std::array<int64_t, 3> &grid,
                  const std::array<int64_t, 3> &block,
                  int32_t sharedMemoryBytes, void *stream, void **params,
                  const char *loc) {
  GpuLaunch launch;
  launch.useCluster = cluster != nullptr;
  for (int i = 0; i < 3; ++i) {
    launch.cluster[i] = cluster ? (*cluster)[i] : 1;
    launch.grid[i] = grid[i];
    launch.block[i] = block[i];
  }
  launch.sharedMemoryBytes = sharedMemoryBytes;
  RecordedOp record("gpu.launch_func", loc, RecordKind::Launch, stream);
  record.setLaunch(getRecordedFunctionName(function).c_str(), launch.grid,
                   launch.block, sharedMemoryBytes);
  check(getRuntime().launch(function, launch, stream, params, loc), loc);
}

} // namespace

namespace gpu_runner {

std::vector<RuntimeSymbol> getKernelAbiSymbols() {
  return {
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, reinterpret_cast<void *>(&NAME)},
#include "wrappers/DeviceKernelAbi.def"
  };
}

} // namespace gpu_runner

extern "C" {

void *mgpuModuleLoadAt(const void *data, uint64_t sizeBytes, int32_t format,
                       const char *loc) {
  void *module = nullptr;
  check(getRuntime().loadModule(data, sizeBytes, format, /*optLevel=*/4, module,
                                loc),
        loc);
  return module;
}

void mgpuModuleAttachIRAt(void *module, const void *ir, uint64_t sizeBytes,
                          const char *loc) {
  check(getRuntime().attachKernelIR(module, ir, sizeBytes, loc), loc);
}

void mgpuModuleUnloadAt(void *module, const char *loc) {
  check(getRuntime().unloadModule(module, loc), loc);
}

void *mgpuModuleGetFunctionAt(void *module, const char *name, const char *loc) {
  void *function = nullptr;
  check(getRuntime().getFunction(module, name, function, loc), loc);
  noteRecordedFunction(function, name);
  return function;
}

void mgpuLaunchKernelAt(void *function, int64_t gridX, int64_t gridY,
                        int64_t gridZ, int64_t blockX, int64_t blockY,
                        int64_t blockZ, int32_t sharedMemoryBytes, void *stream,
                        void **params, int64_t, const char *loc) {
  launchKernel(function, nullptr, {gridX, gridY, gridZ},
               {blockX, blockY, blockZ}, sharedMemoryBytes, stream, params,
               loc);
}

void mgpuLaunchClusterKernelAt(void *function, int64_t clusterX,
                               int64_t clusterY, int64_t clusterZ,
                               int64_t gridX, int64_t gridY, int64_t gridZ,
                               int64_t blockX, int64_t blockY, int64_t blockZ,
                               int32_t sharedMemoryBytes, void *stream,
                               void **params, int64_t, const char *loc) {
  const std::array<int64_t, 3> cluster = {clusterX, clusterY, clusterZ};
  launchKernel(function, &cluster, {gridX, gridY, gridZ},
               {blockX, blockY, blockZ}, sharedMemoryBytes, stream, params,
               loc);
}

} // extern "C"
