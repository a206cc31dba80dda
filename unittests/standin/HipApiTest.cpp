//===- HipApiTest.cpp - The HIP stand-in's rules, call by call ------------===//
//
// What the HIP runtime API documents differently from CUDA's driver API:
// its codes, its zero-size allocations, its copy kinds and pitches. The
// semantics both share (streams, events, memory) are CudaApiTest.cpp's.
//
//===----------------------------------------------------------------------===//

#include "standin/StandinKernels.h"
#include "unittests/standin/CodeObjectTestSupport.h"
#include "unittests/standin/StandinTestSupport.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <hip/hip_runtime_api.h>

#include <dlfcn.h>

#include <cstring>
#include <thread>
#include <vector>

using namespace gpu_runner::test;

namespace {

void *allocate(size_t bytes) {
  void *pointer = nullptr;
  REQUIRE(hipMalloc(&pointer, bytes) == hipSuccess);
  return pointer;
}

/// gpuRunnerStandinModuleAttachIR of the HIP stand-in: looked up in the
/// library that defines hipInit, as the GPU runtime looks it up.
GpuRunnerStandinModuleAttachIRFn getAttachIR() {
  Dl_info info;
  REQUIRE(dladdr(reinterpret_cast<void *>(&hipInit), &info) != 0);
  void *library = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library);
  auto attach = reinterpret_cast<GpuRunnerStandinModuleAttachIRFn>(
      dlsym(library, GPU_RUNNER_STANDIN_MODULE_ATTACH_IR));
  REQUIRE(attach);
  return attach;
}

/// The bitcode of AMDGPU IR text, as the ROCDL target hands it over.
std::string getBitcode(const std::string &text) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(text, error, context);
  REQUIRE(module);
  std::string bytes;
  llvm::raw_string_ostream stream(bytes);
  llvm::WriteBitcodeToFile(*module, stream);
  stream.flush();
  return bytes;
}

} // namespace

TEST_CASE("HIP's errors have names and descriptions", "[standin][hip]") {
  CHECK(std::string(hipGetErrorName(hipErrorInvalidValue)) ==
        "hipErrorInvalidValue");
  // Two names share 400: the first the header gives is the one returned.
  CHECK(std::string(hipGetErrorName(hipErrorInvalidResourceHandle)) ==
        "hipErrorInvalidHandle");
  CHECK(std::string(hipGetErrorString(hipErrorOutOfMemory)) == "out of memory");
  CHECK(std::string(hipGetErrorString(hipErrorPeerAccessUnsupported)) ==
        "peer access unsupported");
  CHECK(std::string(hipGetErrorString(hipErrorECCNotCorrectable)) ==
        "ecc not correctable");
  CHECK(std::string(hipGetErrorName(static_cast<hipError_t>(123456))) ==
        "hipErrorUnknown");
}

TEST_CASE("HIP starts itself, on device 0 in each thread", "[standin][hip]") {
  // hip_runtime_api.h, hipInit: "Most HIP APIs implicitly initialize the HIP
  // runtime"; "The default device is stored in thread-local-storage for
  // each thread."
  std::thread([] {
    int device = -1;
    CHECK(hipGetDevice(&device) == hipSuccess);
    CHECK(device == 0);
    void *pointer = allocate(16);
    CHECK(hipFree(pointer) == hipSuccess);
    CHECK(hipSetDevice(2) == hipErrorInvalidDevice);
    CHECK(hipSetDevice(1) == hipSuccess);
    CHECK(hipGetDevice(&device) == hipSuccess);
    CHECK(device == 1);
  }).join();
  CHECK(hipInit(1) == hipErrorInvalidValue);
  CHECK(hipInit(0) == hipSuccess);
}

