//===- Runtime.cpp - The CUDA backend's runtime ---------------------------===//

#include "wrappers/cuda/Runtime.h"

#include "wrappers/MgpuAbi.h"
#include "wrappers/common/RectangularCopy.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gpu_runner {
namespace cuda {
namespace {

/// The context each thread has made current, to skip redundant switches.
thread_local CUcontext currentContext = nullptr;

/// A token handle from its id, and back. Ids start high enough that no
/// handle is a small integer a program might pass by mistake.
constexpr uint64_t kFirstTokenId = 0x1000;

uint64_t tokenId(void *token) { return reinterpret_cast<uintptr_t>(token); }

CUdeviceptr devicePointer(const void *pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

std::string byteCount(uint64_t bytes) {
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

/// Errors after which the context is unusable: a kernel did something
/// illegal, and every later call returns the same error.
bool isKernelFault(CUresult result) {
  switch (result) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
    return true;
  default:
    return false;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

Status CudaRuntime::loadDriverLocked() {
  if (api)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(loadDriver(api));
  GPU_RUNNER_RETURN_IF_ERROR(
      check(api->cuDeviceGetCount(&deviceCount), "cuDeviceGetCount"));
  if (deviceCount == 0)
    return Status::error("no CUDA device: the NVIDIA driver is installed but "
                         "sees no GPU");
  return Status();
}

Status CudaRuntime::retainDevice(int device) {
  if (device < 0 || device >= deviceCount)
    return Status::error(
        "there is no CUDA device " + std::to_string(device) +
        ": this machine has " + std::to_string(deviceCount) +
        (deviceCount == 1
             ? " device, 0"
             : " devices, 0 to " + std::to_string(deviceCount - 1)));
  if (devices.count(device))
    return Status();
  Device entry;
  GPU_RUNNER_RETURN_IF_ERROR(check(api->cuDeviceGet(&entry.handle, device)));
  GPU_RUNNER_RETURN_IF_ERROR(
      check(api->cuDevicePrimaryCtxRetain(&entry.context, entry.handle)));
  auto attribute = [&](CUdevice_attribute which, int &value) {
    return check(api->cuDeviceGetAttribute(&value, which, entry.handle));
  };
  GPU_RUNNER_RETURN_IF_ERROR(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                entry.maxSharedOptIn));
  const CUdevice_attribute gridAttributes[] = {
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  const CUdevice_attribute blockAttributes[] = {
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  for (int i = 0; i < 3; ++i) {
    GPU_RUNNER_RETURN_IF_ERROR(attribute(gridAttributes[i], entry.maxGrid[i]));
    GPU_RUNNER_RETURN_IF_ERROR(
        attribute(blockAttributes[i], entry.maxBlock[i]));
  }
  GPU_RUNNER_RETURN_IF_ERROR(attribute(
      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, entry.maxThreadsPerBlock));
  devices.emplace(device, std::move(entry));
  return Status();
}

Status CudaRuntime::makeCurrent(int device) {
  CUcontext context = devices.at(device).context;
  if (currentContext == context)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(check(api->cuCtxSetCurrent(context)));
  currentContext = context;
  return Status();
}

Status CudaRuntime::initialize(int device) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  GPU_RUNNER_RETURN_IF_ERROR(retainDevice(device));
  defaultDevice = device;
  return makeCurrent(device);
}

Status CudaRuntime::setDefaultDevice(int32_t device) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  GPU_RUNNER_RETURN_IF_ERROR(retainDevice(device));
  defaultDevice = device;
  return makeCurrent(device);
}

Status CudaRuntime::describeDevices(std::string &text) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  text.clear();
  for (int i = 0; i < deviceCount; ++i) {
    CUdevice device;
    GPU_RUNNER_RETURN_IF_ERROR(check(api->cuDeviceGet(&device, i)));
    char name[256] = {};
    GPU_RUNNER_RETURN_IF_ERROR(
        check(api->cuDeviceGetName(name, sizeof(name) - 1, device)));
    size_t memory = 0;
    GPU_RUNNER_RETURN_IF_ERROR(check(api->cuDeviceTotalMem(&memory, device)));
    int major = 0, minor = 0;
    GPU_RUNNER_RETURN_IF_ERROR(check(api->cuDeviceGetAttribute(
        &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device)));
    GPU_RUNNER_RETURN_IF_ERROR(check(api->cuDeviceGetAttribute(
        &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device)));
    char line[400];
    std::snprintf(line, sizeof(line), "%d: %s (sm_%d%d, %.1f GiB)\n", i, name,
                  major, minor,
                  static_cast<double>(memory) / (1024.0 * 1024 * 1024));
    text += line;
  }
  return Status();
}

Status CudaRuntime::getDeviceChip(int device, std::string &chip) {
  std::lock_guard<std::mutex> lock(mutex);
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLocked());
  GPU_RUNNER_RETURN_IF_ERROR(retainDevice(device));
  int major = 0, minor = 0;
  CUdevice handle = devices.at(device).handle;
  GPU_RUNNER_RETURN_IF_ERROR(check(api->cuDeviceGetAttribute(
      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle)));
  GPU_RUNNER_RETURN_IF_ERROR(check(api->cuDeviceGetAttribute(
      &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle)));
  chip = "sm_" + std::to_string(major) + std::to_string(minor);
  return Status();
}

Status CudaRuntime::checkResult(CUresult result, const LaunchRecord *launch) {
  if (result == CUDA_SUCCESS)
    return Status();
  if (!isKernelFault(result))
    return check(result);
  const LaunchRecord &culprit =
      launch && !launch->kernel.empty() ? *launch : lastLaunch;
  if (culprit.kernel.empty())
    return check(result);
  return Status::errorAt(culprit.loc,
                         "kernel @" + culprit.kernel +
                             " failed: " + describeError(result) +
                             " (noticed at a later synchronization; a kernel "
                             "fault ends the program)");
}

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

void *CudaRuntime::addToken(Token token) {
  if (nextTokenId < kFirstTokenId)
    nextTokenId = kFirstTokenId;
  uint64_t id = nextTokenId++;
  tokens.emplace(id, std::move(token));
  return reinterpret_cast<void *>(static_cast<uintptr_t>(id));
}

bool CudaRuntime::isReleased(void *token) const {
  uint64_t id = tokenId(token);
  return id >= kFirstTokenId && id < nextTokenId && !tokens.count(id);
}

Status CudaRuntime::resolveToken(void *token, Token *&result) {
  auto it = tokens.find(tokenId(token));
  if (it != tokens.end()) {
    result = &it->second;
    return Status();
  }
  if (isReleased(token))
    return Status::error(
        "the stream of this op's async dependency was already released by a "
        "gpu.wait (or joined into another stream), and cannot take new work");
  return Status::error("invalid stream handle " + formatPointer(token) +
                       ": no stream or event of this program has it");
}

Status CudaRuntime::resolveStream(void *token, CUstream &stream, int &device) {
  if (!api)
    return Status::error("the CUDA backend was not initialized");
  if (!token) {
    stream = CU_STREAM_LEGACY;
    device = defaultDevice;
    return makeCurrent(device);
  }
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(token, entry));
  if (entry->isEvent)
    return Status::error("an event was passed where a stream was expected");
  stream = entry->stream;
  device = entry->device;
  return makeCurrent(device);
}

Status CudaRuntime::finishIfSynchronous(void *token, CUstream stream) {
  if (token)
    return Status();
  return checkResult(api->cuStreamSynchronize(stream));
}

Status CudaRuntime::createStream(void *&stream) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!api)
    return Status::error("the CUDA backend was not initialized");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(defaultDevice));
  Token token;
  token.device = defaultDevice;
  std::vector<CUstream> &idle = devices.at(defaultDevice).idleStreams;
  if (!idle.empty()) {
    token.stream = idle.back();
    idle.pop_back();
  } else {
    GPU_RUNNER_RETURN_IF_ERROR(
        check(api->cuStreamCreate(&token.stream, CU_STREAM_DEFAULT)));
  }
  stream = addToken(std::move(token));
  return Status();
}

