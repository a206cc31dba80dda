//===- HipRuntime.cpp - The HIP runtime API over the stand-in -------------===//
//
// libgpu-runner-hip-standin.so: the entry points of ROCm 5's libamdhip64
// that gpu-runner loads, with hip_runtime_api.h's own types and values. Each
// checks the arguments that the header documents (its comments are HIP's
// reference; each rule cites one), then calls the Driver, and fails with the
// code the documentation names. Where HIP's documentation is silent and
// CUDA's runtime documentation, which HIP follows, states a rule, that is
// cited instead.
//
// The device is a gfx90a one with the limits of an MI210, named for what it
// is: "gpu-runner HIP runtime stand-in".
//
//===----------------------------------------------------------------------===//

#include "standin/Driver.h"

#include <hip/hip_runtime_api.h>

#include <dlfcn.h>

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

using namespace gpu_runner::standin;

namespace {

constexpr const char *kChip = "gfx90a";
constexpr const char *kArchName = "gfx90a:sramecc+:xnack-";
constexpr const char *kDeviceName = "gpu-runner HIP runtime stand-in";

const char *getKnownDescription(hipError_t code) {
  switch (code) {
  case hipSuccess:
    return "no error";
  case hipErrorInvalidValue:
    return "invalid argument";
  case hipErrorOutOfMemory:
    return "out of memory";
  case hipErrorNotInitialized:
    return "initialization error";
  case hipErrorInvalidPitchValue:
    return "invalid pitch argument";
  case hipErrorInvalidDevicePointer:
    return "invalid device pointer";
  case hipErrorInvalidMemcpyDirection:
    return "invalid copy direction for memcpy";
  case hipErrorNoDevice:
    return "no ROCm-capable device is detected";
  case hipErrorInvalidDevice:
    return "invalid device ordinal";
  case hipErrorInvalidImage:
    return "device kernel image is invalid";
  case hipErrorInvalidContext:
    return "invalid device context";
  case hipErrorNoBinaryForGpu:
    return "no kernel image is available for execution on the device";
  case hipErrorInvalidKernelFile:
    return "invalid kernel file";
  case hipErrorInvalidHandle:
    return "invalid resource handle";
  case hipErrorNotFound:
    return "named symbol not found";
  case hipErrorNotReady:
    return "device not ready";
  case hipErrorIllegalAddress:
    return "an illegal memory access was encountered";
  case hipErrorLaunchFailure:
    return "unspecified launch failure";
  case hipErrorInvalidConfiguration:
    return "invalid configuration argument";
  case hipErrorHostMemoryAlreadyRegistered:
    return "part or all of the requested memory range is already mapped";
  case hipErrorHostMemoryNotRegistered:
    return "pointer does not correspond to a registered memory region";
  case hipErrorNotSupported:
    // The stand-in's refusal of every launch.
    return "operation not supported: this is gpu-runner's HIP runtime "
           "stand-in, which runs no kernels";
  case hipErrorUnknown:
    return "unknown error";
  default:
    return nullptr;
  }
}

class HipVendor final : public Vendor {
public:
  // hip_runtime_api.h's error codes, in its order: where two names share a
  // value, hipGetErrorName gives the first.
  HipVendor()
      : Vendor("HIP runtime", "hip", "hipError",
               reinterpret_cast<void *>(&hipInit),
               {
#define GPU_RUNNER_HIP_ERROR(NAME) {NAME, #NAME},
#include "standin/HipErrors.inc"
#undef GPU_RUNNER_HIP_ERROR
               }) {
  }
  int getCode(Error error) const override {
    switch (error) {
    case Error::Success:
      return hipSuccess;
    case Error::InvalidValue:
      return hipErrorInvalidValue;
    case Error::OutOfMemory:
      return hipErrorOutOfMemory;
    case Error::NotInitialized:
      return hipErrorNotInitialized;
    case Error::InvalidContext:
      return hipErrorInvalidContext;
    case Error::InvalidDevice:
      return hipErrorInvalidDevice;
    case Error::InvalidHandle:
      return hipErrorInvalidHandle;
    case Error::NotReady:
      return hipErrorNotReady;
    case Error::NotFound:
      return hipErrorNotFound;
    case Error::InvalidImage:
    case Error::InvalidPtx:
      return hipErrorInvalidKernelFile;
    case Error::NoBinaryForGpu:
      return hipErrorNoBinaryForGpu;
    case Error::HostMemoryAlreadyRegistered:
      return hipErrorHostMemoryAlreadyRegistered;
    case Error::HostMemoryNotRegistered:
      return hipErrorHostMemoryNotRegistered;
    case Error::InvalidPitch:
      return hipErrorInvalidPitchValue;
    case Error::InvalidMemcpyDirection:
      return hipErrorInvalidMemcpyDirection;
    case Error::InvalidConfiguration:
    case Error::InvalidClusterSize:
      return hipErrorInvalidConfiguration;
    case Error::LaunchOutOfResources:
      return hipErrorLaunchOutOfResources;
    case Error::KernelsNotRun:
      return hipErrorNotSupported;
    }
    return hipErrorUnknown;
  }
  // HIP documents no error after which the device cannot be used again.
  bool isSticky(int) const override { return false; }
  // hip_runtime_api.h, hipInit: "Most HIP APIs implicitly initialize the
  // HIP runtime."
  bool needsInit() const override { return false; }
  // "The default device is stored in thread-local-storage for each thread."
  bool hasImplicitDevice() const override { return true; }
};

/// An MI210's attributes, as far as the runtime's users ask for them.
const std::map<hipDeviceAttribute_t, int> &getAttributes() {
  static const auto *attributes = new std::map<hipDeviceAttribute_t, int>{
      {hipDeviceAttributeMaxThreadsPerBlock, 1024},
      {hipDeviceAttributeMaxBlockDimX, 1024},
      {hipDeviceAttributeMaxBlockDimY, 1024},
      {hipDeviceAttributeMaxBlockDimZ, 1024},
      {hipDeviceAttributeMaxGridDimX, 2147483647},
      {hipDeviceAttributeMaxGridDimY, 2147483647},
      {hipDeviceAttributeMaxGridDimZ, 2147483647},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, 65536},
      {hipDeviceAttributeSharedMemPerBlockOptin, 65536},
      {hipDeviceAttributeTotalConstantMemory, 2147483647},
      {hipDeviceAttributeWarpSize, 64},
      {hipDeviceAttributeMaxRegistersPerBlock, 65536},
      {hipDeviceAttributeClockRate, 1700000},
      {hipDeviceAttributeMemoryClockRate, 1600000},
      {hipDeviceAttributeMemoryBusWidth, 4096},
      {hipDeviceAttributeMultiprocessorCount, 104},
      {hipDeviceAttributeComputeMode, 0},
      {hipDeviceAttributeL2CacheSize, 8388608},
      {hipDeviceAttributeMaxThreadsPerMultiProcessor, 2048},
      {hipDeviceAttributeComputeCapabilityMajor, 9},
      {hipDeviceAttributeComputeCapabilityMinor, 0},
      {hipDeviceAttributeConcurrentKernels, 1},
      {hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, 65536},
      {hipDeviceAttributeIntegrated, 0},
      {hipDeviceAttributeManagedMemory, 1},
      {hipDeviceAttributeConcurrentManagedAccess, 1},
      {hipDeviceAttributeMaxPitch, 2147483647},
      {hipDeviceAttributeCanMapHostMemory, 1},
      {hipDeviceAttributeEccEnabled, 1},
      {hipDeviceAttributeUnifiedAddressing, 1},
      {hipDeviceAttributeTextureAlignment, 256},
  };
  return *attributes;
}

