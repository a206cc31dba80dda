//===- Driver.cpp - The state and semantics both stand-ins share ----------===//
//
// The Driver's set-up from the environment and its report at exit, handles
// and their descriptions, devices and contexts, memory, and the Call that
// opens and closes each entry point. DriverStreams.cpp holds the streams,
// events, copies and memsets; DriverModules.cpp the modules and launches.
//
//===----------------------------------------------------------------------===//

#include "standin/Driver.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
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

/// The calling thread's current device; -1 for none yet. In the static TLS
/// block, which a library the runtime opens may use for a few bytes: a
/// dynamic block's bounds, as LeakSanitizer records them, can be garbage
/// that crashes its scan at exit.
__attribute__((tls_model("initial-exec"))) thread_local int currentDevice = -1;

/// A sticky error ends all work of the process: CUDA's documentation of
/// each such error says "any further CUDA work will return the same error".
std::atomic<int> stickyCode{0};

/// Handles are numbers in a range no allocator hands out, tagged by kind.
constexpr uintptr_t kHandleTag = 0x7e5700000000ull;
constexpr unsigned kKindShift = 28;
constexpr unsigned kIdShift = 4;

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
  case Error::KernelNotSupported:
    return "KernelNotSupported";
  case Error::IllegalAddress:
    return "IllegalAddress";
  case Error::MisalignedAddress:
    return "MisalignedAddress";
  case Error::LaunchFailed:
    return "LaunchFailed";
  case Error::Assert:
    return "Assert";
  case Error::Sticky:
    return "Sticky";
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

[[noreturn]] void failSetting(const std::string &message) {
  std::fprintf(stderr, "gpu-runner %s stand-in: %s\n", getVendor().getName(),
               message.c_str());
  std::fflush(stderr);
  _exit(2);
}

void Driver::configure() {
  getVendor().configure();
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
  {
    std::lock_guard<std::mutex> lock(scheduler.mutex);
    // cuda.h, cuDevicePrimaryCtxRelease: "Releasing a primary context that
    // has not been previously retained will fail with
    // CUDA_ERROR_INVALID_CONTEXT."
    if (devices.at(device).retained == 0)
      return Error::InvalidContext;
    if (--devices[device].retained > 0)
      return Error::Success;
  }
  // "context destruction" flushes device printf's buffer.
  flushKernelOutput();
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
  // cuda.h, cuMemFree: "Note that this function may also return error codes
  // from previous, asynchronous launches."
  if (Error error = afterWait(getCurrentDevice()); error != Error::Success)
    return error;
  return memory.free(pointer);
}

Error Driver::afterWait(int device) const {
  return getStickyCode(device) ? Error::Sticky : Error::Success;
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

Error Driver::getMappedPointer(const void *pointer, void *&device) {
  std::lock_guard<std::mutex> lock(scheduler.mutex);
  return memory.getMappedPointer(pointer, device);
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
  if (int sticky = driver.getStickyCode(device)) {
    // The failed grid's printf text and assertion lines come out with the
    // first call that reports its error, as with the synchronization that
    // would have: a call made after the grid ended returns here.
    driver.flushKernelOutput();
    return done(sticky);
  }
  return 0;
}

int Call::done(Error error) {
  if (error == Error::Sticky)
    return done(Driver::get().getStickyCode(Driver::get().getCurrentDevice()));
  return done(getVendor().getCode(error));
}

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
