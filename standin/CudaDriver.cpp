//===- CudaDriver.cpp - The CUDA driver API over the stand-in -------------===//
//
// libgpu-runner-cuda-standin.so: the entry points of libcuda that gpu-runner
// and its memcpy baseline load, by the names cuda.h maps them to (the _v2
// names where it has them; the linker script exports nothing else), with
// cuda.h's own types and values. Each checks the arguments the driver API
// documents (cuda.h's comments are its reference; each rule cites one),
// then calls the Driver, and fails with the code the documentation names.
//
// The device is an sm_90 one with the limits of an H200, named for what it
// is: "gpu-runner CUDA driver stand-in".
//
// This file holds the vendor (its codes, their texts, the sticky ones), the
// device's attributes and limits, and the entry points for initialization,
// errors, devices, contexts, streams and events. CudaMemory.cpp holds those
// for memory, copies and memsets, CudaModules.cpp those for modules and
// launches, and CudaEntry.h what they share.
//
//===----------------------------------------------------------------------===//

#include "standin/CudaEntry.h"

#include <cuda.h>

#include <dlfcn.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

using namespace gpu_runner::standin;
using namespace gpu_runner::standin::cuda;

namespace {

constexpr const char *kDeviceName = "gpu-runner CUDA driver stand-in";

/// What cuGetErrorString says of the common codes: the driver's texts,
/// which its runtime shares. Other codes are described by their names.
const char *getKnownDescription(CUresult code) {
  switch (code) {
  case CUDA_SUCCESS:
    return "no error";
  case CUDA_ERROR_INVALID_VALUE:
    return "invalid argument";
  case CUDA_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "initialization error";
  case CUDA_ERROR_DEINITIALIZED:
    return "driver shutting down";
  case CUDA_ERROR_NO_DEVICE:
    return "no CUDA-capable device is detected";
  case CUDA_ERROR_INVALID_DEVICE:
    return "invalid device ordinal";
  case CUDA_ERROR_INVALID_IMAGE:
    return "device kernel image is invalid";
  case CUDA_ERROR_INVALID_CONTEXT:
    return "invalid device context";
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
    return "no kernel image is available for execution on the device";
  case CUDA_ERROR_INVALID_PTX:
    return "a PTX JIT compilation failed";
  case CUDA_ERROR_INVALID_HANDLE:
    return "invalid resource handle";
  case CUDA_ERROR_NOT_FOUND:
    return "named symbol not found";
  case CUDA_ERROR_NOT_READY:
    return "device not ready";
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    return "an illegal memory access was encountered";
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return "too many resources requested for launch";
  case CUDA_ERROR_LAUNCH_TIMEOUT:
    return "the launch timed out and was terminated";
  case CUDA_ERROR_ASSERT:
    return "device-side assert triggered";
  case CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED:
    return "part or all of the requested memory range is already mapped";
  case CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED:
    return "pointer does not correspond to a registered memory region";
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    return "an illegal instruction was encountered";
  case CUDA_ERROR_MISALIGNED_ADDRESS:
    return "misaligned address";
  case CUDA_ERROR_LAUNCH_FAILED:
    return "unspecified launch failure";
  case CUDA_ERROR_NOT_PERMITTED:
    return "operation not permitted";
  case CUDA_ERROR_NOT_SUPPORTED:
    // The stand-in's refusal of a launch it cannot run, or of kernel IR.
    return "operation not supported: this is gpu-runner's CUDA driver "
           "stand-in, which runs a kernel only from the LLVM IR its image "
           "was compiled from (gpuRunnerStandinModuleAttachIR), and only "
           "what it implements of that IR";
  case CUDA_ERROR_INVALID_CLUSTER_SIZE:
    return "a kernel launch error has occurred due to cluster "
           "misconfiguration";
  case CUDA_ERROR_UNKNOWN:
    return "unknown error";
  default:
    return nullptr;
  }
}

class CudaVendor final : public Vendor {
public:
  CudaVendor()
      : Vendor("CUDA driver", "cu", "CUDA_ERROR_",
               reinterpret_cast<void *>(&cuInit),
               {
#define GPU_RUNNER_CUDA_ERROR(NAME) {NAME, #NAME},
#include "standin/CudaErrors.inc"
#undef GPU_RUNNER_CUDA_ERROR
               }) {
  }
  int getCode(Error error) const override {
    switch (error) {
    case Error::Success:
      return CUDA_SUCCESS;
    case Error::InvalidValue:
    case Error::InvalidPitch:
    case Error::InvalidMemcpyDirection:
    case Error::InvalidConfiguration:
      return CUDA_ERROR_INVALID_VALUE;
    case Error::OutOfMemory:
      return CUDA_ERROR_OUT_OF_MEMORY;
    case Error::NotInitialized:
      return CUDA_ERROR_NOT_INITIALIZED;
    case Error::InvalidContext:
      return CUDA_ERROR_INVALID_CONTEXT;
    case Error::InvalidDevice:
      return CUDA_ERROR_INVALID_DEVICE;
    case Error::InvalidHandle:
      return CUDA_ERROR_INVALID_HANDLE;
    case Error::NotReady:
      return CUDA_ERROR_NOT_READY;
    case Error::NotFound:
      return CUDA_ERROR_NOT_FOUND;
    case Error::InvalidImage:
      return CUDA_ERROR_INVALID_IMAGE;
    case Error::NoBinaryForGpu:
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    case Error::InvalidPtx:
      return CUDA_ERROR_INVALID_PTX;
    case Error::HostMemoryAlreadyRegistered:
      return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    case Error::HostMemoryNotRegistered:
      return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    case Error::LaunchOutOfResources:
      return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    case Error::InvalidClusterSize:
      return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    case Error::KernelsNotRun:
    case Error::KernelNotSupported:
      return CUDA_ERROR_NOT_SUPPORTED;
    case Error::IllegalAddress:
      return CUDA_ERROR_ILLEGAL_ADDRESS;
    case Error::MisalignedAddress:
      return CUDA_ERROR_MISALIGNED_ADDRESS;
    case Error::LaunchFailed:
      return CUDA_ERROR_LAUNCH_FAILED;
    case Error::Assert:
      return CUDA_ERROR_ASSERT;
    case Error::Sticky:
      return CUDA_ERROR_UNKNOWN;
    }
    return CUDA_ERROR_UNKNOWN;
  }
  bool isSticky(int code) const override {
    // cuda.h: each of these "leaves the process in an inconsistent state
    // and any further CUDA work will return the same error"; after
    // CUDA_ERROR_ASSERT "The context cannot be used anymore".
    switch (code) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
      return true;
    default:
      return false;
    }
  }
  bool needsInit() const override { return true; }
  bool hasImplicitDevice() const override { return false; }
};