DeviceLimits getLimits() {
  const auto &a = getAttributes();
  DeviceLimits limits;
  limits.maxGrid = {uint64_t(a.at(hipDeviceAttributeMaxGridDimX)),
                    uint64_t(a.at(hipDeviceAttributeMaxGridDimY)),
                    uint64_t(a.at(hipDeviceAttributeMaxGridDimZ))};
  limits.maxBlock = {uint64_t(a.at(hipDeviceAttributeMaxBlockDimX)),
                     uint64_t(a.at(hipDeviceAttributeMaxBlockDimY)),
                     uint64_t(a.at(hipDeviceAttributeMaxBlockDimZ))};
  limits.maxThreadsPerBlock = a.at(hipDeviceAttributeMaxThreadsPerBlock);
  limits.maxSharedPerBlock = a.at(hipDeviceAttributeMaxSharedMemoryPerBlock);
  limits.maxSharedPerBlockOptin = limits.maxSharedPerBlock;
  limits.maxPitch = a.at(hipDeviceAttributeMaxPitch);
  return limits;
}

Driver &driver() { return Driver::get(); }

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIx64, value);
  return text;
}

hipError_t finish(Call &call, Error error) {
  return static_cast<hipError_t>(call.done(error));
}

#define ENTER(call, needs)                                                     \
  if (int code = (call).enter(Call::Needs::needs))                             \
  return static_cast<hipError_t>(code)

