//===- CudaModules.cpp - CUDA modules and launches ------------------------===//
//
// The entry points of libgpu-runner-cuda-standin.so for modules and
// launches (see CudaDriver.cpp): loading an image and reading it as the
// driver would, its functions and their attributes, and the launches, which
// are checked and then refused, since the stand-in runs no kernels. Built
// with GPU_RUNNER_STANDIN_WITHOUT_LAUNCH_KERNEL_EX (for
// libgpu-runner-cuda-standin-old.so), it leaves out cuLaunchKernelEx.
//
//===----------------------------------------------------------------------===//

#include "standin/CudaEntry.h"
#include "standin/StandinKernels.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

using namespace gpu_runner::standin;
using namespace gpu_runner::standin::cuda;

//===----------------------------------------------------------------------===//
// Modules and launches.
//===----------------------------------------------------------------------===//

namespace {

/// Loads an image; `log` receives why it cannot be.
CUresult loadModule(Call &call, CUmodule *module, const void *image,
                    std::string &log) {
  if (!module)
    return fail(call, Error::InvalidValue);
  ImageInfo info;
  Error error = readCudaImage(
      image, kArch,
      [](const void *p, uint64_t bytes) { return driver().canRead(p, bytes); },
      info, log);
  if (error != Error::Success) {
    if (!log.empty())
      call.out("why", log);
    return fail(call, error);
  }
  call.argText("format", info.format);
  void *handle = nullptr;
  error = driver().loadModule(std::move(info), handle);
  *module = static_cast<CUmodule>(handle);
  call.out("*module", driver().describeHandle(HandleKind::Module, handle));
  return finish(call, error);
}

} // namespace

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  Call call("cuModuleLoadData");
  ENTER(call, Context);
  std::string log;
  return loadModule(call, module, image, log);
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned int numOptions, CUjit_option *options,
                            void **optionValues) {
  Call call("cuModuleLoadDataEx");
  call.arg("numOptions", numOptions);
  ENTER(call, Context);
  if (numOptions &&
      (!driver().canRead(options, numOptions * sizeof(CUjit_option)) ||
       !driver().canRead(optionValues, numOptions * sizeof(void *))))
    return fail(call, Error::InvalidValue);
  std::string log;
  CUresult result = loadModule(call, module, image, log);
  // CU_JIT_ERROR_LOG_BUFFER and its size: where the driver says why.
  char *buffer = nullptr;
  size_t size = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      buffer = static_cast<char *>(optionValues[i]);
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      size = reinterpret_cast<uintptr_t>(optionValues[i]);
  }
  if (buffer && size)
    std::snprintf(buffer, size, "%s",
                  result == CUDA_SUCCESS ? "" : log.c_str());
  return result;
}

int gpuRunnerStandinModuleAttachIR(void *module, const void *bitcode,
                                   size_t bytes, char *log, size_t logBytes) {
  Call call("gpuRunnerStandinModuleAttachIR");
  call.argHandle("module", HandleKind::Module, module).arg("bytes", bytes);
  ENTER(call, Context);
  return finish(call, driver().attachKernelIR(call, module, bitcode, bytes, log,
                                              logBytes));
}

CUresult cuModuleUnload(CUmodule hmod) {
  return static_cast<CUresult>(callOnHandle("cuModuleUnload", "hmod",
                                            HandleKind::Module, hmod,
                                            &Driver::unloadModule));
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                             const char *name) {
  Call call("cuModuleGetFunction");
  call.argHandle("hmod", HandleKind::Module, hmod)
      .argText("name", name ? name : "null");
  ENTER(call, Context);
  if (!hfunc || !name)
    return fail(call, Error::InvalidValue);
  void *handle = nullptr;
  Error error = driver().getFunction(hmod, name, handle);
  *hfunc = static_cast<CUfunction>(handle);
  if (error == Error::Success)
    call.out("*hfunc", driver().describeHandle(HandleKind::Function, handle))
        .out("params", describeParamSizes(handle));
  return finish(call, error);
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
                            CUfunction hfunc) {
  Call call("cuFuncGetAttribute");
  call.argSigned("attrib", attrib)
      .argHandle("hfunc", HandleKind::Function, hfunc);
  ENTER(call, Context);
  if (!pi)
    return fail(call, Error::InvalidValue);
  DeviceLimits limits = getLimits();
  Error error = driver().updateFunction(hfunc, [&](Function &function) {
    uint64_t shared = function.kernel.sharedBytes;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *pi = static_cast<int>(limits.maxThreadsPerBlock);
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
      *pi = static_cast<int>(shared);
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
      *pi = 0;
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_NUM_REGS:
      *pi = 32;
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
      *pi = kArch;
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      *pi = static_cast<int>(
          function.maxDynamicSharedBytes
              ? function.maxDynamicSharedBytes
              : limits.maxSharedPerBlock -
                    std::min(shared, limits.maxSharedPerBlock));
      return Error::Success;
    default:
      return Error::InvalidValue;
    }
  });
  if (error == Error::Success)
    call.out("*pi", std::to_string(*pi));
  return finish(call, error);
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib,
                            int value) {
  Call call("cuFuncSetAttribute");
  call.argHandle("hfunc", HandleKind::Function, hfunc)
      .argSigned("attrib", attrib)
      .argSigned("value", value);
  ENTER(call, Context);
  DeviceLimits limits = getLimits();
  return finish(call, driver().updateFunction(hfunc, [&](Function &function) {
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      // cuda.h: "The sum of this value and the function attribute
      // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES cannot exceed the device
      // attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN."
      if (value < 0 || function.kernel.sharedBytes + uint64_t(value) >
                           limits.maxSharedPerBlockOptin)
        return Error::InvalidValue;
      function.maxDynamicSharedBytes = uint64_t(value);
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
      function.nonPortableClusters = value != 0;
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      return Error::Success; // hints, with no effect here
    default:
      // "Attempting to set a value on a read-only attribute will result in
      // an error (CUDA_ERROR_INVALID_VALUE)".
      return Error::InvalidValue;
    }
  }));
}