Status CudaRuntime::releaseStream(Token &token) {
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(token.device));
  if (token.isEvent)
    return check(api->cuEventDestroy(token.event));
  // A stream with nothing left to run can be handed out again; one still
  // busy is destroyed, which the driver defers until its work is done.
  CUresult idle = api->cuStreamQuery(token.stream);
  if (idle == CUDA_SUCCESS) {
    devices.at(token.device).idleStreams.push_back(token.stream);
    return Status();
  }
  if (idle != CUDA_ERROR_NOT_READY)
    return checkResult(idle, &token.lastLaunch);
  return check(api->cuStreamDestroy(token.stream));
}

Status CudaRuntime::destroyStream(void *token) {
  std::lock_guard<std::mutex> lock(mutex);
  // Releasing a token twice is fine: programs wait on a token twice.
  if (isReleased(token))
    return Status();
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(token, entry));
  Token released = std::move(*entry);
  tokens.erase(tokenId(token));
  return releaseStream(released);
}

Status CudaRuntime::synchronizeStream(void *token) {
  std::unique_lock<std::mutex> lock(mutex);
  // A released stream's work was waited for by the gpu.wait that released
  // it, or by the stream it was joined into.
  if (isReleased(token))
    return Status();
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(token, entry));
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(entry->device));
  bool isEvent = entry->isEvent;
  CUstream stream = entry->stream;
  CUevent event = entry->event;
  LaunchRecord launch = entry->lastLaunch;
  // Others may enqueue while this thread waits.
  lock.unlock();
  CUresult result = isEvent ? api->cuEventSynchronize(event)
                            : api->cuStreamSynchronize(stream);
  lock.lock();
  return checkResult(result, &launch);
}