bool isBadDevice(int device) {
  return device < 0 || device >= driver().getDeviceCount();
}

const char *getKindName(hipMemcpyKind kind) {
  switch (kind) {
  case hipMemcpyHostToHost:
    return "hipMemcpyHostToHost";
  case hipMemcpyHostToDevice:
    return "hipMemcpyHostToDevice";
  case hipMemcpyDeviceToHost:
    return "hipMemcpyDeviceToHost";
  case hipMemcpyDeviceToDevice:
    return "hipMemcpyDeviceToDevice";
  case hipMemcpyDefault:
    return "hipMemcpyDefault";
  }
  return "invalid";
}

/// What each side of a copy must be for its kind. hip_runtime_api.h,
/// hipMemcpy: "Calling hipMemcpy with dst and src pointers that do not match
/// the hipMemcpyKind results in undefined behavior"; the stand-in refuses
/// it. hipMemcpyDefault infers the kind "based on virtual addresses".
bool setKind(hipMemcpyKind kind, CopySide &src, CopySide &dst) {
  using Expect = CopySide::Expect;
  switch (kind) {
  case hipMemcpyHostToHost:
    src.expect = dst.expect = Expect::Host;
    return true;
  case hipMemcpyHostToDevice:
    src.expect = Expect::Host;
    dst.expect = Expect::Device;
    return true;
  case hipMemcpyDeviceToHost:
    src.expect = Expect::Device;
    dst.expect = Expect::Host;
    return true;
  case hipMemcpyDeviceToDevice:
    src.expect = dst.expect = Expect::Device;
    return true;
  case hipMemcpyDefault:
    return true;
  }
  return false;
}

/// The memsets: `height` rows of `width` elements of `size` bytes.
hipError_t memsetRows(Call &call, void *dst, size_t pitch, uint64_t value,
                      unsigned size, size_t width, size_t height,
                      hipStream_t stream) {
  // HIP documents no alignment for its 16- and 32-bit memsets; CUDA's,
  // which they mirror, say "The dstDevice pointer must be two byte aligned"
  // (four for 32 bits).
  if (reinterpret_cast<uintptr_t>(dst) % size != 0)
    return finish(call, Error::InvalidValue);
  // Rows closer than their width would overlap.
  if (height > 1 && pitch < width * size)
    return finish(call, Error::InvalidPitch);
  return finish(call, driver().fill(dst, height > 1 ? pitch : width * size,
                                    value, size, width, height, stream));
}

hipError_t memsetAsync(const char *entry, void *dst, uint64_t value,
                       unsigned size, size_t count, hipStream_t stream) {
  Call call(entry);
  call.argPointer("dst", dst)
      .argText("value", hex(value))
      .arg("count", count)
      .argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  return memsetRows(call, dst, count * size, value, size, count, 1, stream);
}

} // namespace

namespace gpu_runner {
namespace standin {
const Vendor &getVendor() {
  static const HipVendor *vendor = new HipVendor();
  return *vendor;
}
} // namespace standin
} // namespace gpu_runner

//===----------------------------------------------------------------------===//
// Initialization, errors and devices.
//===----------------------------------------------------------------------===//

