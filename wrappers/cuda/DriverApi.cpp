//===- DriverApi.cpp - The CUDA driver API, loaded at run time ------------===//

#include "wrappers/cuda/DriverApi.h"

#include "wrappers/Backend.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/gpu/DriverLibrary.h"
#include "wrappers/gpu/GpuRuntime.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace gpu_runner {
namespace cuda {
namespace {

// Stringizes after macro expansion, so that cuda.h's versioned names are
// looked up: cuMemAlloc -> "cuMemAlloc_v2".
#define GPU_RUNNER_STRINGIZE_EXPANDED(NAME) GPU_RUNNER_STRINGIZE(NAME)
#define GPU_RUNNER_STRINGIZE(NAME) #NAME

DriverApi loadedApi;

Status load() {
  static const DriverLibrary library = {
      "GPU_RUNNER_CUDA_DRIVER",
      {kDriverLibrary},
      "the NVIDIA driver",
      kDriverLibrary,
      "gpu-runner-cuda runs programs only where the driver is",
      "; gpu-runner-cuda needs a driver for CUDA 12.8 or newer"};
  // cuda.h maps the names the table uses to the versioned symbols the
  // driver exports: cuMemAlloc is cuMemAlloc_v2.
  const std::vector<DriverEntryPoint> entries = {
#define GPU_RUNNER_REQUIRED_ENTRY(NAME)                                        \
  {GPU_RUNNER_STRINGIZE_EXPANDED(NAME),                                        \
   reinterpret_cast<void **>(&loadedApi.NAME), false},
#define GPU_RUNNER_OPTIONAL_ENTRY(NAME)                                        \
  {GPU_RUNNER_STRINGIZE_EXPANDED(NAME),                                        \
   reinterpret_cast<void **>(&loadedApi.NAME), true},
      GPU_RUNNER_CUDA_DRIVER_FUNCTIONS(GPU_RUNNER_REQUIRED_ENTRY,
                                       GPU_RUNNER_OPTIONAL_ENTRY)
#undef GPU_RUNNER_REQUIRED_ENTRY
#undef GPU_RUNNER_OPTIONAL_ENTRY
  };
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLibrary(library, entries));

  CUresult result = loadedApi.cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE)
    return Status::error("no CUDA device: the NVIDIA driver is installed "
                         "but sees no GPU (" +
                         describeError(result) + ")");
  return check(result, "the NVIDIA driver failed to start (cuInit)");
}

} // namespace

Status loadDriver(const DriverApi *&api) {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = load(); });
  api = status.ok() ? &loadedApi : nullptr;
  return status;
}

const DriverApi &driver() { return loadedApi; }

std::string describeError(CUresult result) {
  const char *name = nullptr;
  const char *description = nullptr;
  // Both are safe to call before cuInit, and for an unknown code fail
  // without touching their output.
  if (loadedApi.cuGetErrorName)
    loadedApi.cuGetErrorName(result, &name);
  if (loadedApi.cuGetErrorString)
    loadedApi.cuGetErrorString(result, &description);
  std::string text =
      name ? name : "CUDA error " + std::to_string(static_cast<int>(result));
  if (description)
    text += std::string(": ") + description;
  return text;
}

Status check(CUresult result, const std::string &what) {
  if (result == CUDA_SUCCESS)
    return Status();
  if (what.empty())
    return Status::error(describeError(result));
  return Status::error(what + ": " + describeError(result));
}

} // namespace cuda
} // namespace gpu_runner

//===----------------------------------------------------------------------===//
// The GpuDriver of gpu-runner-cuda.
//===----------------------------------------------------------------------===//

