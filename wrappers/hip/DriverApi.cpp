//===- DriverApi.cpp - The HIP runtime API, loaded at run time ------------===//

#include "wrappers/hip/DriverApi.h"

#include "wrappers/Backend.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/gpu/DriverLibrary.h"
#include "wrappers/gpu/GpuRuntime.h"

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <mutex>
#include <vector>

namespace gpu_runner {
namespace hip {
namespace {

HipApi loadedApi;

Status load() {
  static const DriverLibrary library = {
      "GPU_RUNNER_HIP_RUNTIME",
      {std::begin(kHipLibraries), std::end(kHipLibraries)},
      "the HIP runtime",
      "libamdhip64",
      "gpu-runner-hip runs programs only where ROCm is",
      ""};
  const std::vector<DriverEntryPoint> entries = {
#define GPU_RUNNER_ENTRY(NAME)                                                 \
  {#NAME, reinterpret_cast<void **>(&loadedApi.NAME), false},
#define GPU_RUNNER_TYPED_ENTRY(NAME, TYPE) GPU_RUNNER_ENTRY(NAME)
      GPU_RUNNER_HIP_FUNCTIONS(GPU_RUNNER_ENTRY, GPU_RUNNER_TYPED_ENTRY)
#undef GPU_RUNNER_ENTRY
#undef GPU_RUNNER_TYPED_ENTRY
  };
  GPU_RUNNER_RETURN_IF_ERROR(loadDriverLibrary(library, entries));

  hipError_t result = loadedApi.hipInit(0);
  if (result == hipErrorNoDevice || result == hipErrorInvalidDevice)
    return Status::error("no HIP device: the HIP runtime is installed but "
                         "sees no GPU (" +
                         describeError(result) + ")");
  if (result != hipSuccess)
    return Status::error("the HIP runtime failed to start (hipInit): " +
                         describeError(result));
  return Status();
}

void *devicePointer(const void *pointer) { return const_cast<void *>(pointer); }

class HipDriver final : public GpuDriver {
public:
  const char *vendor() const override { return "HIP"; }
  Status load() override {
    const HipApi *api = nullptr;
    return loadHip(api);
  }
  std::string describe(Result result) const override {
    return describeError(static_cast<hipError_t>(result));
  }
  bool isKernelFault(Result result) const override {
    switch (static_cast<hipError_t>(result)) {
    case hipErrorIllegalAddress:
    case hipErrorLaunchFailure:
    case hipErrorLaunchTimeOut:
    case hipErrorAssert:
      return true;
    default:
      return false;
    }
  }
  bool isNotReady(Result result) const override {
    return result == hipErrorNotReady;
  }
  bool isOutOfMemory(Result result) const override {
    return result == hipErrorOutOfMemory;
  }
  bool isWrongBinary(Result result) const override {
    return result == hipErrorNoBinaryForGpu || result == hipErrorInvalidImage;
  }
  bool isNotFound(Result result) const override {
    return result == hipErrorNotFound;
  }

  Result getDeviceCount(int &count) override {
    return hip().hipGetDeviceCount(&count);
  }
  Result openDevice(int index, GpuDeviceInfo &info) override {
    info.index = index;
    // The HIP runtime keeps one context per device itself; the handle only
    // tells devices apart when they are made current.
    info.context = reinterpret_cast<void *>(static_cast<intptr_t>(index + 1));
    if (hipError_t result = hip().hipSetDevice(index))
      return result;
    const hipDeviceAttribute_t limits[] = {
        hipDeviceAttributeMaxGridDimX,  hipDeviceAttributeMaxGridDimY,
        hipDeviceAttributeMaxGridDimZ,  hipDeviceAttributeMaxBlockDimX,
        hipDeviceAttributeMaxBlockDimY, hipDeviceAttributeMaxBlockDimZ};
    for (int i = 0; i < 6; ++i) {
      int value = 0;
      if (hipError_t result =
              hip().hipDeviceGetAttribute(&value, limits[i], index))
        return result;
      (i < 3 ? info.maxGrid[i] : info.maxBlock[i - 3]) = value;
    }
    int shared = 0;
    hipError_t result = hip().hipDeviceGetAttribute(
        &shared, hipDeviceAttributeMaxSharedMemoryPerBlock, index);
    info.maxSharedPerBlock = shared;
    return result;
  }
  Result closeDevice(const GpuDeviceInfo &) override { return hipSuccess; }
  Result makeCurrent(const GpuDeviceInfo &info) override {
    return hip().hipSetDevice(info.index);
  }
  Result synchronizeDevice() override { return hip().hipDeviceSynchronize(); }
  Result describeDevice(int index, std::string &name, std::string &chip,
                        uint64_t &memory) override {
    char text[256] = {};
    if (hipError_t result =
            hip().hipDeviceGetName(text, sizeof(text) - 1, index))
      return result;
    name = text;
    size_t bytes = 0;
    if (hipError_t result = hip().hipDeviceTotalMem(&bytes, index))
      return result;
    memory = bytes;
    hipDeviceProp_t properties;
    std::memset(&properties, 0, sizeof(properties));
    if (hipError_t result = hip().hipGetDeviceProperties(&properties, index))
      return result;
    // "gfx90a:sramecc+:xnack-": the chip, then its target features.
    chip = properties.gcnArchName;
    chip = chip.substr(0, chip.find(':'));
    return hipSuccess;
  }
  Result getMemoryInfo(uint64_t &freeBytes, uint64_t &totalBytes) override {
    size_t free = 0, total = 0;
    hipError_t result = hip().hipMemGetInfo(&free, &total);
    freeBytes = free;
    totalBytes = total;
    return result;
  }

  // HIP's null stream synchronizes with all blocking streams.
  void *getNullStream() override { return nullptr; }
  Result createStream(void *&stream) override {
    return hip().hipStreamCreateWithFlags(
        reinterpret_cast<hipStream_t *>(&stream), hipStreamDefault);
  }
  Result destroyStream(void *stream) override {
    return hip().hipStreamDestroy(static_cast<hipStream_t>(stream));
  }
  Result queryStream(void *stream) override {
    return hip().hipStreamQuery(static_cast<hipStream_t>(stream));
  }
  Result synchronizeStream(void *stream) override {
    return hip().hipStreamSynchronize(static_cast<hipStream_t>(stream));
  }
  Result createEvent(void *&event) override {
    return hip().hipEventCreateWithFlags(reinterpret_cast<hipEvent_t *>(&event),
                                         hipEventDisableTiming);
  }
  Result destroyEvent(void *event) override {
    return hip().hipEventDestroy(static_cast<hipEvent_t>(event));
  }
  Result recordEvent(void *event, void *stream) override {
    return hip().hipEventRecord(static_cast<hipEvent_t>(event),
                                static_cast<hipStream_t>(stream));
  }
  Result queryEvent(void *event) override {
    return hip().hipEventQuery(static_cast<hipEvent_t>(event));
  }
  Result synchronizeEvent(void *event) override {
    return hip().hipEventSynchronize(static_cast<hipEvent_t>(event));
  }
  Result streamWaitEvent(void *stream, void *event) override {
    return hip().hipStreamWaitEvent(static_cast<hipStream_t>(stream),
                                    static_cast<hipEvent_t>(event), 0);
  }

  Result createTimingEvent(void *&event) override {
    return hip().hipEventCreateWithFlags(reinterpret_cast<hipEvent_t *>(&event),
                                         hipEventDefault);
  }
  Result getElapsedMilliseconds(float &milliseconds, void *start,
                                void *stop) override {
    return hip().hipEventElapsedTime(&milliseconds,
                                     static_cast<hipEvent_t>(start),
                                     static_cast<hipEvent_t>(stop));
  }

  Result allocate(void *&pointer, uint64_t bytes) override {
    return hip().hipMalloc(&pointer, bytes);
  }
  Result allocateManaged(void *&pointer, uint64_t bytes) override {
    return hip().hipMallocManaged(&pointer, bytes, hipMemAttachGlobal);
  }
  Result free(void *pointer) override { return hip().hipFree(pointer); }
  Result copy(const RectangularCopy &copy, void *stream) override {
    auto driverStream = static_cast<hipStream_t>(stream);
    switch (copy.dimensions()) {
    case 1:
      return hip().hipMemcpyAsync(copy.dst, copy.src, copy.widthBytes,
                                  hipMemcpyDefault, driverStream);
    case 2:
      return hip().hipMemcpy2DAsync(copy.dst, copy.dstPitch, copy.src,
                                    copy.srcPitch, copy.widthBytes, copy.height,
                                    hipMemcpyDefault, driverStream);
    default: {
      hipMemcpy3DParms params;
      std::memset(&params, 0, sizeof(params));
      params.srcPtr.ptr = devicePointer(copy.src);
      params.srcPtr.pitch = copy.srcPitch;
      params.srcPtr.xsize = copy.widthBytes;
      params.srcPtr.ysize = copy.srcHeight;
      params.dstPtr.ptr = copy.dst;
      params.dstPtr.pitch = copy.dstPitch;
      params.dstPtr.xsize = copy.widthBytes;
      params.dstPtr.ysize = copy.dstHeight;
      params.extent.width = copy.widthBytes;
      params.extent.height = copy.height;
      params.extent.depth = copy.depth;
      params.kind = hipMemcpyDefault;
      return hip().hipMemcpy3DAsync(&params, driverStream);
    }
    }
  }
  Result fill(void *dst, uint64_t value, int64_t elementSizeBytes,
              uint64_t count, void *stream) override {
    auto address = static_cast<hipDeviceptr_t>(dst);
    auto driverStream = static_cast<hipStream_t>(stream);
    switch (elementSizeBytes) {
    case 1:
      return hip().hipMemsetD8Async(address, static_cast<unsigned char>(value),
                                    count, driverStream);
    case 2:
      return hip().hipMemsetD16Async(
          address, static_cast<unsigned short>(value), count, driverStream);
    case 4:
      return hip().hipMemsetD32Async(address, static_cast<int>(value), count,
                                     driverStream);
    default: {
      auto low = static_cast<uint32_t>(value);
      if (low == static_cast<uint32_t>(value >> 32))
        return hip().hipMemsetD32Async(address, static_cast<int>(low),
                                       2 * count, driverStream);
      // HIP has no 64-bit memset and no strided 32-bit one: the pattern is
      // copied from host memory, which must live until the copy is done.
      std::vector<uint64_t> pattern(count, value);
      if (hipError_t result = hip().hipMemcpyAsync(
              dst, pattern.data(), count * sizeof(uint64_t), hipMemcpyDefault,
              driverStream))
        return result;
      return hip().hipStreamSynchronize(driverStream);
    }
    }
  }
  Result fillRows(void *dst, uint64_t pitch, uint64_t value,
                  int64_t elementSizeBytes, uint64_t width, uint64_t height,
                  void *stream) override {
    if (elementSizeBytes == 1)
      return hip().hipMemset2DAsync(dst, pitch, static_cast<int>(value & 0xFF),
                                    width, height,
                                    static_cast<hipStream_t>(stream));
    // Only bytes have a 2-D memset in HIP: one fill per row.
    for (uint64_t row = 0; row < height; ++row)
      if (Result result = fill(static_cast<char *>(dst) + row * pitch, value,
                               elementSizeBytes, width, stream))
        return result;
    return hipSuccess;
  }
  Result hostRegister(void *pointer, uint64_t bytes) override {
    return hip().hipHostRegister(pointer, bytes, hipHostRegisterPortable);
  }
  Result hostUnregister(void *pointer) override {
    return hip().hipHostUnregister(pointer);
  }

  Result loadModule(void *&module, const void *data, uint64_t, int32_t format,
                    int, std::string &log) override {
    if (format != kDeviceObjectBinary) {
      log = "HIP loads code objects only, not assembly";
      return hipErrorInvalidImage;
    }
    return hip().hipModuleLoadData(reinterpret_cast<hipModule_t *>(&module),
                                   data);
  }
  Result unloadModule(void *module) override {
    return hip().hipModuleUnload(static_cast<hipModule_t>(module));
  }
  Result getFunction(void *&function, void *module, const char *name) override {
    return hip().hipModuleGetFunction(
        reinterpret_cast<hipFunction_t *>(&function),
        static_cast<hipModule_t>(module), name);
  }
  Result getFunctionLimits(void *function, int64_t &staticSharedBytes,
                           int64_t &maxThreads) override {
    auto handle = static_cast<hipFunction_t>(function);
    int shared = 0, threads = 0;
    if (hipError_t result = hip().hipFuncGetAttribute(
            &shared, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, handle))
      return result;
    hipError_t result = hip().hipFuncGetAttribute(
        &threads, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, handle);
    staticSharedBytes = shared;
    maxThreads = threads;
    return result;
  }
  // A workgroup may use all of the device's local memory without asking.
  Result setMaxDynamicSharedBytes(void *, int64_t) override {
    return hipSuccess;
  }
  Status checkLaunch(const GpuLaunchConfig &config) const override {
    if (config.useCluster)
      return Status::error("HIP has no thread block clusters");
    return Status();
  }
  Result launch(void *function, const GpuLaunchConfig &config, void *stream,
                void **params) override {
    return hip().hipModuleLaunchKernel(
        static_cast<hipFunction_t>(function), config.grid[0], config.grid[1],
        config.grid[2], config.block[0], config.block[1], config.block[2],
        config.dynamicSharedBytes, static_cast<hipStream_t>(stream), params,
        nullptr);
  }
};

} // namespace

Status loadHip(const HipApi *&api) {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] { status = load(); });
  api = status.ok() ? &loadedApi : nullptr;
  return status;
}

const HipApi &hip() { return loadedApi; }

std::string describeError(hipError_t result) {
  const char *name =
      loadedApi.hipGetErrorName ? loadedApi.hipGetErrorName(result) : nullptr;
  const char *description = loadedApi.hipGetErrorString
                                ? loadedApi.hipGetErrorString(result)
                                : nullptr;
  std::string text =
      name ? name : "HIP error " + std::to_string(static_cast<int>(result));
  // ROCm 5.2's hipGetErrorString returns the error's name again.
  if (description && text != description)
    text += std::string(": ") + description;
  return text;
}

} // namespace hip

GpuDriver &getGpuDriver() {
  static hip::HipDriver instance;
  return instance;
}

Backend getBackend() { return Backend::Hip; }

Runtime &getRuntime() {
  static GpuRuntime *instance = new GpuRuntime(getGpuDriver());
  return *instance;
}

} // namespace gpu_runner
