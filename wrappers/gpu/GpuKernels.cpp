//===- GpuKernels.cpp - GPU runtime: modules and launches -----------------===//
//
// GPU binaries loaded once, kernels looked up once, launches checked
// against the device; see GpuRuntime.h.
//
//===----------------------------------------------------------------------===//

#include "wrappers/gpu/GpuRuntime.h"

#include "wrappers/MgpuAbi.h"

#include <algorithm>

namespace gpu_runner {

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

Status GpuRuntime::loadModule(const void *data, uint64_t bytes, int32_t format,
                              int optLevel, void *&module, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *stream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, device));
  if (!data || bytes == 0)
    return Status::error("the GPU binary is empty");
  auto entry = std::make_unique<Module>();
  entry->device = device;
  if (format != kDeviceObjectAssembly && format != kDeviceObjectBinary)
    return Status::error("unknown GPU object format " + std::to_string(format));
  std::string log;
  Result result = driver.loadModule(entry->handle, data, bytes, format,
                                    std::min(std::max(optLevel, 0), 4), log);
  if (result != 0 && driver.isWrongBinary(result))
    return Status::error(driver.describe(result) +
                         ": the kernels were compiled for another chip; run "
                         "without --gpu-chip to compile for this device");
  if (result != 0 && !log.empty())
    return Status::error(driver.describe(result) +
                         ": the driver could not compile the kernels:\n" + log);
  GPU_RUNNER_RETURN_IF_ERROR(check(result));
  module = entry.get();
  modules.push_back(std::move(entry));
  return Status();
}

Status GpuRuntime::attachKernelIR(void *module, const void *ir, uint64_t bytes,
                                  const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!ir || bytes == 0)
    return Status();
  auto it = std::find_if(modules.begin(), modules.end(),
                         [&](const auto &m) { return m.get() == module; });
  if (it == modules.end())
    return Status::error("the module was not loaded, or is already unloaded");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent((*it)->device));
  std::string log;
  Result result = driver.attachKernelIR((*it)->handle, ir, bytes, log);
  if (result != 0 && !log.empty())
    return Status::error(driver.describe(result) +
                         ": the driver could not take the kernels' IR:\n" +
                         log);
  return check(result);
}

Status GpuRuntime::unloadModule(void *module, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = std::find_if(modules.begin(), modules.end(),
                         [&](const auto &m) { return m.get() == module; });
  if (it == modules.end())
    return Status::error("the module was not loaded, or is already unloaded");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent((*it)->device));
  Result result = driver.unloadModule((*it)->handle);
  functions.erase(std::remove_if(functions.begin(), functions.end(),
                                 [&](const auto &function) {
                                   return function->module == it->get();
                                 }),
                  functions.end());
  modules.erase(it);
  return checkResult(result);
}

Status GpuRuntime::getFunction(void *module, const char *name, void *&function,
                               const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = std::find_if(modules.begin(), modules.end(),
                         [&](const auto &m) { return m.get() == module; });
  if (it == modules.end())
    return Status::error("the module of kernel '" +
                         std::string(name ? name : "") + "' is not loaded");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent((*it)->device));
  auto entry = std::make_unique<Function>();
  entry->name = name ? name : "";
  entry->module = it->get();
  entry->device = (*it)->device;
  Result result = driver.getFunction(entry->handle, (*it)->handle, name);
  if (result != 0 && driver.isNotFound(result))
    return Status::error("the GPU binary has no kernel '" + entry->name + "'");
  GPU_RUNNER_RETURN_IF_ERROR(check(result));
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.getFunctionLimits(
      entry->handle, entry->staticSharedBytes, entry->maxThreads)));
  function = entry.get();
  functions.push_back(std::move(entry));
  return Status();
}

