//===- DriverStreams.cpp - Streams, events, copies and memsets ------------===//
//
// The Driver's streams and events, and the copies and memsets it queues on
// them (see Driver.cpp): the legacy stream's waits for the blocking
// streams, the records, waits and times of events, and the checks of each
// copy and memset against the memory it reads and writes.
//
//===----------------------------------------------------------------------===//

#include "standin/Driver.h"

#include <chrono>
#include <cstring>

namespace gpu_runner {
namespace standin {
namespace {

bool checkedMultiplyAdd(uint64_t a, uint64_t b, uint64_t c, uint64_t &result) {
  uint64_t product;
  return !__builtin_mul_overflow(a, b, &product) &&
         !__builtin_add_overflow(product, c, &result);
}

} // namespace

//===----------------------------------------------------------------------===//
// Streams and events.
//===----------------------------------------------------------------------===//

std::shared_ptr<Stream> &Driver::getNullStream(int device) {
  std::shared_ptr<Stream> &stream = devices.at(device).nullStream;
  if (!stream)
    stream = Stream::create(scheduler, 0, device, Stream::Kind::Null);
  return stream;
}

Error Driver::findStream(void *handle, std::shared_ptr<Stream> &stream) {
  // CU_STREAM_LEGACY is 0x1; null is the legacy stream too, as cuda.h's
  // entry points without the _ptds suffix take it, and HIP's null stream.
  if (!handle || handle == reinterpret_cast<void *>(1)) {
    int device = getCurrentDevice();
    if (device < 0)
      return Error::InvalidContext;
    stream = getNullStream(device);
    return Error::Success;
  }
  uint64_t id = 0;
  auto it = readHandle(handle, HandleKind::Stream, id) ? streams.find(id)
                                                       : streams.end();
  if (it == streams.end())
    return Error::InvalidHandle;
  stream = it->second;
  return Error::Success;
}

Error Driver::findEvent(void *handle, std::shared_ptr<Event> &event) {
  uint64_t id = 0;
  auto it = readHandle(handle, HandleKind::Event, id) ? events.find(id)
                                                      : events.end();
  if (it == events.end())
    return Error::InvalidHandle;
  event = it->second;
  return Error::Success;
}

Fence Driver::submit(Stream &stream, std::function<void()> work,
                     std::vector<Fence> waits, bool marker) {
  if (stream.kind == Stream::Kind::Null) {
    // "the legacy stream first waits on all blocking streams, the action is
    // queued in the legacy stream, and then all blocking streams wait on
    // the legacy stream."
    for (auto &[id, other] : streams)
      if (other->device == stream.device &&
          other->kind == Stream::Kind::Blocking && !other->isIdle())
        waits.push_back(other->tail());
  } else if (stream.kind == Stream::Kind::Blocking) {
    std::shared_ptr<Stream> &null = devices.at(stream.device).nullStream;
    if (null && !null->isIdle())
      waits.push_back(null->tail());
  }
  return stream.submit(std::move(work), std::move(waits), marker);
}

void Driver::synchronizeLocked(std::unique_lock<std::mutex> &lock,
                               Stream &stream) {
  // Synchronizing the null stream is an action on it: it waits for the
  // blocking streams too (hip_runtime_api.h, hipStreamSynchronize:
  // "specifying the null stream will cause the command to wait for other
  // streams on the same device to complete all pending operations").
  Fence fence = stream.kind == Stream::Kind::Null
                    ? submit(stream, nullptr, {}, /*marker=*/true)
                    : stream.tail();
  waitFor(scheduler, lock, fence);
}

Error Driver::createStream(bool nonBlocking, void *&handle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  uint64_t id = nextId++;
  streams[id] = Stream::create(scheduler, id, getCurrentDevice(),
                               nonBlocking ? Stream::Kind::NonBlocking
                                           : Stream::Kind::Blocking);
  handle = makeHandle(HandleKind::Stream, id);
  return Error::Success;
}

Error Driver::destroyStream(void *handle) {
  std::shared_ptr<Stream> stream;
  {
    std::lock_guard<std::mutex> lock(scheduler.mutex);
    uint64_t id = 0;
    auto it = readHandle(handle, HandleKind::Stream, id) ? streams.find(id)
                                                         : streams.end();
    if (it == streams.end())
      return Error::InvalidHandle;
    stream = it->second;
    streams.erase(it);
    // cuda.h, cuStreamDestroy: "the function will return immediately and
    // the resources associated with hStream will be released automatically
    // once the device has completed all work in hStream."
    stream->retire();
    if (!stream->isIdle()) {
      retiredStreams.push_back(stream);
      stream->detachWorker();
      return Error::Success;
    }
  }
  // An idle stream's worker ends at once: wait for it, so that no worker is
  // still ending when the process exits (LeakSanitizer's check at exit
  // stops every thread, and one half torn down can crash it).
  stream->joinWorker();
  return Error::Success;
}

Error Driver::queryStream(void *handle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Stream> stream;
  if (Error error = findStream(handle, stream); error != Error::Success)
    return error;
  if (!stream->isIdle())
    return Error::NotReady;
  // CUDA driver API: errors of earlier asynchronous launches may be
  // returned by any later call; a finished stream shows them.
  return afterWait(stream->device);
}

Error Driver::synchronizeStream(void *handle) {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Stream> stream;
  if (Error error = findStream(handle, stream); error != Error::Success)
    return error;
  synchronizeLocked(lock, *stream);
  lock.unlock();
  flushKernelOutput();
  return afterWait(stream->device);
}

Error Driver::synchronizeDevice() {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  int device = getCurrentDevice();
  // A null stream not made yet has no work: making it here would start a
  // worker just before the program exits.
  for (const Fence &fence : getAllWork(device))
    waitFor(scheduler, lock, fence);
  lock.unlock();
  flushKernelOutput();
  return afterWait(device);
}

Error Driver::getStreamDevice(void *handle, int &device) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Stream> stream;
  if (Error error = findStream(handle, stream); error != Error::Success)
    return error;
  device = stream->device;
  return Error::Success;
}

Error Driver::createEvent(unsigned flags, bool timing, void *&handle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  auto event = std::make_shared<Event>();
  event->id = nextId++;
  event->device = getCurrentDevice();
  event->flags = flags;
  event->timing = timing;
  events[event->id] = event;
  handle = makeHandle(HandleKind::Event, event->id);
  return Error::Success;
}

Error Driver::destroyEvent(void *handle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  uint64_t id = 0;
  if (!readHandle(handle, HandleKind::Event, id) || !events.erase(id))
    return Error::InvalidHandle;
  return Error::Success;
}

Error Driver::recordEvent(void *eventHandle, void *streamHandle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Event> event;
  std::shared_ptr<Stream> stream;
  if (Error error = findEvent(eventHandle, event); error != Error::Success)
    return error;
  if (Error error = findStream(streamHandle, stream); error != Error::Success)
    return error;
  // cuda.h, cuEventRecord: "hEvent and hStream must be from the same
  // context otherwise CUDA_ERROR_INVALID_HANDLE is returned."
  if (event->device != stream->device)
    return Error::InvalidHandle;
  uint64_t generation = ++event->generation;
  event->recorded = true;
  event->fence = submit(
      *stream,
      [event, generation] {
        if (event->generation == generation)
          event->reachedNs =
              std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now().time_since_epoch())
                  .count();
      },
      {}, /*marker=*/true);
  return Error::Success;
}

