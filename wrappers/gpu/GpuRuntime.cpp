//===- GpuRuntime.cpp - The GPU backends' runtime: devices, and the exit --===//
//
// See GpuRuntime.h. Streams and events are GpuStreams.cpp, timers
// GpuTimers.cpp, memory GpuMemory.cpp, modules and launches GpuKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "wrappers/gpu/GpuRuntime.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace gpu_runner {
namespace {

/// The context each thread has made current, to skip redundant switches.
thread_local void *currentContext = nullptr;

} // namespace

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

Status GpuRuntime::check(Result result) const {
  if (result == 0)
    return Status();
  return Status::error(driver.describe(result));
}

Status GpuRuntime::loadDriverLocked() {
  if (loaded)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(driver.load());
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.getDeviceCount(deviceCount)));
  if (deviceCount == 0)
    return Status::error(std::string("no ") + driver.vendor() +
                         " device: the driver is installed but sees no GPU");
  loaded = true;
  return Status();
}

Status GpuRuntime::checkDeviceIndex(int device) const {
  if (device < 0 || device >= deviceCount)
    return Status::error(
        std::string("there is no ") + driver.vendor() + " device " +
        std::to_string(device) + ": this machine has " +
        std::to_string(deviceCount) +
        (deviceCount == 1
             ? " device, 0"
             : " devices, 0 to " + std::to_string(deviceCount - 1)));
  return Status();
}

Status GpuRuntime::openDevice(int device) {
  GPU_RUNNER_RETURN_IF_ERROR(checkDeviceIndex(device));
  if (devices.count(device))
    return Status();
  Device entry;
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.openDevice(device, entry.info)));
  devices.emplace(device, std::move(entry));
  return Status();
}

Status GpuRuntime::makeCurrent(int device) {
  const GpuDeviceInfo &info = devices.at(device).info;
  if (currentContext && currentContext == info.context)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.makeCurrent(info)));
  currentContext = info.context;
  return Status();
}

Status GpuRuntime::initialize(int device) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  GPU_RUNNER_RETURN_IF_ERROR(openDevice(device));
  defaultDevice = device;
  return makeCurrent(device);
}

Status GpuRuntime::setDefaultDevice(int32_t device, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  GPU_RUNNER_RETURN_IF_ERROR(openDevice(device));
  defaultDevice = device;
  return makeCurrent(device);
}

Status GpuRuntime::describeDevices(std::string &text) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  text.clear();
  for (int i = 0; i < deviceCount; ++i) {
    std::string name, chip;
    uint64_t memory = 0;
    GPU_RUNNER_RETURN_IF_ERROR(
        check(driver.describeDevice(i, name, chip, memory)));
    char line[400];
    std::snprintf(line, sizeof(line), "%d: %s (%s, %.1f GiB)\n", i,
                  name.c_str(), chip.c_str(),
                  static_cast<double>(memory) / (1024.0 * 1024 * 1024));
    text += line;
  }
  return Status();
}

Status GpuRuntime::getDeviceChip(int device, std::string &chip) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  // Asking needs no context: a run that stops before it starts leaves
  // nothing retained.
  GPU_RUNNER_RETURN_IF_ERROR(checkDeviceIndex(device));
  std::string name;
  uint64_t memory = 0;
  return check(driver.describeDevice(device, name, chip, memory));
}

Status GpuRuntime::checkResult(Result result, const LaunchRecord *launch) {
  if (result == 0)
    return Status();
  if (!driver.isKernelFault(result))
    return check(result);
  const LaunchRecord &culprit =
      launch && !launch->kernel.empty() ? *launch : lastLaunch;
  if (culprit.kernel.empty())
    return check(result);
  return Status::errorAt(culprit.loc,
                         "kernel '" + culprit.kernel +
                             "' failed: " + driver.describe(result) +
                             " (noticed at a later synchronization; a kernel "
                             "fault ends the program)");
}

Status GpuRuntime::synchronize() {
  std::unique_lock<std::mutex> lock(mutex);
  if (!loaded)
    return Status();
  std::vector<int> used;
  used.reserve(devices.size());
  for (auto &[index, device] : devices)
    used.push_back(index);
  for (int index : used) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(index));
    lock.unlock();
    Result result = driver.synchronizeDevice();
    lock.lock();
    GPU_RUNNER_RETURN_IF_ERROR(checkResult(result));
  }
  return Status();
}

//===----------------------------------------------------------------------===//
// Exit
//===----------------------------------------------------------------------===//

Status GpuRuntime::finalize(std::vector<Warning> &leaks) {
  std::lock_guard<std::mutex> lock(mutex);
  leaks.clear();
  if (!loaded)
    return Status();
  for (auto &[index, device] : devices) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(index));
    GPU_RUNNER_RETURN_IF_ERROR(checkResult(driver.synchronizeDevice()));
  }
  // Oldest first, as Runtime::finalize promises: the table is in the order
  // of addresses, which the driver may reuse in any order.
  std::vector<std::pair<uintptr_t, const Allocation *>> live;
  for (const auto &[base, record] : allocations)
    if (!record.freed)
      live.emplace_back(base, &record);
  std::sort(live.begin(), live.end(), [](const auto &a, const auto &b) {
    return a.second->serial < b.second->serial;
  });
  LeakTally tally;
  for (const auto &[base, record] : live) {
    tally.add(record->loc, record->bytes);
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(record->device));
    GPU_RUNNER_RETURN_IF_ERROR(
        check(driver.free(reinterpret_cast<void *>(base))));
  }
  allocations.clear();
  for (LeakTally::Line &line : tally.lines())
    leaks.push_back(Warning{std::move(line.loc), std::move(line.message)});
  for (auto *table : {&tokens, &draining}) {
    for (auto &[id, token] : *table) {
      GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(token.device));
      if (token.isEvent)
        GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(token.event)));
      else
        GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyStream(token.stream)));
    }
    table->clear();
  }
  sweepDrainingAt = 0;
  for (auto &[handle, timer] : timers) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(timer->device));
    for (void *event : {timer->start, timer->stop})
      if (event)
        GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(event)));
  }
  timers.clear();
  // The record's points are read now, while their events exist; the ones
  // that fail to read are dropped.
  for (auto it = timePoints.begin(); it != timePoints.end();) {
    TimePoint &point = *it->second;
    (void)resolveTimePoint(point);
    if (point.event) {
      (void)makeCurrent(point.device);
      (void)driver.destroyEvent(point.event);
      point.event = nullptr;
    }
    it = point.ns ? std::next(it) : timePoints.erase(it);
  }
  for (auto &[index, origin] : clockOrigins) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(index));
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyEvent(origin.event)));
  }
  clockOrigins.clear();
  for (auto &module : modules) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(module->device));
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.unloadModule(module->handle)));
  }
  modules.clear();
  functions.clear();
  for (auto &[begin, bytes] : registered)
    GPU_RUNNER_RETURN_IF_ERROR(
        check(driver.hostUnregister(reinterpret_cast<void *>(begin))));
  registered.clear();
  for (auto &[index, device] : devices) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(index));
    for (void *stream : device.idleStreams)
      GPU_RUNNER_RETURN_IF_ERROR(check(driver.destroyStream(stream)));
    device.idleStreams.clear();
  }
  for (auto &[index, device] : devices)
    GPU_RUNNER_RETURN_IF_ERROR(check(driver.closeDevice(device.info)));
  devices.clear();
  currentContext = nullptr;
  // Nothing is open any more: a later op says so, where it would otherwise
  // look up a device that is gone, and initialize starts again.
  loaded = false;
  return Status();
}

} // namespace gpu_runner