/// An H200's attributes, as far as the driver's users ask for them.
const std::map<CUdevice_attribute, int> &getAttributes() {
  static const auto *attributes = new std::map<CUdevice_attribute, int>{
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152},
      {CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
      {CU_DEVICE_ATTRIBUTE_MAX_PITCH, 2147483647},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 65536},
      {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1980000},
      {CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132},
      {CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT, 0},
      {CU_DEVICE_ATTRIBUTE_INTEGRATED, 0},
      {CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, CU_COMPUTEMODE_DEFAULT},
      {CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1},
      {CU_DEVICE_ATTRIBUTE_ECC_ENABLED, 1},
      {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 2619000},
      {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 6144},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 52428800},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 2048},
      {CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, 3},
      {CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, kArch / 10},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, kArch % 10},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 233472},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 65536},
      {CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1},
      {CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 232448},
      {CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, 1},
  };
  return *attributes;
}

} // namespace

namespace gpu_runner {
namespace standin {
namespace cuda {

DeviceLimits getLimits() {
  const auto &a = getAttributes();
  DeviceLimits limits;
  limits.maxGrid = {uint64_t(a.at(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)),
                    uint64_t(a.at(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)),
                    uint64_t(a.at(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z))};
  limits.maxBlock = {uint64_t(a.at(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
                     uint64_t(a.at(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
                     uint64_t(a.at(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
  limits.maxThreadsPerBlock = a.at(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  limits.maxSharedPerBlock =
      a.at(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  limits.maxSharedPerBlockOptin =
      a.at(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  limits.maxPitch = a.at(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
  // cuda.h, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: "The
  // portable cluster size for sm_90 is 8 blocks per cluster"; an H100 or
  // H200 allows 16 to a kernel that opts in.
  limits.maxClusterBlocks = 8;
  limits.maxNonPortableClusterBlocks = 16;
  return limits;
}

} // namespace cuda
} // namespace standin
} // namespace gpu_runner

namespace {

/// A device ordinal that names no device.
bool isBadDevice(CUdevice device) {
  return device < 0 || device >= driver().getDeviceCount();
}

} // namespace

namespace gpu_runner {
namespace standin {
const Vendor &getVendor() {
  static const CudaVendor *vendor = new CudaVendor();
  return *vendor;
}
} // namespace standin
} // namespace gpu_runner

//===----------------------------------------------------------------------===//
// Initialization, errors, devices and contexts.
//===----------------------------------------------------------------------===//

CUresult cuInit(unsigned int Flags) {
  Call call("cuInit");
  call.arg("Flags", Flags);
  ENTER(call, Nothing);
  // cuda.h, cuInit: "Currently, the Flags parameter must be 0."
  if (Flags != 0)
    return fail(call, Error::InvalidValue);
  driver().initialize();
  return finish(call, Error::Success);
}

CUresult cuDriverGetVersion(int *driverVersion) {
  Call call("cuDriverGetVersion");
  ENTER(call, Nothing);
  // cuda.h: "returns CUDA_ERROR_INVALID_VALUE if driverVersion is NULL".
  if (!driverVersion)
    return fail(call, Error::InvalidValue);
  *driverVersion = CUDA_VERSION;
  call.out("*driverVersion", std::to_string(CUDA_VERSION));
  return finish(call, Error::Success);
}

CUresult cuGetErrorName(CUresult error, const char **pStr) {
  Call call("cuGetErrorName");
  call.argSigned("error", error);
  ENTER(call, Nothing);
  if (!pStr)
    return fail(call, Error::InvalidValue);
  // cuda.h: "If the error code is not recognized, CUDA_ERROR_INVALID_VALUE
  // will be returned and *pStr will be set to the NULL address."
  *pStr = getVendor().getErrorName(error);
  return finish(call, *pStr ? Error::Success : Error::InvalidValue);
}

CUresult cuGetErrorString(CUresult error, const char **pStr) {
  Call call("cuGetErrorString");
  call.argSigned("error", error);
  ENTER(call, Nothing);
  if (!pStr)
    return fail(call, Error::InvalidValue);
  *pStr = getKnownDescription(error);
  if (!*pStr)
    *pStr = getVendor().describeByName(error);
  return finish(call, *pStr ? Error::Success : Error::InvalidValue);
}

CUresult cuDeviceGetCount(int *count) {
  Call call("cuDeviceGetCount");
  ENTER(call, Init);
  if (!count)
    return fail(call, Error::InvalidValue);
  *count = driver().getDeviceCount();
  call.out("*count", std::to_string(*count));
  return finish(call, Error::Success);
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  Call call("cuDeviceGet");
  call.argSigned("ordinal", ordinal);
  ENTER(call, Init);
  if (!device)
    return fail(call, Error::InvalidValue);
  // cuda.h: ordinal in "[0, cuDeviceGetCount()-1]".
  if (isBadDevice(ordinal))
    return fail(call, Error::InvalidDevice);
  *device = ordinal;
  return finish(call, Error::Success);
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  Call call("cuDeviceGetName");
  call.argSigned("len", len).argSigned("dev", dev);
  ENTER(call, Init);
  if (!name || len <= 0)
    return fail(call, Error::InvalidValue);
  if (isBadDevice(dev))
    return fail(call, Error::InvalidDevice);
  // "name is shortened to the specified len, if len is less than the
  // device name".
  std::snprintf(name, static_cast<size_t>(len), "%s", kDeviceName);
  return finish(call, Error::Success);
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
                              CUdevice dev) {
  Call call("cuDeviceGetAttribute");
  call.argSigned("attrib", attrib).argSigned("dev", dev);
  ENTER(call, Init);
  if (!pi)
    return fail(call, Error::InvalidValue);
  if (isBadDevice(dev))
    return fail(call, Error::InvalidDevice);
  auto it = getAttributes().find(attrib);
  if (it == getAttributes().end())
    return fail(call, Error::InvalidValue);
  *pi = it->second;
  call.out("*pi", std::to_string(*pi));
  return finish(call, Error::Success);
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev) {
  Call call("cuDeviceTotalMem_v2");
  call.argSigned("dev", dev);
  ENTER(call, Init);
  if (!bytes)
    return fail(call, Error::InvalidValue);
  if (isBadDevice(dev))
    return fail(call, Error::InvalidDevice);
  *bytes = driver().getDeviceMemory();
  return finish(call, Error::Success);
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
  Call call("cuDevicePrimaryCtxRetain");
  call.argSigned("dev", dev);
  ENTER(call, Init);
  if (!pctx)
    return fail(call, Error::InvalidValue);
  if (isBadDevice(dev))
    return fail(call, Error::InvalidDevice);
  driver().retainContext(dev);
  *pctx = static_cast<CUcontext>(
      Driver::makeHandle(HandleKind::Context, uint64_t(dev) + 1));
  call.out("*pctx", driver().describeHandle(HandleKind::Context, *pctx));
  return finish(call, Error::Success);
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
  Call call("cuDevicePrimaryCtxRelease_v2");
  call.argSigned("dev", dev);
  ENTER(call, Init);
  if (isBadDevice(dev))
    return fail(call, Error::InvalidDevice);
  return finish(call, driver().releaseContext(dev));
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  Call call("cuCtxSetCurrent");
  call.argHandle("ctx", HandleKind::Context, ctx);
  ENTER(call, Init);
  // cuda.h: "If ctx is NULL then the CUDA context previously bound to the
  // calling CPU thread is unbound and CUDA_SUCCESS is returned."
  if (!ctx) {
    driver().setCurrentDevice(-1);
    return finish(call, Error::Success);
  }
  uint64_t id = 0;
  if (!Driver::readHandle(ctx, HandleKind::Context, id) ||
      !driver().isContextActive(static_cast<int>(id) - 1))
    return fail(call, Error::InvalidContext);
  driver().setCurrentDevice(static_cast<int>(id) - 1);
  return finish(call, Error::Success);
}

CUresult cuCtxGetCurrent(CUcontext *pctx) {
  Call call("cuCtxGetCurrent");
  ENTER(call, Init);
  if (!pctx)
    return fail(call, Error::InvalidValue);
  int device = driver().getCurrentDevice();
  *pctx = device >= 0 && driver().isContextActive(device)
              ? static_cast<CUcontext>(Driver::makeHandle(HandleKind::Context,
                                                          uint64_t(device) + 1))
              : nullptr;
  return finish(call, Error::Success);
}

CUresult cuCtxSynchronize(void) {
  Call call("cuCtxSynchronize");
  ENTER(call, Context);
  return finish(call, driver().synchronizeDevice());
}

//===----------------------------------------------------------------------===//
// Streams and events.
//===----------------------------------------------------------------------===//

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
  Call call("cuStreamCreate");
  call.arg("Flags", Flags);
  ENTER(call, Context);
  // cuda.h, cuStreamCreate: Flags is CU_STREAM_DEFAULT or
  // CU_STREAM_NON_BLOCKING.
  if (!phStream || (Flags & ~unsigned(CU_STREAM_NON_BLOCKING)))
    return fail(call, Error::InvalidValue);
  void *handle = nullptr;
  Error error = driver().createStream(Flags & CU_STREAM_NON_BLOCKING, handle);
  *phStream = static_cast<CUstream>(handle);
  call.out("*phStream", driver().describeHandle(HandleKind::Stream, handle));
  return finish(call, error);
}

CUresult cuStreamDestroy(CUstream hStream) {
  return static_cast<CUresult>(callOnHandle("cuStreamDestroy_v2", "hStream",
                                            HandleKind::Stream, hStream,
                                            &Driver::destroyStream));
}

CUresult cuStreamQuery(CUstream hStream) {
  return static_cast<CUresult>(callOnHandle("cuStreamQuery", "hStream",
                                            HandleKind::Stream, hStream,
                                            &Driver::queryStream));
}

CUresult cuStreamSynchronize(CUstream hStream) {
  return static_cast<CUresult>(callOnHandle("cuStreamSynchronize", "hStream",
                                            HandleKind::Stream, hStream,
                                            &Driver::synchronizeStream));
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
                           unsigned int Flags) {
  Call call("cuStreamWaitEvent");
  call.argHandle("hStream", HandleKind::Stream, hStream)
      .argHandle("hEvent", HandleKind::Event, hEvent)
      .arg("Flags", Flags);
  ENTER(call, Context);
  // cuda.h: hEvent "(may not be NULL)"; CU_EVENT_WAIT_EXTERNAL, the only
  // flag, "is invalid outside of stream capture".
  if (!hEvent)
    return fail(call, Error::InvalidHandle);
  if (Flags != 0)
    return fail(call, Error::InvalidValue);
  return finish(call, driver().streamWaitEvent(hStream, hEvent));
}

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
  Call call("cuEventCreate");
  call.arg("Flags", Flags);
  ENTER(call, Context);
  unsigned known =
      CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
  // cuda.h, cuEventCreate: "CU_EVENT_INTERPROCESS must be specified along
  // with CU_EVENT_DISABLE_TIMING."
  if (!phEvent || (Flags & ~known) ||
      ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING)))
    return fail(call, Error::InvalidValue);
  void *handle = nullptr;
  Error error =
      driver().createEvent(Flags, !(Flags & CU_EVENT_DISABLE_TIMING), handle);
  *phEvent = static_cast<CUevent>(handle);
  call.out("*phEvent", driver().describeHandle(HandleKind::Event, handle));
  return finish(call, error);
}

CUresult cuEventDestroy(CUevent hEvent) {
  return static_cast<CUresult>(callOnHandle("cuEventDestroy_v2", "hEvent",
                                            HandleKind::Event, hEvent,
                                            &Driver::destroyEvent));
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
  Call call("cuEventRecord");
  call.argHandle("hEvent", HandleKind::Event, hEvent)
      .argHandle("hStream", HandleKind::Stream, hStream);
  ENTER(call, Context);
  return finish(call, driver().recordEvent(hEvent, hStream));
}

CUresult cuEventQuery(CUevent hEvent) {
  return static_cast<CUresult>(callOnHandle("cuEventQuery", "hEvent",
                                            HandleKind::Event, hEvent,
                                            &Driver::queryEvent));
}

CUresult cuEventSynchronize(CUevent hEvent) {
  return static_cast<CUresult>(callOnHandle("cuEventSynchronize", "hEvent",
                                            HandleKind::Event, hEvent,
                                            &Driver::synchronizeEvent));
}

CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart,
                            CUevent hEnd) {
  Call call("cuEventElapsedTime_v2");
  call.argHandle("hStart", HandleKind::Event, hStart)
      .argHandle("hEnd", HandleKind::Event, hEnd);
  ENTER(call, Context);
  if (!pMilliseconds)
    return fail(call, Error::InvalidValue);
  return finish(call,
                driver().getElapsedMilliseconds(hStart, hEnd, *pMilliseconds));
}
