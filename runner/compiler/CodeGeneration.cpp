//===- CodeGeneration.cpp - A lowered program's LLVM IR to an object ------===//

#include "runner/compiler/CompilerSteps.h"

#include "wrappers/HostKernelAbi.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/LowerMatrixIntrinsics.h"

#include <algorithm>

using namespace mlir;

namespace gpu_runner {

namespace {

/// Replaces the global array `arrayName` (llvm.global_ctors or
/// llvm.global_dtors) by a function `name` that calls its functions by
/// priority: lowest first for constructors, highest first for destructors.
void defineInitializerFunction(llvm::Module &module, StringRef arrayName,
                               StringRef name) {
  bool constructors = arrayName == "llvm.global_ctors";
  SmallVector<std::pair<unsigned, llvm::Function *>> calls;
  for (llvm::orc::CtorDtorIterator::Element element :
       constructors ? llvm::orc::getConstructors(module)
                    : llvm::orc::getDestructors(module))
    if (element.Func)
      calls.push_back({element.Priority, element.Func});
  std::stable_sort(
      calls.begin(), calls.end(), [&](const auto &a, const auto &b) {
        return constructors ? a.first < b.first : a.first > b.first;
      });
  if (llvm::GlobalVariable *array = module.getNamedGlobal(arrayName))
    array->eraseFromParent();

  llvm::LLVMContext &context = module.getContext();
  auto *function = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
      llvm::GlobalValue::ExternalLinkage, name, module);
  llvm::IRBuilder<> builder(
      llvm::BasicBlock::Create(context, "entry", function));
  for (auto [priority, callee] : calls)
    builder.CreateCall(callee->getFunctionType(), callee);
  builder.CreateRetVoid();
}

/// Lowers the llvm.matrix.* intrinsics (transpose, multiply, column-major
/// loads and stores) to vector code, as clang does for its matrix types:
/// instruction selection has no lowering for them and aborts. Runs at every
/// optimization level, -O0 included (LLVM's default pipelines add the pass
/// only under its -enable-matrix flag): the minimal form at -O0, the one
/// that fuses operations above.
void lowerMatrixIntrinsics(llvm::Module &module, llvm::TargetMachine &machine,
                           unsigned optLevel) {
  bool usesMatrices = llvm::any_of(module, [](const llvm::Function &function) {
    return function.isIntrinsic() &&
           function.getName().starts_with("llvm.matrix.");
  });
  if (!usesMatrices)
    return;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::ModulePassManager passes;
  passes.addPass(llvm::createModuleToFunctionPassAdaptor(
      llvm::LowerMatrixIntrinsicsPass(/*Minimal=*/optLevel == 0)));
  passes.run(module, modules);
}

/// Makes every `unreachable` of the program that no call which does not
/// return comes before trap with llvm.ubsantrap(kUnreachableTrapKind), so
/// that reaching one is an error that says so (the host backend's fault
/// handler tells that trap from llvm.trap) instead of running into whatever
/// code comes next. Done before optimization: a branch to such a block is
/// then a check the optimizer keeps, not a promise it may build on.
void trapAtUnreachable(llvm::Module &module) {
  if (!module.getTargetTriple().isX86())
    return; // Elsewhere TrapUnreachable's plain trap is all there is.
  llvm::SmallVector<llvm::UnreachableInst *> unreachables;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (auto *unreachable =
              llvm::dyn_cast<llvm::UnreachableInst>(&instruction)) {
        auto *call =
            llvm::dyn_cast_or_null<llvm::CallBase>(unreachable->getPrevNode());
        if (!call || !call->doesNotReturn())
          unreachables.push_back(unreachable);
      }
  for (llvm::UnreachableInst *unreachable : unreachables) {
    llvm::IRBuilder<> builder(unreachable);
    builder.CreateIntrinsic(llvm::Intrinsic::ubsantrap, {},
                            {builder.getInt8(kUnreachableTrapKind)});
  }
}

} // namespace

llvm::Expected<std::string> compileModule(llvm::Module &module,
                                          CompileTarget &target,
                                          TimingScope &timing) {
  defineInitializerFunction(module, "llvm.global_ctors", kInitFunctionName);
  defineInitializerFunction(module, "llvm.global_dtors", kFiniFunctionName);
  trapAtUnreachable(module);
  guardPrivateMemory(module);
  // Frames larger than a page touch each page on the way down, so that a
  // kernel whose private memory overflows a fiber's stack faults on the
  // guard page below it (which the host backend reports) rather than
  // jumping past it into other memory.
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr("probe-stack", "inline-asm");
  // perf's call graphs (`perf record -g`) walk the frame pointers, and
  // frames without them hide their callers.
  if (target.getFramePointers())
    for (llvm::Function &function : module)
      if (!function.isDeclaration())
        function.addFnAttr("frame-pointer", "all");

  llvm::Expected<llvm::TargetMachine &> machine = target.getTargetMachine();
  if (!machine)
    return machine.takeError();
  {
    TimingScope optimizeTiming = timing.nest("LLVM optimization");
    lowerMatrixIntrinsics(module, *machine, target.getOptLevel());
    auto optimize =
        makeOptimizingTransformer(target.getOptLevel(), 0, &*machine);
    if (llvm::Error error = optimize(&module))
      return std::move(error);
  }
  TimingScope codegenTiming = timing.nest("LLVM code generation");
  llvm::orc::SimpleCompiler compiler(*machine);
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> object = compiler(module);
  if (!object)
    return object.takeError();
  return (*object)->getBuffer().str();
}

} // namespace gpu_runner