hipError_t hipInit(unsigned int flags) {
  Call call("hipInit");
  call.arg("flags", flags);
  ENTER(call, Nothing);
  // As cuInit: "Currently, the Flags parameter must be 0."
  if (flags != 0)
    return finish(call, Error::InvalidValue);
  driver().initialize();
  return finish(call, Error::Success);
}

const char *hipGetErrorName(hipError_t hip_error) {
  Call call("hipGetErrorName");
  call.argSigned("hip_error", hip_error);
  call.done(Error::Success);
  const char *name = getVendor().getErrorName(hip_error);
  return name ? name : "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t hipError) {
  Call call("hipGetErrorString");
  call.argSigned("hipError", hipError);
  call.done(Error::Success);
  const char *description = getKnownDescription(hipError);
  if (!description)
    description = getVendor().describeByName(hipError);
  return description ? description : "unknown error";
}

hipError_t hipGetDeviceCount(int *count) {
  Call call("hipGetDeviceCount");
  ENTER(call, Init);
  if (!count)
    return finish(call, Error::InvalidValue);
  *count = driver().getDeviceCount();
  call.out("*count", std::to_string(*count));
  return finish(call, Error::Success);
}

hipError_t hipSetDevice(int deviceId) {
  Call call("hipSetDevice");
  call.argSigned("deviceId", deviceId);
  ENTER(call, Init);
  // "Valid device id's are 0... (hipGetDeviceCount()-1)."
  if (isBadDevice(deviceId))
    return finish(call, Error::InvalidDevice);
  driver().setCurrentDevice(deviceId);
  return finish(call, Error::Success);
}

hipError_t hipGetDevice(int *deviceId) {
  Call call("hipGetDevice");
  ENTER(call, Init);
  if (!deviceId)
    return finish(call, Error::InvalidValue);
  *deviceId = driver().getCurrentDevice();
  return finish(call, Error::Success);
}

hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr,
                                 int deviceId) {
  Call call("hipDeviceGetAttribute");
  call.argSigned("attr", attr).argSigned("deviceId", deviceId);
  ENTER(call, Init);
  if (!pi)
    return finish(call, Error::InvalidValue);
  if (isBadDevice(deviceId))
    return finish(call, Error::InvalidDevice);
  auto it = getAttributes().find(attr);
  if (it == getAttributes().end())
    return finish(call, Error::InvalidValue);
  *pi = it->second;
  call.out("*pi", std::to_string(*pi));
  return finish(call, Error::Success);
}

hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device) {
  Call call("hipDeviceGetName");
  call.argSigned("len", len).argSigned("device", device);
  ENTER(call, Init);
  if (!name || len <= 0)
    return finish(call, Error::InvalidValue);
  if (isBadDevice(device))
    return finish(call, Error::InvalidDevice);
  std::snprintf(name, static_cast<size_t>(len), "%s", kDeviceName);
  return finish(call, Error::Success);
}

hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device) {
  Call call("hipDeviceTotalMem");
  call.argSigned("device", device);
  ENTER(call, Init);
  if (!bytes)
    return finish(call, Error::InvalidValue);
  if (isBadDevice(device))
    return finish(call, Error::InvalidDevice);
  *bytes = driver().getDeviceMemory();
  return finish(call, Error::Success);
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int deviceId) {
  Call call("hipGetDeviceProperties");
  call.argSigned("deviceId", deviceId);
  ENTER(call, Init);
  if (!prop)
    return finish(call, Error::InvalidValue);
  if (isBadDevice(deviceId))
    return finish(call, Error::InvalidDevice);
  const auto &a = getAttributes();
  std::memset(prop, 0, sizeof(*prop));
  std::snprintf(prop->name, sizeof(prop->name), "%s", kDeviceName);
  std::snprintf(prop->gcnArchName, sizeof(prop->gcnArchName), "%s", kArchName);
  prop->gcnArch = 910;
  prop->totalGlobalMem = driver().getDeviceMemory();
  prop->sharedMemPerBlock = a.at(hipDeviceAttributeMaxSharedMemoryPerBlock);
  prop->regsPerBlock = a.at(hipDeviceAttributeMaxRegistersPerBlock);
  prop->warpSize = a.at(hipDeviceAttributeWarpSize);
  prop->maxThreadsPerBlock = a.at(hipDeviceAttributeMaxThreadsPerBlock);
  prop->maxThreadsDim[0] = a.at(hipDeviceAttributeMaxBlockDimX);
  prop->maxThreadsDim[1] = a.at(hipDeviceAttributeMaxBlockDimY);
  prop->maxThreadsDim[2] = a.at(hipDeviceAttributeMaxBlockDimZ);
  prop->maxGridSize[0] = a.at(hipDeviceAttributeMaxGridDimX);
  prop->maxGridSize[1] = a.at(hipDeviceAttributeMaxGridDimY);
  prop->maxGridSize[2] = a.at(hipDeviceAttributeMaxGridDimZ);
  prop->clockRate = a.at(hipDeviceAttributeClockRate);
  prop->memoryClockRate = a.at(hipDeviceAttributeMemoryClockRate);
  prop->memoryBusWidth = a.at(hipDeviceAttributeMemoryBusWidth);
  prop->totalConstMem = a.at(hipDeviceAttributeTotalConstantMemory);
  prop->major = a.at(hipDeviceAttributeComputeCapabilityMajor);
  prop->minor = a.at(hipDeviceAttributeComputeCapabilityMinor);
  prop->multiProcessorCount = a.at(hipDeviceAttributeMultiprocessorCount);
  prop->l2CacheSize = a.at(hipDeviceAttributeL2CacheSize);
  prop->maxThreadsPerMultiProcessor =
      a.at(hipDeviceAttributeMaxThreadsPerMultiProcessor);
  prop->concurrentKernels = 1;
  prop->pciBusID = deviceId + 1;
  prop->maxSharedMemoryPerMultiProcessor =
      a.at(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor);
  prop->canMapHostMemory = 1;
  prop->memPitch = a.at(hipDeviceAttributeMaxPitch);
  prop->textureAlignment = a.at(hipDeviceAttributeTextureAlignment);
  prop->ECCEnabled = 1;
  prop->managedMemory = 1;
  prop->concurrentManagedAccess = 1;
  return finish(call, Error::Success);
}

hipError_t hipDeviceSynchronize(void) {
  Call call("hipDeviceSynchronize");
  ENTER(call, Context);
  return finish(call, driver().synchronizeDevice());
}

//===----------------------------------------------------------------------===//
// Streams and events.
//===----------------------------------------------------------------------===//

hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) {
  Call call("hipStreamCreateWithFlags");
  call.arg("flags", flags);
  ENTER(call, Context);
  // "See hipStreamDefault, hipStreamNonBlocking": the only flags.
  if (!stream || (flags & ~unsigned(hipStreamNonBlocking)))
    return finish(call, Error::InvalidValue);
  void *handle = nullptr;
  Error error = driver().createStream(flags & hipStreamNonBlocking, handle);
  *stream = static_cast<hipStream_t>(handle);
  call.out("*stream", driver().describeHandle(HandleKind::Stream, handle));
  return finish(call, error);
}

hipError_t hipStreamDestroy(hipStream_t stream) {
  return static_cast<hipError_t>(callOnHandle("hipStreamDestroy", "stream",
                                              HandleKind::Stream, stream,
                                              &Driver::destroyStream));
}

