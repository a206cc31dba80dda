//===- KernelTestSupport.h - Kernels from IR, for the CUDA stand-in -------===//
//
// What the tests of kernels run on the CUDA stand-in share: NVVM IR read
// from unittests/standin/Inputs (text, turned into bitcode as the NVVM target
// would hand it over) or built by the tests' CMake (bitcode), a PTX image
// whose .entry lists match the IR's kernels, and the stand-in's own entry
// point, found in the CUDA stand-in library as the GPU runtime finds it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_UNITTESTS_STANDIN_KERNELTESTSUPPORT_H
#define GPU_RUNNER_UNITTESTS_STANDIN_KERNELTESTSUPPORT_H

#include "standin/StandinKernels.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>
#include <cuda.h>

#include <dlfcn.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gpu_runner {
namespace test {

/// A file of unittests/standin/Inputs, or of the folder the build makes
/// test IR in.
inline std::string inputPath(const std::string &name) {
  return std::string(GPU_RUNNER_STANDIN_TEST_INPUTS) + "/" + name;
}
inline std::string builtPath(const std::string &name) {
  return std::string(GPU_RUNNER_STANDIN_TEST_BUILT) + "/" + name;
}

/// cuInit, and device 0's primary context current on this thread.
inline void initializeCuda() {
  static CUcontext context = [] {
    REQUIRE(cuInit(0) == CUDA_SUCCESS);
    CUcontext made = nullptr;
    REQUIRE(cuDevicePrimaryCtxRetain(&made, 0) == CUDA_SUCCESS);
    std::atexit([] { cuDevicePrimaryCtxRelease(0); });
    return made;
  }();
  REQUIRE(cuCtxSetCurrent(context) == CUDA_SUCCESS);
}

/// gpuRunnerStandinModuleAttachIR of the CUDA stand-in: looked up in the
/// library that defines cuInit, as the GPU runtime looks it up.
inline GpuRunnerStandinModuleAttachIRFn getAttachIR() {
  static GpuRunnerStandinModuleAttachIRFn function = [] {
    Dl_info info;
    REQUIRE(dladdr(reinterpret_cast<void *>(&cuInit), &info) != 0);
    void *library = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    REQUIRE(library);
    auto *found = reinterpret_cast<GpuRunnerStandinModuleAttachIRFn>(
        dlsym(library, GPU_RUNNER_STANDIN_MODULE_ATTACH_IR));
    REQUIRE(found);
    return found;
  }();
  return function;
}

/// NVVM IR, parsed from text or bitcode.
struct KernelIR {
  std::unique_ptr<llvm::LLVMContext> context =
      std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;

  KernelIR() = default;
  explicit KernelIR(const std::string &path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    REQUIRE(buffer);
    llvm::StringRef text = (*buffer)->getBuffer();
    if (text.starts_with("BC")) {
      auto parsed =
          llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), *context);
      REQUIRE(static_cast<bool>(parsed));
      module = std::move(*parsed);
    } else {
      llvm::SMDiagnostic error;
      module =
          llvm::parseAssembly((*buffer)->getMemBufferRef(), error, *context);
      if (!module) {
        std::string message;
        llvm::raw_string_ostream stream(message);
        error.print(path.c_str(), stream);
        FAIL(message);
      }
    }
  }

  std::string bitcode() const {
    std::string bytes;
    llvm::raw_string_ostream stream(bytes);
    llvm::WriteBitcodeToFile(*module, stream);
    stream.flush();
    return bytes;
  }

  /// PTX whose .entry lists are the IR kernels', as the NVPTX back end
  /// would declare them.
  std::string ptx() const {
    std::string text = ".version 8.0\n.target sm_90\n.address_size 64\n";
    const llvm::DataLayout &layout = module->getDataLayout();
    for (const llvm::Function &function : *module) {
      if (function.getCallingConv() != llvm::CallingConv::PTX_Kernel ||
          function.isDeclaration())
        continue;
      std::string name = function.getName().str();
      text += ".visible .entry " + name + "(\n";
      for (const llvm::Argument &argument : function.args()) {
        std::string param =
            name + "_param_" + std::to_string(argument.getArgNo());
        llvm::Type *type = argument.getType();
        std::string line;
        if (llvm::Type *byval = argument.getParamByValType())
          line = ".param .align 8 .b8 " + param + "[" +
                 std::to_string(layout.getTypeAllocSize(byval)) + "]";
        else if (type->isPointerTy())
          line = ".param .u64 " + param;
        else
          line = ".param .b" +
                 std::to_string(layout.getTypeAllocSizeInBits(type)) + " " +
                 param;
        text += "\t" + line +
                (argument.getArgNo() + 1 < function.arg_size() ? ",\n" : "\n");
      }
      text += ")\n{ ret; }\n";
    }
    return text;
  }
};

/// Loads `ptx` and gives the stand-in `bitcode`: the code and `log`.
inline int loadWithIR(const std::string &ptx, const std::string &bitcode,
                      CUmodule &module, std::string &log) {
  initializeCuda();
  REQUIRE(cuModuleLoadData(&module, ptx.c_str()) == CUDA_SUCCESS);
  char buffer[4096] = {};
  int code = getAttachIR()(module, bitcode.data(), bitcode.size(), buffer,
                           sizeof(buffer));
  log = buffer;
  return code;
}

/// The kernels of an input file, loaded with their IR.
inline CUmodule loadKernels(const std::string &path) {
  KernelIR ir(path);
  CUmodule module = nullptr;
  std::string log;
  int code = loadWithIR(ir.ptx(), ir.bitcode(), module, log);
  INFO(log);
  REQUIRE(code == CUDA_SUCCESS);
  return module;
}

inline CUfunction getKernel(CUmodule module, const char *name) {
  CUfunction function = nullptr;
  REQUIRE(cuModuleGetFunction(&function, module, name) == CUDA_SUCCESS);
  return function;
}

template <typename T> CUdeviceptr toDevice(const std::vector<T> &values) {
  CUdeviceptr pointer = 0;
  REQUIRE(
      cuMemAlloc(&pointer, std::max<size_t>(1, values.size() * sizeof(T))) ==
      CUDA_SUCCESS);
  if (!values.empty())
    REQUIRE(cuMemcpy(pointer, reinterpret_cast<CUdeviceptr>(values.data()),
                     values.size() * sizeof(T)) == CUDA_SUCCESS);
  return pointer;
}

template <typename T>
std::vector<T> fromDevice(CUdeviceptr pointer, size_t count) {
  std::vector<T> values(count);
  REQUIRE(cuMemcpy(reinterpret_cast<CUdeviceptr>(values.data()), pointer,
                   count * sizeof(T)) == CUDA_SUCCESS);
  return values;
}

} // namespace test
} // namespace gpu_runner

#endif // GPU_RUNNER_UNITTESTS_STANDIN_KERNELTESTSUPPORT_H
