//===- Driver.cpp - The state and semantics both stand-ins share ----------===//

#include "standin/Driver.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpu_runner {
namespace standin {
namespace {

/// Set once the driver exists, for the report at exit.
bool driverCreated = false;

/// The calling thread's current device; -1 for none yet.
thread_local int currentDevice = -1;

/// A sticky error ends all work of the process: CUDA's documentation of
/// each such error says "any further CUDA work will return the same error".
int stickyCode = 0;

/// Handles are numbers in a range no allocator hands out, tagged by kind.
constexpr uintptr_t kHandleTag = 0x7e5700000000ull;
constexpr unsigned kKindShift = 28;
constexpr unsigned kIdShift = 4;

[[noreturn]] void failSetting(const std::string &message) {
  std::fprintf(stderr, "gpu-runner %s stand-in: %s\n", getVendor().getName(),
               message.c_str());
  std::fflush(stderr);
  _exit(2);
}

/// "16g", "512m", "65536": bytes.
bool parseSize(const char *text, uint64_t &bytes) {
  char *end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (errno || end == text)
    return false;
  unsigned shift = 0;
  if (*end == 'k' || *end == 'K')
    shift = 10;
  else if (*end == 'm' || *end == 'M')
    shift = 20;
  else if (*end == 'g' || *end == 'G')
    shift = 30;
  else if (*end)
    return false;
  if (shift && *++end)
    return false;
  if (value > (UINT64_MAX >> shift))
    return false;
  bytes = value << shift;
  return true;
}

bool checkedMultiplyAdd(uint64_t a, uint64_t b, uint64_t c, uint64_t &result) {
  uint64_t product;
  return !__builtin_mul_overflow(a, b, &product) &&
         !__builtin_add_overflow(product, c, &result);
}

} // namespace

const char *getErrorSpelling(Error error) {
  switch (error) {
  case Error::Success:
    return "Success";
  case Error::InvalidValue:
    return "InvalidValue";
  case Error::OutOfMemory:
    return "OutOfMemory";
  case Error::NotInitialized:
    return "NotInitialized";
  case Error::InvalidContext:
    return "InvalidContext";
  case Error::InvalidDevice:
    return "InvalidDevice";
  case Error::InvalidHandle:
    return "InvalidHandle";
  case Error::NotReady:
    return "NotReady";
  case Error::NotFound:
    return "NotFound";
  case Error::InvalidImage:
    return "InvalidImage";
  case Error::NoBinaryForGpu:
    return "NoBinaryForGpu";
  case Error::InvalidPtx:
    return "InvalidPtx";
  case Error::HostMemoryAlreadyRegistered:
    return "HostMemoryAlreadyRegistered";
  case Error::HostMemoryNotRegistered:
    return "HostMemoryNotRegistered";
  case Error::InvalidPitch:
    return "InvalidPitch";
  case Error::InvalidMemcpyDirection:
    return "InvalidMemcpyDirection";
  case Error::InvalidConfiguration:
    return "InvalidConfiguration";
  case Error::LaunchOutOfResources:
    return "LaunchOutOfResources";
  case Error::InvalidClusterSize:
    return "InvalidClusterSize";
  case Error::KernelsNotRun:
    return "KernelsNotRun";
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// Set-up, and the report at exit.
//===----------------------------------------------------------------------===//

Driver &Driver::get() {
  // Never destroyed: stream workers may still run while the process exits.
  static Driver *driver = [] {
    auto *created = new Driver();
    created->configure();
    driverCreated = true;
    return created;
  }();
  return *driver;
}

void Driver::configure() {
  if (const char *count = std::getenv("GPU_RUNNER_STANDIN_DEVICES")) {
    char *end = nullptr;
    long value = std::strtol(count, &end, 10);
    if (end == count || *end || value < 1 || value > 16)
      failSetting(std::string("GPU_RUNNER_STANDIN_DEVICES=") + count +
                  " is not a device count from 1 to 16");
    deviceCount = static_cast<int>(value);
  }
  bytesPerDevice = uint64_t(16) << 30;
  if (const char *size = std::getenv("GPU_RUNNER_STANDIN_MEMORY"))
    if (!parseSize(size, bytesPerDevice) || bytesPerDevice == 0)
      failSetting(std::string("GPU_RUNNER_STANDIN_MEMORY=") + size +
                  " is not a size: give bytes, or a number with k, m or g");
  if (const char *code = std::getenv("GPU_RUNNER_STANDIN_LEAK_EXITCODE")) {
    char *end = nullptr;
    long value = std::strtol(code, &end, 10);
    if (end == code || *end || value < 1 || value > 255)
      failSetting(std::string("GPU_RUNNER_STANDIN_LEAK_EXITCODE=") + code +
                  " is not an exit status from 1 to 255");
    leakExitCode = static_cast<int>(value);
  }
  if (const char *spec = std::getenv("GPU_RUNNER_STANDIN_FAULTS")) {
    const Vendor &vendor = getVendor();
    std::vector<Fault> faults;
    std::string error;
    if (!parseFaults(
            spec,
            [&](const std::string &name) { return vendor.isEntryPoint(name); },
            [&](const std::string &name, int &code) {
              return vendor.getCodeByName(name, code);
            },
            faults, error))
      failSetting("GPU_RUNNER_STANDIN_FAULTS: " + error);
    log.setFaults(std::move(faults));
  }
  if (const char *path = std::getenv("GPU_RUNNER_STANDIN_TRACE"))
    if (*path && !log.openTrace(path))
      failSetting(std::string("GPU_RUNNER_STANDIN_TRACE: cannot write ") +
                  path + ": " + std::strerror(errno));
  std::string error;
  if (memory.initialize(deviceCount, bytesPerDevice, error) != Error::Success)
    failSetting(error);
  devices.resize(deviceCount);
}

int Driver::reportLeaks() {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  std::vector<std::string> lines;
  for (const Allocation &allocation : memory.liveAllocations())
    lines.push_back(
        allocation.device >= 0
            ? "allocation alloc#" + std::to_string(allocation.id) + ": " +
                  std::to_string(allocation.bytes) + " bytes on device " +
                  std::to_string(allocation.device)
            : "managed allocation managed#" + std::to_string(allocation.id) +
                  ": " + std::to_string(allocation.bytes) + " bytes");
  for (const Registration &registration : memory.liveRegistrations())
    lines.push_back("host registration registered#" +
                    std::to_string(registration.id) + ": " +
                    std::to_string(registration.bytes) + " bytes");
  for (const auto &[id, stream] : streams)
    lines.push_back("stream stream#" + std::to_string(id) + " on device " +
                    std::to_string(stream->device));
  for (const auto &[id, event] : events)
    lines.push_back("event event#" + std::to_string(id) + " on device " +
                    std::to_string(event->device));
  for (const auto &[id, module] : modules)
    lines.push_back("module module#" + std::to_string(id) + " on device " +
                    std::to_string(module.device));
  for (int device = 0; device < deviceCount; ++device)
    if (devices[device].retained > 0)
      lines.push_back("the primary context of device " +
                      std::to_string(device) + ", retained " +
                      std::to_string(devices[device].retained) +
                      " more times than released");
  if (lines.empty())
    return 0;
  std::string text = std::string("gpu-runner ") + getVendor().getName() +
                     " stand-in: at exit, " + std::to_string(lines.size()) +
                     (lines.size() == 1 ? " resource was" : " resources were") +
                     " never released:\n";
  for (const std::string &line : lines)
    text += "  " + line + "\n";
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  return static_cast<int>(lines.size());
}

namespace {

/// At a normal exit, once the program and the runtime are done.
__attribute__((destructor)) void reportLeaksAtExit() {
  if (!driverCreated)
    return;
  Driver &driver = Driver::get();
  if (driver.reportLeaks() > 0)
    if (const char *code = std::getenv("GPU_RUNNER_STANDIN_LEAK_EXITCODE"))
      _exit(std::atoi(code));
}

} // namespace

//===----------------------------------------------------------------------===//
// Handles and descriptions.
//===----------------------------------------------------------------------===//

void *Driver::makeHandle(HandleKind kind, uint64_t id) {
  return reinterpret_cast<void *>(kHandleTag |
                                  (static_cast<uintptr_t>(kind) << kKindShift) |
                                  (static_cast<uintptr_t>(id) << kIdShift));
}

bool Driver::readHandle(const void *handle, HandleKind kind, uint64_t &id) {
  auto value = reinterpret_cast<uintptr_t>(handle);
  uintptr_t kindBits = static_cast<uintptr_t>(kind) << kKindShift;
  uintptr_t mask = ~((uintptr_t(1) << kKindShift) - 1);
  if ((value & mask) != (kHandleTag | kindBits) ||
      (value & ((uintptr_t(1) << kIdShift) - 1)) != 0)
    return false;
  id = (value & ((uintptr_t(1) << kKindShift) - 1)) >> kIdShift;
  return id != 0;
}

std::string Driver::describePointer(const void *pointer) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  return memory.describe(pointer);
}

std::string Driver::describeHandle(HandleKind kind, const void *handle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  static const char *const names[] = {"",      "context", "stream",
                                      "event", "module",  "function"};
  const char *name = names[static_cast<int>(kind)];
  if (!handle)
    return "null";
  if (kind == HandleKind::Stream && handle == reinterpret_cast<void *>(1))
    return "legacy";
  uint64_t id = 0;
  if (!readHandle(handle, kind, id)) {
    char text[64];
    std::snprintf(text, sizeof(text), "invalid:%p", handle);
    return text;
  }
  if (kind == HandleKind::Context)
    return "context(device " + std::to_string(id - 1) + ")";
  bool live = (kind == HandleKind::Stream && streams.count(id)) ||
              (kind == HandleKind::Event && events.count(id)) ||
              (kind == HandleKind::Module && modules.count(id)) ||
              (kind == HandleKind::Function && functions.count(id));
  std::string text = std::string(name) + "#" + std::to_string(id);
  if (kind == HandleKind::Function && live)
    text += "(" + functions.at(id).kernel.name + ")";
  return live ? text : text + "(destroyed)";
}

//===----------------------------------------------------------------------===//
// Devices and contexts.
//===----------------------------------------------------------------------===//

int Driver::getCurrentDevice() const {
  if (currentDevice < 0 && getVendor().hasImplicitDevice())
    return 0;
  return currentDevice;
}

void Driver::setCurrentDevice(int device) { currentDevice = device; }

void Driver::retainContext(int device) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  ++devices.at(device).retained;
}

Error Driver::releaseContext(int device) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  // cuda.h, cuDevicePrimaryCtxRelease: "Releasing a primary context that
  // has not been previously retained will fail with
  // CUDA_ERROR_INVALID_CONTEXT."
  if (devices.at(device).retained == 0)
    return Error::InvalidContext;
  --devices[device].retained;
  return Error::Success;
}