namespace {

std::string describeParams(void **kernelParams, void **extra) {
  return std::string("kernelParams=") + (kernelParams ? "set" : "null") +
         ", extra=" + (extra ? "set" : "null");
}

CUresult launch(Call &call, CUfunction f, LaunchRequest &request,
                CUstream stream) {
  // CUDA C++ Programming Guide, "Formatted Output": device printf's buffer
  // is flushed at the start of a launch.
  driver().flushKernelOutput();
  if (request.extra)
    if (Error error = driver().checkLaunchExtra(
            request, CU_LAUNCH_PARAM_BUFFER_POINTER,
            CU_LAUNCH_PARAM_BUFFER_SIZE, CU_LAUNCH_PARAM_END);
        error != Error::Success)
      return fail(call, error);
  std::string why;
  Error error = driver().launch(f, request, getLimits(), stream, why);
  if (!why.empty())
    call.out("why", why);
  return finish(call, error);
}

} // namespace

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
                        unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes,
                        CUstream hStream, void **kernelParams, void **extra) {
  Call call("cuLaunchKernel");
  call.argHandle("f", HandleKind::Function, f)
      .argText("grid", std::to_string(gridDimX) + "x" +
                           std::to_string(gridDimY) + "x" +
                           std::to_string(gridDimZ))
      .argText("block", std::to_string(blockDimX) + "x" +
                            std::to_string(blockDimY) + "x" +
                            std::to_string(blockDimZ))
      .arg("sharedMemBytes", sharedMemBytes)
      .argHandle("hStream", HandleKind::Stream, hStream)
      .argText("params", describeParams(kernelParams, extra));
  ENTER(call, Context);
  LaunchRequest request;
  request.grid = {gridDimX, gridDimY, gridDimZ};
  request.block = {blockDimX, blockDimY, blockDimZ};
  request.sharedBytes = sharedMemBytes;
  request.kernelParams = kernelParams;
  request.extra = extra;
  return launch(call, f, request, hStream);
}

// A driver older than CUDA 12.0 has no cuLaunchKernelEx: the stand-in can
// be built without it, to test programs on such a driver.
#ifndef GPU_RUNNER_STANDIN_WITHOUT_LAUNCH_KERNEL_EX
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                          void **kernelParams, void **extra) {
  Call call("cuLaunchKernelEx");
  call.argHandle("f", HandleKind::Function, f);
  bool readable = config && driver().canRead(config, sizeof(*config));
  if (readable)
    call.argText("grid", std::to_string(config->gridDimX) + "x" +
                             std::to_string(config->gridDimY) + "x" +
                             std::to_string(config->gridDimZ))
        .argText("block", std::to_string(config->blockDimX) + "x" +
                              std::to_string(config->blockDimY) + "x" +
                              std::to_string(config->blockDimZ))
        .arg("sharedMemBytes", config->sharedMemBytes)
        .argHandle("hStream", HandleKind::Stream, config->hStream)
        .arg("numAttrs", config->numAttrs);
  call.argText("params", describeParams(kernelParams, extra));
  ENTER(call, Context);
  if (!readable ||
      (config->numAttrs &&
       !driver().canRead(config->attrs,
                         config->numAttrs * sizeof(CUlaunchAttribute))))
    return fail(call, Error::InvalidValue);
  LaunchRequest request;
  request.grid = {config->gridDimX, config->gridDimY, config->gridDimZ};
  request.block = {config->blockDimX, config->blockDimY, config->blockDimZ};
  request.sharedBytes = config->sharedMemBytes;
  request.kernelParams = kernelParams;
  request.extra = extra;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute &attribute = config->attrs[i];
    if (attribute.id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      continue;
    request.useCluster = true;
    request.cluster = {attribute.value.clusterDim.x,
                       attribute.value.clusterDim.y,
                       attribute.value.clusterDim.z};
  }
  return launch(call, f, request, config->hStream);
}
#endif