hipError_t hipStreamQuery(hipStream_t stream) {
  return static_cast<hipError_t>(callOnHandle("hipStreamQuery", "stream",
                                              HandleKind::Stream, stream,
                                              &Driver::queryStream));
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  return static_cast<hipError_t>(callOnHandle("hipStreamSynchronize", "stream",
                                              HandleKind::Stream, stream,
                                              &Driver::synchronizeStream));
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                              unsigned int flags) {
  Call call("hipStreamWaitEvent");
  call.argHandle("stream", HandleKind::Stream, stream)
      .argHandle("event", HandleKind::Event, event)
      .arg("flags", flags);
  ENTER(call, Context);
  // "flags control operation [must be 0]".
  if (!event)
    return finish(call, Error::InvalidHandle);
  if (flags != 0)
    return finish(call, Error::InvalidValue);
  return finish(call, driver().streamWaitEvent(stream, event));
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
  Call call("hipEventCreateWithFlags");
  call.arg("flags", flags);
  ENTER(call, Context);
  unsigned known = hipEventBlockingSync | hipEventDisableTiming |
                   hipEventReleaseToDevice | hipEventReleaseToSystem;
  // hipEventInterprocess: "On AMD platform, hipEventInterprocess support is
  // under development. Use of this flag will return an error."
  if (!event || (flags & ~known))
    return finish(call, Error::InvalidValue);
  void *handle = nullptr;
  Error error =
      driver().createEvent(flags, !(flags & hipEventDisableTiming), handle);
  *event = static_cast<hipEvent_t>(handle);
  call.out("*event", driver().describeHandle(HandleKind::Event, handle));
  return finish(call, error);
}

hipError_t hipEventDestroy(hipEvent_t event) {
  return static_cast<hipError_t>(callOnHandle("hipEventDestroy", "event",
                                              HandleKind::Event, event,
                                              &Driver::destroyEvent));
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  Call call("hipEventRecord");
  call.argHandle("event", HandleKind::Event, event)
      .argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  return finish(call, driver().recordEvent(event, stream));
}

hipError_t hipEventQuery(hipEvent_t event) {
  return static_cast<hipError_t>(callOnHandle(
      "hipEventQuery", "event", HandleKind::Event, event, &Driver::queryEvent));
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  // "If hipEventRecord() has not been called on event, this function
  // returns immediately."
  return static_cast<hipError_t>(callOnHandle("hipEventSynchronize", "event",
                                              HandleKind::Event, event,
                                              &Driver::synchronizeEvent));
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
  Call call("hipEventElapsedTime");
  call.argHandle("start", HandleKind::Event, start)
      .argHandle("stop", HandleKind::Event, stop);
  ENTER(call, Context);
  if (!ms)
    return finish(call, Error::InvalidValue);
  // "If hipEventRecord() has not been called on either event, then
  // hipErrorInvalidHandle is returned"; not yet reached: hipErrorNotReady.
  // Events created with hipEventDisableTiming give hipErrorInvalidHandle,
  // as with CUDA.
  return finish(call, driver().getElapsedMilliseconds(start, stop, *ms));
}

//===----------------------------------------------------------------------===//
// Memory.
//===----------------------------------------------------------------------===//

hipError_t hipMemGetInfo(size_t *free, size_t *total) {
  Call call("hipMemGetInfo");
  ENTER(call, Context);
  if (!free || !total)
    return finish(call, Error::InvalidValue);
  uint64_t freeBytes = 0, totalBytes = 0;
  driver().getMemoryInfo(freeBytes, totalBytes);
  *free = freeBytes;
  *total = totalBytes;
  return finish(call, Error::Success);
}

hipError_t hipMalloc(void **ptr, size_t size) {
  Call call("hipMalloc");
  call.arg("size", size);
  ENTER(call, Context);
  if (!ptr)
    return finish(call, Error::InvalidValue);
  // "If size is 0, no memory is allocated, *ptr returns nullptr, and
  // hipSuccess is returned."
  *ptr = nullptr;
  if (size == 0)
    return finish(call, Error::Success);
  Error error = driver().allocate(size, /*managed=*/false, *ptr);
  if (error == Error::Success)
    call.out("*ptr", driver().describePointer(*ptr));
  return finish(call, error);
}

hipError_t hipMallocManaged(void **dev_ptr, size_t size, unsigned int flags) {
  Call call("hipMallocManaged");
  call.arg("size", size).arg("flags", flags);
  ENTER(call, Context);
  // "flags - must be either hipMemAttachGlobal or hipMemAttachHost"; a size
  // of 0 is refused.
  if (!dev_ptr || size == 0 ||
      (flags != hipMemAttachGlobal && flags != hipMemAttachHost))
    return finish(call, Error::InvalidValue);
  Error error = driver().allocate(size, /*managed=*/true, *dev_ptr);
  if (error == Error::Success)
    call.out("*dev_ptr", driver().describePointer(*dev_ptr));
  return finish(call, error);
}