bool Driver::isContextActive(int device) const {
  if (device < 0 || device >= deviceCount)
    return false;
  return getVendor().hasImplicitDevice() || devices[device].retained > 0;
}

int Driver::getStickyCode(int) const { return stickyCode; }

void Driver::setStickyCode(int, int code) { stickyCode = code; }

//===----------------------------------------------------------------------===//
// Memory.
//===----------------------------------------------------------------------===//

Error Driver::allocate(uint64_t bytes, bool managed, void *&pointer) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  return memory.allocate(getCurrentDevice(), bytes, managed, pointer);
}

Error Driver::free(void *pointer) {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  for (const Fence &fence : getAllWork(-1))
    waitFor(scheduler, lock, fence);
  return memory.free(pointer);
}

std::vector<Fence> Driver::getAllWork(int device) {
  std::vector<Fence> fences;
  for (int i = 0; i < deviceCount; ++i)
    if ((device < 0 || device == i) && devices[i].nullStream)
      fences.push_back(devices[i].nullStream->tail());
  for (auto &[id, stream] : streams)
    if (device < 0 || stream->device == device)
      fences.push_back(stream->tail());
  // Forget destroyed streams once they are idle.
  retiredStreams.erase(std::remove_if(retiredStreams.begin(),
                                      retiredStreams.end(),
                                      [](const std::shared_ptr<Stream> &s) {
                                        return s->isIdle();
                                      }),
                       retiredStreams.end());
  for (const std::shared_ptr<Stream> &stream : retiredStreams)
    if (device < 0 || stream->device == device)
      fences.push_back(stream->tail());
  return fences;
}

