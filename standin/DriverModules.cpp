//===- DriverModules.cpp - Modules and launches ---------------------------===//
//
// The Driver's modules and functions, the checks of a launch against the
// device's and the function's limits (see Driver.cpp), and the helpers the
// front ends call on handles and functions (callOnHandle,
// describeParamSizes).
//
//===----------------------------------------------------------------------===//

#include "standin/Driver.h"

#include "standin/KernelCompiler.h"

#include <iterator>
#include <string>

namespace gpu_runner {
namespace standin {

//===----------------------------------------------------------------------===//
// Modules and launches.
//===----------------------------------------------------------------------===//

Error Driver::loadModule(ImageInfo image, void *&handle) {
  // CUDA C++ Programming Guide, "Formatted Output": module loading and
  // unloading flush device printf's buffer.
  flushKernelOutput();
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  Module module;
  module.id = nextId++;
  module.device = getCurrentDevice();
  module.image = std::move(image);
  handle = makeHandle(HandleKind::Module, module.id);
  modules[module.id] = std::move(module);
  return Error::Success;
}

Error Driver::unloadModule(void *handle) {
  flushKernelOutput();
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  uint64_t id = 0;
  if (!readHandle(handle, HandleKind::Module, id) || !modules.erase(id))
    return Error::InvalidHandle;
  for (auto it = functions.begin(); it != functions.end();)
    it = it->second.module == id ? functions.erase(it) : std::next(it);
  return Error::Success;
}

Error Driver::getFunction(void *moduleHandle, const char *name, void *&handle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  uint64_t id = 0;
  auto it = readHandle(moduleHandle, HandleKind::Module, id) ? modules.find(id)
                                                             : modules.end();
  if (it == modules.end())
    return Error::InvalidHandle;
  Function function;
  function.module = id;
  function.device = it->second.device;
  if (const KernelInfo *kernel = it->second.image.find(name)) {
    function.kernel = *kernel;
  } else if (it->second.image.namesKnown) {
    // cuda.h, cuModuleGetFunction: "If no function of that name exists,
    // cuModuleGetFunction() returns CUDA_ERROR_NOT_FOUND."
    return Error::NotFound;
  } else {
    function.kernel.name = name;
    function.unknown = true;
  }
  function.id = nextId++;
  handle = makeHandle(HandleKind::Function, function.id);
  functions[function.id] = std::move(function);
  return Error::Success;
}

Error Driver::updateFunction(void *handle,
                             const std::function<Error(Function &)> &update) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  uint64_t id = 0;
  auto it = readHandle(handle, HandleKind::Function, id) ? functions.find(id)
                                                         : functions.end();
  if (it == functions.end())
    return Error::InvalidHandle;
  return update(it->second);
}

Error Driver::checkLaunchExtra(LaunchRequest &request,
                               const void *bufferPointer,
                               const void *bufferSize, const void *end) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  void **extra = request.extra;
  // cuda.h, cuLaunchKernel: extra "is a list of names of extra options and
  // their corresponding values", terminated by CU_LAUNCH_PARAM_END; "It is
  // required that CU_LAUNCH_PARAM_BUFFER_POINTER also be specified in the
  // extra array if the value associated with CU_LAUNCH_PARAM_BUFFER_SIZE is
  // not zero."
  bool hasPointer = false;
  uint64_t size = 0;
  for (void **at = extra;; at += 2) {
    Resolved resolved;
    if (memory.resolve(at, sizeof(void *), false, resolved) != Error::Success)
      return Error::InvalidValue;
    if (*at == end || (!end && !*at))
      break;
    if (memory.resolve(at + 1, sizeof(void *), false, resolved) !=
        Error::Success)
      return Error::InvalidValue;
    if (*at == bufferPointer) {
      hasPointer = at[1] != nullptr;
      request.extraBuffer = at[1];
    } else if (*at == bufferSize) {
      if (memory.resolve(at[1], sizeof(size_t), false, resolved) !=
          Error::Success)
        return Error::InvalidValue;
      size = *static_cast<size_t *>(at[1]);
    } else {
      return Error::InvalidValue;
    }
  }
  request.extraBytes = size;
  return size != 0 && !hasPointer ? Error::InvalidValue : Error::Success;
}