Status CudaRuntime::joinStream(void *stream, void *dependency) {
  std::lock_guard<std::mutex> lock(mutex);
  if (stream == dependency || isReleased(dependency))
    return Status();
  Token *target = nullptr, *source = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(stream, target));
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(dependency, source));
  if (target->isEvent)
    return Status::error("an event was passed where a stream was expected");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(source->device));
  CUevent event = source->event;
  if (!source->isEvent) {
    GPU_RUNNER_RETURN_IF_ERROR(
        check(api->cuEventCreate(&event, CU_EVENT_DISABLE_TIMING)));
    GPU_RUNNER_RETURN_IF_ERROR(
        check(api->cuEventRecord(event, source->stream)));
  }
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(target->device));
  GPU_RUNNER_RETURN_IF_ERROR(
      check(api->cuStreamWaitEvent(target->stream, event, 0)));
  if (target->lastLaunch.kernel.empty())
    target->lastLaunch = source->lastLaunch;
  if (!source->isEvent)
    GPU_RUNNER_RETURN_IF_ERROR(check(api->cuEventDestroy(event)));
  Token released = std::move(*source);
  tokens.erase(tokenId(dependency));
  return releaseStream(released);
}

Status CudaRuntime::recordEventOnStream(void *stream, void *&event) {
  std::lock_guard<std::mutex> lock(mutex);
  Token *source = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(stream, source));
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(source->device));
  if (source->isEvent)
    return Status::error("an event was passed where a stream was expected");
  Token token;
  token.isEvent = true;
  token.device = source->device;
  token.lastLaunch = source->lastLaunch;
  GPU_RUNNER_RETURN_IF_ERROR(
      check(api->cuEventCreate(&token.event, CU_EVENT_DISABLE_TIMING)));
  GPU_RUNNER_RETURN_IF_ERROR(
      check(api->cuEventRecord(token.event, source->stream)));
  event = addToken(std::move(token));
  return Status();
}

Status CudaRuntime::streamFromToken(void *token, void *&stream) {
  std::lock_guard<std::mutex> lock(mutex);
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(token, entry));
  if (!entry->isEvent) {
    stream = token;
    return Status();
  }
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(entry->device));
  Token fresh;
  fresh.device = entry->device;
  fresh.lastLaunch = entry->lastLaunch;
  std::vector<CUstream> &idle = devices.at(fresh.device).idleStreams;
  if (!idle.empty()) {
    fresh.stream = idle.back();
    idle.pop_back();
  } else {
    GPU_RUNNER_RETURN_IF_ERROR(
        check(api->cuStreamCreate(&fresh.stream, CU_STREAM_DEFAULT)));
  }
  GPU_RUNNER_RETURN_IF_ERROR(
      check(api->cuStreamWaitEvent(fresh.stream, entry->event, 0)));
  GPU_RUNNER_RETURN_IF_ERROR(check(api->cuEventDestroy(entry->event)));
  tokens.erase(tokenId(token));
  stream = addToken(std::move(fresh));
  return Status();
}

Status CudaRuntime::createEvent(void *&event) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!api)
    return Status::error("the CUDA backend was not initialized");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(defaultDevice));
  Token token;
  token.isEvent = true;
  token.device = defaultDevice;
  GPU_RUNNER_RETURN_IF_ERROR(
      check(api->cuEventCreate(&token.event, CU_EVENT_DISABLE_TIMING)));
  event = addToken(std::move(token));
  return Status();
}

Status CudaRuntime::destroyEvent(void *event) { return destroyStream(event); }

Status CudaRuntime::recordEvent(void *event, void *stream) {
  std::lock_guard<std::mutex> lock(mutex);
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(event, entry));
  if (!entry->isEvent)
    return Status::error("a stream was passed where an event was expected");
  CUevent handle = entry->event;
  CUstream driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  return check(api->cuEventRecord(handle, driverStream));
}

Status CudaRuntime::synchronizeEvent(void *event) {
  return synchronizeStream(event);
}

