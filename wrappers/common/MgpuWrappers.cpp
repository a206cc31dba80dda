//===- MgpuWrappers.cpp - The mgpu ABI of every backend, in C -------------===//
//
// The extern "C" functions of MgpuAbi.def and the Backend.h hooks, each a
// call into the backend's Runtime (getRuntime) that turns a failed Status
// into a fatal error at the op's location:
//
//   file.mlir:12:5: error: gpu.memcpy: CUDA_ERROR_INVALID_VALUE: invalid
//   argument
//
// The upstream functions carry no location, so their errors name just the
// op they come from. How kernels are launched stays with each backend
// (host/HostKernelWrappers.cpp, gpu/DeviceKernelWrappers.cpp).
//
//===----------------------------------------------------------------------===//

#include "wrappers/Backend.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/RunRecord.h"
#include "wrappers/Runtime.h"
#include "wrappers/common/CheckReports.h"
#include "wrappers/common/FatalReport.h"
#include "wrappers/common/FaultHandler.h"
#include "wrappers/common/ProgramHeap.h"
#include "wrappers/common/RuntimeError.h"
#include "wrappers/common/StridedCopy.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace gpu_runner;

namespace {

void check(const Status &status, const char *loc) {
  reportIfError(status, loc);
}

/// The bytes of the elements of `view`.
uint64_t countViewBytes(const MemRefView &view) {
  uint64_t bytes = static_cast<uint64_t>(view.elementSizeBytes);
  for (int64_t size : view.sizes)
    bytes *= static_cast<uint64_t>(size);
  return bytes;
}

/// The bytes of the elements of the memref at `descriptor`, for the run's
/// record; 0 for a descriptor the op itself will refuse.
uint64_t countMemRefBytes(int64_t rank, const void *descriptor,
                          int64_t elementSizeBytes) {
  if (!isRunRecorded())
    return 0;
  MemRefView view;
  if (!readMemRefDescriptor(rank, descriptor, elementSizeBytes, "memref", view)
           .ok())
    return 0;
  return countViewBytes(view);
}

void recordStridedCopy(RecordedOp &record, int64_t rank,
                       const void *dstDescriptor, const void *srcDescriptor,
                       int64_t elementSizeBytes) {
  if (!isRunRecorded())
    return;
  MemRefView dst, src;
  if (!readMemRefDescriptor(rank, dstDescriptor, elementSizeBytes,
                            "destination", dst)
           .ok() ||
      !readMemRefDescriptor(rank, srcDescriptor, elementSizeBytes, "source",
                            src)
           .ok())
    return;
  record.setCopy(dst.aligned, src.aligned, countViewBytes(src));
}

} // namespace

namespace gpu_runner {

Status Runtime::hostRegisterMemRef(int64_t rank, void *descriptor,
                                   int64_t elementSizeBytes, const char *loc) {
  ByteRange range;
  GPU_RUNNER_RETURN_IF_ERROR(
      readMemRefByteRange(rank, descriptor, elementSizeBytes, range));
  return hostRegister(range.begin, range.bytes, loc);
}

Status Runtime::hostUnregisterMemRef(int64_t rank, void *descriptor,
                                     int64_t elementSizeBytes,
                                     const char *loc) {
  ByteRange range;
  GPU_RUNNER_RETURN_IF_ERROR(
      readMemRefByteRange(rank, descriptor, elementSizeBytes, range));
  if (range.bytes == 0)
    return Status(); // an empty memref was never registered
  return hostUnregister(range.begin, loc);
}

std::vector<RuntimeSymbol> getRuntimeSymbols() {
  std::vector<RuntimeSymbol> symbols = {
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, reinterpret_cast<void *>(&NAME)},
#include "wrappers/MgpuAbi.def"
  };
  for (const RuntimeSymbol &symbol : getKernelAbiSymbols())
    symbols.push_back(symbol);
  for (const RuntimeSymbol &symbol : getProgramHeapSymbols())
    symbols.push_back(symbol);
  return symbols;
}

namespace {

/// A failed Status of the runtime as the llvm::Error Backend.h returns.
llvm::Error toError(const Status &status) {
  if (status.ok())
    return llvm::Error::success();
  return llvm::createStringError(status.message());
}

} // namespace

llvm::Expected<std::string> describeDevices() {
  std::string text;
  if (llvm::Error error = toError(getRuntime().describeDevices(text)))
    return std::move(error);
  return text;
}

llvm::Expected<std::string> queryDeviceChip(int device) {
  std::string chip;
  if (llvm::Error error = toError(getRuntime().getDeviceChip(device, chip)))
    return std::move(error);
  return chip;
}

llvm::Error initializeBackend(const BackendOptions &options) {
  // Faults of the program's host code are errors on every backend.
  installFaultHandler();
  setEnabledChecks(options.checks);
  return toError(getRuntime().initialize(options.device));
}

