//===- HipDriver.cpp - The GpuDriver of gpu-runner-hip --------------------===//

#include "wrappers/hip/HipDriver.h"

#include "wrappers/Backend.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/gpu/GpuRuntime.h"
#include "wrappers/hip/DynamicSymbols.h"

#include <cstring>
#include <vector>

namespace gpu_runner {
namespace hip {
namespace {

using Result = GpuDriver::Result;

void *devicePointer(const void *pointer) { return const_cast<void *>(pointer); }

} // namespace

const char *HipDriver::vendor() const { return "HIP"; }

Status HipDriver::load() { return loadDynamicSymbols(); }

std::string HipDriver::describe(Result result) const {
  return describeError(static_cast<hipError_t>(result));
}

bool HipDriver::isKernelFault(Result result) const {
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

bool HipDriver::isNotReady(Result result) const {
  return result == hipErrorNotReady;
}

bool HipDriver::isOutOfMemory(Result result) const {
  return result == hipErrorOutOfMemory;
}

bool HipDriver::isWrongBinary(Result result) const {
  return result == hipErrorNoBinaryForGpu || result == hipErrorInvalidImage;
}

bool HipDriver::isNotFound(Result result) const {
  return result == hipErrorNotFound;
}

Result HipDriver::getDeviceCount(int &count) {
  return symbols().hipGetDeviceCount(&count);
}

Result HipDriver::openDevice(int index, GpuDeviceInfo &info) {
  info.index = index;
  // The HIP runtime keeps one context per device itself; the handle only
  // tells devices apart when they are made current.
  info.context = reinterpret_cast<void *>(static_cast<intptr_t>(index + 1));
  if (hipError_t result = symbols().hipSetDevice(index))
    return result;
  const hipDeviceAttribute_t limits[] = {
      hipDeviceAttributeMaxGridDimX,  hipDeviceAttributeMaxGridDimY,
      hipDeviceAttributeMaxGridDimZ,  hipDeviceAttributeMaxBlockDimX,
      hipDeviceAttributeMaxBlockDimY, hipDeviceAttributeMaxBlockDimZ};
  for (int i = 0; i < 6; ++i) {
    int value = 0;
    if (hipError_t result =
            symbols().hipDeviceGetAttribute(&value, limits[i], index))
      return result;
    (i < 3 ? info.maxGrid[i] : info.maxBlock[i - 3]) = value;
  }
  int shared = 0;
  hipError_t result = symbols().hipDeviceGetAttribute(
      &shared, hipDeviceAttributeMaxSharedMemoryPerBlock, index);
  info.maxSharedPerBlock = shared;
  return result;
}

Result HipDriver::closeDevice(const GpuDeviceInfo &) { return hipSuccess; }

Result HipDriver::makeCurrent(const GpuDeviceInfo &info) {
  return symbols().hipSetDevice(info.index);
}

Result HipDriver::synchronizeDevice() {
  return symbols().hipDeviceSynchronize();
}

Result HipDriver::describeDevice(int index, std::string &name,
                                 std::string &chip, uint64_t &memory) {
  char text[256] = {};
  if (hipError_t result =
          symbols().hipDeviceGetName(text, sizeof(text) - 1, index))
    return result;
  name = text;
  size_t bytes = 0;
  if (hipError_t result = symbols().hipDeviceTotalMem(&bytes, index))
    return result;
  memory = bytes;
  hipDeviceProp_t properties;
  std::memset(&properties, 0, sizeof(properties));
  if (hipError_t result = symbols().hipGetDeviceProperties(&properties, index))
    return result;
  // "gfx90a:sramecc+:xnack-": the chip, then its target features.
  chip = properties.gcnArchName;
  chip = chip.substr(0, chip.find(':'));
  return hipSuccess;
}

Result HipDriver::getMemoryInfo(uint64_t &freeBytes, uint64_t &totalBytes) {
  size_t free = 0, total = 0;
  hipError_t result = symbols().hipMemGetInfo(&free, &total);
  freeBytes = free;
  totalBytes = total;
  return result;
}

// HIP's null stream synchronizes with all blocking streams.
void *HipDriver::getNullStream() { return nullptr; }

Result HipDriver::createStream(void *&stream) {
  return symbols().hipStreamCreateWithFlags(
      reinterpret_cast<hipStream_t *>(&stream), hipStreamDefault);
}

Result HipDriver::destroyStream(void *stream) {
  return symbols().hipStreamDestroy(static_cast<hipStream_t>(stream));
}

Result HipDriver::queryStream(void *stream) {
  return symbols().hipStreamQuery(static_cast<hipStream_t>(stream));
}

Result HipDriver::synchronizeStream(void *stream) {
  return symbols().hipStreamSynchronize(static_cast<hipStream_t>(stream));
}

Result HipDriver::createEvent(void *&event) {
  return symbols().hipEventCreateWithFlags(
      reinterpret_cast<hipEvent_t *>(&event), hipEventDisableTiming);
}

Result HipDriver::destroyEvent(void *event) {
  return symbols().hipEventDestroy(static_cast<hipEvent_t>(event));
}

Result HipDriver::recordEvent(void *event, void *stream) {
  return symbols().hipEventRecord(static_cast<hipEvent_t>(event),
                                  static_cast<hipStream_t>(stream));
}

Result HipDriver::queryEvent(void *event) {
  return symbols().hipEventQuery(static_cast<hipEvent_t>(event));
}

Result HipDriver::synchronizeEvent(void *event) {
  return symbols().hipEventSynchronize(static_cast<hipEvent_t>(event));
}

Result HipDriver::streamWaitEvent(void *stream, void *event) {
  return symbols().hipStreamWaitEvent(static_cast<hipStream_t>(stream),
                                      static_cast<hipEvent_t>(event), 0);
}

Result HipDriver::createTimingEvent(void *&event) {
  return symbols().hipEventCreateWithFlags(
      reinterpret_cast<hipEvent_t *>(&event), hipEventDefault);
}

Result HipDriver::getElapsedMilliseconds(float &milliseconds, void *start,
                                         void *stop) {
  return symbols().hipEventElapsedTime(&milliseconds,
                                       static_cast<hipEvent_t>(start),
                                       static_cast<hipEvent_t>(stop));
}

Result HipDriver::allocate(void *&pointer, uint64_t bytes) {
  return symbols().hipMalloc(&pointer, bytes);
}

Result HipDriver::allocateManaged(void *&pointer, uint64_t bytes) {
  return symbols().hipMallocManaged(&pointer, bytes, hipMemAttachGlobal);
}

Result HipDriver::free(void *pointer) { return symbols().hipFree(pointer); }

Result HipDriver::copy(const RectangularCopy &copy, void *stream) {
  auto driverStream = static_cast<hipStream_t>(stream);
  switch (copy.dimensions()) {
  case 1:
    return symbols().hipMemcpyAsync(copy.dst, copy.src, copy.widthBytes,
                                    hipMemcpyDefault, driverStream);
  case 2:
    return symbols().hipMemcpy2DAsync(
        copy.dst, copy.dstPitch, copy.src, copy.srcPitch, copy.widthBytes,
        copy.height, hipMemcpyDefault, driverStream);
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
    return symbols().hipMemcpy3DAsync(&params, driverStream);
  }
  }
}

Result HipDriver::fill(void *dst, uint64_t value, int64_t elementSizeBytes,
                       uint64_t count, void *stream) {
  auto address = static_cast<hipDeviceptr_t>(dst);
  auto driverStream = static_cast<hipStream_t>(stream);
  switch (elementSizeBytes) {
  case 1:
    return symbols().hipMemsetD8Async(
        address, static_cast<unsigned char>(value), count, driverStream);
  case 2:
    return symbols().hipMemsetD16Async(
        address, static_cast<unsigned short>(value), count, driverStream);
  case 4:
    return symbols().hipMemsetD32Async(address, static_cast<int>(value), count,
                                       driverStream);
  default: {
    auto low = static_cast<uint32_t>(value);
    if (low == static_cast<uint32_t>(value >> 32))
      return symbols().hipMemsetD32Async(address, static_cast<int>(low),
                                         2 * count, driverStream);
    // HIP has no 64-bit memset and no strided 32-bit one: the pattern is
    // copied from host memory, which must live until the copy is done.
    std::vector<uint64_t> pattern(count, value);
    if (hipError_t result = symbols().hipMemcpyAsync(
            dst, pattern.data(), count * sizeof(uint64_t), hipMemcpyDefault,
            driverStream))
      return result;
    return symbols().hipStreamSynchronize(driverStream);
  }
  }
}

Result HipDriver::fillRows(void *dst, uint64_t pitch, uint64_t value,
                           int64_t elementSizeBytes, uint64_t width,
                           uint64_t height, void *stream) {
  if (elementSizeBytes == 1)
    return symbols().hipMemset2DAsync(dst, pitch,
                                      static_cast<int>(value & 0xFF), width,
                                      height, static_cast<hipStream_t>(stream));
  // Only bytes have a 2-D memset in HIP: one fill per row.
  for (uint64_t row = 0; row < height; ++row)
    if (Result result = fill(static_cast<char *>(dst) + row * pitch, value,
                             elementSizeBytes, width, stream))
      return result;
  return hipSuccess;
}

Result HipDriver::hostRegister(void *pointer, uint64_t bytes) {
  return symbols().hipHostRegister(pointer, bytes, hipHostRegisterPortable);
}

Result HipDriver::hostUnregister(void *pointer) {
  return symbols().hipHostUnregister(pointer);
}

Result HipDriver::getMappedPointer(void *&device, void *host) {
  return symbols().hipHostGetDevicePointer(&device, host, /*flags=*/0);
}

Result HipDriver::loadModule(void *&module, const void *data, uint64_t,
                             int32_t format, int, std::string &log) {
  if (format != kDeviceObjectBinary) {
    log = "HIP loads code objects only, not assembly";
    return hipErrorInvalidImage;
  }
  return symbols().hipModuleLoadData(reinterpret_cast<hipModule_t *>(&module),
                                     data);
}

Result HipDriver::attachKernelIR(void *module, const void *bitcode,
                                 uint64_t bytes, std::string &log) {
  // Only the runtime stand-in exports it; libamdhip64 does not, and then
  // the module runs its code object as loaded.
  if (!symbols().gpuRunnerStandinModuleAttachIR)
    return hipSuccess;
  char buffer[8192] = {};
  auto result =
      static_cast<hipError_t>(symbols().gpuRunnerStandinModuleAttachIR(
          module, bitcode, bytes, buffer, sizeof(buffer)));
  log = buffer;
  return result;
}

Result HipDriver::unloadModule(void *module) {
  return symbols().hipModuleUnload(static_cast<hipModule_t>(module));
}

Result HipDriver::getFunction(void *&function, void *module, const char *name) {
  return symbols().hipModuleGetFunction(
      reinterpret_cast<hipFunction_t *>(&function),
      static_cast<hipModule_t>(module), name);
}

Result HipDriver::getFunctionLimits(void *function, int64_t &staticSharedBytes,
                                    int64_t &maxThreads) {
  auto handle = static_cast<hipFunction_t>(function);
  int shared = 0, threads = 0;
  if (hipError_t result = symbols().hipFuncGetAttribute(
          &shared, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, handle))
    return result;
  hipError_t result = symbols().hipFuncGetAttribute(
      &threads, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, handle);
  staticSharedBytes = shared;
  maxThreads = threads;
  return result;
}
// A workgroup may use all of the device's local memory without asking.
Result HipDriver::setMaxDynamicSharedBytes(void *, int64_t) {
  return hipSuccess;
}

Status HipDriver::checkLaunch(const GpuLaunchConfig &config) const {
  if (config.useCluster)
    return Status::error("HIP has no thread block clusters");
  return Status();
}

Result HipDriver::launch(void *function, const GpuLaunchConfig &config,
                         void *stream, void **params) {
  return symbols().hipModuleLaunchKernel(
      static_cast<hipFunction_t>(function), config.grid[0], config.grid[1],
      config.grid[2], config.block[0], config.block[1], config.block[2],
      config.dynamicSharedBytes, static_cast<hipStream_t>(stream), params,
      nullptr);
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
