//===- DumpGpuBinaries.cpp - Write each gpu.binary's object to a file -----===//

#include "lowering/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace gpu_runner {
#define GEN_PASS_DEF_DUMPGPUBINARIES
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// The file extension of an object in `format` for `target`.
StringRef getExtension(gpu::CompilationTarget format, Attribute target) {
  bool amd = isa<ROCDL::ROCDLTargetAttr>(target);
  switch (format) {
  case gpu::CompilationTarget::Offload:
    return "ll";
  case gpu::CompilationTarget::Assembly:
    return amd ? "s" : "ptx";
  case gpu::CompilationTarget::Binary:
    return amd ? "hsaco" : "cubin";
  case gpu::CompilationTarget::Fatbin:
    return amd ? "hsaco" : "fatbin";
  }
  llvm_unreachable("unknown compilation target");
}

class DumpGpuBinariesPass
    : public impl::DumpGpuBinariesBase<DumpGpuBinariesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    for (auto binary : getOperation().getOps<gpu::BinaryOp>()) {
      if (std::error_code error =
              llvm::sys::fs::create_directories(directory)) {
        binary.emitError() << "cannot create the folder '" << directory
                           << "' for --dump-gpu-binary: " << error.message();
        return signalPassFailure();
      }
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        SmallString<256> path(directory);
        llvm::sys::path::append(
            path, binary.getName() + "." +
                      getExtension(object.getFormat(), object.getTarget()));
        std::error_code error;
        llvm::ToolOutputFile file(path, error, llvm::sys::fs::OF_None);
        if (error) {
          binary.emitError()
              << "cannot write '" << path << "': " << error.message();
          return signalPassFailure();
        }
        file.os() << object.getObject().getValue();
        file.keep();
      }
    }
  }
};

} // namespace
} // namespace gpu_runner
