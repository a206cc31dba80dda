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
// is: "gpu-runner HIP runtime stand-in"; GPU_RUNNER_STANDIN_HIP_CHIP makes
// it another chip, with that chip's wave size.
//
// This file holds the vendor (its codes and their texts), the device's
// attributes and limits, and the entry points for initialization, errors,
// devices, streams and events. HipMemory.cpp holds those for memory, copies
// and memsets, HipModules.cpp those for modules and launches, and
// HipEntry.h what they share.
//
//===----------------------------------------------------------------------===//

#include "standin/HipEntry.h"

#include <hip/hip_runtime_api.h>

#include <dlfcn.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

using namespace gpu_runner::standin;
using namespace gpu_runner::standin::hip;

namespace {

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
    // The stand-in's refusal of a launch it cannot run, or of kernel IR.
    return "operation not supported: this is gpu-runner's HIP runtime "
           "stand-in, which runs a kernel only from the LLVM IR its code "
           "object was compiled from (gpuRunnerStandinModuleAttachIR), and "
           "only what it implements of that IR";
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
    case Error::KernelNotSupported:
      return hipErrorNotSupported;
    case Error::IllegalAddress:
    case Error::MisalignedAddress:
      return hipErrorIllegalAddress;
    case Error::LaunchFailed:
      return hipErrorLaunchFailure;
    case Error::Assert:
      return hipErrorAssert;
    case Error::Sticky:
      return hipErrorUnknown;
    }
    return hipErrorUnknown;
  }
  // hip_runtime_api.h says nothing of what follows a kernel's fault; HIP
  // mirrors CUDA's runtime, whose cudaErrorIllegalAddress, cudaErrorAssert
  // and cudaErrorLaunchFailure "leave the process in an inconsistent state
  // and any further CUDA work will return the same error" (CUDA Runtime
  // API, "Data types used by CUDA Runtime", cudaError).
  bool isSticky(int code) const override {
    return code == hipErrorIllegalAddress || code == hipErrorAssert ||
           code == hipErrorLaunchFailure;
  }
  // hip_runtime_api.h, hipInit: "Most HIP APIs implicitly initialize the
  // HIP runtime."
  bool needsInit() const override { return false; }
  // "The default device is stored in thread-local-storage for each thread."
  bool hasImplicitDevice() const override { return true; }
  void configure() const override { getChip(); }
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
      {hipDeviceAttributeWarpSize, getChip().waveSize},
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

} // namespace

namespace gpu_runner {
namespace standin {
namespace hip {

const Chip &getChip() {
  static const Chip chip = [] {
    // gfx90a and gfx942 (CDNA, GFX9) run waves of 64; gfx1030 and gfx1100
    // (RDNA 2 and 3) waves of 32.
    static const Chip chips[] = {
        {"gfx90a", "gfx90a:sramecc+:xnack-", 910, 64},
        {"gfx942", "gfx942:sramecc+:xnack-", 942, 64},
        {"gfx1030", "gfx1030", 1030, 32},
        {"gfx1100", "gfx1100", 1100, 32},
    };
    const char *wanted = std::getenv("GPU_RUNNER_STANDIN_HIP_CHIP");
    if (!wanted)
      return chips[0];
    for (const Chip &known : chips)
      if (std::strcmp(known.name, wanted) == 0)
        return known;
    failSetting(std::string("GPU_RUNNER_STANDIN_HIP_CHIP=") + wanted +
                " is not a chip the stand-in plays: gfx90a, gfx942, gfx1030 "
                "or gfx1100");
  }();
  return chip;
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

} // namespace hip
} // namespace standin
} // namespace gpu_runner

namespace {

bool isBadDevice(int device) {
  return device < 0 || device >= driver().getDeviceCount();
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
  std::snprintf(prop->gcnArchName, sizeof(prop->gcnArchName), "%s",
                getChip().archName);
  prop->gcnArch = getChip().gcnArch;
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