void Driver::getMemoryInfo(uint64_t &freeBytes, uint64_t &totalBytes) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  memory.getInfo(getCurrentDevice(), freeBytes, totalBytes);
}

Error Driver::registerHost(void *pointer, uint64_t bytes, unsigned flags,
                           bool readOnly) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  return memory.registerHost(pointer, bytes, flags, readOnly);
}

Error Driver::unregisterHost(void *pointer) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  return memory.unregisterHost(pointer);
}

MemoryKind Driver::classify(const void *pointer) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  return memory.classify(pointer);
}

bool Driver::canRead(const void *pointer, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  Resolved resolved;
  return memory.resolve(pointer, bytes, /*write=*/false, resolved) ==
             Error::Success &&
         resolved.kind != MemoryKind::Device;
}

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
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  uint64_t id = 0;
  auto it = readHandle(handle, HandleKind::Stream, id) ? streams.find(id)
                                                       : streams.end();
  if (it == streams.end())
    return Error::InvalidHandle;
  // cuda.h, cuStreamDestroy: "the function will return immediately and the
  // resources associated with hStream will be released automatically once
  // the device has completed all work in hStream."
  it->second->retire();
  if (!it->second->isIdle())
    retiredStreams.push_back(it->second);
  streams.erase(it);
  return Error::Success;
}

