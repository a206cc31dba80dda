//===- HipModules.cpp - HIP modules and launches --------------------------===//
//
// The entry points of libgpu-runner-hip-standin.so for modules and launches
// (see HipRuntime.cpp): loading a code object or offload bundle for the
// device's chip, its functions and their attributes, the kernel IR a
// module's code object was made from (gpuRunnerStandinModuleAttachIR), and
// the launches, which are checked and then run from that IR.
//
//===----------------------------------------------------------------------===//

#include "standin/HipEntry.h"
#include "standin/StandinKernels.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

using namespace gpu_runner::standin;
using namespace gpu_runner::standin::hip;

//===----------------------------------------------------------------------===//
// Modules and launches.
//===----------------------------------------------------------------------===//

hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
  Call call("hipModuleLoadData");
  ENTER(call, Context);
  if (!module)
    return finish(call, Error::InvalidValue);
  ImageInfo info;
  std::string log;
  Error error = readAmdgpuImage(
      image, getChip().name,
      [](const void *p, uint64_t bytes) { return driver().canRead(p, bytes); },
      info, log);
  if (error != Error::Success) {
    call.argText("why", log);
    return finish(call, error);
  }
  call.argText("format", info.format);
  void *handle = nullptr;
  error = driver().loadModule(std::move(info), handle);
  *module = static_cast<hipModule_t>(handle);
  call.out("*module", driver().describeHandle(HandleKind::Module, handle));
  return finish(call, error);
}

hipError_t hipModuleUnload(hipModule_t module) {
  return static_cast<hipError_t>(callOnHandle("hipModuleUnload", "module",
                                              HandleKind::Module, module,
                                              &Driver::unloadModule));
}

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
                                const char *kname) {
  Call call("hipModuleGetFunction");
  call.argHandle("module", HandleKind::Module, module)
      .argText("kname", kname ? kname : "null");
  ENTER(call, Context);
  if (!function || !kname)
    return finish(call, Error::InvalidValue);
  void *handle = nullptr;
  Error error = driver().getFunction(module, kname, handle);
  *function = static_cast<hipFunction_t>(handle);
  if (error == Error::Success)
    call.out("*function", driver().describeHandle(HandleKind::Function, handle))
        .out("params", describeParamSizes(handle));
  return finish(call, error);
}

hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attrib,
                               hipFunction_t hfunc) {
  Call call("hipFuncGetAttribute");
  call.argSigned("attrib", attrib)
      .argHandle("hfunc", HandleKind::Function, hfunc);
  ENTER(call, Context);
  if (!value)
    return finish(call, Error::InvalidValue);
  DeviceLimits limits = getLimits();
  Error error = driver().updateFunction(hfunc, [&](Function &function) {
    switch (attrib) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *value = static_cast<int>(limits.maxThreadsPerBlock);
      return Error::Success;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
      *value = static_cast<int>(function.kernel.sharedBytes);
      return Error::Success;
    case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA:
    case HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      *value = 0;
      return Error::Success;
    case HIP_FUNC_ATTRIBUTE_NUM_REGS:
      *value = 32;
      return Error::Success;
    case HIP_FUNC_ATTRIBUTE_PTX_VERSION:
    case HIP_FUNC_ATTRIBUTE_BINARY_VERSION:
      *value = 90;
      return Error::Success;
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      *value = static_cast<int>(
          limits.maxSharedPerBlock -
          std::min(function.kernel.sharedBytes, limits.maxSharedPerBlock));
      return Error::Success;
    default:
      return Error::InvalidValue;
    }
  });
  if (error == Error::Success)
    call.out("*value", std::to_string(*value));
  return finish(call, error);
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
                                 unsigned int gridDimY, unsigned int gridDimZ,
                                 unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ,
                                 unsigned int sharedMemBytes,
                                 hipStream_t stream, void **kernelParams,
                                 void **extra) {
  Call call("hipModuleLaunchKernel");
  call.argHandle("f", HandleKind::Function, f)
      .argText("grid", std::to_string(gridDimX) + "x" +
                           std::to_string(gridDimY) + "x" +
                           std::to_string(gridDimZ))
      .argText("block", std::to_string(blockDimX) + "x" +
                            std::to_string(blockDimY) + "x" +
                            std::to_string(blockDimZ))
      .arg("sharedMemBytes", sharedMemBytes)
      .argHandle("stream", HandleKind::Stream, stream)
      .argText("params", std::string("kernelParams=") +
                             (kernelParams ? "set" : "null") +
                             ", extra=" + (extra ? "set" : "null"));
  ENTER(call, Context);
  // "HIP does not support kernel launch with total work items defined in
  // dimension with size gridDim x blockDim >= 2^32."
  const unsigned grid[] = {gridDimX, gridDimY, gridDimZ};
  const unsigned block[] = {blockDimX, blockDimY, blockDimZ};
  for (int i = 0; i < 3; ++i)
    if (uint64_t(grid[i]) * block[i] >= (uint64_t(1) << 32))
      return finish(call, Error::InvalidConfiguration);
  LaunchRequest request;
  request.grid = {gridDimX, gridDimY, gridDimZ};
  request.block = {blockDimX, blockDimY, blockDimZ};
  request.sharedBytes = sharedMemBytes;
  request.kernelParams = kernelParams;
  request.extra = extra;
  if (extra)
    if (Error error = driver().checkLaunchExtra(
            request, HIP_LAUNCH_PARAM_BUFFER_POINTER,
            HIP_LAUNCH_PARAM_BUFFER_SIZE, HIP_LAUNCH_PARAM_END);
        error != Error::Success)
      return finish(call, error);
  std::string why;
  Error error = driver().launch(f, request, getLimits(), stream, why);
  if (!why.empty())
    call.out("why", why);
  return finish(call, error);
}

int gpuRunnerStandinModuleAttachIR(void *module, const void *bitcode,
                                   size_t bytes, char *log, size_t logBytes) {
  Call call("gpuRunnerStandinModuleAttachIR");
  call.argHandle("module", HandleKind::Module, module).arg("bytes", bytes);
  ENTER(call, Context);
  return finish(call, driver().attachKernelIR(call, module, bitcode, bytes, log,
                                              logBytes));
}