Status CudaRuntime::streamWaitEvent(void *stream, void *event) {
  std::lock_guard<std::mutex> lock(mutex);
  Token *entry = nullptr;
  GPU_RUNNER_RETURN_IF_ERROR(resolveToken(event, entry));
  if (!entry->isEvent)
    return Status::error("a stream was passed where an event was expected");
  CUevent handle = entry->event;
  CUstream driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  return check(api->cuStreamWaitEvent(driverStream, handle, 0));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Status CudaRuntime::allocate(uint64_t bytes, void *stream, bool hostShared,
                             const char *loc, void *&result) {
  std::lock_guard<std::mutex> lock(mutex);
  CUstream driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  result = nullptr;
  if (bytes == 0)
    return Status(); // as cudaMalloc: nothing to allocate, a null pointer
  // Allocated at once, even for an asynchronous op, as on the host backend:
  // the memory is usable by anything enqueued later on any stream.
  CUdeviceptr pointer = 0;
  CUresult status =
      hostShared ? api->cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL)
                 : api->cuMemAlloc(&pointer, bytes);
  if (status == CUDA_ERROR_OUT_OF_MEMORY) {
    size_t freeBytes = 0, totalBytes = 0;
    api->cuMemGetInfo(&freeBytes, &totalBytes);
    return Status::error(describeError(status) + ": " + byteCount(bytes) +
                         " were asked for, " + byteCount(freeBytes) +
                         " of the device's " + byteCount(totalBytes) +
                         " are free");
  }
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(status));
  Allocation record;
  record.bytes = bytes;
  record.loc = loc ? loc : "";
  record.managed = hostShared;
  record.device = device;
  allocations[static_cast<uintptr_t>(pointer)] = std::move(record);
  ++allocationSequence;
  result = reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
  return finishIfSynchronous(stream, driverStream);
}

Status CudaRuntime::free(void *ptr, void *stream, const char *loc) {
  std::lock_guard<std::mutex> lock(mutex);
  CUstream driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  if (!ptr)
    return Status(); // a zero-byte allocation
  auto it = allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == allocations.end())
    return Status::error(formatPointer(ptr) +
                         " is not device memory that gpu.alloc returned");
  Allocation &record = it->second;
  if (record.freed)
    return Status::error("double free: the allocation of " +
                         byteCount(record.bytes) + " made by " +
                         describeOp(record.loc) + " was already freed by " +
                         describeOp(record.freeLoc));
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(record.device));
  // An asynchronous free happens once its stream's work is done; cuMemFree
  // then waits for the device's.
  if (stream)
    GPU_RUNNER_RETURN_IF_ERROR(
        checkResult(api->cuStreamSynchronize(driverStream)));
  CUresult status = api->cuMemFree(devicePointer(ptr));
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(status));
  record.freed = true;
  record.freeLoc = loc ? loc : "";
  return finishIfSynchronous(stream, driverStream);
}

Status CudaRuntime::checkRange(const void *ptr, uint64_t bytes,
                               const char *what) {
  if (bytes == 0)
    return Status();
  std::string side = std::string("the ") + what;
  if (!ptr)
    return Status::error(side + " is a null pointer");
  uintptr_t begin = reinterpret_cast<uintptr_t>(ptr);
  auto it = allocations.upper_bound(begin);
  if (it == allocations.begin())
    return Status();
  --it;
  const Allocation &record = it->second;
  uint64_t offset = begin - it->first;
  if (offset >= record.bytes)
    return Status(); // not in an allocation the table knows
  if (record.freed)
    return Status::error("use after free: " + side +
                         " is in the allocation "
                         "of " +
                         byteCount(record.bytes) + " made by " +
                         describeOp(record.loc) + ", which was freed by " +
                         describeOp(record.freeLoc));
  if (bytes > record.bytes - offset)
    return Status::error(
        "out of bounds: " + side + " spans bytes [" + std::to_string(offset) +
        ", " + std::to_string(offset + bytes) + ") of the allocation of " +
        byteCount(record.bytes) + " made by " + describeOp(record.loc) + ": " +
        byteCount(offset + bytes - record.bytes) + " past its end");
  return Status();
}

Status CudaRuntime::memcpy(void *dst, const void *src, uint64_t bytes,
                           void *stream) {
  std::lock_guard<std::mutex> lock(mutex);
  CUstream driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  if (bytes == 0)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(checkRange(dst, bytes, "destination"));
  GPU_RUNNER_RETURN_IF_ERROR(checkRange(src, bytes, "source"));
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(api->cuMemcpyAsync(
      devicePointer(dst), devicePointer(src), bytes, driverStream)));
  return finishIfSynchronous(stream, driverStream);
}

Status CudaRuntime::copyPlanned(const StridedCopyPlan &plan, CUstream stream) {
  Status status;
  forEachRectangularCopy(plan, [&](const RectangularCopy &copy) {
    CUresult result;
    switch (copy.dimensions()) {
    case 1:
      result =
          api->cuMemcpyAsync(devicePointer(copy.dst), devicePointer(copy.src),
                             copy.widthBytes, stream);
      break;
    case 2: {
      CUDA_MEMCPY2D params;
      std::memset(&params, 0, sizeof(params));
      params.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
      params.srcDevice = devicePointer(copy.src);
      params.srcPitch = copy.srcPitch;
      params.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
      params.dstDevice = devicePointer(copy.dst);
      params.dstPitch = copy.dstPitch;
      params.WidthInBytes = copy.widthBytes;
      params.Height = copy.height;
      result = api->cuMemcpy2DAsync(&params, stream);
      break;
    }
    default: {
      CUDA_MEMCPY3D params;
      std::memset(&params, 0, sizeof(params));
      params.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
      params.srcDevice = devicePointer(copy.src);
      params.srcPitch = copy.srcPitch;
      params.srcHeight = copy.srcHeight;
      params.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
      params.dstDevice = devicePointer(copy.dst);
      params.dstPitch = copy.dstPitch;
      params.dstHeight = copy.dstHeight;
      params.WidthInBytes = copy.widthBytes;
      params.Height = copy.height;
      params.Depth = copy.depth;
      result = api->cuMemcpy3DAsync(&params, stream);
      break;
    }
    }
    status = checkResult(result);
    return status.ok();
  });
  return status;
}