Error Driver::queryEvent(void *handle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Event> event;
  if (Error error = findEvent(handle, event); error != Error::Success)
    return error;
  // cuda.h, cuEventRecord: "Before the first call to cuEventRecord(), an
  // event represents an empty set of work".
  if (event->recorded && !event->fence.isDone())
    return Error::NotReady;
  return afterWait(event->device);
}

Error Driver::synchronizeEvent(void *handle) {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Event> event;
  if (Error error = findEvent(handle, event); error != Error::Success)
    return error;
  if (event->recorded)
    waitFor(scheduler, lock, event->fence);
  lock.unlock();
  flushKernelOutput();
  return afterWait(event->device);
}

Error Driver::streamWaitEvent(void *streamHandle, void *eventHandle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Event> event;
  std::shared_ptr<Stream> stream;
  if (Error error = findEvent(eventHandle, event); error != Error::Success)
    return error;
  if (Error error = findStream(streamHandle, stream); error != Error::Success)
    return error;
  // cuda.h, cuStreamWaitEvent: "hEvent may be from a different context or
  // device than hStream." A wait is an action on the stream even when the
  // event captured nothing.
  std::vector<Fence> waits;
  if (event->recorded)
    waits.push_back(event->fence);
  submit(*stream, nullptr, std::move(waits), /*marker=*/true);
  return Error::Success;
}

