//===- CudaApiTest.cpp - The CUDA stand-in's rules, call by call ----------===//
//
// Calls the stand-in's driver API directly, as cuda.h declares it, and
// checks that each documented rule is enforced with the documented code,
// and that what the calls do (copies, memsets, streams, events) is right.
//
//===----------------------------------------------------------------------===//

#include "unittests/standin/StandinTestSupport.h"

#include <cuda.h>

#include <sys/mman.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>
#include <vector>

using namespace gpu_runner::test;

namespace {

/// cuInit, and device 0's primary context current on this thread, released
/// at exit before the stand-in reports what was not.
CUcontext initialize() {
  static CUcontext context = [] {
    REQUIRE(cuInit(0) == CUDA_SUCCESS);
    CUcontext made = nullptr;
    REQUIRE(cuDevicePrimaryCtxRetain(&made, 0) == CUDA_SUCCESS);
    std::atexit([] { cuDevicePrimaryCtxRelease(0); });
    return made;
  }();
  REQUIRE(cuCtxSetCurrent(context) == CUDA_SUCCESS);
  return context;
}

CUdeviceptr allocate(size_t bytes) {
  CUdeviceptr pointer = 0;
  REQUIRE(cuMemAlloc(&pointer, bytes) == CUDA_SUCCESS);
  return pointer;
}

CUdeviceptr address(const void *pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

CUDA_MEMCPY2D unified2D(CUdeviceptr dst, size_t dstPitch, CUdeviceptr src,
                        size_t srcPitch, size_t width, size_t height) {
  CUDA_MEMCPY2D copy;
  std::memset(&copy, 0, sizeof(copy));
  copy.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.srcDevice = src;
  copy.srcPitch = srcPitch;
  copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.dstDevice = dst;
  copy.dstPitch = dstPitch;
  copy.WidthInBytes = width;
  copy.Height = height;
  return copy;
}

/// Work that keeps a stream busy for a while: copies of 64 MiB.
void keepBusy(CUstream stream, CUdeviceptr a, CUdeviceptr b, int copies) {
  for (int i = 0; i < copies; ++i)
    REQUIRE(cuMemcpyAsync(i % 2 ? a : b, i % 2 ? b : a, 64 << 20, stream) ==
            CUDA_SUCCESS);
}

const char *const kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry kernel(
	.param .u64 kernel_param_0,
	.param .u32 kernel_param_1
)
{ ret; }
)";

} // namespace

TEST_CASE("before cuInit and without a context (child)",
          "[.cuda-before-init]") {
  // cuda.h, cuInit: "If cuInit() has not been called, any function from the
  // driver API will return CUDA_ERROR_NOT_INITIALIZED."
  int count = 0;
  CHECK(cuDeviceGetCount(&count) == CUDA_ERROR_NOT_INITIALIZED);
  CUdeviceptr pointer = 0;
  CHECK(cuMemAlloc(&pointer, 16) == CUDA_ERROR_NOT_INITIALIZED);
  // These three work before it.
  int version = 0;
  CHECK(cuDriverGetVersion(&version) == CUDA_SUCCESS);
  CHECK(version == CUDA_VERSION);
  const char *name = nullptr;
  CHECK(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &name) == CUDA_SUCCESS);
  CHECK(std::string(name) == "CUDA_ERROR_INVALID_VALUE");
  CHECK(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &name) == CUDA_SUCCESS);
  CHECK(std::string(name) == "out of memory");
  // A code without a text of its own is described by its name.
  CHECK(cuGetErrorString(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, &name) ==
        CUDA_SUCCESS);
  CHECK(std::string(name) == "peer access unsupported");
  CHECK(cuGetErrorName(static_cast<CUresult>(123456), &name) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(name == nullptr);
  // "Currently, the Flags parameter must be 0."
  CHECK(cuInit(1) == CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuDeviceGetCount(&count) == CUDA_SUCCESS);
  CHECK(count == 2);
  // No context is current on a thread yet.
  CHECK(cuMemAlloc(&pointer, 16) == CUDA_ERROR_INVALID_CONTEXT);
  CUstream stream = nullptr;
  CHECK(cuStreamCreate(&stream, 0) == CUDA_ERROR_INVALID_CONTEXT);
  // Releasing a context never retained; making one current that is not.
  CHECK(cuDevicePrimaryCtxRelease(1) == CUDA_ERROR_INVALID_CONTEXT);
  CUcontext context = nullptr;
  REQUIRE(cuDevicePrimaryCtxRetain(&context, 1) == CUDA_SUCCESS);
  REQUIRE(cuDevicePrimaryCtxRelease(1) == CUDA_SUCCESS);
  CHECK(cuCtxSetCurrent(context) == CUDA_ERROR_INVALID_CONTEXT);
  CUdevice device;
  CHECK(cuDeviceGet(&device, 2) == CUDA_ERROR_INVALID_DEVICE);
}