Status CudaRuntime::memcpyStrided(int64_t rank, void *dstDescriptor,
                                  void *srcDescriptor, int64_t elementSizeBytes,
                                  void *stream) {
  std::lock_guard<std::mutex> lock(mutex);
  CUstream driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  MemRefView dst, src;
  GPU_RUNNER_RETURN_IF_ERROR(readMemRefDescriptor(
      rank, dstDescriptor, elementSizeBytes, "destination", dst));
  GPU_RUNNER_RETURN_IF_ERROR(readMemRefDescriptor(
      rank, srcDescriptor, elementSizeBytes, "source", src));
  StridedCopyPlan plan;
  GPU_RUNNER_RETURN_IF_ERROR(planStridedCopy(dst, src, plan));
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(plan.dstRange.begin, plan.dstRange.bytes, "destination"));
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(plan.srcRange.begin, plan.srcRange.bytes, "source"));
  GPU_RUNNER_RETURN_IF_ERROR(copyPlanned(plan, driverStream));
  return finishIfSynchronous(stream, driverStream);
}

namespace {

/// Fills `count` elements at `dst` on `stream` with the driver's memsets.
CUresult fill(const DriverApi &api, CUdeviceptr dst, uint64_t value,
              int64_t elementSizeBytes, uint64_t count, CUstream stream) {
  switch (elementSizeBytes) {
  case 1:
    return api.cuMemsetD8Async(dst, static_cast<unsigned char>(value), count,
                               stream);
  case 2:
    return api.cuMemsetD16Async(dst, static_cast<unsigned short>(value), count,
                                stream);
  case 4:
    return api.cuMemsetD32Async(dst, static_cast<unsigned int>(value), count,
                                stream);
  default: {
    // No 64-bit memset: the low and the high words as two 2-D fills of
    // one 32-bit column each, eight bytes apart.
    auto low = static_cast<unsigned int>(value);
    auto high = static_cast<unsigned int>(value >> 32);
    if (low == high)
      return api.cuMemsetD32Async(dst, low, 2 * count, stream);
    CUresult result = api.cuMemsetD2D32Async(dst, 8, low, 1, count, stream);
    if (result != CUDA_SUCCESS)
      return result;
    return api.cuMemsetD2D32Async(dst + 4, 8, high, 1, count, stream);
  }
  }
}

} // namespace

Status CudaRuntime::memset(void *dst, uint64_t value, int64_t elementSizeBytes,
                           uint64_t count, void *stream) {
  std::lock_guard<std::mutex> lock(mutex);
  CUstream driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  if (count == 0)
    return Status();
  if (count > UINT64_MAX / static_cast<uint64_t>(elementSizeBytes))
    return Status::error("the memset of " + std::to_string(count) +
                         " elements overflows 64-bit byte counts");
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(dst, count * elementSizeBytes, "destination"));
  if (reinterpret_cast<uintptr_t>(dst) % elementSizeBytes != 0)
    return Status::error("the destination " + formatPointer(dst) +
                         " is not aligned to its " +
                         byteCount(elementSizeBytes) + " elements");
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(fill(
      *api, devicePointer(dst), value, elementSizeBytes, count, driverStream)));
  return finishIfSynchronous(stream, driverStream);
}