Error Driver::queryStream(void *handle) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Stream> stream;
  if (Error error = findStream(handle, stream); error != Error::Success)
    return error;
  return stream->isIdle() ? Error::Success : Error::NotReady;
}

Error Driver::synchronizeStream(void *handle) {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Stream> stream;
  if (Error error = findStream(handle, stream); error != Error::Success)
    return error;
  synchronizeLocked(lock, *stream);
  return Error::Success;
}

Error Driver::synchronizeDevice() {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  int device = getCurrentDevice();
  getNullStream(device);
  for (const Fence &fence : getAllWork(device))
    waitFor(scheduler, lock, fence);
  return Error::Success;
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
  return !event->recorded || event->fence.isDone() ? Error::Success
                                                   : Error::NotReady;
}

Error Driver::synchronizeEvent(void *handle) {
  std::unique_lock<std::mutex> lock(scheduler.mutex);
  std::shared_ptr<Event> event;
  if (Error error = findEvent(handle, event); error != Error::Success)
    return error;
  if (event->recorded)
    waitFor(scheduler, lock, event->fence);
  return Error::Success;
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

//===----------------------------------------------------------------------===//
// Modules and launches.
//===----------------------------------------------------------------------===//

Error Driver::loadModule(ImageInfo image, void *&handle) {
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

Error Driver::checkLaunchExtra(void **extra, const void *bufferPointer,
                               const void *bufferSize, const void *end) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
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
    } else if (*at == bufferSize) {
      if (memory.resolve(at[1], sizeof(size_t), false, resolved) !=
          Error::Success)
        return Error::InvalidValue;
      size = *static_cast<size_t *>(at[1]);
    } else {
      return Error::InvalidValue;
    }
  }
  return size != 0 && !hasPointer ? Error::InvalidValue : Error::Success;
}