Status GpuRuntime::launch(void *function, const GpuLaunch &launch, void *stream,
                          void **params, const char *loc) {
  std::lock_guard<std::mutex> lock(mutex);
  auto *entry = static_cast<Function *>(function);
  if (!entry || std::none_of(functions.begin(), functions.end(),
                             [&](const auto &f) { return f.get() == entry; }))
    return Status::error("the kernel's module is not loaded");
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  std::string kernel = "kernel '" + entry->name + "': ";
  if (device != entry->device)
    return Status::error(
        kernel + "it was loaded on device " + std::to_string(entry->device) +
        " but launched on a stream of device " + std::to_string(device));
  // The checks and their words are the host backend's
  // (validateKernelLaunch), with this device's limits.
  const GpuDeviceInfo &limits = devices.at(device).info;
  static const char *const axes[] = {"x", "y", "z"};
  for (const auto &[sizes, what] :
       {std::pair(launch.grid, "grid"), std::pair(launch.block, "block")})
    for (int i = 0; i < 3; ++i)
      if (sizes[i] < 1)
        return Status::error(kernel + what + " size " +
                             std::to_string(sizes[i]) + " in " + axes[i] +
                             ": every dimension of the grid and of a block "
                             "must be at least 1");
  int64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (launch.block[i] > limits.maxBlock[i])
      return Status::error(kernel + "block size " +
                           std::to_string(launch.block[i]) + " in " + axes[i] +
                           ": a block has at most " +
                           std::to_string(limits.maxBlock[i]) + " threads in " +
                           axes[i] + " on this device");
    threads *= launch.block[i];
  }
  if (threads > entry->maxThreads)
    return Status::error(
        kernel + "a block of " + std::to_string(launch.block[0]) + " x " +
        std::to_string(launch.block[1]) + " x " +
        std::to_string(launch.block[2]) + " = " + std::to_string(threads) +
        " threads: a block of this kernel has at most " +
        std::to_string(entry->maxThreads) + " threads on this device");
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] > limits.maxGrid[i])
      return Status::error(kernel + "grid size " +
                           std::to_string(launch.grid[i]) + " in " + axes[i] +
                           ": a grid has at most " +
                           std::to_string(limits.maxGrid[i]) + " blocks in " +
                           axes[i] + " on this device");
  int64_t dynamicShared = launch.sharedMemoryBytes;
  if (dynamicShared < 0)
    return Status::error(kernel + "negative dynamic shared memory size " +
                         std::to_string(dynamicShared));
  if (dynamicShared > entry->dynamicSharedLimit) {
    if (entry->staticSharedBytes + dynamicShared > limits.maxSharedPerBlock)
      return Status::error(
          kernel + std::to_string(entry->staticSharedBytes) +
          " bytes of static and " + std::to_string(dynamicShared) +
          " bytes of dynamic workgroup memory: a block has at most " +
          std::to_string(limits.maxSharedPerBlock) + " bytes on this device");
    GPU_RUNNER_RETURN_IF_ERROR(
        check(driver.setMaxDynamicSharedBytes(entry->handle, dynamicShared)));
    entry->dynamicSharedLimit = dynamicShared;
  }

  GpuLaunchConfig config;
  for (int i = 0; i < 3; ++i) {
    config.grid[i] = static_cast<unsigned>(launch.grid[i]);
    config.block[i] = static_cast<unsigned>(launch.block[i]);
    if (!launch.useCluster)
      continue;
    if (launch.cluster[i] <= 0 || launch.grid[i] % launch.cluster[i] != 0)
      return Status::error(kernel + "grid size " +
                           std::to_string(launch.grid[i]) + " in " + axes[i] +
                           ": not a multiple of the cluster size " +
                           std::to_string(launch.cluster[i]));
    config.cluster[i] = static_cast<unsigned>(launch.cluster[i]);
  }
  config.useCluster = launch.useCluster;
  config.dynamicSharedBytes = static_cast<unsigned>(dynamicShared);
  if (Status supported = driver.checkLaunch(config); !supported.ok())
    return Status::error(kernel + supported.message());
  Result result = driver.launch(entry->handle, config, driverStream, params);
  if (result != 0 && !driver.isKernelFault(result))
    return Status::error(kernel + driver.describe(result));
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(result));
  LaunchRecord record{entry->name, loc ? loc : ""};
  lastLaunch = record;
  if (stream) {
    Token *token = nullptr;
    GPU_RUNNER_RETURN_IF_ERROR(resolveToken(stream, token));
    token->lastLaunch = std::move(record);
    return Status();
  }
  return checkResult(driver.synchronizeStream(driverStream), &lastLaunch);
}

} // namespace gpu_runner
