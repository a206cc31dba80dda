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
//===----------------------------------------------------------------------===//

#include "standin/Driver.h"

#include <cuda.h>

#include <dlfcn.h>

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

using namespace gpu_runner::standin;

namespace {

constexpr int kArch = 90;
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
    // The stand-in's refusal of every launch.
    return "operation not supported: this is gpu-runner's CUDA driver "
           "stand-in, which runs no kernels";
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
      return CUDA_ERROR_NOT_SUPPORTED;
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

Driver &driver() { return Driver::get(); }

std::string hex(uint64_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIx64, value);
  return text;
}

const void *pointerOf(CUdeviceptr address) {
  return reinterpret_cast<const void *>(static_cast<uintptr_t>(address));
}

CUdeviceptr addressOf(const void *pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

const char *getMemoryTypeName(CUmemorytype type) {
  switch (type) {
  case CU_MEMORYTYPE_HOST:
    return "HOST";
  case CU_MEMORYTYPE_DEVICE:
    return "DEVICE";
  case CU_MEMORYTYPE_ARRAY:
    return "ARRAY";
  case CU_MEMORYTYPE_UNIFIED:
    return "UNIFIED";
  }
  return "invalid";
}

/// One side of a 2-D or 3-D copy from its memory type and pointer fields.
/// cuda.h, CUDA_MEMCPY2D: HOST uses the host pointer, DEVICE the device
/// pointer, UNIFIED "(unified virtual address space) base address" in the
/// device field, ARRAY a CUDA array; the stand-in has no arrays.
bool readCopySide(CUmemorytype type, const void *host, CUdeviceptr device,
                  CopySide &side) {
  switch (type) {
  case CU_MEMORYTYPE_HOST:
    side.base = host;
    side.expect = CopySide::Expect::Host;
    return true;
  case CU_MEMORYTYPE_DEVICE:
    side.base = pointerOf(device);
    side.expect = CopySide::Expect::Device;
    return true;
  case CU_MEMORYTYPE_UNIFIED:
    side.base = pointerOf(device);
    side.expect = CopySide::Expect::Any;
    return true;
  default:
    return false;
  }
}

/// The trace's view of one side of a copy.
std::string describeSide(const char *prefix, CUmemorytype type,
                         const void *host, CUdeviceptr device, size_t x,
                         size_t y, size_t z, size_t pitch, size_t height,
                         bool is3d) {
  std::string text = std::string(prefix) +
                     "MemoryType=" + getMemoryTypeName(type) + ", " + prefix;
  if (type == CU_MEMORYTYPE_HOST)
    text += "Host=" + driver().describePointer(host);
  else
    text += "Device=" + driver().describePointer(pointerOf(device));
  if (x)
    text += std::string(", ") + prefix + "XInBytes=" + std::to_string(x);
  if (y)
    text += std::string(", ") + prefix + "Y=" + std::to_string(y);
  if (z)
    text += std::string(", ") + prefix + "Z=" + std::to_string(z);
  text += std::string(", ") + prefix + "Pitch=" + std::to_string(pitch);
  if (is3d)
    text += std::string(", ") + prefix + "Height=" + std::to_string(height);
  return text;
}

CUresult fail(Call &call, Error error) {
  return static_cast<CUresult>(call.done(error));
}

CUresult finish(Call &call, Error error) {
  return static_cast<CUresult>(call.done(error));
}

#define ENTER(call, needs)                                                     \
  if (int code = (call).enter(Call::Needs::needs))                             \
  return static_cast<CUresult>(code)

/// A device ordinal that names no device.
bool isBadDevice(CUdevice device) {
  return device < 0 || device >= driver().getDeviceCount();
}

/// The memsets: `height` rows of `width` elements of `size` bytes.
CUresult memsetRows(Call &call, CUdeviceptr dst, size_t pitch, uint64_t value,
                    unsigned size, size_t width, size_t height,
                    CUstream stream) {
  // cuda.h, cuMemsetD16 / cuMemsetD2D16: "The dstDevice pointer and dstPitch
  // offset must be two byte aligned"; the 32-bit forms four.
  if (dst % size != 0 || (height > 1 && pitch % size != 0))
    return fail(call, Error::InvalidValue);
  // dstPitch is "(Unused if Height is 1)". For more rows the documentation
  // names no bound, but rows closer than their width would overlap.
  if (height > 1 && pitch < width * size)
    return fail(call, Error::InvalidValue);
  return finish(call, driver().fill(const_cast<void *>(pointerOf(dst)),
                                    height > 1 ? pitch : width * size, value,
                                    size, width, height, stream));
}

CUresult memsetAsync(const char *entry, CUdeviceptr dst, uint64_t value,
                     unsigned size, size_t count, CUstream stream) {
  Call call(entry);
  call.argPointer("dstDevice", pointerOf(dst))
      .argText(size == 1   ? "uc"
               : size == 2 ? "us"
                           : "ui",
               hex(value))
      .arg("N", count)
      .argHandle("hStream", HandleKind::Stream, stream);
  ENTER(call, Context);
  return memsetRows(call, dst, count * size, value, size, count, 1, stream);
}

CUresult memset2DAsync(const char *entry, CUdeviceptr dst, size_t pitch,
                       uint64_t value, unsigned size, size_t width,
                       size_t height, CUstream stream) {
  Call call(entry);
  call.argPointer("dstDevice", pointerOf(dst))
      .arg("dstPitch", pitch)
      .argText(size == 1   ? "uc"
               : size == 2 ? "us"
                           : "ui",
               hex(value))
      .arg("Width", width)
      .arg("Height", height)
      .argHandle("hStream", HandleKind::Stream, stream);
  ENTER(call, Context);
  return memsetRows(call, dst, pitch, value, size, width, height, stream);
}

CUresult launch(Call &call, CUfunction f, const LaunchRequest &request,
                CUstream stream) {
  if (request.extra)
    if (Error error = driver().checkLaunchExtra(
            request.extra, CU_LAUNCH_PARAM_BUFFER_POINTER,
            CU_LAUNCH_PARAM_BUFFER_SIZE, CU_LAUNCH_PARAM_END);
        error != Error::Success)
      return fail(call, error);
  return finish(call, driver().launch(f, request, getLimits(), stream));
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

//===----------------------------------------------------------------------===//
// Memory.
//===----------------------------------------------------------------------===//

CUresult cuMemGetInfo(size_t *free, size_t *total) {
  Call call("cuMemGetInfo_v2");
  ENTER(call, Context);
  if (!free || !total)
    return fail(call, Error::InvalidValue);
  uint64_t freeBytes = 0, totalBytes = 0;
  driver().getMemoryInfo(freeBytes, totalBytes);
  *free = freeBytes;
  *total = totalBytes;
  return finish(call, Error::Success);
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  Call call("cuMemAlloc_v2");
  call.arg("bytesize", bytesize);
  ENTER(call, Context);
  // cuda.h, cuMemAlloc: "If bytesize is 0, cuMemAlloc() returns
  // CUDA_ERROR_INVALID_VALUE."
  if (!dptr || bytesize == 0)
    return fail(call, Error::InvalidValue);
  void *pointer = nullptr;
  Error error = driver().allocate(bytesize, /*managed=*/false, pointer);
  *dptr = addressOf(pointer);
  if (error == Error::Success)
    call.out("*dptr", driver().describePointer(pointer));
  return finish(call, error);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
                           unsigned int flags) {
  Call call("cuMemAllocManaged");
  call.arg("bytesize", bytesize).arg("flags", flags);
  ENTER(call, Context);
  // cuda.h, cuMemAllocManaged: "If bytesize is 0, cuMemAllocManaged returns
  // CUDA_ERROR_INVALID_VALUE"; "flags must be one of CU_MEM_ATTACH_GLOBAL
  // or CU_MEM_ATTACH_HOST".
  if (!dptr || bytesize == 0 ||
      (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
    return fail(call, Error::InvalidValue);
  void *pointer = nullptr;
  Error error = driver().allocate(bytesize, /*managed=*/true, pointer);
  *dptr = addressOf(pointer);
  if (error == Error::Success)
    call.out("*dptr", driver().describePointer(pointer));
  return finish(call, error);
}

CUresult cuMemFree(CUdeviceptr dptr) {
  Call call("cuMemFree_v2");
  call.argPointer("dptr", pointerOf(dptr));
  ENTER(call, Context);
  // dptr "must have been returned by a previous call to" an allocation
  // function. As cudaFree, which cuda_runtime_api.h documents: "If
  // cudaFree(devPtr) has already been called before, an error is returned.
  // If devPtr is 0, no operation is performed."
  if (!dptr)
    return finish(call, Error::Success);
  return finish(call, driver().free(const_cast<void *>(pointerOf(dptr))));
}

CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags) {
  Call call("cuMemHostRegister_v2");
  call.argPointer("p", p).arg("bytesize", bytesize).arg("Flags", Flags);
  ENTER(call, Context);
  unsigned known = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
                   CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY;
  if (Flags & ~known)
    return fail(call, Error::InvalidValue);
  // CU_MEMHOSTREGISTER_IOMEMORY is for memory of another PCIe device, which
  // the stand-in has none of.
  if (Flags & CU_MEMHOSTREGISTER_IOMEMORY)
    return fail(call, Error::InvalidValue);
  Error error = driver().registerHost(p, bytesize, Flags,
                                      Flags & CU_MEMHOSTREGISTER_READ_ONLY);
  if (error == Error::Success)
    call.out("p", driver().describePointer(p));
  return finish(call, error);
}

CUresult cuMemHostUnregister(void *p) {
  Call call("cuMemHostUnregister");
  call.argPointer("p", p);
  ENTER(call, Context);
  return finish(call, driver().unregisterHost(p));
}

//===----------------------------------------------------------------------===//
// Copies and memsets.
//===----------------------------------------------------------------------===//

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  Call call("cuMemcpy");
  call.argPointer("dst", pointerOf(dst))
      .argPointer("src", pointerOf(src))
      .arg("ByteCount", ByteCount);
  ENTER(call, Context);
  CopySide from, to;
  from.base = pointerOf(src);
  to.base = pointerOf(dst);
  CopyExtent extent;
  extent.widthBytes = ByteCount;
  // The synchronous form: on the legacy stream, returning once done.
  Error error = driver().copy(from, to, extent, nullptr);
  if (error == Error::Success)
    error = driver().synchronizeStream(nullptr);
  return finish(call, error);
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                       CUstream hStream) {
  Call call("cuMemcpyAsync");
  call.argPointer("dst", pointerOf(dst))
      .argPointer("src", pointerOf(src))
      .arg("ByteCount", ByteCount)
      .argHandle("hStream", HandleKind::Stream, hStream);
  ENTER(call, Context);
  // cuda.h, cuMemcpyAsync: "infers the type of the transfer (host to host,
  // host to device, device to device, or device to host) from the pointer
  // values."
  CopySide from, to;
  from.base = pointerOf(src);
  to.base = pointerOf(dst);
  CopyExtent extent;
  extent.widthBytes = ByteCount;
  return finish(call, driver().copy(from, to, extent, hStream));
}

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream) {
  Call call("cuMemcpy2DAsync_v2");
  if (pCopy && driver().canRead(pCopy, sizeof(*pCopy)))
    call.argText("pCopy",
                 "{" +
                     describeSide("src", pCopy->srcMemoryType, pCopy->srcHost,
                                  pCopy->srcDevice, pCopy->srcXInBytes,
                                  pCopy->srcY, 0, pCopy->srcPitch, 0, false) +
                     ", " +
                     describeSide("dst", pCopy->dstMemoryType, pCopy->dstHost,
                                  pCopy->dstDevice, pCopy->dstXInBytes,
                                  pCopy->dstY, 0, pCopy->dstPitch, 0, false) +
                     ", WidthInBytes=" + std::to_string(pCopy->WidthInBytes) +
                     ", Height=" + std::to_string(pCopy->Height) + "}");
  call.argHandle("hStream", HandleKind::Stream, hStream);
  ENTER(call, Context);
  if (!pCopy || !driver().canRead(pCopy, sizeof(*pCopy)))
    return fail(call, Error::InvalidValue);
  CopySide from, to;
  if (!readCopySide(pCopy->srcMemoryType, pCopy->srcHost, pCopy->srcDevice,
                    from) ||
      !readCopySide(pCopy->dstMemoryType, pCopy->dstHost, pCopy->dstDevice, to))
    return fail(call, Error::InvalidValue);
  from.x = pCopy->srcXInBytes;
  from.y = pCopy->srcY;
  from.pitch = pCopy->srcPitch;
  to.x = pCopy->dstXInBytes;
  to.y = pCopy->dstY;
  to.pitch = pCopy->dstPitch;
  CopyExtent extent;
  extent.widthBytes = pCopy->WidthInBytes;
  extent.height = pCopy->Height;
  extent.pitched = true;
  extent.maxPitch = getLimits().maxPitch;
  return finish(call, driver().copy(from, to, extent, hStream));
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream) {
  Call call("cuMemcpy3DAsync_v2");
  if (pCopy && driver().canRead(pCopy, sizeof(*pCopy)))
    call.argText(
        "pCopy",
        "{" +
            describeSide("src", pCopy->srcMemoryType, pCopy->srcHost,
                         pCopy->srcDevice, pCopy->srcXInBytes, pCopy->srcY,
                         pCopy->srcZ, pCopy->srcPitch, pCopy->srcHeight, true) +
            ", " +
            describeSide("dst", pCopy->dstMemoryType, pCopy->dstHost,
                         pCopy->dstDevice, pCopy->dstXInBytes, pCopy->dstY,
                         pCopy->dstZ, pCopy->dstPitch, pCopy->dstHeight, true) +
            ", WidthInBytes=" + std::to_string(pCopy->WidthInBytes) +
            ", Height=" + std::to_string(pCopy->Height) +
            ", Depth=" + std::to_string(pCopy->Depth) + "}");
  call.argHandle("hStream", HandleKind::Stream, hStream);
  ENTER(call, Context);
  if (!pCopy || !driver().canRead(pCopy, sizeof(*pCopy)))
    return fail(call, Error::InvalidValue);
  // cuda.h, cuMemcpy3D: "The srcLOD and dstLOD members of the CUDA_MEMCPY3D
  // structure must be set to 0"; reserved0 and reserved1 "Must be NULL".
  if (pCopy->srcLOD || pCopy->dstLOD || pCopy->reserved0 || pCopy->reserved1)
    return fail(call, Error::InvalidValue);
  CopySide from, to;
  if (!readCopySide(pCopy->srcMemoryType, pCopy->srcHost, pCopy->srcDevice,
                    from) ||
      !readCopySide(pCopy->dstMemoryType, pCopy->dstHost, pCopy->dstDevice, to))
    return fail(call, Error::InvalidValue);
  from.x = pCopy->srcXInBytes;
  from.y = pCopy->srcY;
  from.z = pCopy->srcZ;
  from.pitch = pCopy->srcPitch;
  from.sliceRows = pCopy->srcHeight;
  to.x = pCopy->dstXInBytes;
  to.y = pCopy->dstY;
  to.z = pCopy->dstZ;
  to.pitch = pCopy->dstPitch;
  to.sliceRows = pCopy->dstHeight;
  CopyExtent extent;
  extent.widthBytes = pCopy->WidthInBytes;
  extent.height = pCopy->Height;
  extent.depth = pCopy->Depth;
  extent.pitched = true;
  extent.maxPitch = getLimits().maxPitch;
  return finish(call, driver().copy(from, to, extent, hStream));
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                         CUstream hStream) {
  return memsetAsync("cuMemsetD8Async", dstDevice, uc, 1, N, hStream);
}

CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
                          CUstream hStream) {
  return memsetAsync("cuMemsetD16Async", dstDevice, us, 2, N, hStream);
}

CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                          CUstream hStream) {
  return memsetAsync("cuMemsetD32Async", dstDevice, ui, 4, N, hStream);
}

CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
                           unsigned char uc, size_t Width, size_t Height,
                           CUstream hStream) {
  return memset2DAsync("cuMemsetD2D8Async", dstDevice, dstPitch, uc, 1, Width,
                       Height, hStream);
}

CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch,
                            unsigned short us, size_t Width, size_t Height,
                            CUstream hStream) {
  return memset2DAsync("cuMemsetD2D16Async", dstDevice, dstPitch, us, 2, Width,
                       Height, hStream);
}

CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch,
                            unsigned int ui, size_t Width, size_t Height,
                            CUstream hStream) {
  return memset2DAsync("cuMemsetD2D32Async", dstDevice, dstPitch, ui, 4, Width,
                       Height, hStream);
}

//===----------------------------------------------------------------------===//
// Modules and launches.
//===----------------------------------------------------------------------===//

namespace {

/// Loads an image; `log` receives why it cannot be.
CUresult loadModule(Call &call, CUmodule *module, const void *image,
                    std::string &log) {
  if (!module)
    return fail(call, Error::InvalidValue);
  ImageInfo info;
  Error error = readCudaImage(
      image, kArch,
      [](const void *p, uint64_t bytes) { return driver().canRead(p, bytes); },
      info, log);
  if (error != Error::Success)
    return fail(call, error);
  call.argText("format", info.format);
  void *handle = nullptr;
  error = driver().loadModule(std::move(info), handle);
  *module = static_cast<CUmodule>(handle);
  call.out("*module", driver().describeHandle(HandleKind::Module, handle));
  return finish(call, error);
}

} // namespace

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  Call call("cuModuleLoadData");
  ENTER(call, Context);
  std::string log;
  return loadModule(call, module, image, log);
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned int numOptions, CUjit_option *options,
                            void **optionValues) {
  Call call("cuModuleLoadDataEx");
  call.arg("numOptions", numOptions);
  ENTER(call, Context);
  if (numOptions &&
      (!driver().canRead(options, numOptions * sizeof(CUjit_option)) ||
       !driver().canRead(optionValues, numOptions * sizeof(void *))))
    return fail(call, Error::InvalidValue);
  std::string log;
  CUresult result = loadModule(call, module, image, log);
  // CU_JIT_ERROR_LOG_BUFFER and its size: where the driver says why.
  char *buffer = nullptr;
  size_t size = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      buffer = static_cast<char *>(optionValues[i]);
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      size = reinterpret_cast<uintptr_t>(optionValues[i]);
  }
  if (buffer && size)
    std::snprintf(buffer, size, "%s",
                  result == CUDA_SUCCESS ? "" : log.c_str());
  return result;
}