Error Driver::launch(void *functionHandle, const LaunchRequest &request,
                     const DeviceLimits &limits, void *streamHandle) {
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
  if (request.kernelParams && request.extra)
    return Error::InvalidValue;
  if (function.kernel.paramsKnown && !request.extra) {
    const std::vector<uint32_t> &sizes = function.kernel.paramSizes;
    if (!sizes.empty()) {
      Resolved resolved;
      if (!request.kernelParams ||
          memory.resolve(request.kernelParams, sizes.size() * sizeof(void *),
                         false, resolved) != Error::Success)
        return Error::InvalidValue;
      for (size_t i = 0; i < sizes.size(); ++i)
        if (memory.resolve(request.kernelParams[i], sizes[i], false,
                           resolved) != Error::Success ||
            resolved.kind == MemoryKind::Device)
          return Error::InvalidValue;
    }
  }
  return Error::KernelsNotRun;
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

//===----------------------------------------------------------------------===//
// Call
//===----------------------------------------------------------------------===//

Call::Call(const char *entry)
    : entry(entry), tracing(Driver::get().getLog().isTracing()) {}

Call &Call::arg(const char *name, uint64_t value) {
  return argText(name, std::to_string(value));
}

Call &Call::argSigned(const char *name, int64_t value) {
  return argText(name, std::to_string(value));
}

Call &Call::argText(const char *name, const std::string &value) {
  if (tracing)
    args += std::string(args.empty() ? "" : ", ") + name + "=" + value;
  return *this;
}

Call &Call::argPointer(const char *name, const void *pointer) {
  if (tracing)
    argText(name, Driver::get().describePointer(pointer));
  return *this;
}

Call &Call::argHandle(const char *name, HandleKind kind, const void *handle) {
  if (tracing)
    argText(name, Driver::get().describeHandle(kind, handle));
  return *this;
}

Call &Call::out(const char *name, const std::string &value) {
  if (tracing)
    outputs += std::string(outputs.empty() ? "" : ", ") + name + "=" + value;
  return *this;
}

int Call::enter(Needs needs) {
  Driver &driver = Driver::get();
  const Vendor &vendor = getVendor();
  if (int code = driver.getLog().countCall(entry)) {
    injected = true;
    if (vendor.isSticky(code))
      driver.setStickyCode(driver.getCurrentDevice(), code);
    return done(code);
  }
  if (needs == Needs::Nothing)
    return 0;
  // cuda.h, cuInit: "If cuInit() has not been called, any function from the
  // driver API will return CUDA_ERROR_NOT_INITIALIZED."
  if (vendor.needsInit() && !driver.isInitialized())
    return done(Error::NotInitialized);
  if (needs == Needs::Init)
    return 0;
  // cuda.h, CUDA_ERROR_INVALID_CONTEXT: "This most frequently indicates that
  // there is no context bound to the current thread."
  int device = driver.getCurrentDevice();
  if (!driver.isContextActive(device))
    return done(Error::InvalidContext);
  if (int sticky = driver.getStickyCode(device))
    return done(sticky);
  return 0;
}

int Call::done(Error error) { return done(getVendor().getCode(error)); }

int Call::done(int code) {
  if (tracing) {
    const char *name = getVendor().getErrorName(code);
    std::string line = std::string(entry) + "(" + args + ") -> " +
                       (name ? name : "error " + std::to_string(code));
    if (injected)
      line += " (injected)";
    if (!outputs.empty())
      line += " [" + outputs + "]";
    Driver::get().getLog().write(line);
  }
  return code;
}

} // namespace standin
} // namespace gpu_runner