TEST_CASE("HIP allocations of zero bytes, and frees of bad pointers",
          "[standin][hip]") {
  // hipMalloc: "If size is 0, no memory is allocated, *ptr returns nullptr,
  // and hipSuccess is returned."
  void *pointer = &pointer;
  CHECK(hipMalloc(&pointer, 0) == hipSuccess);
  CHECK(pointer == nullptr);
  CHECK(hipMallocManaged(&pointer, 0, hipMemAttachGlobal) ==
        hipErrorInvalidValue);
  CHECK(hipMallocManaged(&pointer, 16, 0) == hipErrorInvalidValue);
  // hipFree: "If pointer is NULL, the hip runtime is initialized and
  // hipSuccess is returned"; an invalid one is hipErrorInvalidDevicePointer.
  CHECK(hipFree(nullptr) == hipSuccess);
  int host = 0;
  CHECK(hipFree(&host) == hipErrorInvalidDevicePointer);
  void *memory = allocate(64);
  CHECK(hipFree(memory) == hipSuccess);
  CHECK(hipFree(memory) == hipErrorInvalidDevicePointer);
}

TEST_CASE("HIP copies match their kind, and pitches their widths",
          "[standin][hip]") {
  char *device = static_cast<char *>(allocate(64));
  std::vector<char> host(64, 3), back(64, 0);
  // hipMemcpy: "Calling hipMemcpy with dst and src pointers that do not
  // match the hipMemcpyKind results in undefined behavior": refused here.
  CHECK(hipMemcpyAsync(device, host.data(), 64, hipMemcpyDeviceToHost,
                       nullptr) == hipErrorInvalidMemcpyDirection);
  CHECK(hipMemcpyAsync(device, host.data(), 64, static_cast<hipMemcpyKind>(9),
                       nullptr) == hipErrorInvalidMemcpyDirection);
  REQUIRE(hipMemcpyAsync(device, host.data(), 64, hipMemcpyHostToDevice,
                         nullptr) == hipSuccess);
  // As cudaMemcpy2D: "width must not exceed either dpitch or spitch".
  CHECK(hipMemcpy2DAsync(back.data(), 16, device, 8, 12, 2, hipMemcpyDefault,
                         nullptr) == hipErrorInvalidPitchValue);
  REQUIRE(hipMemcpy2DAsync(back.data(), 16, device, 12, 12, 2,
                           hipMemcpyDeviceToHost, nullptr) == hipSuccess);
  REQUIRE(hipStreamSynchronize(nullptr) == hipSuccess);
  CHECK(back[0] == 3);
  CHECK(back[11] == 3);
  CHECK(back[12] == 0);
  CHECK(back[16] == 3);

  // 3-D: pointers only; the region within each pitched pointer's width.
  hipMemcpy3DParms params;
  std::memset(&params, 0, sizeof(params));
  params.srcPtr = make_hipPitchedPtr(device, 8, 8, 4);
  params.dstPtr = make_hipPitchedPtr(back.data(), 4, 4, 2);
  params.srcPos = make_hipPos(2, 1, 0);
  params.extent = make_hipExtent(4, 2, 2);
  params.kind = hipMemcpyDefault;
  REQUIRE(hipMemcpy3DAsync(&params, nullptr) == hipSuccess);
  hipMemcpy3DParms bad = params;
  bad.srcArray = reinterpret_cast<hipArray_t>(&bad);
  CHECK(hipMemcpy3DAsync(&bad, nullptr) == hipErrorInvalidValue);
  bad = params;
  bad.srcPos.x = 6;
  CHECK(hipMemcpy3DAsync(&bad, nullptr) == hipErrorInvalidValue);
  REQUIRE(hipStreamSynchronize(nullptr) == hipSuccess);
  REQUIRE(hipFree(device) == hipSuccess);
}