Error Driver::getElapsedMilliseconds(void *startHandle, void *stopHandle,
                                     float &milliseconds) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Event> start, stop;
  if (Error error = findEvent(startHandle, start); error != Error::Success)
    return error;
  if (Error error = findEvent(stopHandle, stop); error != Error::Success)
    return error;
  // cuda.h, cuEventElapsedTime: "If cuEventRecord() has not been called on
  // either event then CUDA_ERROR_INVALID_HANDLE is returned. [...] If
  // either event was created with the CU_EVENT_DISABLE_TIMING flag, then
  // this function will return CUDA_ERROR_INVALID_HANDLE." Recorded but not
  // completed: CUDA_ERROR_NOT_READY.
  if (!start->timing || !stop->timing || !start->recorded || !stop->recorded)
    return Error::InvalidHandle;
  if (!start->fence.isDone() || !stop->fence.isDone())
    return Error::NotReady;
  milliseconds = static_cast<float>(
      static_cast<double>(stop->reachedNs - start->reachedNs) / 1e6);
  return Error::Success;
}

//===----------------------------------------------------------------------===//
// Copies and memsets.
//===----------------------------------------------------------------------===//

Error Driver::copy(const CopySide &src, const CopySide &dst,
                   const CopyExtent &extent, void *streamHandle) {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Stream> stream;
  if (Error error = findStream(streamHandle, stream); error != Error::Success)
    return error;
  uint64_t width = extent.widthBytes, height = extent.height,
           depth = extent.depth;
  // The rows per slice of a side, where it has slices.
  auto hasSlices = [&](const CopySide &side) {
    return depth > 1 || side.z > 0;
  };
  if (extent.pitched) {
    // cuda.h, cuMemcpy2D and cuMemcpy3D: "srcPitch must be greater than or
    // equal to WidthInBytes + srcXInBytes, and dstPitch must be greater
    // than or equal to WidthInBytes + dstXInBytes"; "If specified,
    // srcHeight must be greater than or equal to Height + srcY, and
    // dstHeight must be greater than or equal to Height + dstY"; and "an
    // error if any pitch is greater than the maximum allowed
    // (CU_DEVICE_ATTRIBUTE_MAX_PITCH)".
    for (const CopySide *side : {&src, &dst}) {
      uint64_t needed;
      if (__builtin_add_overflow(width, side->x, &needed) ||
          side->pitch < needed)
        return Error::InvalidPitch;
      if (side->pitch > extent.maxPitch)
        return Error::InvalidValue;
      if (hasSlices(*side) &&
          (__builtin_add_overflow(height, side->y, &needed) ||
           side->sliceRows < needed))
        return Error::InvalidValue;
    }
  }
  if (width == 0 || height == 0 || depth == 0)
    return Error::Success;
  Resolved from, to;
  const char *srcStart = nullptr;
  char *dstStart = nullptr;
  for (int i = 0; i < 2; ++i) {
    const CopySide &side = i == 0 ? src : dst;
    uint64_t pitch = extent.pitched ? side.pitch : width;
    uint64_t rows = hasSlices(side) ? side.sliceRows : height;
    uint64_t offset, lastRow, span;
    // The first byte: (z * sliceRows + y) * pitch + x; the span up to the
    // last row's last byte.
    if (!checkedMultiplyAdd(side.z, rows, side.y, offset) ||
        !checkedMultiplyAdd(offset, pitch, side.x, offset) ||
        !checkedMultiplyAdd(depth - 1, rows, height - 1, lastRow) ||
        !checkedMultiplyAdd(lastRow, pitch, width, span) ||
        reinterpret_cast<uintptr_t>(side.base) + offset <
            reinterpret_cast<uintptr_t>(side.base))
      return Error::InvalidValue;
    const char *start = static_cast<const char *>(side.base) + offset;
    Resolved &resolved = i == 0 ? from : to;
    if (Error error = memory.resolve(side.base ? start : nullptr, span,
                                     /*write=*/i == 1, resolved);
        error != Error::Success)
      return error;
    bool isDevice = resolved.kind == MemoryKind::Device ||
                    resolved.kind == MemoryKind::Managed;
    if ((side.expect == CopySide::Expect::Device &&
         resolved.kind == MemoryKind::Host) ||
        (side.expect == CopySide::Expect::Host && isDevice))
      return Error::InvalidMemcpyDirection;
    if (i == 0)
      srcStart = resolved.access;
    else
      dstStart = resolved.access;
  }
  uint64_t srcPitch = extent.pitched ? src.pitch : width;
  uint64_t dstPitch = extent.pitched ? dst.pitch : width;
  uint64_t srcSlice = srcPitch * (hasSlices(src) ? src.sliceRows : height);
  uint64_t dstSlice = dstPitch * (hasSlices(dst) ? dst.sliceRows : height);
  auto work = [=] {
    for (uint64_t z = 0; z < depth; ++z)
      for (uint64_t y = 0; y < height; ++y)
        std::memmove(dstStart + z * dstSlice + y * dstPitch,
                     srcStart + z * srcSlice + y * srcPitch, width);
  };
  Fence fence = submit(*stream, work);
  // CUDA driver API, "API synchronization behavior": "For transfers from
  // any host memory to any host memory, the function is fully synchronous
  // with respect to the host." Copies with device memory run when the
  // stream reaches them, even from or to pageable memory, where the driver
  // only "might be synchronous": the strictest reading, so that a program
  // that waits too little shows it here.
  bool hostOnly =
      (from.kind == MemoryKind::Host || from.kind == MemoryKind::Registered) &&
      (to.kind == MemoryKind::Host || to.kind == MemoryKind::Registered);
  if (hostOnly)
    waitFor(scheduler, lock, fence);
  return Error::Success;
}