CUresult cuModuleUnload(CUmodule hmod) {
  return static_cast<CUresult>(callOnHandle("cuModuleUnload", "hmod",
                                            HandleKind::Module, hmod,
                                            &Driver::unloadModule));
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                             const char *name) {
  Call call("cuModuleGetFunction");
  call.argHandle("hmod", HandleKind::Module, hmod)
      .argText("name", name ? name : "null");
  ENTER(call, Context);
  if (!hfunc || !name)
    return fail(call, Error::InvalidValue);
  void *handle = nullptr;
  Error error = driver().getFunction(hmod, name, handle);
  *hfunc = static_cast<CUfunction>(handle);
  if (error == Error::Success)
    call.out("*hfunc", driver().describeHandle(HandleKind::Function, handle))
        .out("params", describeParamSizes(handle));
  return finish(call, error);
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
                            CUfunction hfunc) {
  Call call("cuFuncGetAttribute");
  call.argSigned("attrib", attrib)
      .argHandle("hfunc", HandleKind::Function, hfunc);
  ENTER(call, Context);
  if (!pi)
    return fail(call, Error::InvalidValue);
  DeviceLimits limits = getLimits();
  Error error = driver().updateFunction(hfunc, [&](Function &function) {
    uint64_t shared = function.kernel.sharedBytes;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *pi = static_cast<int>(limits.maxThreadsPerBlock);
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
      *pi = static_cast<int>(shared);
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
      *pi = 0;
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_NUM_REGS:
      *pi = 32;
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
      *pi = kArch;
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      *pi = static_cast<int>(
          function.maxDynamicSharedBytes
              ? function.maxDynamicSharedBytes
              : limits.maxSharedPerBlock -
                    std::min(shared, limits.maxSharedPerBlock));
      return Error::Success;
    default:
      return Error::InvalidValue;
    }
  });
  if (error == Error::Success)
    call.out("*pi", std::to_string(*pi));
  return finish(call, error);
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib,
                            int value) {
  Call call("cuFuncSetAttribute");
  call.argHandle("hfunc", HandleKind::Function, hfunc)
      .argSigned("attrib", attrib)
      .argSigned("value", value);
  ENTER(call, Context);
  DeviceLimits limits = getLimits();
  return finish(call, driver().updateFunction(hfunc, [&](Function &function) {
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      // cuda.h: "The sum of this value and the function attribute
      // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES cannot exceed the device
      // attribute CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN."
      if (value < 0 || function.kernel.sharedBytes + uint64_t(value) >
                           limits.maxSharedPerBlockOptin)
        return Error::InvalidValue;
      function.maxDynamicSharedBytes = uint64_t(value);
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
      function.nonPortableClusters = value != 0;
      return Error::Success;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      return Error::Success; // hints, with no effect here
    default:
      // "Attempting to set a value on a read-only attribute will result in
      // an error (CUDA_ERROR_INVALID_VALUE)".
      return Error::InvalidValue;
    }
  }));
}