TEST_CASE("HIP memsets, registration and events keep their rules",
          "[standin][hip]") {
  char *device = static_cast<char *>(allocate(64));
  CHECK(hipMemset2DAsync(device, 4, 1, 8, 2, nullptr) ==
        hipErrorInvalidPitchValue);
  REQUIRE(hipMemset2DAsync(device, 16, 1, 8, 2, nullptr) == hipSuccess);
  CHECK(hipMemsetD32Async(device + 2, 1, 2, nullptr) == hipErrorInvalidValue);

  std::vector<char> buffer(256);
  REQUIRE(hipHostRegister(buffer.data(), 256, hipHostRegisterDefault) ==
          hipSuccess);
  CHECK(hipHostRegister(buffer.data(), 256, 0) ==
        hipErrorHostMemoryAlreadyRegistered);
  CHECK(hipHostRegister(buffer.data(), 256, hipHostRegisterIoMemory) ==
        hipErrorInvalidValue);
  CHECK(hipHostUnregister(buffer.data() + 1) ==
        hipErrorHostMemoryNotRegistered);
  REQUIRE(hipHostUnregister(buffer.data()) == hipSuccess);

  hipEvent_t timed = nullptr, untimed = nullptr;
  REQUIRE(hipEventCreateWithFlags(&timed, hipEventDefault) == hipSuccess);
  REQUIRE(hipEventCreateWithFlags(&untimed, hipEventDisableTiming) ==
          hipSuccess);
  CHECK(hipEventCreateWithFlags(&untimed, hipEventInterprocess) ==
        hipErrorInvalidValue);
  float ms = 0;
  // hipEventElapsedTime: "If hipEventRecord() has not been called on either
  // event, then hipErrorInvalidHandle is returned."
  CHECK(hipEventElapsedTime(&ms, timed, untimed) == hipErrorInvalidHandle);
  REQUIRE(hipEventRecord(timed, nullptr) == hipSuccess);
  REQUIRE(hipEventRecord(untimed, nullptr) == hipSuccess);
  REQUIRE(hipEventSynchronize(untimed) == hipSuccess);
  CHECK(hipEventElapsedTime(&ms, timed, untimed) == hipErrorInvalidHandle);
  CHECK(hipEventElapsedTime(&ms, timed, timed) == hipSuccess);
  CHECK(ms == 0.0f);
  hipStream_t stream = nullptr;
  CHECK(hipStreamCreateWithFlags(&stream, 2) == hipErrorInvalidValue);
  REQUIRE(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking) ==
          hipSuccess);
  CHECK(hipStreamWaitEvent(stream, timed, 1) == hipErrorInvalidValue);
  REQUIRE(hipStreamWaitEvent(stream, timed, 0) == hipSuccess);
  REQUIRE(hipStreamDestroy(stream) == hipSuccess);
  CHECK(hipStreamDestroy(stream) == hipErrorInvalidHandle);
  REQUIRE(hipEventDestroy(timed) == hipSuccess);
  REQUIRE(hipEventDestroy(untimed) == hipSuccess);
  REQUIRE(hipDeviceSynchronize() == hipSuccess);
  REQUIRE(hipFree(device) == hipSuccess);
}

TEST_CASE("HIP modules and launches", "[standin][hip]") {
  hipModule_t module = nullptr;
  const char garbage[] = "neither a code object nor an offload bundle";
  CHECK(hipModuleLoadData(&module, garbage) == hipErrorInvalidKernelFile);
  // An offload bundle with nothing for gfx90a.
  std::string bundle = "__CLANG_OFFLOAD_BUNDLE__";
  bundle.append(8, '\0');
  CHECK(hipModuleLoadData(&module, bundle.data()) == hipErrorNoBinaryForGpu);
  // hipModuleLaunchKernel: "HIP does not support kernel launch with total
  // work items defined in dimension with size gridDim x blockDim >= 2^32."
  CHECK(hipModuleLaunchKernel(nullptr, 1u << 23, 1, 1, 1024, 1, 1, 0, nullptr,
                              nullptr,
                              nullptr) == hipErrorInvalidConfiguration);
  CHECK(hipModuleLaunchKernel(nullptr, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr,
                              nullptr) == hipErrorInvalidHandle);
}

TEST_CASE("the HIP stand-in checks the kernel IR it is given",
          "[standin][hip]") {
  // Its own entry point, found in its library as the runtime finds it.
  GpuRunnerStandinModuleAttachIRFn attach = getAttachIR();
  const char bitcode[] = "BC";
  char log[256] = {};
  // A module the stand-in never loaded.
  CHECK(attach(nullptr, bitcode, sizeof(bitcode), log, sizeof(log)) ==
        hipErrorInvalidHandle);
  // No bitcode.
  CHECK(attach(nullptr, nullptr, 0, log, sizeof(log)) == hipErrorInvalidValue);
  CHECK(std::string(log) == "the bitcode or the log cannot be read");
}

