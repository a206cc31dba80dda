//===- BaselineCuda.cpp - The memcpy benchmark with the CUDA driver API ---===//
//
// The native side of the CUDA backend's memcpy benchmark: the same copies as
// memcpy.mlir, made with cuMemcpyAsync on one stream and timed between two
// CUDA events, as nvbandwidth times them. Device memory from cuMemAlloc;
// host memory from malloc, registered with cuMemHostRegister for the pinned
// kinds (what gpu.host_register does). libcuda is loaded at run time, so the
// binary starts on a machine without a driver and says so.
//
//   gpu-runner-memcpy-baseline-cuda h2d-pageable|...|d2d|info
//
// Environment: MEMCPY_BENCH_DEVICE (default 0) and the MEMCPY_BENCH_*
// variables of memcpy.mlir.
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"

#include <cuda.h>

#include <chrono>
#include <cmath>

#include <dlfcn.h>

using namespace gpu_runner::memcpy_bench;

namespace {

// The driver functions used, each looked up under the versioned name cuda.h
// maps it to (cuMemAlloc is cuMemAlloc_v2, ...).
#define CUDA_FUNCTIONS(X)                                                      \
  X(cuInit)                                                                    \
  X(cuGetErrorName)                                                            \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuMemGetInfo)                                                              \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemHostRegister)                                                         \
  X(cuMemHostUnregister)                                                       \
  X(cuMemcpy)                                                                  \
  X(cuMemcpyAsync)                                                             \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)

#define SYMBOL_NAME(name) #name
#define VERSIONED_NAME(name) SYMBOL_NAME(name)

struct Driver {
#define DECLARE(name) decltype(&name) name##Fn = nullptr;
  CUDA_FUNCTIONS(DECLARE)
#undef DECLARE
};

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::exit(1);
}

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

class CudaApi : public CopyApi {
public:
  CudaApi() {
    // As gpu-runner-cuda: GPU_RUNNER_CUDA_DRIVER names another driver.
    const char *chosen = std::getenv("GPU_RUNNER_CUDA_DRIVER");
    void *library = dlopen(chosen && *chosen ? chosen : "libcuda.so.1",
                           RTLD_NOW | RTLD_LOCAL);
    if (!library)
      fail(std::string("the CUDA driver is not available: ") + dlerror());
#define LOAD(name)                                                             \
  driver.name##Fn =                                                            \
      reinterpret_cast<decltype(&name)>(dlsym(library, VERSIONED_NAME(name))); \
  if (!driver.name##Fn)                                                        \
    fail("the CUDA driver has no " VERSIONED_NAME(name));
    CUDA_FUNCTIONS(LOAD)
#undef LOAD
    check(driver.cuInitFn(0), "cuInit");
    CUdevice device;
    check(driver.cuDeviceGetFn(&device, int(param("MEMCPY_BENCH_DEVICE", 0))),
          "cuDeviceGet");
    char name[256] = {0};
    check(driver.cuDeviceGetNameFn(name, sizeof(name) - 1, device),
          "cuDeviceGetName");
    deviceNameText = name;
    CUcontext context;
    check(driver.cuDevicePrimaryCtxRetainFn(&context, device),
          "cuDevicePrimaryCtxRetain");
    check(driver.cuCtxSetCurrentFn(context), "cuCtxSetCurrent");
    check(driver.cuStreamCreateFn(&stream, CU_STREAM_NON_BLOCKING),
          "cuStreamCreate");
    check(driver.cuEventCreateFn(&start, CU_EVENT_DEFAULT), "cuEventCreate");
    check(driver.cuEventCreateFn(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
    this->device = device;
  }
  ~CudaApi() override {
    check(driver.cuEventDestroyFn(start), "cuEventDestroy");
    check(driver.cuEventDestroyFn(stop), "cuEventDestroy");
    check(driver.cuStreamDestroyFn(stream), "cuStreamDestroy");
    check(driver.cuDevicePrimaryCtxReleaseFn(device),
          "cuDevicePrimaryCtxRelease");
  }

  void *allocateDevice(uint64_t bytes) override {
    CUdeviceptr ptr = 0;
    check(driver.cuMemAllocFn(&ptr, bytes ? bytes : 1), "cuMemAlloc");
    return reinterpret_cast<void *>(ptr);
  }
  void freeDevice(void *ptr) override {
    check(driver.cuMemFreeFn(address(ptr)), "cuMemFree");
  }
  void *allocateHost(uint64_t bytes, bool pinned) override {
    void *ptr = std::malloc(bytes ? bytes : 1);
    if (!ptr)
      fail("malloc failed");
    if (pinned)
      check(driver.cuMemHostRegisterFn(ptr, bytes ? bytes : 1, 0),
            "cuMemHostRegister");
    return ptr;
  }
  void freeHost(void *ptr, bool pinned) override {
    if (pinned)
      check(driver.cuMemHostUnregisterFn(ptr), "cuMemHostUnregister");
    std::free(ptr);
  }
  void copyToDevice(void *dst, const void *src, uint64_t bytes) override {
    check(driver.cuMemcpyFn(address(dst), address(src), bytes), "cuMemcpy");
  }
  void copyToHost(void *dst, const void *src, uint64_t bytes) override {
    check(driver.cuMemcpyFn(address(dst), address(src), bytes), "cuMemcpy");
  }
  void timeBatch(void *dst, const void *src, uint64_t bytes, int64_t copies,
                 int64_t &deviceNs, int64_t &hostNs) override {
    // As memcpy.mlir does: an untimed copy keeps the stream busy while the
    // batch is enqueued.
    check(driver.cuMemcpyAsyncFn(address(dst), address(src), bytes, stream),
          "cuMemcpyAsync");
    check(driver.cuEventRecordFn(start, stream), "cuEventRecord");
    int64_t hostStart = nowNs();
    for (int64_t i = 0; i < copies; ++i)
      check(driver.cuMemcpyAsyncFn(address(dst), address(src), bytes, stream),
            "cuMemcpyAsync");
    hostNs = nowNs() - hostStart;
    check(driver.cuEventRecordFn(stop, stream), "cuEventRecord");
    check(driver.cuEventSynchronizeFn(stop), "cuEventSynchronize");
    float ms = 0;
    check(driver.cuEventElapsedTimeFn(&ms, start, stop), "cuEventElapsedTime");
    deviceNs = std::llround(double(ms) * 1e6);
  }

  uint64_t deviceFreeBytes() {
    size_t free = 0, total = 0;
    check(driver.cuMemGetInfoFn(&free, &total), "cuMemGetInfo");
    return free;
  }
  std::string deviceName() const { return deviceNameText; }

private:
  static CUdeviceptr address(const void *ptr) {
    return reinterpret_cast<CUdeviceptr>(ptr);
  }
  void check(CUresult result, const char *call) const {
    if (result == CUDA_SUCCESS)
      return;
    const char *name = nullptr;
    if (!driver.cuGetErrorNameFn ||
        driver.cuGetErrorNameFn(result, &name) != CUDA_SUCCESS)
      name = "an unknown error";
    fail(std::string(call) + " failed: " + name);
  }

  Driver driver;
  CUdevice device = 0;
  std::string deviceNameText;
  CUstream stream = nullptr;
  CUevent start = nullptr;
  CUevent stop = nullptr;
};

} // namespace

int main(int argc, char **argv) { return baselineMain<CudaApi>(argc, argv); }
