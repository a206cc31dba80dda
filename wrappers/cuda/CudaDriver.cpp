//===- CudaDriver.cpp - The GpuDriver of gpu-runner-cuda ------------------===//

#include "wrappers/cuda/CudaDriver.h"

#include "wrappers/Backend.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/cuda/DynamicSymbols.h"
#include "wrappers/gpu/GpuRuntime.h"

#include <cstring>

namespace gpu_runner {
namespace cuda {
namespace {

using Result = GpuDriver::Result;

CUdeviceptr devicePointer(const void *pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(pointer));
}

} // namespace

const char *CudaDriver::vendor() const { return "CUDA"; }

Status CudaDriver::load() { return loadDynamicSymbols(); }

std::string CudaDriver::describe(Result result) const {
  return describeError(static_cast<CUresult>(result));
}

bool CudaDriver::isKernelFault(Result result) const {
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

bool CudaDriver::isNotReady(Result result) const {
  return result == CUDA_ERROR_NOT_READY;
}

bool CudaDriver::isOutOfMemory(Result result) const {
  return result == CUDA_ERROR_OUT_OF_MEMORY;
}

bool CudaDriver::isWrongBinary(Result result) const {
  return result == CUDA_ERROR_NO_BINARY_FOR_GPU ||
         result == CUDA_ERROR_INVALID_IMAGE;
}

bool CudaDriver::isNotFound(Result result) const {
  return result == CUDA_ERROR_NOT_FOUND;
}

Result CudaDriver::getDeviceCount(int &count) {
  return symbols().cuDeviceGetCount(&count);
}

Result CudaDriver::openDevice(int index, GpuDeviceInfo &info) {
  CUdevice device;
  if (CUresult result = symbols().cuDeviceGet(&device, index))
    return result;
  CUcontext context;
  if (CUresult result = symbols().cuDevicePrimaryCtxRetain(&context, device))
    return result;
  info.index = index;
  info.handle = reinterpret_cast<void *>(static_cast<intptr_t>(device));
  info.context = context;
  const CUdevice_attribute limits[] = {
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  for (int i = 0; i < 6; ++i) {
    int value = 0;
    if (CUresult result =
            symbols().cuDeviceGetAttribute(&value, limits[i], device))
      return result;
    (i < 3 ? info.maxGrid[i] : info.maxBlock[i - 3]) = value;
  }
  int shared = 0;
  CUresult result = symbols().cuDeviceGetAttribute(
      &shared, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device);
  info.maxSharedPerBlock = shared;
  return result;
}

Result CudaDriver::closeDevice(const GpuDeviceInfo &info) {
  return symbols().cuDevicePrimaryCtxRelease(
      static_cast<CUdevice>(reinterpret_cast<intptr_t>(info.handle)));
}

Result CudaDriver::makeCurrent(const GpuDeviceInfo &info) {
  return symbols().cuCtxSetCurrent(static_cast<CUcontext>(info.context));
}

Result CudaDriver::synchronizeDevice() { return symbols().cuCtxSynchronize(); }

Result CudaDriver::describeDevice(int index, std::string &name,
                                  std::string &chip, uint64_t &memory) {
  CUdevice device;
  if (CUresult result = symbols().cuDeviceGet(&device, index))
    return result;
  char text[256] = {};
  if (CUresult result =
          symbols().cuDeviceGetName(text, sizeof(text) - 1, device))
    return result;
  name = text;
  size_t bytes = 0;
  if (CUresult result = symbols().cuDeviceTotalMem(&bytes, device))
    return result;
  memory = bytes;
  int major = 0, minor = 0;
  if (CUresult result = symbols().cuDeviceGetAttribute(
          &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device))
    return result;
  if (CUresult result = symbols().cuDeviceGetAttribute(
          &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device))
    return result;
  chip = "sm_" + std::to_string(major) + std::to_string(minor);
  return CUDA_SUCCESS;
}

Result CudaDriver::getMemoryInfo(uint64_t &freeBytes, uint64_t &totalBytes) {
  size_t free = 0, total = 0;
  CUresult result = symbols().cuMemGetInfo(&free, &total);
  freeBytes = free;
  totalBytes = total;
  return result;
}

void *CudaDriver::getNullStream() { return CU_STREAM_LEGACY; }

Result CudaDriver::createStream(void *&stream) {
  // Blocking, so that the legacy default stream waits for it.
  return symbols().cuStreamCreate(reinterpret_cast<CUstream *>(&stream),
                                  CU_STREAM_DEFAULT);
}

Result CudaDriver::destroyStream(void *stream) {
  return symbols().cuStreamDestroy(static_cast<CUstream>(stream));
}

Result CudaDriver::queryStream(void *stream) {
  return symbols().cuStreamQuery(static_cast<CUstream>(stream));
}

Result CudaDriver::synchronizeStream(void *stream) {
  return symbols().cuStreamSynchronize(static_cast<CUstream>(stream));
}

Result CudaDriver::createEvent(void *&event) {
  return symbols().cuEventCreate(reinterpret_cast<CUevent *>(&event),
                                 CU_EVENT_DISABLE_TIMING);
}

Result CudaDriver::destroyEvent(void *event) {
  return symbols().cuEventDestroy(static_cast<CUevent>(event));
}

Result CudaDriver::recordEvent(void *event, void *stream) {
  return symbols().cuEventRecord(static_cast<CUevent>(event),
                                 static_cast<CUstream>(stream));
}

Result CudaDriver::queryEvent(void *event) {
  return symbols().cuEventQuery(static_cast<CUevent>(event));
}

Result CudaDriver::synchronizeEvent(void *event) {
  return symbols().cuEventSynchronize(static_cast<CUevent>(event));
}

Result CudaDriver::streamWaitEvent(void *stream, void *event) {
  return symbols().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                     static_cast<CUevent>(event), 0);
}

Result CudaDriver::createTimingEvent(void *&event) {
  return symbols().cuEventCreate(reinterpret_cast<CUevent *>(&event),
                                 CU_EVENT_DEFAULT);
}

Result CudaDriver::getElapsedMilliseconds(float &milliseconds, void *start,
                                          void *stop) {
  return symbols().cuEventElapsedTime(
      &milliseconds, static_cast<CUevent>(start), static_cast<CUevent>(stop));
}

Result CudaDriver::allocate(void *&pointer, uint64_t bytes) {
  CUdeviceptr address = 0;
  CUresult result = symbols().cuMemAlloc(&address, bytes);
  pointer = reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  return result;
}

Result CudaDriver::allocateManaged(void *&pointer, uint64_t bytes) {
  CUdeviceptr address = 0;
  CUresult result =
      symbols().cuMemAllocManaged(&address, bytes, CU_MEM_ATTACH_GLOBAL);
  pointer = reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  return result;
}

Result CudaDriver::free(void *pointer) {
  return symbols().cuMemFree(devicePointer(pointer));
}

Result CudaDriver::copy(const RectangularCopy &copy, void *stream) {
  auto driverStream = static_cast<CUstream>(stream);
  switch (copy.dimensions()) {
  case 1:
    return symbols().cuMemcpyAsync(devicePointer(copy.dst),
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
    return symbols().cuMemcpy2DAsync(&params, driverStream);
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
    return symbols().cuMemcpy3DAsync(&params, driverStream);
  }
  }
}

Result CudaDriver::fill(void *dst, uint64_t value, int64_t elementSizeBytes,
                        uint64_t count, void *stream) {
  CUdeviceptr address = devicePointer(dst);
  auto driverStream = static_cast<CUstream>(stream);
  switch (elementSizeBytes) {
  case 1:
    return symbols().cuMemsetD8Async(address, static_cast<unsigned char>(value),
                                     count, driverStream);
  case 2:
    return symbols().cuMemsetD16Async(
        address, static_cast<unsigned short>(value), count, driverStream);
  case 4:
    return symbols().cuMemsetD32Async(address, static_cast<unsigned int>(value),
                                      count, driverStream);
  default: {
    // No 64-bit memset: the low and the high words as two 2-D fills of
    // one 32-bit column each, eight bytes apart.
    auto low = static_cast<unsigned int>(value);
    auto high = static_cast<unsigned int>(value >> 32);
    if (low == high)
      return symbols().cuMemsetD32Async(address, low, 2 * count, driverStream);
    if (CUresult result = symbols().cuMemsetD2D32Async(address, 8, low, 1,
                                                       count, driverStream))
      return result;
    return symbols().cuMemsetD2D32Async(address + 4, 8, high, 1, count,
                                        driverStream);
  }
  }
}

Result CudaDriver::fillRows(void *dst, uint64_t pitch, uint64_t value,
                            int64_t elementSizeBytes, uint64_t width,
                            uint64_t height, void *stream) {
  CUdeviceptr address = devicePointer(dst);
  auto driverStream = static_cast<CUstream>(stream);
  if (elementSizeBytes == 1)
    return symbols().cuMemsetD2D8Async(address, pitch,
                                       static_cast<unsigned char>(value), width,
                                       height, driverStream);
  if (elementSizeBytes == 2)
    return symbols().cuMemsetD2D16Async(address, pitch,
                                        static_cast<unsigned short>(value),
                                        width, height, driverStream);
  return symbols().cuMemsetD2D32Async(address, pitch,
                                      static_cast<unsigned int>(value), width,
                                      height, driverStream);
}

Result CudaDriver::hostRegister(void *pointer, uint64_t bytes) {
  return symbols().cuMemHostRegister(pointer, bytes,
                                     CU_MEMHOSTREGISTER_PORTABLE);
}

Result CudaDriver::hostUnregister(void *pointer) {
  return symbols().cuMemHostUnregister(pointer);
}

Result CudaDriver::getMappedPointer(void *&device, void *host) {
  CUdeviceptr pointer = 0;
  Result result =
      symbols().cuMemHostGetDevicePointer(&pointer, host, /*Flags=*/0);
  device = reinterpret_cast<void *>(pointer);
  return result;
}

Result CudaDriver::loadModule(void *&module, const void *data, uint64_t bytes,
                              int32_t format, int optLevel, std::string &log) {
  auto *handle = reinterpret_cast<CUmodule *>(&module);
  if (format != kDeviceObjectAssembly)
    return symbols().cuModuleLoadData(handle, data);
  // The driver compiles PTX; its log says why when it cannot.
  char buffer[8192] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {buffer, reinterpret_cast<void *>(sizeof(buffer) - 1),
                    reinterpret_cast<void *>(static_cast<uintptr_t>(optLevel))};
  CUresult result =
      symbols().cuModuleLoadDataEx(handle, data, 3, options, values);
  log = buffer;
  return result;
}

Result CudaDriver::attachKernelIR(void *module, const void *bitcode,
                                  uint64_t bytes, std::string &log) {
  // Only a driver stand-in exports it; libcuda does not, and then the
  // module runs its image as loaded.
  if (!symbols().gpuRunnerStandinModuleAttachIR)
    return CUDA_SUCCESS;
  char buffer[8192] = {};
  auto result = static_cast<CUresult>(symbols().gpuRunnerStandinModuleAttachIR(
      module, bitcode, bytes, buffer, sizeof(buffer)));
  log = buffer;
  return result;
}

Result CudaDriver::unloadModule(void *module) {
  return symbols().cuModuleUnload(static_cast<CUmodule>(module));
}

Result CudaDriver::getFunction(void *&function, void *module,
                               const char *name) {
  return symbols().cuModuleGetFunction(
      reinterpret_cast<CUfunction *>(&function), static_cast<CUmodule>(module),
      name);
}

Result CudaDriver::getFunctionLimits(void *function, int64_t &staticSharedBytes,
                                     int64_t &maxThreads) {
  auto handle = static_cast<CUfunction>(function);
  int shared = 0, threads = 0;
  if (CUresult result = symbols().cuFuncGetAttribute(
          &shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, handle))
    return result;
  CUresult result = symbols().cuFuncGetAttribute(
      &threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, handle);
  staticSharedBytes = shared;
  maxThreads = threads;
  return result;
}

Result CudaDriver::setMaxDynamicSharedBytes(void *function, int64_t bytes) {
  return symbols().cuFuncSetAttribute(
      static_cast<CUfunction>(function),
      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(bytes));
}

Status CudaDriver::checkLaunch(const GpuLaunchConfig &config) const {
  if (config.useCluster && !symbols().cuLaunchKernelEx)
    return Status::error("thread block clusters need cuLaunchKernelEx, "
                         "which this NVIDIA driver does not provide "
                         "(CUDA 12.0 and newer drivers do)");
  return Status();
}

Result CudaDriver::launch(void *function, const GpuLaunchConfig &config,
                          void *stream, void **params) {
  auto handle = static_cast<CUfunction>(function);
  auto driverStream = static_cast<CUstream>(stream);
  if (!config.useCluster)
    return symbols().cuLaunchKernel(
        handle, config.grid[0], config.grid[1], config.grid[2], config.block[0],
        config.block[1], config.block[2], config.dynamicSharedBytes,
        driverStream, params, nullptr);
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
  return symbols().cuLaunchKernelEx(&launch, handle, params, nullptr);
}

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