TEST_CASE("the HIP stand-in checks the kernel IR's parameters against the "
          "code object's metadata",
          "[standin][hip]") {
  using namespace gpu_runner::test;
  // The AMDGPU data layout, whose i64 is aligned to 8 bytes (LLVM's
  // default aligns it to 4).
  const std::string ir = R"(
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @scale(ptr addrspace(1) %data, i32 %n, i64 %m) {
  ret void
}
)";
  // The metadata the AMDGPU back end gives that kernel: its explicit
  // arguments, each at its own alignment, then the hidden ones.
  const std::string args = R"(      - .offset: 0
        .size: 8
        .value_kind: global_buffer
      - .offset: 8
        .size: 4
        .value_kind: by_value
      - .offset: 16
        .size: 8
        .value_kind: by_value
      - .offset: 24
        .size: 4
        .value_kind: hidden_block_count_x
)";
  auto load = [&](const std::string &withArgs, std::string &log) {
    std::string image = makeCodeObject(
        {"scale"}, codeObjectMetadata(kernelMetadata("scale", withArgs, 280)));
    hipModule_t module = nullptr;
    REQUIRE(hipModuleLoadData(&module, image.data()) == hipSuccess);
    std::string bitcode = getBitcode(ir);
    char buffer[1024] = {};
    int code = getAttachIR()(module, bitcode.data(), bitcode.size(), buffer,
                             sizeof(buffer));
    log = buffer;
    REQUIRE(hipModuleUnload(module) == hipSuccess);
    return code;
  };
  std::string log;
  int code = load(args, log);
  INFO(log);
  CHECK(code == hipSuccess);
  auto replaced = [&](const std::string &from, const std::string &to) {
    std::string changed = args;
    size_t at = changed.find(from);
    REQUIRE(at != std::string::npos);
    return changed.replace(at, from.size(), to);
  };
  CHECK(load(replaced(".size: 4", ".size: 8"), log) ==
        hipErrorInvalidKernelFile);
  CHECK(log == "parameter 1 of kernel 'scale' has 8 bytes in the image but 4 "
               "in the kernel IR");
  CHECK(load(replaced(".offset: 16", ".offset: 12"), log) ==
        hipErrorInvalidKernelFile);
  CHECK(log == "parameter 2 of kernel 'scale' is at offset 12 in the image "
               "but 16 in the kernel IR");
  CHECK(load(replaced(".value_kind: by_value\n      - .offset: 16",
                      ".value_kind: hidden_none\n      - .offset: 16"),
             log) == hipErrorInvalidKernelFile);
  CHECK(log ==
        "kernel 'scale' has 2 parameters in the image but 3 in the kernel IR");

  // Without the IR, a launch's kernelParams are checked against the
  // metadata's sizes before the stand-in refuses to run the kernel.
  std::string image = makeCodeObject(
      {"scale"}, codeObjectMetadata(kernelMetadata("scale", args, 280)));
  hipModule_t module = nullptr;
  REQUIRE(hipModuleLoadData(&module, image.data()) == hipSuccess);
  hipFunction_t function = nullptr;
  REQUIRE(hipModuleGetFunction(&function, module, "scale") == hipSuccess);
  CHECK(hipModuleLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr,
                              nullptr) == hipErrorInvalidValue);
  uint64_t data = 0, m = 0;
  uint32_t n = 0;
  void *params[] = {&data, &n, &m};
  CHECK(hipModuleLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, nullptr, params,
                              nullptr) == hipErrorNotSupported);
  REQUIRE(hipModuleUnload(module) == hipSuccess);

  // A malformed note is refused when the module is loaded.
  image = makeCodeObject({"scale"}, "\xc1");
  CHECK(hipModuleLoadData(&module, image.data()) == hipErrorInvalidKernelFile);
}