TEST_CASE("calls before cuInit and without a context fail as documented",
          "[standin][cuda]") {
  SelfRun run = runHiddenTest("[.cuda-before-init]");
  INFO(run.output);
  CHECK(run.status == 0);
}

TEST_CASE("device memory is aligned, bounded, and not the host's",
          "[standin][cuda]") {
  initialize();
  CUdeviceptr pointer = 0;
  // cuda.h, cuMemAlloc: "If bytesize is 0, cuMemAlloc() returns
  // CUDA_ERROR_INVALID_VALUE."
  CHECK(cuMemAlloc(&pointer, 0) == CUDA_ERROR_INVALID_VALUE);
  size_t freeBefore = 0, total = 0;
  REQUIRE(cuMemGetInfo(&freeBefore, &total) == CUDA_SUCCESS);
  CUdeviceptr a = allocate(100), b = allocate(100);
  size_t freeAfter = 0;
  REQUIRE(cuMemGetInfo(&freeAfter, &total) == CUDA_SUCCESS);
  CHECK(freeBefore - freeAfter == 512);
  CHECK(a % 256 == 0);
  CHECK(b % 256 == 0);
  // The host cannot touch it, as it cannot touch a GPU's memory.
  CHECK_FALSE(isHostReadable(reinterpret_cast<void *>(a), 16));

  std::vector<char> host(256, 7), back(256, 0);
  CHECK(cuMemcpyAsync(a, address(host.data()), 100, nullptr) == CUDA_SUCCESS);
  CHECK(cuMemcpyAsync(address(back.data()), a, 100, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuStreamSynchronize(nullptr) == CUDA_SUCCESS);
  CHECK(back[0] == 7);
  CHECK(back[99] == 7);
  CHECK(back[100] == 0);
  // Past an allocation's end, even into the next one, is not the
  // allocation's: the stand-in refuses what would be a silent write.
  CHECK(cuMemcpyAsync(a, address(host.data()), 101, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemcpyAsync(a + 50, address(host.data()), 51, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemcpyAsync(a + 200, address(host.data()), 8, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  // Host memory that is not mapped, or not writable.
  void *unmapped = getUnmappedPage();
  CHECK(cuMemcpyAsync(a, address(unmapped), 8, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  long page = sysconf(_SC_PAGESIZE);
  void *readOnly =
      mmap(nullptr, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(readOnly != MAP_FAILED);
  CHECK(cuMemcpyAsync(address(readOnly), a, 8, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemcpyAsync(a, address(readOnly), 8, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuStreamSynchronize(nullptr) == CUDA_SUCCESS);
  munmap(readOnly, page);

  // Freed memory is no one's; a second free fails; freeing 0 does nothing.
  REQUIRE(cuMemFree(a) == CUDA_SUCCESS);
  CHECK(cuMemcpyAsync(a, address(host.data()), 8, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemFree(a) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemFree(b + 8) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemFree(0) == CUDA_SUCCESS);
  REQUIRE(cuMemFree(b) == CUDA_SUCCESS);
}

TEST_CASE("managed memory is reached from the host and by copies",
          "[standin][cuda]") {
  initialize();
  CUdeviceptr managed = 0;
  // cuda.h: flags "must be one of CU_MEM_ATTACH_GLOBAL or
  // CU_MEM_ATTACH_HOST".
  CHECK(cuMemAllocManaged(&managed, 64, CU_MEM_ATTACH_SINGLE) ==
        CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuMemAllocManaged(&managed, 64, CU_MEM_ATTACH_GLOBAL) ==
          CUDA_SUCCESS);
  auto *values = reinterpret_cast<int *>(managed);
  values[0] = 41;
  CUdeviceptr device = allocate(64);
  REQUIRE(cuMemcpyAsync(device, managed, 4, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuMemsetD32Async(managed, 42, 1, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuMemcpyAsync(managed + 4, device, 4, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuStreamSynchronize(nullptr) == CUDA_SUCCESS);
  CHECK(values[0] == 42);
  CHECK(values[1] == 41);
  REQUIRE(cuMemFree(managed) == CUDA_SUCCESS);
  REQUIRE(cuMemFree(device) == CUDA_SUCCESS);
}

TEST_CASE("2-D copies check their pitches and memory types",
          "[standin][cuda]") {
  initialize();
  // A 6x6 int matrix on the device, and a 2x3 host block.
  CUdeviceptr matrix = allocate(36 * 4);
  REQUIRE(cuMemsetD32Async(matrix, 0, 36, nullptr) == CUDA_SUCCESS);
  int block[6] = {1, 2, 3, 4, 5, 6};
  CUDA_MEMCPY2D copy =
      unified2D(matrix + 13 * 4, 24, address(block), 12, 12, 2);
  REQUIRE(cuMemcpy2DAsync(&copy, nullptr) == CUDA_SUCCESS);
  int result[36] = {};
  REQUIRE(cuMemcpyAsync(address(result), matrix, sizeof(result), nullptr) ==
          CUDA_SUCCESS);
  REQUIRE(cuStreamSynchronize(nullptr) == CUDA_SUCCESS);
  CHECK(result[12] == 0);
  CHECK(result[13] == 1);
  CHECK(result[15] == 3);
  CHECK(result[16] == 0);
  CHECK(result[19] == 4);
  CHECK(result[21] == 6);

  // Offsets: the source's second column, the destination's third.
  copy = unified2D(matrix, 24, address(block), 12, 4, 2);
  copy.srcXInBytes = 4;
  copy.dstXInBytes = 8;
  REQUIRE(cuMemcpy2DAsync(&copy, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuMemcpyAsync(address(result), matrix, sizeof(result), nullptr) ==
          CUDA_SUCCESS);
  REQUIRE(cuStreamSynchronize(nullptr) == CUDA_SUCCESS);
  CHECK(result[2] == 2);
  CHECK(result[8] == 5);

  // cuda.h, cuMemcpy2D: "srcPitch must be greater than or equal to
  // WidthInBytes + srcXInBytes".
  copy = unified2D(matrix, 24, address(block), 12, 12, 2);
  copy.srcXInBytes = 4;
  CHECK(cuMemcpy2DAsync(&copy, nullptr) == CUDA_ERROR_INVALID_VALUE);
  copy = unified2D(matrix, 8, address(block), 12, 12, 2);
  CHECK(cuMemcpy2DAsync(&copy, nullptr) == CUDA_ERROR_INVALID_VALUE);
  // "an error if any pitch is greater than the maximum allowed".
  copy = unified2D(matrix, 24, address(block), size_t(1) << 31, 12, 1);
  CHECK(cuMemcpy2DAsync(&copy, nullptr) == CUDA_ERROR_INVALID_VALUE);
  // A memory type that does not match the pointer.
  copy = unified2D(matrix, 24, address(block), 12, 12, 2);
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  CHECK(cuMemcpy2DAsync(&copy, nullptr) == CUDA_ERROR_INVALID_VALUE);
  copy = unified2D(matrix, 24, address(block), 12, 12, 2);
  copy.dstMemoryType = CU_MEMORYTYPE_HOST;
  copy.dstHost = reinterpret_cast<void *>(matrix);
  CHECK(cuMemcpy2DAsync(&copy, nullptr) == CUDA_ERROR_INVALID_VALUE);
  // HOST and DEVICE with the right pointers are fine; there are no arrays.
  copy = unified2D(matrix, 24, 0, 12, 12, 2);
  copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  copy.srcHost = block;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  CHECK(cuMemcpy2DAsync(&copy, nullptr) == CUDA_SUCCESS);
  copy.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  CHECK(cuMemcpy2DAsync(&copy, nullptr) == CUDA_ERROR_INVALID_VALUE);
  // The last row past the matrix's end.
  copy = unified2D(matrix + 31 * 4, 24, address(block), 12, 12, 2);
  CHECK(cuMemcpy2DAsync(&copy, nullptr) == CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuStreamSynchronize(nullptr) == CUDA_SUCCESS);
  REQUIRE(cuMemFree(matrix) == CUDA_SUCCESS);
}

TEST_CASE("3-D copies check their slices, LODs and reserved fields",
          "[standin][cuda]") {
  initialize();
  // A 4x4x4 byte cube holding 0..63, and the 2x2x2 box at (1, 1, 1).
  CUdeviceptr cube = allocate(64);
  unsigned char values[64];
  for (int i = 0; i < 64; ++i)
    values[i] = static_cast<unsigned char>(i);
  REQUIRE(cuMemcpyAsync(cube, address(values), 64, nullptr) == CUDA_SUCCESS);
  unsigned char box[8] = {};
  CUDA_MEMCPY3D copy;
  std::memset(&copy, 0, sizeof(copy));
  copy.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.srcDevice = cube;
  copy.srcXInBytes = 1;
  copy.srcY = 1;
  copy.srcZ = 1;
  copy.srcPitch = 4;
  copy.srcHeight = 4;
  copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.dstDevice = address(box);
  copy.dstPitch = 2;
  copy.dstHeight = 2;
  copy.WidthInBytes = 2;
  copy.Height = 2;
  copy.Depth = 2;
  REQUIRE(cuMemcpy3DAsync(&copy, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuStreamSynchronize(nullptr) == CUDA_SUCCESS);
  unsigned char expected[8] = {21, 22, 25, 26, 37, 38, 41, 42};
  CHECK(std::memcmp(box, expected, 8) == 0);

  // cuda.h, cuMemcpy3D: "The srcLOD and dstLOD members of the
  // CUDA_MEMCPY3D structure must be set to 0"; reserved0 and reserved1
  // "Must be NULL"; "srcHeight must be greater than or equal to Height +
  // srcY".
  CUDA_MEMCPY3D bad = copy;
  bad.srcLOD = 1;
  CHECK(cuMemcpy3DAsync(&bad, nullptr) == CUDA_ERROR_INVALID_VALUE);
  bad = copy;
  bad.reserved1 = &bad;
  CHECK(cuMemcpy3DAsync(&bad, nullptr) == CUDA_ERROR_INVALID_VALUE);
  bad = copy;
  bad.srcHeight = 2;
  CHECK(cuMemcpy3DAsync(&bad, nullptr) == CUDA_ERROR_INVALID_VALUE);
  bad = copy;
  bad.srcZ = 3;
  CHECK(cuMemcpy3DAsync(&bad, nullptr) == CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuMemFree(cube) == CUDA_SUCCESS);
}

TEST_CASE("memsets check alignment and pitch, on device memory only",
          "[standin][cuda]") {
  initialize();
  CUdeviceptr memory = allocate(64);
  // cuda.h, cuMemsetD16: "The dstDevice pointer must be two byte aligned";
  // cuMemsetD32: four; cuMemsetD2D16: "The dstDevice pointer and dstPitch
  // offset must be two byte aligned".
  CHECK(cuMemsetD16Async(memory + 1, 1, 4, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemsetD32Async(memory + 2, 1, 4, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemsetD2D16Async(memory, 5, 1, 2, 2, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemsetD2D32Async(memory, 6, 1, 1, 2, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  // Rows that overlap, and rows past the allocation.
  CHECK(cuMemsetD2D8Async(memory, 2, 1, 4, 2, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemsetD2D8Async(memory, 32, 1, 4, 3, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);
  // Host memory is not a memset's.
  int host[4] = {};
  CHECK(cuMemsetD32Async(address(host), 1, 4, nullptr) ==
        CUDA_ERROR_INVALID_VALUE);

  // Two rows of two 32-bit values, 12 bytes apart; the rest stays.
  REQUIRE(cuMemsetD8Async(memory, 0, 64, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuMemsetD2D32Async(memory, 12, 0xabcd, 2, 2, nullptr) ==
          CUDA_SUCCESS);
  REQUIRE(cuMemsetD16Async(memory + 32, 0x1234, 2, nullptr) == CUDA_SUCCESS);
  unsigned int words[10] = {};
  REQUIRE(cuMemcpyAsync(address(words), memory, sizeof(words), nullptr) ==
          CUDA_SUCCESS);
  REQUIRE(cuStreamSynchronize(nullptr) == CUDA_SUCCESS);
  CHECK(words[0] == 0xabcd);
  CHECK(words[1] == 0xabcd);
  CHECK(words[2] == 0);
  CHECK(words[3] == 0xabcd);
  CHECK(words[4] == 0xabcd);
  CHECK(words[5] == 0);
  CHECK(words[8] == 0x12341234);
  CHECK(words[9] == 0);
  REQUIRE(cuMemFree(memory) == CUDA_SUCCESS);
}

TEST_CASE("host registration is once per range", "[standin][cuda]") {
  initialize();
  std::vector<char> buffer(4096);
  char *p = buffer.data();
  CHECK(cuMemHostRegister(p, 0, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemHostRegister(p, 64, 0x100) == CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuMemHostRegister(p, 1024, CU_MEMHOSTREGISTER_PORTABLE) ==
          CUDA_SUCCESS);
  // cuda.h, CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED: "the memory range
  // passed to cuMemHostRegister() has already been registered".
  CHECK(cuMemHostRegister(p, 1024, 0) ==
        CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  CHECK(cuMemHostRegister(p + 512, 1024, 0) ==
        CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  REQUIRE(cuMemHostRegister(p + 1024, 1024, 0) == CUDA_SUCCESS);
  // cuMemHostUnregister: "The base address must be the same one specified
  // to cuMemHostRegister()".
  CHECK(cuMemHostUnregister(p + 8) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
  CHECK(cuMemHostUnregister(p + 2048) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
  // Device memory is not the host's to register.
  CUdeviceptr device = allocate(64);
  CHECK(cuMemHostRegister(reinterpret_cast<void *>(device), 64, 0) ==
        CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuMemHostUnregister(p) == CUDA_SUCCESS);
  CHECK(cuMemHostUnregister(p) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
  REQUIRE(cuMemHostUnregister(p + 1024) == CUDA_SUCCESS);
  REQUIRE(cuMemFree(device) == CUDA_SUCCESS);
}

TEST_CASE("the legacy stream waits for blocking streams, not others",
          "[standin][cuda]") {
  initialize();
  CUdeviceptr a = allocate(64 << 20), b = allocate(64 << 20);
  CUstream blocking = nullptr, nonBlocking = nullptr;
  CHECK(cuStreamCreate(&blocking, 4) == CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuStreamCreate(&blocking, CU_STREAM_DEFAULT) == CUDA_SUCCESS);
  REQUIRE(cuStreamCreate(&nonBlocking, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);

  // "When an action is taken in the legacy stream [...] the legacy stream
  // first waits on all blocking streams".
  keepBusy(blocking, a, b, 4);
  REQUIRE(cuStreamSynchronize(CU_STREAM_LEGACY) == CUDA_SUCCESS);
  CHECK(cuStreamQuery(blocking) == CUDA_SUCCESS);
  // A non-blocking stream "may run concurrently with work in stream 0".
  keepBusy(nonBlocking, a, b, 8);
  REQUIRE(cuStreamSynchronize(CU_STREAM_LEGACY) == CUDA_SUCCESS);
  CHECK(cuStreamQuery(nonBlocking) == CUDA_ERROR_NOT_READY);
  REQUIRE(cuStreamSynchronize(nonBlocking) == CUDA_SUCCESS);
  CHECK(cuStreamQuery(nonBlocking) == CUDA_SUCCESS);

  // A stream destroyed while busy still finishes its work.
  int value = 0x5a5a5a5a, result = 0;
  REQUIRE(cuMemcpyAsync(a, address(&value), 4, blocking) == CUDA_SUCCESS);
  REQUIRE(cuMemcpyAsync(address(&result), a, 4, blocking) == CUDA_SUCCESS);
  REQUIRE(cuStreamDestroy(blocking) == CUDA_SUCCESS);
  CHECK(cuStreamQuery(blocking) == CUDA_ERROR_INVALID_HANDLE);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(result == value);
  REQUIRE(cuStreamDestroy(nonBlocking) == CUDA_SUCCESS);
  REQUIRE(cuMemFree(a) == CUDA_SUCCESS);
  REQUIRE(cuMemFree(b) == CUDA_SUCCESS);
}

TEST_CASE("events capture work, and time it only with timing",
          "[standin][cuda]") {
  initialize();
  CUevent start = nullptr, stop = nullptr, untimed = nullptr;
  CHECK(cuEventCreate(&start, CU_EVENT_INTERPROCESS) ==
        CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuEventCreate(&start, CU_EVENT_DEFAULT) == CUDA_SUCCESS);
  REQUIRE(cuEventCreate(&stop, CU_EVENT_DEFAULT) == CUDA_SUCCESS);
  REQUIRE(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS);
  float ms = -1;
  // "Before the first call to cuEventRecord(), an event represents an empty
  // set of work"; "If cuEventRecord() has not been called on either event
  // then CUDA_ERROR_INVALID_HANDLE is returned."
  CHECK(cuEventQuery(start) == CUDA_SUCCESS);
  CHECK(cuEventSynchronize(start) == CUDA_SUCCESS);
  CHECK(cuEventElapsedTime(&ms, start, stop) == CUDA_ERROR_INVALID_HANDLE);

  REQUIRE(cuEventRecord(start, nullptr) == CUDA_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(cuEventRecord(stop, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuEventRecord(untimed, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuEventSynchronize(stop) == CUDA_SUCCESS);
  REQUIRE(cuEventElapsedTime(&ms, start, stop) == CUDA_SUCCESS);
  CHECK(ms >= 19.0f);
  CHECK(ms < 1000.0f);
  // "If either event was created with the CU_EVENT_DISABLE_TIMING flag,
  // then this function will return CUDA_ERROR_INVALID_HANDLE."
  CHECK(cuEventElapsedTime(&ms, start, untimed) == CUDA_ERROR_INVALID_HANDLE);

  // Recorded behind work that has not finished: CUDA_ERROR_NOT_READY.
  CUdeviceptr a = allocate(64 << 20), b = allocate(64 << 20);
  CUstream stream = nullptr;
  REQUIRE(cuStreamCreate(&stream, 0) == CUDA_SUCCESS);
  keepBusy(stream, a, b, 8);
  REQUIRE(cuEventRecord(stop, stream) == CUDA_SUCCESS);
  CHECK(cuEventQuery(stop) == CUDA_ERROR_NOT_READY);
  CHECK(cuEventElapsedTime(&ms, start, stop) == CUDA_ERROR_NOT_READY);
  // A stream waits for an event of another stream.
  CUstream waiting = nullptr;
  REQUIRE(cuStreamCreate(&waiting, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  CHECK(cuStreamWaitEvent(waiting, stop, 1) == CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuStreamWaitEvent(waiting, stop, 0) == CUDA_SUCCESS);
  REQUIRE(cuStreamSynchronize(waiting) == CUDA_SUCCESS);
  CHECK(cuEventQuery(stop) == CUDA_SUCCESS);

  // cuEventRecord: "hEvent and hStream must be from the same context
  // otherwise CUDA_ERROR_INVALID_HANDLE is returned."
  CUcontext other = nullptr;
  REQUIRE(cuDevicePrimaryCtxRetain(&other, 1) == CUDA_SUCCESS);
  REQUIRE(cuCtxSetCurrent(other) == CUDA_SUCCESS);
  CUevent elsewhere = nullptr;
  REQUIRE(cuEventCreate(&elsewhere, 0) == CUDA_SUCCESS);
  CHECK(cuEventRecord(elsewhere, stream) == CUDA_ERROR_INVALID_HANDLE);
  REQUIRE(cuEventDestroy(elsewhere) == CUDA_SUCCESS);
  initialize();
  REQUIRE(cuDevicePrimaryCtxRelease(1) == CUDA_SUCCESS);

  for (CUevent event : {start, stop, untimed})
    REQUIRE(cuEventDestroy(event) == CUDA_SUCCESS);
  CHECK(cuEventQuery(start) == CUDA_ERROR_INVALID_HANDLE);
  REQUIRE(cuStreamDestroy(stream) == CUDA_SUCCESS);
  REQUIRE(cuStreamDestroy(waiting) == CUDA_SUCCESS);
  REQUIRE(cuMemFree(a) == CUDA_SUCCESS);
  REQUIRE(cuMemFree(b) == CUDA_SUCCESS);
}

TEST_CASE("modules load what the driver loads, and name their kernels",
          "[standin][cuda]") {
  initialize();
  CUmodule module = nullptr;
  const char garbage[] = "\x01\x02\x03\x04 not an image";
  CHECK(cuModuleLoadData(&module, garbage) == CUDA_ERROR_INVALID_IMAGE);
  REQUIRE(cuModuleLoadData(&module, kPtx) == CUDA_SUCCESS);
  CUfunction function = nullptr;
  REQUIRE(cuModuleGetFunction(&function, module, "kernel") == CUDA_SUCCESS);
  // cuModuleGetFunction: "If no function of that name exists,
  // cuModuleGetFunction() returns CUDA_ERROR_NOT_FOUND."
  CUfunction missing = nullptr;
  CHECK(cuModuleGetFunction(&missing, module, "other") == CUDA_ERROR_NOT_FOUND);
  REQUIRE(cuModuleUnload(module) == CUDA_SUCCESS);
  CHECK(cuModuleGetFunction(&missing, module, "kernel") ==
        CUDA_ERROR_INVALID_HANDLE);

  // PTX for a newer chip fails to compile, and the log says why.
  std::string newer = kPtx;
  newer.replace(newer.find("sm_90"), 5, "sm_100");
  char log[256] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log))};
  CHECK(cuModuleLoadDataEx(&module, newer.c_str(), 2, options, values) ==
        CUDA_ERROR_INVALID_PTX);
  CHECK(std::string(log) ==
        "ptxas: the PTX targets sm_100, newer than the device's sm_90");
}

TEST_CASE("launches are checked, then refused", "[standin][cuda]") {
  initialize();
  CUmodule module = nullptr;
  REQUIRE(cuModuleLoadData(&module, kPtx) == CUDA_SUCCESS);
  CUfunction f = nullptr;
  REQUIRE(cuModuleGetFunction(&f, module, "kernel") == CUDA_SUCCESS);
  uint64_t pointerArgument = 0;
  uint32_t countArgument = 0;
  void *params[] = {&pointerArgument, &countArgument};
  auto launch = [&](unsigned gx, unsigned bx, unsigned shared,
                    void **kernelParams, void **extra) {
    return cuLaunchKernel(f, gx, 1, 1, bx, 1, 1, shared, nullptr, kernelParams,
                          extra);
  };
  CHECK(launch(1, 32, 0, params, nullptr) == CUDA_ERROR_NOT_SUPPORTED);
  const char *text = nullptr;
  REQUIRE(cuGetErrorString(CUDA_ERROR_NOT_SUPPORTED, &text) == CUDA_SUCCESS);
  // A module given no kernel IR: the stand-in says what it needs.
  CHECK(std::string(text).find("runs a kernel only from the LLVM IR") !=
        std::string::npos);

  CHECK(launch(0, 32, 0, params, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(launch(1, 0, 0, params, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(launch(1, 2048, 0, params, nullptr) == CUDA_ERROR_INVALID_VALUE);
  // cuLaunchKernel: "If f has N parameters, then kernelParams needs to be
  // an array of N pointers"; "both kernelParams and extra" is an error.
  CHECK(launch(1, 32, 0, nullptr, nullptr) == CUDA_ERROR_INVALID_VALUE);
  void *badParams[] = {&pointerArgument, getUnmappedPage()};
  CHECK(launch(1, 32, 0, badParams, nullptr) == CUDA_ERROR_INVALID_VALUE);
  size_t bufferSize = 12;
  char buffer[16] = {};
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &bufferSize,
                   CU_LAUNCH_PARAM_END};
  CHECK(launch(1, 32, 0, params, extra) == CUDA_ERROR_INVALID_VALUE);
  CHECK(launch(1, 32, 0, nullptr, extra) == CUDA_ERROR_NOT_SUPPORTED);
  void *sizeOnly[] = {CU_LAUNCH_PARAM_BUFFER_SIZE, &bufferSize,
                      CU_LAUNCH_PARAM_END};
  CHECK(launch(1, 32, 0, nullptr, sizeOnly) == CUDA_ERROR_INVALID_VALUE);

  // Dynamic shared memory: 48 KiB by default, more once the function opts
  // in, up to the device's opt-in limit.
  CHECK(launch(1, 32, 64 << 10, params, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           300 << 10) == CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             64 << 10) == CUDA_SUCCESS);
  CHECK(launch(1, 32, 64 << 10, params, nullptr) == CUDA_ERROR_NOT_SUPPORTED);
  CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NUM_REGS, 8) ==
        CUDA_ERROR_INVALID_VALUE);

  // Clusters: each dimension divides the grid, at most 8 blocks unless the
  // function allows more.
  CUlaunchAttribute attribute;
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = 3;
  attribute.value.clusterDim.y = 1;
  attribute.value.clusterDim.z = 1;
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = 16;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 32;
  config.blockDimY = config.blockDimZ = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CHECK(cuLaunchKernelEx(&config, f, params, nullptr) ==
        CUDA_ERROR_INVALID_CLUSTER_SIZE);
  attribute.value.clusterDim.x = 16;
  CHECK(cuLaunchKernelEx(&config, f, params, nullptr) ==
        CUDA_ERROR_INVALID_CLUSTER_SIZE);
  REQUIRE(
      cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
                         1) == CUDA_SUCCESS);
  CHECK(cuLaunchKernelEx(&config, f, params, nullptr) ==
        CUDA_ERROR_NOT_SUPPORTED);
  REQUIRE(cuModuleUnload(module) == CUDA_SUCCESS);
  CHECK(launch(1, 32, 0, params, nullptr) == CUDA_ERROR_INVALID_HANDLE);
}

/// The threads of this process now.
int countThreads() {
  int threads = 0;
  for (const auto &entry :
       std::filesystem::directory_iterator("/proc/self/task")) {
    (void)entry;
    ++threads;
  }
  return threads;
}

// LeakSanitizer's check at exit stops every thread, and one that is starting
// or ending can crash it: no worker may start or end on its own as a
// program finishes.
TEST_CASE("stream workers start and end only with their streams (child)",
          "[.cuda-workers]") {
  REQUIRE(cuInit(0) == CUDA_SUCCESS);
  CUcontext context = nullptr;
  REQUIRE(cuDevicePrimaryCtxRetain(&context, 0) == CUDA_SUCCESS);
  REQUIRE(cuCtxSetCurrent(context) == CUDA_SUCCESS);
  int before = countThreads();
  // No work was ever queued: synchronizing starts nothing.
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(countThreads() == before);
  CUstream stream = nullptr;
  REQUIRE(cuStreamCreate(&stream, 0) == CUDA_SUCCESS);
  CHECK(countThreads() == before + 1);
  // An idle stream's worker has ended when cuStreamDestroy returns.
  REQUIRE(cuStreamDestroy(stream) == CUDA_SUCCESS);
  CHECK(countThreads() == before);
  REQUIRE(cuDevicePrimaryCtxRelease(0) == CUDA_SUCCESS);
}

TEST_CASE("stream workers start and end only with their streams",
          "[standin][cuda]") {
  SelfRun run = runHiddenTest("[.cuda-workers]");
  INFO(run.output);
  CHECK(run.status == 0);
}

TEST_CASE("what a program never releases (child)", "[.cuda-leaks]") {
  REQUIRE(cuInit(0) == CUDA_SUCCESS);
  CUcontext context = nullptr;
  REQUIRE(cuDevicePrimaryCtxRetain(&context, 0) == CUDA_SUCCESS);
  REQUIRE(cuCtxSetCurrent(context) == CUDA_SUCCESS);
  allocate(100);
  CUstream stream = nullptr;
  REQUIRE(cuStreamCreate(&stream, 0) == CUDA_SUCCESS);
  CUevent event = nullptr;
  REQUIRE(cuEventCreate(&event, 0) == CUDA_SUCCESS);
  static char pinned[64];
  REQUIRE(cuMemHostRegister(pinned, sizeof(pinned), 0) == CUDA_SUCCESS);
  CUmodule module = nullptr;
  REQUIRE(cuModuleLoadData(&module, kPtx) == CUDA_SUCCESS);
}

TEST_CASE("at exit, everything never released is reported", "[standin][cuda]") {
  SelfRun run = runHiddenTest("[.cuda-leaks]");
  INFO(run.output);
  CHECK(run.status == 0);
  CHECK_THAT(run.output,
             Catch::Matchers::Contains(
                 "gpu-runner CUDA driver stand-in: at exit, 6 resources were "
                 "never released:\n"
                 "  allocation alloc#1: 100 bytes on device 0\n"
                 "  host registration registered#1: 64 bytes\n"
                 "  stream stream#1 on device 0\n"
                 "  event event#2 on device 0\n"
                 "  module module#3 on device 0\n"
                 "  the primary context of device 0, retained 1 more times "
                 "than released\n"));
  // With GPU_RUNNER_STANDIN_LEAK_EXITCODE, leaks change the exit status.
  run = runHiddenTest("[.cuda-leaks]", "GPU_RUNNER_STANDIN_LEAK_EXITCODE=24");
  CHECK(run.status == 24);
}