Status CudaRuntime::memsetStrided(int64_t rank, void *descriptor,
                                  int64_t elementSizeBytes, uint64_t value,
                                  void *stream) {
  std::lock_guard<std::mutex> lock(mutex);
  CUstream driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  MemRefView view;
  GPU_RUNNER_RETURN_IF_ERROR(readMemRefDescriptor(
      rank, descriptor, elementSizeBytes, "destination", view));
  StridedFillPlan plan;
  GPU_RUNNER_RETURN_IF_ERROR(planStridedFill(view, plan));
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(plan.range.begin, plan.range.bytes, "destination"));
  if (plan.runElements == 0)
    return finishIfSynchronous(stream, driverStream);
  // The innermost loop becomes the rows of a 2-D memset where the driver
  // has one (elements of up to 4 bytes) and the pitch fits.
  size_t loops = plan.sizes.size();
  uint64_t runBytes = plan.runElements * elementSizeBytes;
  bool rows = elementSizeBytes <= 4 && loops >= 1 &&
              plan.strides[loops - 1] >= static_cast<int64_t>(runBytes) &&
              plan.strides[loops - 1] <= kMaxCopyPitch;
  size_t outer = rows ? loops - 1 : loops;
  std::vector<int64_t> index(outer, 0);
  while (true) {
    char *dst = plan.dst;
    for (size_t i = 0; i < outer; ++i)
      dst += index[i] * plan.strides[i];
    CUresult result;
    if (rows) {
      auto pitch = static_cast<size_t>(plan.strides[loops - 1]);
      auto height = static_cast<size_t>(plan.sizes[loops - 1]);
      if (elementSizeBytes == 1)
        result = api->cuMemsetD2D8Async(devicePointer(dst), pitch,
                                        static_cast<unsigned char>(value),
                                        plan.runElements, height, driverStream);
      else if (elementSizeBytes == 2)
        result = api->cuMemsetD2D16Async(
            devicePointer(dst), pitch, static_cast<unsigned short>(value),
            plan.runElements, height, driverStream);
      else
        result = api->cuMemsetD2D32Async(
            devicePointer(dst), pitch, static_cast<unsigned int>(value),
            plan.runElements, height, driverStream);
    } else {
      result = fill(*api, devicePointer(dst), value, elementSizeBytes,
                    plan.runElements, driverStream);
    }
    GPU_RUNNER_RETURN_IF_ERROR(checkResult(result));
    size_t i = outer;
    while (i > 0 && ++index[i - 1] == plan.sizes[i - 1])
      index[--i] = 0;
    if (i == 0)
      break;
  }
  return finishIfSynchronous(stream, driverStream);
}

Status CudaRuntime::hostRegister(void *ptr, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  CUstream stream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, device));
  if (bytes == 0)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(
      check(api->cuMemHostRegister(ptr, bytes, CU_MEMHOSTREGISTER_PORTABLE)));
  registered[reinterpret_cast<uintptr_t>(ptr)] = bytes;
  return Status();
}

Status CudaRuntime::hostUnregister(void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  CUstream stream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, device));
  auto it = registered.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == registered.end())
    return Status::error(formatPointer(ptr) +
                         " is not the start of memory that gpu.host_register "
                         "registered");
  registered.erase(it);
  return check(api->cuMemHostUnregister(ptr));
}

Status CudaRuntime::hostRegisterMemRef(int64_t rank, void *descriptor,
                                       int64_t elementSizeBytes) {
  MemRefView view;
  GPU_RUNNER_RETURN_IF_ERROR(
      readMemRefDescriptor(rank, descriptor, elementSizeBytes, "memref", view));
  ByteRange range;
  GPU_RUNNER_RETURN_IF_ERROR(computeByteRange(view, "memref", range));
  return hostRegister(range.begin, range.bytes);
}

Status CudaRuntime::hostUnregisterMemRef(int64_t rank, void *descriptor,
                                         int64_t elementSizeBytes) {
  MemRefView view;
  GPU_RUNNER_RETURN_IF_ERROR(
      readMemRefDescriptor(rank, descriptor, elementSizeBytes, "memref", view));
  ByteRange range;
  GPU_RUNNER_RETURN_IF_ERROR(computeByteRange(view, "memref", range));
  if (range.bytes == 0)
    return Status();
  return hostUnregister(range.begin);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

Status CudaRuntime::loadModule(const void *data, uint64_t bytes, int32_t format,
                               int optLevel, void *&module) {
  std::lock_guard<std::mutex> lock(mutex);
  CUstream stream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, device));
  if (!data || bytes == 0)
    return Status::error("the GPU binary is empty");
  auto entry = std::make_unique<Module>();
  entry->device = device;
  if (format == kDeviceObjectAssembly) {
    // The driver compiles PTX; its log says why when it cannot.
    char log[8192] = {};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_OPTIMIZATION_LEVEL};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1),
                      reinterpret_cast<void *>(static_cast<uintptr_t>(
                          std::min(std::max(optLevel, 0), 4)))};
    CUresult result =
        api->cuModuleLoadDataEx(&entry->handle, data, 3, options, values);
    if (result != CUDA_SUCCESS)
      return Status::error(describeError(result) +
                           (log[0] ? std::string(": the driver could not "
                                                 "compile the PTX:\n") +
                                         log
                                   : std::string()));
  } else if (format == kDeviceObjectBinary) {
    CUresult result = api->cuModuleLoadData(&entry->handle, data);
    if (result == CUDA_ERROR_NO_BINARY_FOR_GPU ||
        result == CUDA_ERROR_INVALID_IMAGE)
      return Status::error(describeError(result) +
                           ": the kernels were compiled for another chip; "
                           "run without --gpu-chip to compile for this "
                           "device");
    GPU_RUNNER_RETURN_IF_ERROR(check(result));
  } else {
    return Status::error("unknown GPU object format " + std::to_string(format));
  }
  module = entry.get();
  modules.push_back(std::move(entry));
  return Status();
}

