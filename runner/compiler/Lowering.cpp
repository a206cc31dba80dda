//===- Lowering.cpp - Running the lowering pipeline, and what it must give ===//

#include "runner/compiler/CompilerSteps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace gpu_runner {

namespace {

Type getEntryResultType(MLIRContext *context, EntryResult result) {
  switch (result) {
  case EntryResult::Void:
    return LLVM::LLVMVoidType::get(context);
  case EntryResult::I32:
    return IntegerType::get(context, 32);
  case EntryResult::I64:
    return IntegerType::get(context, 64);
  case EntryResult::F32:
    return Float32Type::get(context);
  }
  llvm_unreachable("unknown entry result");
}

/// Names the pass that failed, for the rare pass that fails without saying
/// why.
class FailedPassNamer : public PassInstrumentation {
public:
  explicit FailedPassNamer(std::string &name) : name(name) {}
  void runAfterPassFailed(Pass *pass, Operation *) override {
    if (name.empty())
      name = pass->getArgument().str();
  }

private:
  std::string &name;
};

} // namespace

LogicalResult checkEntryPoint(ModuleOp module, StringRef name,
                              EntryResult result, StringRef resultFlag,
                              bool withData, StringRef missingHint) {
  Operation *symbol = module.lookupSymbol(name);
  if (!symbol)
    return emitError(getModuleLocation(module))
           << "entry point '" << name << "' not found" << missingHint;
  auto function = dyn_cast<LLVM::LLVMFuncOp>(symbol);
  if (!function)
    return symbol->emitError()
           << "entry point '" << name << "' is not a function";
  if (function.isExternal()) {
    // A declaration the lowering made (malloc, an mgpu function) has no
    // location of its own in the input.
    if (function.getLoc() == module.getLoc() ||
        isa<UnknownLoc>(function.getLoc()))
      return emitError(getModuleLocation(module))
             << "entry point '" << name
             << "' is not a function of the program (the runtime provides "
                "it); name one of the program's functions with -e";
    return function.emitError()
           << "entry point '" << name << "' is declared but not defined";
  }
  LLVM::LLVMFunctionType type = function.getFunctionType();
  if (withData && !type.isVarArg())
    return success(); // readEntrySignature checked its types.
  if (type.getNumParams() != 0 || type.isVarArg())
    return function.emitError()
           << "entry point '" << name << "' must take no arguments, but its "
           << "type is " << type;
  Type expected = getEntryResultType(module.getContext(), result);
  Type actual = type.getReturnType();
  if (actual != expected) {
    InFlightDiagnostic diag = function.emitError();
    diag << "entry point '" << name << "' returns ";
    if (isa<LLVM::LLVMVoidType>(actual))
      diag << "nothing";
    else
      diag << actual;
    return diag << ", but --entry-point-result=" << resultFlag << " was given";
  }
  return success();
}

LogicalResult checkExternalSymbols(ModuleOp module, CompileTarget &jit,
                                   const llvm::StringSet<> &provided,
                                   std::vector<std::string> &externals) {
  SmallVector<std::pair<Operation *, StringRef>> declarations;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (function.isExternal())
      declarations.push_back({function, "function"});
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getLinkage() == LLVM::Linkage::External &&
        !global.getValueOrNull() && global.getInitializerRegion().empty())
      declarations.push_back({global, "global"});
  // The symbols the program refers to, found in one walk.
  llvm::DenseSet<StringAttr> used;
  if (auto uses = SymbolTable::getSymbolUses(&module.getBodyRegion()))
    for (const SymbolTable::SymbolUse &use : *uses)
      used.insert(use.getSymbolRef().getRootReference());
  llvm::erase_if(declarations, [&](auto declaration) {
    StringAttr name = SymbolTable::getSymbolName(declaration.first);
    return name.getValue().starts_with("llvm.") || !used.contains(name) ||
           provided.contains(name.getValue());
  });
  for (auto [op, kind] : declarations)
    externals.push_back(SymbolTable::getSymbolName(op).str());

  std::vector<std::string> unresolved = jit.findUnresolvedSymbols(externals);
  for (auto [op, kind] : declarations) {
    StringRef name = SymbolTable::getSymbolName(op);
    if (!llvm::is_contained(unresolved, name))
      continue;
    op->emitError() << "unresolved external " << kind << " '" << name
                    << "': it is not defined in the program, and neither "
                       "gpu-runner's runtime, the MLIR runner utilities, the "
                       "C library nor a --shared-libs library provides it";
  }
  return success(unresolved.empty());
}

LogicalResult dropNestedModules(ModuleOp module) {
  SmallVector<ModuleOp> nested;
  for (ModuleOp inner : module.getBody()->getOps<ModuleOp>())
    nested.push_back(inner);
  bool ok = true;
  for (ModuleOp inner : nested) {
    if (inner.getBody()->empty()) {
      inner.erase();
      continue;
    }
    inner.emitError()
        << "a nested 'builtin.module' that holds ops is not run: gpu-runner "
           "runs the top-level module's functions and kernels; move what it "
           "holds to the top level (an empty nested module is dropped)";
    ok = false;
  }
  return success(ok);
}

LogicalResult checkGlobalSizes(ModuleOp module) {
  DataLayout layout(module);
  bool ok = true;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    uint64_t size = layout.getTypeSize(global.getGlobalType());
    if (size <= kMaxGlobalBytes)
      continue;
    global.emitError() << "global '" << global.getSymName() << "' is " << size
                       << " bytes (" << global.getGlobalType()
                       << "): gpu-runner compiles globals of up to "
                       << kMaxGlobalBytes << " bytes ("
                       << (kMaxGlobalBytes >> 30) << " GiB)";
    ok = false;
  }
  return success(ok);
}

LogicalResult runPipeline(ModuleOp module,
                          llvm::function_ref<void(OpPassManager &)> build,
                          bool printAfterAll, TimingScope &timing) {
  MLIRContext *context = module.getContext();
  PassManager pm(context);
  pm.enableTiming(timing);
  // Verify after every pass (the default, said here because it matters):
  // LLVM is built without assertions, so IR a pass broke must stop here
  // as a diagnostic, not crash or miscompile in a later pass.
  pm.enableVerifier(true);
  if (printAfterAll) {
    // The whole module after each step, in order.
    context->disableMultithreading();
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, llvm::errs());
  }
  std::string failedPass;
  pm.addInstrumentation(std::make_unique<FailedPassNamer>(failedPass));
  build(pm);

  // Count the errors the pipeline reports, to catch a silent failure.
  unsigned errors = 0;
  ScopedDiagnosticHandler counter(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    return failure(); // Let the source manager's handler print it.
  });
  if (succeeded(pm.run(module)))
    return success();
  if (!errors)
    emitError(getModuleLocation(module))
        << "lowering failed in the '" << failedPass
        << "' pass without saying why";
  return failure();
}

LogicalResult addDebugInfoScopes(ModuleOp module, TimingScope &timing) {
  // Full rather than line tables only: only then does LLVM describe each
  // function (DW_TAG_subprogram, with its name, line and the calls inlined
  // into it); line tables alone describe lines. The lowered program has no
  // variables to describe, so it costs nothing more.
  LLVM::DIScopeForLLVMFuncOpPassOptions options;
  options.emissionKind = LLVM::DIEmissionKind::Full;
  return runPipeline(
      module,
      [&](OpPassManager &pm) {
        pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(options));
      },
      /*printAfterAll=*/false, timing);
}

} // namespace gpu_runner
