//===- ModuleToBinaryWithIR.cpp - gpu.modules to binaries, with their IR -===//
//
// Upstream's gpu-module-to-binary serializes each gpu.module for its target
// and replaces it with a gpu.binary; this pass does the same, module by
// module, with an optimizedLlvmIRCallback of the module's own that writes the
// IR it sees as bitcode, then keeps it on the binary (kKernelIRAttrName).
// The object is what upstream's pass makes: the same TargetOptions but the
// callback, which only reads the module; for ROCDL, but for the device
// libraries' hostcall, whose parameters the optimizer keeps so that a
// stand-in can serve its calls (RocdlSerializer).
//
//===----------------------------------------------------------------------===//

#include "lowering/device/ModuleToBinaryWithIR.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Target/LLVM/ROCDL/Utils.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>

using namespace mlir;

namespace gpu_runner {
namespace {

/// Keeps the errors that LLVM reports while it compiles a module: without
/// a handler, LLVMContext prints one and calls exit(1) from the compiling
/// thread, with no location and while other threads still run.
class KeepErrors : public llvm::DiagnosticHandler {
public:
  explicit KeepErrors(std::string &errors) : errors(errors) {}

  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    // Warnings and remarks (such as linking the device libraries, whose data
    // layout is an older one) are not the user's to act on.
    if (info.getSeverity() != llvm::DS_Error)
      return true;
    if (!errors.empty())
      errors += "; ";
    std::string message;
    llvm::raw_string_ostream os(message);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    // The code generator's diagnostics have no source location to give.
    StringRef text(message);
    text.consume_front("<unknown>:0:0: ");
    errors += text;
    return true;
  }

private:
  std::string &errors;
};

/// Upstream's ROCDL serialization (AMDGPUSerializer, which
/// ROCDLTargetAttr's serializeToObject runs: the same steps, libraries and
/// object), which passes none of the TargetOptions' callbacks on to
/// ModuleToObject: this one passes the optimized-IR callback on, and gives
/// the module's LLVMContext a handler that keeps its errors.
class RocdlSerializer : public ROCDL::SerializeGPUModuleBase {
public:
  RocdlSerializer(gpu::GPUModuleOp module, ROCDL::ROCDLTargetAttr target,
                  const gpu::TargetOptions &options, bool keepIR,
                  std::string &errors)
      : SerializeGPUModuleBase(*module, target, options), options(options),
        keepIR(keepIR), errors(errors) {
    optimizedLlvmIRCallback = options.getOptimizedLlvmIRCallback();
  }

  void handleModulePreLink(llvm::Module &llvmModule) override {
    llvmModule.getContext().setDiagnosticHandler(
        std::make_unique<KeepErrors>(errors));
    SerializeGPUModuleBase::handleModulePreLink(llvmModule);
  }

  void handleModulePostLink(llvm::Module &llvmModule) override {
    SerializeGPUModuleBase::handleModulePostLink(llvmModule);
    // The device libraries' hostcall, which HIP's printf and assert send
    // through, keeps the parameters ockl gives it (buffer, service, eight
    // words): the optimizer would drop those every call passes alike, and
    // a runtime stand-in, which serves the call from the kept IR, could no
    // longer read them. On a GPU the cost is a few arguments passed.
    if (!keepIR)
      return;
    if (llvm::Function *hostcall =
            llvmModule.getFunction("__ockl_hostcall_internal");
        hostcall && !hostcall->isDeclaration())
      llvm::appendToCompilerUsed(llvmModule, {hostcall});
  }

  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override {
    return moduleToObjectImpl(options, llvmModule);
  }

private:
  const gpu::TargetOptions &options;
  bool keepIR;
  std::string &errors;
};

/// Replaces `module` with a gpu.binary of an object per target, the binary
/// keeping the module's final LLVM IR when it has one target.
LogicalResult serializeModule(gpu::GPUModuleOp module,
                              const ModuleToBinaryWithIROptions &options,
                              gpu::CompilationTarget format,
                              function_ref<SymbolTable *()> getSymbolTable) {
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets || targets.empty())
    return module.emitError()
           << "gpu.module @" << module.getName()
           << " has no target to compile it for (gpu-runner attaches one)";
  SmallVector<Attribute> objects;
  std::string bitcode;
  for (Attribute attr : targets) {
    auto target = dyn_cast<gpu::TargetAttrInterface>(attr);
    if (!target)
      return module.emitError()
             << "gpu.module @" << module.getName() << "'s target " << attr
             << " is not a GPU target attribute";
    bitcode.clear();
    auto keepIR = [&](llvm::Module &llvmModule) {
      if (!options.keepKernelIR)
        return;
      llvm::raw_string_ostream os(bitcode);
      llvm::WriteBitcodeToFile(llvmModule, os);
    };
    // The context is the target's own, made for this module: its handler
    // lives as long as it does.
    std::string errors;
    auto handleErrors = [&](llvm::Module &llvmModule) {
      llvmModule.getContext().setDiagnosticHandler(
          std::make_unique<KeepErrors>(errors));
    };
    gpu::TargetOptions targetOptions(options.toolkitPath,
                                     /*librariesToLink=*/{}, /*cmdOptions=*/{},
                                     /*elfSection=*/{}, format, getSymbolTable,
                                     /*initialLlvmIRCallback=*/handleErrors,
                                     /*linkedLlvmIRCallback=*/{},
                                     /*optimizedLlvmIRCallback=*/keepIR);
    std::optional<SmallVector<char, 0>> serialized;
    if (auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(attr)) {
      ROCDL::SerializeGPUModuleBase::init();
      serialized = RocdlSerializer(module, rocdl, targetOptions,
                                   options.keepKernelIR, errors)
                       .run();
    } else {
      serialized = target.serializeToObject(module, targetOptions);
    }
    if (!errors.empty())
      return module.emitError()
             << "cannot compile gpu.module @" << module.getName() << " for "
             << attr << ": " << errors;
    if (!serialized)
      return module.emitError("An error happened while serializing the "
                              "module.");
    Attribute object = target.createObject(module, *serialized, targetOptions);
    if (!object)
      return module.emitError("An error happened while creating the object.");
    objects.push_back(object);
  }
  OpBuilder builder(module);
  auto binary = gpu::BinaryOp::create(
      builder, module.getLoc(), module.getName(),
      module.getOffloadingHandlerAttr(), builder.getArrayAttr(objects));
  // One IR per binary: the runtime loads binaries of one object.
  if (objects.size() == 1 && !bitcode.empty())
    binary->setAttr(kKernelIRAttrName, builder.getStringAttr(bitcode));
  module.erase();
  return success();
}