Status CudaRuntime::unloadModule(void *module) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = std::find_if(modules.begin(), modules.end(),
                         [&](const auto &m) { return m.get() == module; });
  if (it == modules.end())
    return Status::error("the module was not loaded, or is already unloaded");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent((*it)->device));
  CUresult result = api->cuModuleUnload((*it)->handle);
  functions.erase(std::remove_if(functions.begin(), functions.end(),
                                 [&](const auto &function) {
                                   return function->module == it->get();
                                 }),
                  functions.end());
  modules.erase(it);
  return checkResult(result);
}

Status CudaRuntime::getFunction(void *module, const char *name,
                                void *&function) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = std::find_if(modules.begin(), modules.end(),
                         [&](const auto &m) { return m.get() == module; });
  if (it == modules.end())
    return Status::error("the module of kernel @" +
                         std::string(name ? name : "") + " is not loaded");
  GPU_RUNNER_RETURN_IF_ERROR(makeCurrent((*it)->device));
  auto entry = std::make_unique<Function>();
  entry->name = name ? name : "";
  entry->module = it->get();
  entry->device = (*it)->device;
  CUresult result =
      api->cuModuleGetFunction(&entry->handle, (*it)->handle, name);
  if (result == CUDA_ERROR_NOT_FOUND)
    return Status::error("the GPU binary has no kernel @" + entry->name);
  GPU_RUNNER_RETURN_IF_ERROR(check(result));
  GPU_RUNNER_RETURN_IF_ERROR(check(api->cuFuncGetAttribute(
      &entry->staticSharedBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
      entry->handle)));
  GPU_RUNNER_RETURN_IF_ERROR(check(api->cuFuncGetAttribute(
      &entry->maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
      entry->handle)));
  function = entry.get();
  functions.push_back(std::move(entry));
  return Status();
}

Status CudaRuntime::launch(void *function, const Launch &launch, void *stream,
                           void **params, const char *loc) {
  std::lock_guard<std::mutex> lock(mutex);
  auto *entry = static_cast<Function *>(function);
  if (!entry || std::none_of(functions.begin(), functions.end(),
                             [&](const auto &f) { return f.get() == entry; }))
    return Status::error("the kernel's module is not loaded");
  CUstream driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  if (device != entry->device)
    return Status::error("kernel @" + entry->name + " was loaded on device " +
                         std::to_string(entry->device) +
                         " but launched on a stream of device " +
                         std::to_string(device));
  const Device &limits = devices.at(device);
  static const char *const axes[] = {"x", "y", "z"};
  int64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (launch.grid[i] <= 0 || launch.block[i] <= 0)
      return Status::error("kernel @" + entry->name + ": the " +
                           (launch.grid[i] <= 0 ? "grid" : "block") +
                           " size in " + axes[i] + " is " +
                           std::to_string(launch.grid[i] <= 0
                                              ? launch.grid[i]
                                              : launch.block[i]) +
                           "; sizes must be at least 1");
    if (launch.grid[i] > limits.maxGrid[i])
      return Status::error("kernel @" + entry->name + ": the grid size in " +
                           axes[i] + " is " + std::to_string(launch.grid[i]) +
                           ", more than the device's " +
                           std::to_string(limits.maxGrid[i]));
    if (launch.block[i] > limits.maxBlock[i])
      return Status::error("kernel @" + entry->name + ": the block size in " +
                           axes[i] + " is " + std::to_string(launch.block[i]) +
                           ", more than the device's " +
                           std::to_string(limits.maxBlock[i]));
    threads *= launch.block[i];
  }
  if (threads > entry->maxThreads)
    return Status::error(
        "kernel @" + entry->name + ": a block of " + std::to_string(threads) +
        " threads is more than the kernel can run (" +
        std::to_string(entry->maxThreads) + " on this device)");
  int dynamicShared = launch.sharedMemoryBytes;
  if (dynamicShared < 0)
    return Status::error("kernel @" + entry->name +
                         ": the dynamic shared memory size is negative");
  if (dynamicShared > entry->dynamicSharedLimit) {
    int available = limits.maxSharedOptIn - entry->staticSharedBytes;
    if (dynamicShared > available)
      return Status::error(
          "kernel @" + entry->name + " asks for " + byteCount(dynamicShared) +
          " of dynamic shared memory, but a block can have " +
          byteCount(limits.maxSharedOptIn) + " on this device, of which " +
          byteCount(entry->staticSharedBytes) +
          " are the kernel's static "
          "shared memory");
    GPU_RUNNER_RETURN_IF_ERROR(check(api->cuFuncSetAttribute(
        entry->handle, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        dynamicShared)));
    entry->dynamicSharedLimit = dynamicShared;
  }

  CUresult result;
  if (launch.useCluster) {
    CUlaunchAttribute attribute;
    std::memset(&attribute, 0, sizeof(attribute));
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = static_cast<unsigned>(launch.cluster[0]);
    attribute.value.clusterDim.y = static_cast<unsigned>(launch.cluster[1]);
    attribute.value.clusterDim.z = static_cast<unsigned>(launch.cluster[2]);
    for (int i = 0; i < 3; ++i)
      if (launch.cluster[i] <= 0 || launch.grid[i] % launch.cluster[i] != 0)
        return Status::error("kernel @" + entry->name + ": the grid size in " +
                             axes[i] + " (" + std::to_string(launch.grid[i]) +
                             ") is not a multiple of the cluster size (" +
                             std::to_string(launch.cluster[i]) + ")");
    CUlaunchConfig config;
    std::memset(&config, 0, sizeof(config));
    config.gridDimX = static_cast<unsigned>(launch.grid[0]);
    config.gridDimY = static_cast<unsigned>(launch.grid[1]);
    config.gridDimZ = static_cast<unsigned>(launch.grid[2]);
    config.blockDimX = static_cast<unsigned>(launch.block[0]);
    config.blockDimY = static_cast<unsigned>(launch.block[1]);
    config.blockDimZ = static_cast<unsigned>(launch.block[2]);
    config.sharedMemBytes = static_cast<unsigned>(dynamicShared);
    config.hStream = driverStream;
    config.attrs = &attribute;
    config.numAttrs = 1;
    result = api->cuLaunchKernelEx(&config, entry->handle, params, nullptr);
  } else {
    result = api->cuLaunchKernel(
        entry->handle, static_cast<unsigned>(launch.grid[0]),
        static_cast<unsigned>(launch.grid[1]),
        static_cast<unsigned>(launch.grid[2]),
        static_cast<unsigned>(launch.block[0]),
        static_cast<unsigned>(launch.block[1]),
        static_cast<unsigned>(launch.block[2]),
        static_cast<unsigned>(dynamicShared), driverStream, params, nullptr);
  }
  if (result != CUDA_SUCCESS && !isKernelFault(result))
    return Status::error("kernel @" + entry->name + ": " +
                         describeError(result));
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(result));
  LaunchRecord record{entry->name, loc ? loc : ""};
  lastLaunch = record;
  if (stream) {
    Token *token = nullptr;
    GPU_RUNNER_RETURN_IF_ERROR(resolveToken(stream, token));
    token->lastLaunch = std::move(record);
    return Status();
  }
  return checkResult(api->cuStreamSynchronize(driverStream), &lastLaunch);
}