namespace gpu_runner {
namespace cuda {
namespace {

CUdeviceptr devicePointer(const void *pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

class CudaDriver final : public GpuDriver {
public:
  const char *vendor() const override { return "CUDA"; }
  Status load() override {
    const DriverApi *api = nullptr;
    return loadDriver(api);
  }
  std::string describe(Result result) const override {
    return describeError(static_cast<CUresult>(result));
  }
  bool isKernelFault(Result result) const override {
    switch (static_cast<CUresult>(result)) {
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
  bool isNotReady(Result result) const override {
    return result == CUDA_ERROR_NOT_READY;
  }
  bool isOutOfMemory(Result result) const override {
    return result == CUDA_ERROR_OUT_OF_MEMORY;
  }
  bool isWrongBinary(Result result) const override {
    return result == CUDA_ERROR_NO_BINARY_FOR_GPU ||
           result == CUDA_ERROR_INVALID_IMAGE;
  }
  bool isNotFound(Result result) const override {
    return result == CUDA_ERROR_NOT_FOUND;
  }

  Result getDeviceCount(int &count) override {
    return driver().cuDeviceGetCount(&count);
  }
  Result openDevice(int index, GpuDeviceInfo &info) override {
    CUdevice device;
    if (CUresult result = driver().cuDeviceGet(&device, index))
      return result;
    CUcontext context;
    if (CUresult result = driver().cuDevicePrimaryCtxRetain(&context, device))
      return result;
    info.index = index;
    info.handle = reinterpret_cast<void *>(static_cast<intptr_t>(device));
    info.context = context;
    const CUdevice_attribute limits[] = {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                                         CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                         CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
                                         CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
                                         CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                         CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
    for (int i = 0; i < 6; ++i) {
      int value = 0;
      if (CUresult result =
              driver().cuDeviceGetAttribute(&value, limits[i], device))
        return result;
      (i < 3 ? info.maxGrid[i] : info.maxBlock[i - 3]) = value;
    }
    int shared = 0;
    CUresult result = driver().cuDeviceGetAttribute(
        &shared, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device);
    info.maxSharedPerBlock = shared;
    return result;
  }
  Result closeDevice(const GpuDeviceInfo &info) override {
    return driver().cuDevicePrimaryCtxRelease(
        static_cast<CUdevice>(reinterpret_cast<intptr_t>(info.handle)));
  }
  Result makeCurrent(const GpuDeviceInfo &info) override {
    return driver().cuCtxSetCurrent(static_cast<CUcontext>(info.context));
  }
  Result synchronizeDevice() override { return driver().cuCtxSynchronize(); }
  Result describeDevice(int index, std::string &name, std::string &chip,
                        uint64_t &memory) override {
    CUdevice device;
    if (CUresult result = driver().cuDeviceGet(&device, index))
      return result;
    char text[256] = {};
    if (CUresult result =
            driver().cuDeviceGetName(text, sizeof(text) - 1, device))
      return result;
    name = text;
    size_t bytes = 0;
    if (CUresult result = driver().cuDeviceTotalMem(&bytes, device))
      return result;
    memory = bytes;
    int major = 0, minor = 0;
    if (CUresult result = driver().cuDeviceGetAttribute(
            &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device))
      return result;
    if (CUresult result = driver().cuDeviceGetAttribute(
            &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device))
      return result;
    chip = "sm_" + std::to_string(major) + std::to_string(minor);
    return CUDA_SUCCESS;
  }
  Result getMemoryInfo(uint64_t &freeBytes, uint64_t &totalBytes) override {
    size_t free = 0, total = 0;
    CUresult result = driver().cuMemGetInfo(&free, &total);
    freeBytes = free;
    totalBytes = total;
    return result;
  }

  void *getNullStream() override { return CU_STREAM_LEGACY; }
  Result createStream(void *&stream) override {
    // Blocking, so that the legacy default stream waits for it.
    return driver().cuStreamCreate(reinterpret_cast<CUstream *>(&stream),
                                   CU_STREAM_DEFAULT);
  }
  Result destroyStream(void *stream) override {
    return driver().cuStreamDestroy(static_cast<CUstream>(stream));
  }
  Result queryStream(void *stream) override {
    return driver().cuStreamQuery(static_cast<CUstream>(stream));
  }
  Result synchronizeStream(void *stream) override {
    return driver().cuStreamSynchronize(static_cast<CUstream>(stream));
  }
  Result createEvent(void *&event) override {
    return driver().cuEventCreate(reinterpret_cast<CUevent *>(&event),
                                  CU_EVENT_DISABLE_TIMING);
  }
  Result destroyEvent(void *event) override {
    return driver().cuEventDestroy(static_cast<CUevent>(event));
  }
  Result recordEvent(void *event, void *stream) override {
    return driver().cuEventRecord(static_cast<CUevent>(event),
                                  static_cast<CUstream>(stream));
  }
  Result queryEvent(void *event) override {
    return driver().cuEventQuery(static_cast<CUevent>(event));
  }
  Result synchronizeEvent(void *event) override {
    return driver().cuEventSynchronize(static_cast<CUevent>(event));
  }
  Result streamWaitEvent(void *stream, void *event) override {
    return driver().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                      static_cast<CUevent>(event), 0);
  }

  Result createTimingEvent(void *&event) override {
    return driver().cuEventCreate(reinterpret_cast<CUevent *>(&event),
                                  CU_EVENT_DEFAULT);
  }
  Result getElapsedMilliseconds(float &milliseconds, void *start,
                                void *stop) override {
    return driver().cuEventElapsedTime(
        &milliseconds, static_cast<CUevent>(start), static_cast<CUevent>(stop));
  }

  Result allocate(void *&pointer, uint64_t bytes) override {
    CUdeviceptr address = 0;
    CUresult result = driver().cuMemAlloc(&address, bytes);
    pointer = reinterpret_cast<void *>(static_cast<uintptr_t>(address));
    return result;
  }
  Result allocateManaged(void *&pointer, uint64_t bytes) override {
    CUdeviceptr address = 0;
    CUresult result =
        driver().cuMemAllocManaged(&address, bytes, CU_MEM_ATTACH_GLOBAL);
    pointer = reinterpret_cast<void *>(static_cast<uintptr_t>(address));
    return result;
  }
  Result free(void *pointer) override {
    return driver().cuMemFree(devicePointer(pointer));
  }
  Result copy(const RectangularCopy &copy, void *stream) override {
    auto driverStream = static_cast<CUstream>(stream);
    switch (copy.dimensions()) {
    case 1:
      return driver().cuMemcpyAsync(devicePointer(copy.dst),
                                    devicePointer(copy.src), copy.widthBytes,
                                    driverStream);
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
      return driver().cuMemcpy2DAsync(&params, driverStream);
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
      return driver().cuMemcpy3DAsync(&params, driverStream);
    }
    }
  }
  Result fill(void *dst, uint64_t value, int64_t elementSizeBytes,
              uint64_t count, void *stream) override {
    CUdeviceptr address = devicePointer(dst);
    auto driverStream = static_cast<CUstream>(stream);
    switch (elementSizeBytes) {
    case 1:
      return driver().cuMemsetD8Async(
          address, static_cast<unsigned char>(value), count, driverStream);
    case 2:
      return driver().cuMemsetD16Async(
          address, static_cast<unsigned short>(value), count, driverStream);
    case 4:
      return driver().cuMemsetD32Async(
          address, static_cast<unsigned int>(value), count, driverStream);
    default: {
      // No 64-bit memset: the low and the high words as two 2-D fills of
      // one 32-bit column each, eight bytes apart.
      auto low = static_cast<unsigned int>(value);
      auto high = static_cast<unsigned int>(value >> 32);
      if (low == high)
        return driver().cuMemsetD32Async(address, low, 2 * count, driverStream);
      if (CUresult result = driver().cuMemsetD2D32Async(address, 8, low, 1,
                                                        count, driverStream))
        return result;
      return driver().cuMemsetD2D32Async(address + 4, 8, high, 1, count,
                                         driverStream);
    }
    }
  }
  Result fillRows(void *dst, uint64_t pitch, uint64_t value,
                  int64_t elementSizeBytes, uint64_t width, uint64_t height,
                  void *stream) override {
    CUdeviceptr address = devicePointer(dst);
    auto driverStream = static_cast<CUstream>(stream);
    if (elementSizeBytes == 1)
      return driver().cuMemsetD2D8Async(address, pitch,
                                        static_cast<unsigned char>(value),
                                        width, height, driverStream);
    if (elementSizeBytes == 2)
      return driver().cuMemsetD2D16Async(address, pitch,
                                         static_cast<unsigned short>(value),
                                         width, height, driverStream);
    return driver().cuMemsetD2D32Async(address, pitch,
                                       static_cast<unsigned int>(value), width,
                                       height, driverStream);
  }
  Result hostRegister(void *pointer, uint64_t bytes) override {
    return driver().cuMemHostRegister(pointer, bytes,
                                      CU_MEMHOSTREGISTER_PORTABLE);
  }
  Result hostUnregister(void *pointer) override {
    return driver().cuMemHostUnregister(pointer);
  }

  Result loadModule(void *&module, const void *data, uint64_t bytes,
                    int32_t format, int optLevel, std::string &log) override {
    auto *handle = reinterpret_cast<CUmodule *>(&module);
    if (format != kDeviceObjectAssembly)
      return driver().cuModuleLoadData(handle, data);
    // The driver compiles PTX; its log says why when it cannot.
    char buffer[8192] = {};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_OPTIMIZATION_LEVEL};
    void *values[] = {
        buffer, reinterpret_cast<void *>(sizeof(buffer) - 1),
        reinterpret_cast<void *>(static_cast<uintptr_t>(optLevel))};
    CUresult result =
        driver().cuModuleLoadDataEx(handle, data, 3, options, values);
    log = buffer;
    return result;
  }
  Result unloadModule(void *module) override {
    return driver().cuModuleUnload(static_cast<CUmodule>(module));
  }
  Result getFunction(void *&function, void *module, const char *name) override {
    return driver().cuModuleGetFunction(
        reinterpret_cast<CUfunction *>(&function),
        static_cast<CUmodule>(module), name);
  }
  Result getFunctionLimits(void *function, int64_t &staticSharedBytes,
                           int64_t &maxThreads) override {
    auto handle = static_cast<CUfunction>(function);
    int shared = 0, threads = 0;
    if (CUresult result = driver().cuFuncGetAttribute(
            &shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, handle))
      return result;
    CUresult result = driver().cuFuncGetAttribute(
        &threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, handle);
    staticSharedBytes = shared;
    maxThreads = threads;
    return result;
  }
  Result setMaxDynamicSharedBytes(void *function, int64_t bytes) override {
    return driver().cuFuncSetAttribute(
        static_cast<CUfunction>(function),
        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        static_cast<int>(bytes));
  }
  Status checkLaunch(const GpuLaunchConfig &config) const override {
    if (config.useCluster && !driver().cuLaunchKernelEx)
      return Status::error("thread block clusters need cuLaunchKernelEx, "
                           "which this NVIDIA driver does not provide "
                           "(CUDA 12.0 and newer drivers do)");
    return Status();
  }
  Result launch(void *function, const GpuLaunchConfig &config, void *stream,
                void **params) override {
    auto handle = static_cast<CUfunction>(function);
    auto driverStream = static_cast<CUstream>(stream);
    if (!config.useCluster)
      return driver().cuLaunchKernel(
          handle, config.grid[0], config.grid[1], config.grid[2],
          config.block[0], config.block[1], config.block[2],
          config.dynamicSharedBytes, driverStream, params, nullptr);
    CUlaunchAttribute attribute;
    std::memset(&attribute, 0, sizeof(attribute));
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = config.cluster[0];
    attribute.value.clusterDim.y = config.cluster[1];
    attribute.value.clusterDim.z = config.cluster[2];
    CUlaunchConfig launch;
    std::memset(&launch, 0, sizeof(launch));
    launch.gridDimX = config.grid[0];
    launch.gridDimY = config.grid[1];
    launch.gridDimZ = config.grid[2];
    launch.blockDimX = config.block[0];
    launch.blockDimY = config.block[1];
    launch.blockDimZ = config.block[2];
    launch.sharedMemBytes = config.dynamicSharedBytes;
    launch.hStream = driverStream;
    launch.attrs = &attribute;
    launch.numAttrs = 1;
    return driver().cuLaunchKernelEx(&launch, handle, params, nullptr);
  }
};

} // namespace
} // namespace cuda

GpuDriver &getGpuDriver() {
  static cuda::CudaDriver instance;
  return instance;
}

Backend getBackend() { return Backend::Cuda; }

Runtime &getRuntime() {
  static GpuRuntime *instance = new GpuRuntime(getGpuDriver());
  return *instance;
}

} // namespace gpu_runner