class ModuleToBinaryWithIRPass
    : public PassWrapper<ModuleToBinaryWithIRPass, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ModuleToBinaryWithIRPass)

  ModuleToBinaryWithIRPass() = default;
  ModuleToBinaryWithIRPass(const ModuleToBinaryWithIRPass &other)
      : PassWrapper(other) {}
  explicit ModuleToBinaryWithIRPass(
      const ModuleToBinaryWithIROptions &options) {
    toolkitPath = options.toolkitPath;
    compilationTarget = options.compilationTarget;
    keepKernelIR = options.keepKernelIR;
  }

  StringRef getName() const override { return "ModuleToBinaryWithIR"; }
  StringRef getArgument() const final { return "gpu-runner-module-to-binary"; }
  StringRef getDescription() const final {
    return "gpu-module-to-binary that also keeps each module's final LLVM IR, "
           "as bitcode, on its gpu.binary";
  }

  void runOnOperation() override {
    auto format =
        llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(
            compilationTarget)
            .Cases({"assembly", "isa"}, gpu::CompilationTarget::Assembly)
            .Cases({"binary", "bin"}, gpu::CompilationTarget::Binary)
            .Cases({"fatbinary", "fatbin"}, gpu::CompilationTarget::Fatbin)
            .Default(std::nullopt);
    if (!format) {
      getOperation()->emitError()
          << "gpu-runner-module-to-binary: unknown format '"
          << compilationTarget << "'; expected isa, bin or fatbin";
      return signalPassFailure();
    }
    // Built on first use, as upstream's pass does.
    std::optional<SymbolTable> parentTable;
    auto getSymbolTable = [&]() -> SymbolTable * {
      if (!parentTable) {
        Operation *table = SymbolTable::getNearestSymbolTable(getOperation());
        if (!table)
          return nullptr;
        parentTable.emplace(table);
      }
      return &*parentTable;
    };
    ModuleToBinaryWithIROptions options{toolkitPath, compilationTarget,
                                        keepKernelIR};
    SmallVector<gpu::GPUModuleOp> modules;
    for (Region &region : getOperation()->getRegions())
      for (Block &block : region)
        llvm::append_range(modules, block.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp module : modules)
      if (failed(serializeModule(module, options, *format, getSymbolTable)))
        return signalPassFailure();
  }

  Option<std::string> toolkitPath{*this, "toolkit",
                                  llvm::cl::desc("The toolkit's path")};
  Option<std::string> compilationTarget{*this, "format",
                                        llvm::cl::desc("isa, bin or fatbin"),
                                        llvm::cl::init("fatbin")};
  Option<bool> keepKernelIR{
      *this, "keep-ir",
      llvm::cl::desc("Keep each module's final LLVM IR on its binary"),
      llvm::cl::init(true)};
};

} // namespace

std::unique_ptr<Pass>
createModuleToBinaryWithIR(const ModuleToBinaryWithIROptions &options) {
  return std::make_unique<ModuleToBinaryWithIRPass>(options);
}

void registerModuleToBinaryWithIR() {
  PassRegistration<ModuleToBinaryWithIRPass>();
}

} // namespace gpu_runner