//===----------------------------------------------------------------------===//
// Exit
//===----------------------------------------------------------------------===//

Status CudaRuntime::finalize(std::vector<Warning> &leaks) {
  std::lock_guard<std::mutex> lock(mutex);
  leaks.clear();
  if (!api)
    return Status();
  for (auto &[index, device] : devices) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(index));
    GPU_RUNNER_RETURN_IF_ERROR(checkResult(api->cuCtxSynchronize()));
  }
  for (auto &[base, record] : allocations) {
    if (record.freed)
      continue;
    leaks.push_back(Warning{record.loc, std::to_string(record.bytes) +
                                            " bytes of device memory "
                                            "allocated here were never "
                                            "freed"});
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(record.device));
    GPU_RUNNER_RETURN_IF_ERROR(check(api->cuMemFree(base)));
  }
  allocations.clear();
  for (auto &[id, token] : tokens) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(token.device));
    if (token.isEvent)
      GPU_RUNNER_RETURN_IF_ERROR(check(api->cuEventDestroy(token.event)));
    else
      GPU_RUNNER_RETURN_IF_ERROR(check(api->cuStreamDestroy(token.stream)));
  }
  tokens.clear();
  for (auto &module : modules) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(module->device));
    GPU_RUNNER_RETURN_IF_ERROR(check(api->cuModuleUnload(module->handle)));
  }
  modules.clear();
  functions.clear();
  for (auto &[begin, bytes] : registered)
    GPU_RUNNER_RETURN_IF_ERROR(
        check(api->cuMemHostUnregister(reinterpret_cast<void *>(begin))));
  registered.clear();
  for (auto &[index, device] : devices) {
    GPU_RUNNER_RETURN_IF_ERROR(makeCurrent(index));
    for (CUstream stream : device.idleStreams)
      GPU_RUNNER_RETURN_IF_ERROR(check(api->cuStreamDestroy(stream)));
    device.idleStreams.clear();
  }
  for (auto &[index, device] : devices)
    GPU_RUNNER_RETURN_IF_ERROR(
        check(api->cuDevicePrimaryCtxRelease(device.handle)));
  devices.clear();
  currentContext = nullptr;
  return Status();
}

} // namespace cuda
} // namespace gpu_runner