Error Driver::launch(void *functionHandle, const LaunchRequest &request,
                     const DeviceLimits &limits, void *streamHandle,
                     std::string &why) {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  uint64_t id = 0;
  auto it = readHandle(functionHandle, HandleKind::Function, id)
                ? functions.find(id)
                : functions.end();
  if (it == functions.end())
    return Error::InvalidHandle;
  const Function &function = it->second;
  std::shared_ptr<Stream> stream;
  if (Error error = findStream(streamHandle, stream); error != Error::Success)
    return error;
  // cuda.h, CUlaunchConfig::hStream: "The CUDA context associated with
  // this stream must match that associated with function f."
  if (stream->device != function.device)
    return Error::InvalidHandle;
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (request.grid[i] == 0 || request.block[i] == 0 ||
        request.grid[i] > limits.maxGrid[i] ||
        request.block[i] > limits.maxBlock[i])
      return Error::InvalidConfiguration;
    threads *= request.block[i];
  }
  // cuda.h, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK.
  if (threads > limits.maxThreadsPerBlock)
    return Error::InvalidConfiguration;
  // cuda.h, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: by default
  // the block's shared memory less the kernel's static shared memory; "If
  // the user-specified dynamic shared memory size is larger than this
  // value, the launch will fail."
  uint64_t staticShared = function.kernel.sharedBytes;
  uint64_t allowed = function.maxDynamicSharedBytes
                         ? function.maxDynamicSharedBytes
                         : (limits.maxSharedPerBlock > staticShared
                                ? limits.maxSharedPerBlock - staticShared
                                : 0);
  if (request.sharedBytes > allowed)
    return Error::InvalidValue;
  if (request.useCluster) {
    // cuda.h, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION: each dimension "Must
    // be a divisor of the grid" dimension; CUfunction_attribute: "The
    // portable cluster size for sm_90 is 8 blocks per cluster."
    uint64_t blocks = 1;
    for (int i = 0; i < 3; ++i) {
      if (request.cluster[i] == 0 || request.grid[i] % request.cluster[i])
        return Error::InvalidClusterSize;
      blocks *= request.cluster[i];
    }
    if (blocks > (function.nonPortableClusters
                      ? limits.maxNonPortableClusterBlocks
                      : limits.maxClusterBlocks))
      return Error::InvalidClusterSize;
  }
  // cuda.h, cuLaunchKernel: "The error CUDA_ERROR_INVALID_VALUE will be
  // returned if kernel parameters are specified with both kernelParams and
  // extra"; "If f has N parameters, then kernelParams needs to be an array
  // of N pointers", each to a value of its parameter's size.
  if (request.kernelParams && request.extra) {
    why = "both kernelParams and extra are given";
    return Error::InvalidValue;
  }
  // The parameters' sizes: the kernel IR's when the module has it (checked
  // against the image's when it was given), else the image's.
  const Module &module = modules.at(function.module);
  const CompiledKernel *compiled =
      module.program ? module.program->find(function.kernel.name) : nullptr;
  bool known = compiled || function.kernel.paramsKnown;
  const std::vector<uint32_t> &sizes =
      compiled ? compiled->paramSizes : function.kernel.paramSizes;
  const std::string &name = function.kernel.name;
  if (known && !request.extra && !sizes.empty()) {
    Resolved resolved;
    if (!request.kernelParams ||
        memory.resolve(request.kernelParams, sizes.size() * sizeof(void *),
                       false, resolved) != Error::Success) {
      why = "kernel '" + name + "' has " + std::to_string(sizes.size()) +
            " parameters, and kernelParams is not an array of as many "
            "readable pointers";
      return Error::InvalidValue;
    }
    for (size_t i = 0; i < sizes.size(); ++i)
      if (memory.resolve(request.kernelParams[i], sizes[i], false, resolved) !=
              Error::Success ||
          resolved.kind == MemoryKind::Device) {
        why = "parameter " + std::to_string(i) + " of kernel '" + name +
              "': kernelParams[" + std::to_string(i) + "] does not point at " +
              std::to_string(sizes[i]) + " bytes of host memory";
        return Error::InvalidValue;
      }
  }
  if (compiled && request.extra) {
    // The buffer holds the parameters at their offsets, as the kernel's
    // parameter space lays them out: it is that size.
    Resolved resolved;
    if (request.extraBytes != compiled->paramBufferBytes) {
      why = "the parameter buffer of kernel '" + name + "' has " +
            std::to_string(request.extraBytes) + " bytes, but its " +
            std::to_string(sizes.size()) + " parameters take " +
            std::to_string(compiled->paramBufferBytes);
      return Error::InvalidValue;
    }
    if (request.extraBytes &&
        memory.resolve(request.extraBuffer, request.extraBytes, false,
                       resolved) != Error::Success) {
      why = "the parameter buffer of kernel '" + name + "' cannot be read";
      return Error::InvalidValue;
    }
  }
  if (!compiled)
    return Error::KernelsNotRun;
  return enqueueLaunch(*stream, module, *compiled, request);
}

int callOnHandle(const char *entry, const char *argument, HandleKind kind,
                 void *handle, Error (Driver::*operation)(void *)) {
  Call call(entry);
  call.argHandle(argument, kind, handle);
  if (int code = call.enter(Call::Needs::Context))
    return code;
  return call.done((Driver::get().*operation)(handle));
}

std::string describeParamSizes(void *function) {
  std::string text;
  Driver::get().updateFunction(function, [&](Function &f) {
    if (!f.kernel.paramsKnown) {
      text = "unknown";
      return Error::Success;
    }
    for (uint32_t size : f.kernel.paramSizes)
      text += (text.empty() ? "" : ",") + std::to_string(size);
    if (text.empty())
      text = "none";
    return Error::Success;
  });
  return text;
}

} // namespace standin
} // namespace gpu_runner