namespace {

std::string describeParams(void **kernelParams, void **extra) {
  return std::string("kernelParams=") + (kernelParams ? "set" : "null") +
         ", extra=" + (extra ? "set" : "null");
}

} // namespace

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
                        unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes,
                        CUstream hStream, void **kernelParams, void **extra) {
  Call call("cuLaunchKernel");
  call.argHandle("f", HandleKind::Function, f)
      .argText("grid", std::to_string(gridDimX) + "x" +
                           std::to_string(gridDimY) + "x" +
                           std::to_string(gridDimZ))
      .argText("block", std::to_string(blockDimX) + "x" +
                            std::to_string(blockDimY) + "x" +
                            std::to_string(blockDimZ))
      .arg("sharedMemBytes", sharedMemBytes)
      .argHandle("hStream", HandleKind::Stream, hStream)
      .argText("params", describeParams(kernelParams, extra));
  ENTER(call, Context);
  LaunchRequest request;
  request.grid = {gridDimX, gridDimY, gridDimZ};
  request.block = {blockDimX, blockDimY, blockDimZ};
  request.sharedBytes = sharedMemBytes;
  request.kernelParams = kernelParams;
  request.extra = extra;
  return launch(call, f, request, hStream);
}

// A driver older than CUDA 12.0 has no cuLaunchKernelEx: the stand-in can
// be built without it, to test programs on such a driver.
#ifndef GPU_RUNNER_STANDIN_WITHOUT_LAUNCH_KERNEL_EX
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                          void **kernelParams, void **extra) {
  Call call("cuLaunchKernelEx");
  call.argHandle("f", HandleKind::Function, f);
  bool readable = config && driver().canRead(config, sizeof(*config));
  if (readable)
    call.argText("grid", std::to_string(config->gridDimX) + "x" +
                             std::to_string(config->gridDimY) + "x" +
                             std::to_string(config->gridDimZ))
        .argText("block", std::to_string(config->blockDimX) + "x" +
                              std::to_string(config->blockDimY) + "x" +
                              std::to_string(config->blockDimZ))
        .arg("sharedMemBytes", config->sharedMemBytes)
        .argHandle("hStream", HandleKind::Stream, config->hStream)
        .arg("numAttrs", config->numAttrs);
  call.argText("params", describeParams(kernelParams, extra));
  ENTER(call, Context);
  if (!readable ||
      (config->numAttrs &&
       !driver().canRead(config->attrs,
                         config->numAttrs * sizeof(CUlaunchAttribute))))
    return fail(call, Error::InvalidValue);
  LaunchRequest request;
  request.grid = {config->gridDimX, config->gridDimY, config->gridDimZ};
  request.block = {config->blockDimX, config->blockDimY, config->blockDimZ};
  request.sharedBytes = config->sharedMemBytes;
  request.kernelParams = kernelParams;
  request.extra = extra;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute &attribute = config->attrs[i];
    if (attribute.id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      continue;
    request.useCluster = true;
    request.cluster = {attribute.value.clusterDim.x,
                       attribute.value.clusterDim.y,
                       attribute.value.clusterDim.z};
  }
  return launch(call, f, request, config->hStream);
}
#endif