std::string describeDeviceMemory(const void *pointer) {
  return getRuntime().describeDeviceMemory(pointer);
}

void synchronizeBackend() { check(getRuntime().synchronize(), nullptr); }

unsigned finalizeBackend() {
  std::vector<Runtime::Warning> leaks;
  check(getRuntime().finalize(leaks), nullptr);
  for (const Runtime::Warning &leak : leaks) {
    if (isCheckEnabled(Check::Leakcheck))
      reportCheckError(Check::Leakcheck, leak.loc.c_str(), leak.message);
    else
      reportWarning(leak.loc.c_str(), leak.message);
  }
  return static_cast<unsigned>(finishChecks());
}

} // namespace gpu_runner

extern "C" {

//===----------------------------------------------------------------------===//
// Upstream functions, without a location: errors name the op.
//===----------------------------------------------------------------------===//

void *mgpuModuleLoad(void *data, size_t sizeBytes) {
  void *module = nullptr;
  check(getRuntime().loadModule(data, sizeBytes, kDeviceObjectBinary,
                                /*optLevel=*/4, module, "gpu.binary"),
        "gpu.binary");
  return module;
}

void *mgpuModuleLoadJIT(void *data, int32_t optLevel) {
  void *module = nullptr;
  const char *ptx = static_cast<const char *>(data);
  check(getRuntime().loadModule(data, ptx ? std::strlen(ptx) + 1 : 0,
                                kDeviceObjectAssembly, optLevel, module,
                                "gpu.binary"),
        "gpu.binary");
  return module;
}

void mgpuModuleUnload(void *module) {
  check(getRuntime().unloadModule(module, "gpu.binary"), "gpu.binary");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  void *function = nullptr;
  check(getRuntime().getFunction(module, name, function, "gpu.launch_func"),
        "gpu.launch_func");
  noteRecordedFunction(function, name);
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **, size_t) {
  GpuLaunch launch{{1, 1, 1},
                   {gridX, gridY, gridZ},
                   {blockX, blockY, blockZ},
                   sharedMemoryBytes};
  RecordedOp record("gpu.launch_func", "gpu.launch_func", RecordKind::Launch,
                    stream);
  record.setLaunch(getRecordedFunctionName(function).c_str(), launch.grid,
                   launch.block, sharedMemoryBytes);
  check(
      getRuntime().launch(function, launch, stream, params, "gpu.launch_func"),
      "gpu.launch_func");
}

void *mgpuStreamCreate(void) { return mgpuStreamCreateAt("gpu.wait"); }

void mgpuStreamDestroy(void *stream) {
  mgpuStreamDestroyAt(stream, "gpu.wait");
}

void mgpuStreamSynchronize(void *stream) {
  mgpuStreamSynchronizeAt(stream, "gpu.wait");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  noteRecordedStreamWait(stream, event);
  check(getRuntime().streamWaitEvent(stream, event, "gpu.wait"), "gpu.wait");
}

void *mgpuEventCreate(void) {
  void *event = nullptr;
  check(getRuntime().createEvent(event, "gpu.wait"), "gpu.wait");
  return event;
}

void mgpuEventDestroy(void *event) {
  check(getRuntime().destroyEvent(event, "gpu.wait"), "gpu.wait");
}

void mgpuEventSynchronize(void *event) {
  RecordedOp record("gpu.wait", "gpu.wait", RecordKind::HostWait);
  record.setWaitsFor(event);
  check(getRuntime().synchronizeEvent(event, "gpu.wait"), "gpu.wait");
}

void mgpuEventRecord(void *event, void *stream) {
  check(getRuntime().recordEvent(event, stream, "gpu.wait"), "gpu.wait");
  noteRecordedEvent(event, stream);
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  return mgpuMemAllocAt(sizeBytes, stream, isHostShared, "gpu.alloc");
}

void mgpuMemFree(void *ptr, void *stream) {
  mgpuMemFreeAt(ptr, stream, "gpu.dealloc");
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  mgpuMemcpyAt(dst, src, sizeBytes, stream, "gpu.memcpy");
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  mgpuMemset16At(dst, value, count, stream, "gpu.memset");
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  mgpuMemset32At(dst, value, count, stream, "gpu.memset");
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  check(getRuntime().hostRegister(ptr, sizeBytes, "gpu.host_register"),
        "gpu.host_register");
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  mgpuMemHostRegisterMemRefAt(rank, descriptor, elementSizeBytes,
                              "gpu.host_register");
}

void mgpuMemHostUnregister(void *ptr) {
  check(getRuntime().hostUnregister(ptr, "gpu.host_unregister"),
        "gpu.host_unregister");
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  mgpuMemHostUnregisterMemRefAt(rank, descriptor, elementSizeBytes,
                                "gpu.host_unregister");
}

void mgpuSetDefaultDevice(int32_t device) {
  mgpuSetDefaultDeviceAt(device, "gpu.set_default_device");
}

//===----------------------------------------------------------------------===//
// gpu-runner's own functions.
//===----------------------------------------------------------------------===//

void *mgpuStreamCreateAt(const char *loc) {
  void *stream = nullptr;
  check(getRuntime().createStream(stream, loc), loc);
  noteRecordedStream(stream);
  return stream;
}

void mgpuStreamDestroyAt(void *stream, const char *loc) {
  check(getRuntime().destroyStream(stream, loc), loc);
}

void mgpuStreamSynchronizeAt(void *stream, const char *loc) {
  RecordedOp record("gpu.wait", loc, RecordKind::HostWait);
  record.setWaitsFor(stream);
  check(getRuntime().synchronizeStream(stream, loc), loc);
}

void mgpuStreamJoinAt(void *stream, void *dependency, const char *loc) {
  noteRecordedStreamWait(stream, dependency);
  check(getRuntime().joinStream(stream, dependency, loc), loc);
}

void *mgpuStreamRecordEventAt(void *stream, const char *loc) {
  void *event = nullptr;
  check(getRuntime().recordEventOnStream(stream, event, loc), loc);
  noteRecordedEvent(event, stream);
  return event;
}

void *mgpuStreamFromTokenAt(void *token, const char *loc) {
  void *stream = nullptr;
  check(getRuntime().streamFromToken(token, stream, loc), loc);
  return stream;
}

void *mgpuMemAllocAt(uint64_t sizeBytes, void *stream, bool isHostShared,
                     const char *loc) {
  void *result = nullptr;
  RecordedOp record("gpu.alloc", loc, RecordKind::Allocation);
  record.setBytes(sizeBytes);
  check(getRuntime().allocate(sizeBytes, stream, isHostShared, loc, result),
        loc);
  noteRecordedAllocation(result, sizeBytes);
  return result;
}

void mgpuMemFreeAt(void *ptr, void *stream, const char *loc) {
  RecordedOp record("gpu.dealloc", loc, RecordKind::Free);
  check(getRuntime().free(ptr, stream, loc), loc);
  noteRecordedFree(ptr);
}

void mgpuMemcpyAt(void *dst, void *src, uint64_t sizeBytes, void *stream,
                  const char *loc) {
  RecordedOp record("gpu.memcpy", loc, RecordKind::Copy, stream);
  record.setCopy(dst, src, sizeBytes);
  check(getRuntime().memcpy(dst, src, sizeBytes, stream, loc), loc);
}

void mgpuMemcpyStridedAt(int64_t rank, void *dstDescriptor, void *srcDescriptor,
                         int64_t elementSizeBytes, void *stream,
                         const char *loc) {
  // The descriptors are the program's memory, read here.
  RunningOpScope running(loc);
  RecordedOp record("gpu.memcpy", loc, RecordKind::Copy, stream);
  recordStridedCopy(record, rank, dstDescriptor, srcDescriptor,
                    elementSizeBytes);
  check(getRuntime().memcpyStrided(rank, dstDescriptor, srcDescriptor,
                                   elementSizeBytes, stream, loc),
        loc);
}

void mgpuMemset8At(void *dst, uint8_t value, uint64_t count, void *stream,
                   const char *loc) {
  RecordedOp record("gpu.memset", loc, RecordKind::Memset, stream);
  record.setBytes(count * 1);
  check(getRuntime().memset(dst, value, 1, count, stream, loc), loc);
}

void mgpuMemset16At(void *dst, uint16_t value, uint64_t count, void *stream,
                    const char *loc) {
  RecordedOp record("gpu.memset", loc, RecordKind::Memset, stream);
  record.setBytes(count * 2);
  check(getRuntime().memset(dst, value, 2, count, stream, loc), loc);
}

void mgpuMemset32At(void *dst, uint32_t value, uint64_t count, void *stream,
                    const char *loc) {
  RecordedOp record("gpu.memset", loc, RecordKind::Memset, stream);
  record.setBytes(count * 4);
  check(getRuntime().memset(dst, value, 4, count, stream, loc), loc);
}

void mgpuMemset64At(void *dst, uint64_t value, uint64_t count, void *stream,
                    const char *loc) {
  RecordedOp record("gpu.memset", loc, RecordKind::Memset, stream);
  record.setBytes(count * 8);
  check(getRuntime().memset(dst, value, 8, count, stream, loc), loc);
}

void mgpuMemsetStridedAt(int64_t rank, void *descriptor,
                         int64_t elementSizeBytes, uint64_t value, void *stream,
                         const char *loc) {
  RunningOpScope running(loc);
  RecordedOp record("gpu.memset", loc, RecordKind::Memset, stream);
  record.setBytes(countMemRefBytes(rank, descriptor, elementSizeBytes));
  check(getRuntime().memsetStrided(rank, descriptor, elementSizeBytes, value,
                                   stream, loc),
        loc);
}

void mgpuMemHostRegisterMemRefAt(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes, const char *loc) {
  RunningOpScope running(loc);
  check(
      getRuntime().hostRegisterMemRef(rank, descriptor, elementSizeBytes, loc),
      loc);
}

void mgpuMemHostUnregisterMemRefAt(int64_t rank, void *descriptor,
                                   int64_t elementSizeBytes, const char *loc) {
  RunningOpScope running(loc);
  check(getRuntime().hostUnregisterMemRef(rank, descriptor, elementSizeBytes,
                                          loc),
        loc);
}

void mgpuSetDefaultDeviceAt(int32_t device, const char *loc) {
  check(getRuntime().setDefaultDevice(device, loc), loc);
}

uint64_t mgpuConvertFloat(int32_t fromSemantics, int32_t toSemantics,
                          int32_t roundingMode, uint64_t bits) {
  // The lowering passes values its own LLVM defines; anything else is a
  // program's own call with wrong arguments.
  auto isSemantics = [](int32_t value) {
    return value >= 0 && value <= llvm::APFloatBase::S_MaxSemantics;
  };
  if (!isSemantics(fromSemantics) || !isSemantics(toSemantics) ||
      roundingMode < 0 ||
      roundingMode >
          static_cast<int32_t>(llvm::RoundingMode::NearestTiesToAway))
    reportFatalError("mgpuConvertFloat",
                     "no such float semantics or rounding mode");
  const llvm::fltSemantics &from = llvm::APFloatBase::EnumToSemantics(
      static_cast<llvm::APFloatBase::Semantics>(fromSemantics));
  const llvm::fltSemantics &to = llvm::APFloatBase::EnumToSemantics(
      static_cast<llvm::APFloatBase::Semantics>(toSemantics));
  llvm::APFloat value(from,
                      llvm::APInt(llvm::APFloatBase::getSizeInBits(from), bits,
                                  /*isSigned=*/false, /*implicitTrunc=*/true));
  bool losesInfo = false;
  value.convert(to, static_cast<llvm::RoundingMode>(roundingMode), &losesInfo);
  return value.bitcastToAPInt().getZExtValue();
}

void *mgpuMemGetDevicePointerAt(void *hostPtr, const char *loc) {
  void *device = nullptr;
  check(getRuntime().getDevicePointer(hostPtr, device, loc), loc);
  return device;
}

void mgpuAllocSizeErrorAt(int64_t rank, const int64_t *sizes,
                          int64_t elementSizeBytes, const char *loc) {
  reportFatalError(loc, describeBadAllocation(rank, sizes, elementSizeBytes));
}

void mgpuAssertFailedAt(const char *message, const char *loc) {
  reportFatalError(loc, message);
}

void mgpuMemrefDeallocAt(void *ptr, const char *loc) {
  freeProgramMemory(ptr, loc);
}

//===----------------------------------------------------------------------===//
// Timers. Programs call the plain forms, which the lowering turns into the
// `At` forms with the call's location; a program lowered elsewhere calls the
// plain forms, whose errors name only the function.
//===----------------------------------------------------------------------===//

void *mgpuTimerCreateAt(const char *loc) {
  void *timer = nullptr;
  check(getRuntime().createTimer(timer, loc), loc);
  return timer;
}

void *mgpuTimerCreate(void) { return mgpuTimerCreateAt("mgpuTimerCreate"); }

void mgpuTimerDestroyAt(void *timer, const char *loc) {
  check(getRuntime().destroyTimer(timer, loc), loc);
}

void mgpuTimerDestroy(void *timer) {
  mgpuTimerDestroyAt(timer, "mgpuTimerDestroy");
}

void mgpuTimerStartAt(void *timer, void *stream, const char *loc) {
  check(getRuntime().startTimer(timer, stream, loc), loc);
}

void mgpuTimerStart(void *timer, void *stream) {
  mgpuTimerStartAt(timer, stream, "mgpuTimerStart");
}

void mgpuTimerStopAt(void *timer, void *stream, const char *loc) {
  check(getRuntime().stopTimer(timer, stream, loc), loc);
}

void mgpuTimerStop(void *timer, void *stream) {
  mgpuTimerStopAt(timer, stream, "mgpuTimerStop");
}

int64_t mgpuTimerElapsedNsAt(void *timer, const char *loc) {
  int64_t nanoseconds = 0;
  check(getRuntime().getTimerElapsedNs(timer, nanoseconds, loc), loc);
  return nanoseconds;
}

int64_t mgpuTimerElapsedNs(void *timer) {
  return mgpuTimerElapsedNsAt(timer, "mgpuTimerElapsedNs");
}

} // extern "C"