hipError_t hipFree(void *ptr) {
  Call call("hipFree");
  call.argPointer("ptr", ptr);
  ENTER(call, Context);
  // "If pointer is NULL, the hip runtime is initialized and hipSuccess is
  // returned"; an invalid one gives "hipErrorInvalidDevicePointer".
  if (!ptr)
    return finish(call, Error::Success);
  Error error = driver().free(ptr);
  if (error == Error::InvalidValue)
    return static_cast<hipError_t>(call.done(hipErrorInvalidDevicePointer));
  return finish(call, error);
}

hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes,
                           unsigned int flags) {
  Call call("hipHostRegister");
  call.argPointer("hostPtr", hostPtr)
      .arg("sizeBytes", sizeBytes)
      .arg("flags", flags);
  ENTER(call, Context);
  unsigned known = hipHostRegisterPortable | hipHostRegisterMapped |
                   hipExtHostRegisterCoarseGrained;
  // hipHostRegisterIoMemory: "Not supported."
  if (flags & ~known)
    return finish(call, Error::InvalidValue);
  Error error = driver().registerHost(hostPtr, sizeBytes, flags, false);
  if (error == Error::Success)
    call.out("hostPtr", driver().describePointer(hostPtr));
  return finish(call, error);
}

hipError_t hipHostUnregister(void *hostPtr) {
  Call call("hipHostUnregister");
  call.argPointer("hostPtr", hostPtr);
  ENTER(call, Context);
  return finish(call, driver().unregisterHost(hostPtr));
}

//===----------------------------------------------------------------------===//
// Copies and memsets.
//===----------------------------------------------------------------------===//

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes,
                          hipMemcpyKind kind, hipStream_t stream) {
  Call call("hipMemcpyAsync");
  call.argPointer("dst", dst)
      .argPointer("src", src)
      .arg("sizeBytes", sizeBytes)
      .argText("kind", getKindName(kind))
      .argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  CopySide from, to;
  from.base = src;
  to.base = dst;
  if (!setKind(kind, from, to))
    return finish(call, Error::InvalidMemcpyDirection);
  CopyExtent extent;
  extent.widthBytes = sizeBytes;
  return finish(call, driver().copy(from, to, extent, stream));
}

hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                            size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream) {
  Call call("hipMemcpy2DAsync");
  call.argPointer("dst", dst)
      .arg("dpitch", dpitch)
      .argPointer("src", src)
      .arg("spitch", spitch)
      .arg("width", width)
      .arg("height", height)
      .argText("kind", getKindName(kind))
      .argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  // As cudaMemcpy2D, which HIP follows: "width must not exceed either
  // dpitch or spitch", and "returns an error if dpitch or spitch exceeds
  // the maximum allowed".
  CopySide from, to;
  from.base = src;
  from.pitch = spitch;
  to.base = dst;
  to.pitch = dpitch;
  if (!setKind(kind, from, to))
    return finish(call, Error::InvalidMemcpyDirection);
  CopyExtent extent;
  extent.widthBytes = width;
  extent.height = height;
  extent.pitched = true;
  extent.maxPitch = getLimits().maxPitch;
  return finish(call, driver().copy(from, to, extent, stream));
}

hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms *p, hipStream_t stream) {
  Call call("hipMemcpy3DAsync");
  if (p && driver().canRead(p, sizeof(*p)))
    call.argText(
        "p",
        "{srcPtr=" + driver().describePointer(p->srcPtr.ptr) +
            ", srcPos=" + std::to_string(p->srcPos.x) + "," +
            std::to_string(p->srcPos.y) + "," + std::to_string(p->srcPos.z) +
            ", srcPitch=" + std::to_string(p->srcPtr.pitch) +
            ", srcYsize=" + std::to_string(p->srcPtr.ysize) +
            ", dstPtr=" + driver().describePointer(p->dstPtr.ptr) +
            ", dstPos=" + std::to_string(p->dstPos.x) + "," +
            std::to_string(p->dstPos.y) + "," + std::to_string(p->dstPos.z) +
            ", dstPitch=" + std::to_string(p->dstPtr.pitch) +
            ", dstYsize=" + std::to_string(p->dstPtr.ysize) +
            ", extent=" + std::to_string(p->extent.width) + "x" +
            std::to_string(p->extent.height) + "x" +
            std::to_string(p->extent.depth) + ", kind=" + getKindName(p->kind) +
            "}");
  call.argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  if (!p || !driver().canRead(p, sizeof(*p)))
    return finish(call, Error::InvalidValue);
  // As cudaMemcpy3D, which HIP follows: it "must specify one of srcArray
  // or srcPtr and one of dstArray or dstPtr"; the stand-in has no arrays.
  // Positions and extents are in bytes for pointers ("The element for a
  // host or device pointer is assumed to be unsigned char"), and "The
  // source object must entirely contain the region defined by srcPos and
  // extent".
  if (p->srcArray || p->dstArray || !p->srcPtr.ptr || !p->dstPtr.ptr)
    return finish(call, Error::InvalidValue);
  for (const hipPitchedPtr *side : {&p->srcPtr, &p->dstPtr}) {
    const hipPos &position = side == &p->srcPtr ? p->srcPos : p->dstPos;
    if (side->xsize < position.x || side->xsize - position.x < p->extent.width)
      return finish(call, Error::InvalidValue);
  }
  CopySide from, to;
  from.base = p->srcPtr.ptr;
  from.x = p->srcPos.x;
  from.y = p->srcPos.y;
  from.z = p->srcPos.z;
  from.pitch = p->srcPtr.pitch;
  from.sliceRows = p->srcPtr.ysize;
  to.base = p->dstPtr.ptr;
  to.x = p->dstPos.x;
  to.y = p->dstPos.y;
  to.z = p->dstPos.z;
  to.pitch = p->dstPtr.pitch;
  to.sliceRows = p->dstPtr.ysize;
  if (!setKind(p->kind, from, to))
    return finish(call, Error::InvalidMemcpyDirection);
  CopyExtent extent;
  extent.widthBytes = p->extent.width;
  extent.height = p->extent.height;
  extent.depth = p->extent.depth;
  extent.pitched = true;
  extent.maxPitch = getLimits().maxPitch;
  return finish(call, driver().copy(from, to, extent, stream));
}

hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value,
                            size_t count, hipStream_t stream) {
  return memsetAsync("hipMemsetD8Async", dest, value, 1, count, stream);
}

hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value,
                             size_t count, hipStream_t stream) {
  return memsetAsync("hipMemsetD16Async", dest, value, 2, count, stream);
}

hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                             hipStream_t stream) {
  return memsetAsync("hipMemsetD32Async", dst, static_cast<uint32_t>(value), 4,
                     count, stream);
}

hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width,
                            size_t height, hipStream_t stream) {
  Call call("hipMemset2DAsync");
  call.argPointer("dst", dst)
      .arg("pitch", pitch)
      .argText("value", hex(static_cast<unsigned char>(value)))
      .arg("width", width)
      .arg("height", height)
      .argHandle("stream", HandleKind::Stream, stream);
  ENTER(call, Context);
  return memsetRows(call, dst, pitch, static_cast<unsigned char>(value), 1,
                    width, height, stream);
}

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
      image, kChip,
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
  if (extra)
    if (Error error = driver().checkLaunchExtra(
            extra, HIP_LAUNCH_PARAM_BUFFER_POINTER,
            HIP_LAUNCH_PARAM_BUFFER_SIZE, HIP_LAUNCH_PARAM_END);
        error != Error::Success)
      return finish(call, error);
  LaunchRequest request;
  request.grid = {gridDimX, gridDimY, gridDimZ};
  request.block = {blockDimX, blockDimY, blockDimZ};
  request.sharedBytes = sharedMemBytes;
  request.kernelParams = kernelParams;
  request.extra = extra;
  return finish(call, driver().launch(f, request, getLimits(), stream));
}