Error Driver::fill(void *dst, uint64_t pitch, uint64_t value,
                   unsigned elementBytes, uint64_t width, uint64_t height,
                   void *streamHandle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Stream> stream;
  if (Error error = findStream(streamHandle, stream); error != Error::Success)
    return error;
  if (width == 0 || height == 0)
    return Error::Success;
  uint64_t rowBytes, span;
  if (__builtin_mul_overflow(width, uint64_t(elementBytes), &rowBytes) ||
      !checkedMultiplyAdd(height - 1, pitch, rowBytes, span))
    return Error::InvalidValue;
  Resolved resolved;
  if (Error error = memory.resolve(dst, span, /*write=*/true, resolved);
      error != Error::Success)
    return error;
  if (resolved.kind != MemoryKind::Device &&
      resolved.kind != MemoryKind::Managed)
    return Error::InvalidValue;
  char *start = resolved.access;
  submit(*stream, [=] {
    for (uint64_t y = 0; y < height; ++y) {
      char *row = start + y * pitch;
      if (elementBytes == 1) {
        std::memset(row, static_cast<int>(value & 0xff), width);
        continue;
      }
      for (uint64_t x = 0; x < width; ++x)
        std::memcpy(row + x * elementBytes, &value, elementBytes);
    }
  });
  return Error::Success;
}

} // namespace standin
} // namespace gpu_runner
