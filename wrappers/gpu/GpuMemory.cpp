//===- GpuMemory.cpp - GPU runtime: memory --------------------------------===//
//
// Allocations, copies, memsets and host registration, checked against the
// allocation table; see GpuRuntime.h.
//
//===----------------------------------------------------------------------===//

#include "wrappers/gpu/GpuRuntime.h"

#include "wrappers/gpu/GpuCopies.h"

#include <algorithm>

namespace gpu_runner {

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Status GpuRuntime::allocate(uint64_t bytes, void *stream, bool hostShared,
                            const char *loc, void *&result) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  result = nullptr;
  if (bytes == 0)
    return Status(); // as cudaMalloc: nothing to allocate, a null pointer
  // Allocated at once, even for an asynchronous op, as on the host backend:
  // the memory is usable by anything enqueued later on any stream.
  void *pointer = nullptr;
  Result status = hostShared ? driver.allocateManaged(pointer, bytes)
                             : driver.allocate(pointer, bytes);
  if (driver.isOutOfMemory(status)) {
    uint64_t freeBytes = 0, totalBytes = 0;
    driver.getMemoryInfo(freeBytes, totalBytes);
    return Status::error(driver.describe(status) + ": " + byteCount(bytes) +
                         " were asked for, " + byteCount(freeBytes) +
                         " of the device's " + byteCount(totalBytes) +
                         " are free");
  }
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(status));
  Allocation record;
  record.serial = nextAllocationSerial++;
  record.bytes = bytes;
  record.loc = loc ? loc : "";
  record.managed = hostShared;
  record.device = device;
  allocations[reinterpret_cast<uintptr_t>(pointer)] = std::move(record);
  result = pointer;
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::free(void *ptr, void *stream, const char *loc) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
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
  // An asynchronous free happens once its stream's work is done; the
  // driver's free then waits for the device's.
  if (stream)
    GPU_RUNNER_RETURN_IF_ERROR(
        checkResult(driver.synchronizeStream(driverStream)));
  Result status = driver.free(ptr);
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(status));
  record.freed = true;
  record.freeLoc = loc ? loc : "";
  return finishIfSynchronous(stream, driverStream);
}

std::string GpuRuntime::describeDeviceMemory(const void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin())
    return "";
  --it;
  if (address - it->first >= std::max<uint64_t>(it->second.bytes, 1))
    return "";
  // As the host backend says it (host/HostMemory.cpp).
  return "the " + std::to_string(it->second.bytes) +
         "-byte allocation made by " + describeOp(it->second.loc);
}

Status GpuRuntime::checkRange(const void *ptr, uint64_t bytes,
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

Status GpuRuntime::memcpy(void *dst, const void *src, uint64_t bytes,
                          void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  if (bytes == 0)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(checkRange(dst, bytes, "destination"));
  GPU_RUNNER_RETURN_IF_ERROR(checkRange(src, bytes, "source"));
  RectangularCopy copy;
  copy.dst = static_cast<char *>(dst);
  copy.src = static_cast<const char *>(src);
  copy.widthBytes = bytes;
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(driver.copy(copy, driverStream)));
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::memcpyStrided(int64_t rank, void *dstDescriptor,
                                 void *srcDescriptor, int64_t elementSizeBytes,
                                 void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  StridedCopyPlan plan;
  GPU_RUNNER_RETURN_IF_ERROR(planStridedCopy(rank, dstDescriptor, srcDescriptor,
                                             elementSizeBytes, plan));
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(plan.dstRange.begin, plan.dstRange.bytes, "destination"));
  GPU_RUNNER_RETURN_IF_ERROR(
      checkRange(plan.srcRange.begin, plan.srcRange.bytes, "source"));
  Status status;
  forEachRectangularCopy(plan, [&](const RectangularCopy &copy) {
    status = checkResult(driver.copy(copy, driverStream));
    return status.ok();
  });
  GPU_RUNNER_RETURN_IF_ERROR(status);
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::memset(void *dst, uint64_t value, int64_t elementSizeBytes,
                          uint64_t count, void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  // The driver's fills take 1, 2, 4 and (as two 32-bit halves) 8 bytes;
  // any other size would fill the wrong bytes.
  GPU_RUNNER_RETURN_IF_ERROR(checkFillElementSize(elementSizeBytes));
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
  GPU_RUNNER_RETURN_IF_ERROR(checkResult(
      driver.fill(dst, value, elementSizeBytes, count, driverStream)));
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::memsetStrided(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes, uint64_t value,
                                 void *stream, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *driverStream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(stream, driverStream, device));
  StridedFillPlan plan;
  GPU_RUNNER_RETURN_IF_ERROR(
      planStridedFill(rank, descriptor, elementSizeBytes, plan));
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
    Result result =
        rows ? driver.fillRows(
                   dst, static_cast<uint64_t>(plan.strides[loops - 1]), value,
                   elementSizeBytes, plan.runElements,
                   static_cast<uint64_t>(plan.sizes[loops - 1]), driverStream)
             : driver.fill(dst, value, elementSizeBytes, plan.runElements,
                           driverStream);
    GPU_RUNNER_RETURN_IF_ERROR(checkResult(result));
    size_t i = outer;
    while (i > 0 && ++index[i - 1] == plan.sizes[i - 1])
      index[--i] = 0;
    if (i == 0)
      break;
  }
  return finishIfSynchronous(stream, driverStream);
}

Status GpuRuntime::hostRegister(void *ptr, uint64_t bytes, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *stream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, device));
  if (bytes == 0)
    return Status();
  GPU_RUNNER_RETURN_IF_ERROR(check(driver.hostRegister(ptr, bytes)));
  registered[reinterpret_cast<uintptr_t>(ptr)] = bytes;
  return Status();
}

Status GpuRuntime::hostUnregister(void *ptr, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *stream;
  int device;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, device));
  auto it = registered.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == registered.end())
    return Status::error(formatPointer(ptr) +
                         " is not the start of memory that gpu.host_register "
                         "registered");
  registered.erase(it);
  return check(driver.hostUnregister(ptr));
}

Status GpuRuntime::getDevicePointer(void *host, void *&device, const char *) {
  std::lock_guard<std::mutex> lock(mutex);
  void *stream;
  int deviceIndex;
  GPU_RUNNER_RETURN_IF_ERROR(resolveStream(nullptr, stream, deviceIndex));
  auto address = reinterpret_cast<uintptr_t>(host);
  auto it = registered.upper_bound(address);
  if (it == registered.begin() ||
      address - std::prev(it)->first >= std::prev(it)->second)
    return Status::error(describeUnregisteredPointer(host));
  return check(driver.getMappedPointer(device, host));
}

} // namespace gpu_runner
