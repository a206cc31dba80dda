//===- Jit.cpp - The ORC JIT that runs a lowered program ------------------===//

#include "runner/Jit.h"

#include "wrappers/Backend.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#define GPU_RUNNER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPU_RUNNER_ASAN 1
#endif
#endif

using namespace llvm;
using namespace llvm::orc;

#ifdef GPU_RUNNER_ASAN
// Under AddressSanitizer the program allocates its host memory (memref.alloc,
// and what the lowering allocates for it) through these, so that
// LeakSanitizer's suppressions can tell the program's leaks from the runner's
// (scripts/sanitizer-suppressions.txt). Not inlined, and the volatile result
// keeps them from tail-calling away their frame.
extern "C" __attribute__((noinline)) void *
gpuRunnerProgramMalloc(size_t bytes) {
  void *volatile result = std::malloc(bytes);
  return result;
}

extern "C" __attribute__((noinline)) void *
gpuRunnerProgramCalloc(size_t count, size_t bytes) {
  void *volatile result = std::calloc(count, bytes);
  return result;
}

extern "C" __attribute__((noinline)) void *
gpuRunnerProgramAlignedAlloc(size_t alignment, size_t bytes) {
  void *volatile result = std::aligned_alloc(alignment, bytes);
  return result;
}
#endif

namespace gpu_runner {

Jit::Jit(std::unique_ptr<LLJIT> lljit,
         std::unique_ptr<TargetMachine> targetMachine)
    : lljit(std::move(lljit)), targetMachine(std::move(targetMachine)) {}

Jit::~Jit() {
  for (auto destroy : libraryDestructors)
    destroy();
  if (Error error = lljit->getExecutionSession().endSession())
    logAllUnhandledErrors(std::move(error), errs(), "error: ");
}

Expected<std::unique_ptr<Jit>> Jit::create(const JitOptions &options) {
  auto machineBuilder = JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return machineBuilder.takeError();
  auto codeGenLevel = static_cast<CodeGenOptLevel>(options.optLevel);
  machineBuilder->setCodeGenOptLevel(codeGenLevel);
  // What JITLink links best, as LLJIT would choose when it compiles.
  machineBuilder->setRelocationModel(Reloc::PIC_);
  machineBuilder->setCodeModel(CodeModel::Small);
  auto targetMachine = machineBuilder->createTargetMachine();
  if (!targetMachine)
    return targetMachine.takeError();

  // No platform: the program's constructors and destructors are plain
  // functions (see compile), and the generic IR platform would only
  // compile a module of its own on every run.
  auto lljit = LLJITBuilder()
                   .setJITTargetMachineBuilder(std::move(*machineBuilder))
                   .setPlatformSetUp(setUpInactivePlatform)
                   .create();
  if (!lljit)
    return lljit.takeError();

  std::unique_ptr<Jit> jit(
      new Jit(std::move(*lljit), std::move(*targetMachine)));
  MangleAndInterner mangle(jit->lljit->getExecutionSession(),
                           jit->lljit->getDataLayout());
  SymbolMap runtime;
  for (const RuntimeSymbol &symbol : getRuntimeSymbols())
    runtime[mangle(symbol.name)] = {ExecutorAddr::fromPtr(symbol.address),
                                    JITSymbolFlags::Exported |
                                        JITSymbolFlags::Callable};
#ifdef GPU_RUNNER_ASAN
  runtime[mangle("malloc")] = {ExecutorAddr::fromPtr(&gpuRunnerProgramMalloc),
                               JITSymbolFlags::Exported |
                                   JITSymbolFlags::Callable};
  runtime[mangle("calloc")] = {ExecutorAddr::fromPtr(&gpuRunnerProgramCalloc),
                               JITSymbolFlags::Exported |
                                   JITSymbolFlags::Callable};
  runtime[mangle("aligned_alloc")] = {
      ExecutorAddr::fromPtr(&gpuRunnerProgramAlignedAlloc),
      JITSymbolFlags::Exported | JITSymbolFlags::Callable};
#endif
  if (Error error =
          jit->getMainJITDylib().define(absoluteSymbols(std::move(runtime))))
    return std::move(error);
  for (const std::string &path : options.sharedLibs)
    if (Error error = jit->loadSharedLibrary(path))
      return std::move(error);
  auto process = DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit->lljit->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  jit->getMainJITDylib().addGenerator(std::move(*process));

  jit->optLevel = options.optLevel;
  return std::move(jit);
}

Error Jit::loadSharedLibrary(const std::string &path) {
  std::string message;
  sys::DynamicLibrary library =
      sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &message);
  if (!library.isValid())
    return createStringError(inconvertibleErrorCode(),
                             "--shared-libs: cannot load '" + path +
                                 "': " + message);

  // Libraries built for MLIR's ExecutionEngine may export their symbols
  // through an init function instead of their symbol table.
  using InitFn = void (*)(StringMap<void *> &);
  using DestroyFn = void (*)();
  auto init = reinterpret_cast<InitFn>(
      library.getAddressOfSymbol("__mlir_execution_engine_init"));
  auto destroy = reinterpret_cast<DestroyFn>(
      library.getAddressOfSymbol("__mlir_execution_engine_destroy"));
  if (init) {
    StringMap<void *> exported;
    init(exported);
    MangleAndInterner mangle(lljit->getExecutionSession(),
                             lljit->getDataLayout());
    SymbolMap symbols;
    for (auto &entry : exported)
      symbols[mangle(entry.getKey())] = {ExecutorAddr::fromPtr(entry.second),
                                         JITSymbolFlags::Exported};
    if (Error error =
            getMainJITDylib().define(absoluteSymbols(std::move(symbols))))
      return error;
    if (destroy)
      libraryDestructors.push_back(destroy);
    return Error::success();
  }
  getMainJITDylib().addGenerator(
      std::make_unique<DynamicLibrarySearchGenerator>(
          library, lljit->getDataLayout().getGlobalPrefix()));
  return Error::success();
}

const DataLayout &Jit::getDataLayout() const { return lljit->getDataLayout(); }

const Triple &Jit::getTargetTriple() const { return lljit->getTargetTriple(); }

std::string Jit::getTargetDescription() const {
  return (targetMachine->getTargetTriple().str() + " " +
          targetMachine->getTargetCPU() + " " +
          targetMachine->getTargetFeatureString())
      .str();
}

namespace {

/// The functions the runner calls in place of the program's global
/// constructors and destructors.
constexpr StringLiteral kInitFunction = "__gpu_runner_init";
constexpr StringLiteral kFiniFunction = "__gpu_runner_fini";

/// Replaces the global array `arrayName` (llvm.global_ctors or
/// llvm.global_dtors) by a function `name` that calls its functions by
/// priority: lowest first for constructors, highest first for destructors.
void defineInitializerFunction(Module &module, StringRef arrayName,
                               StringRef name) {
  bool constructors = arrayName == "llvm.global_ctors";
  SmallVector<std::pair<unsigned, Function *>> calls;
  for (CtorDtorIterator::Element element :
       constructors ? getConstructors(module) : getDestructors(module))
    if (element.Func)
      calls.push_back({element.Priority, element.Func});
  std::stable_sort(
      calls.begin(), calls.end(), [&](const auto &a, const auto &b) {
        return constructors ? a.first < b.first : a.first > b.first;
      });
  if (GlobalVariable *array = module.getNamedGlobal(arrayName))
    array->eraseFromParent();

  LLVMContext &context = module.getContext();
  auto *function =
      Function::Create(FunctionType::get(Type::getVoidTy(context), false),
                       GlobalValue::ExternalLinkage, name, module);
  IRBuilder<> builder(BasicBlock::Create(context, "entry", function));
  for (auto [priority, callee] : calls)
    builder.CreateCall(callee->getFunctionType(), callee);
  builder.CreateRetVoid();
}

} // namespace

Expected<std::string> Jit::compile(Module &module, mlir::TimingScope &timing) {
  defineInitializerFunction(module, "llvm.global_ctors", kInitFunction);
  defineInitializerFunction(module, "llvm.global_dtors", kFiniFunction);
  // Frames larger than a page touch each page on the way down, so that a
  // kernel whose private memory overflows a fiber's stack faults on the
  // guard page below it (which the host backend reports) rather than
  // jumping past it into other memory.
  for (Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr("probe-stack", "inline-asm");

  {
    mlir::TimingScope optimizeTiming = timing.nest("LLVM optimization");
    auto optimize =
        mlir::makeOptimizingTransformer(optLevel, 0, targetMachine.get());
    if (Error error = optimize(&module))
      return std::move(error);
  }
  mlir::TimingScope codegenTiming = timing.nest("LLVM code generation");
  SimpleCompiler compiler(*targetMachine);
  Expected<std::unique_ptr<MemoryBuffer>> object = compiler(module);
  if (!object)
    return object.takeError();
  return (*object)->getBuffer().str();
}

Error Jit::defineSymbols(
    ArrayRef<std::pair<std::string, const void *>> symbols) {
  if (symbols.empty())
    return Error::success();
  MangleAndInterner mangle(lljit->getExecutionSession(),
                           lljit->getDataLayout());
  SymbolMap map;
  for (const auto &[name, address] : symbols)
    map[mangle(name)] = {ExecutorAddr::fromPtr(address),
                         JITSymbolFlags::Exported};
  return getMainJITDylib().define(absoluteSymbols(std::move(map)));
}

Error Jit::addObject(StringRef object) {
  return lljit->addObjectFile(
      MemoryBuffer::getMemBufferCopy(object, "gpu-runner-program"));
}

JITDylib &Jit::getMainJITDylib() { return lljit->getMainJITDylib(); }

std::vector<std::string>
Jit::findUnresolvedSymbols(ArrayRef<std::string> names) {
  ExecutionSession &session = lljit->getExecutionSession();
  MangleAndInterner mangle(session, lljit->getDataLayout());
  SymbolLookupSet symbols;
  for (const std::string &name : names)
    symbols.add(mangle(name), SymbolLookupFlags::WeaklyReferencedSymbol);
  Expected<SymbolMap> found = session.lookup(
      makeJITDylibSearchOrder(&getMainJITDylib()), std::move(symbols));
  std::vector<std::string> unresolved;
  if (!found) {
    consumeError(found.takeError());
    return std::vector<std::string>(names.begin(), names.end());
  }
  for (const std::string &name : names)
    if (!found->count(mangle(name)))
      unresolved.push_back(name);
  return unresolved;
}

Expected<void *> Jit::lookup(StringRef name) {
  auto address = lljit->lookup(name);
  if (!address)
    return address.takeError();
  return address->toPtr<void *>();
}

Error Jit::callVoidFunction(StringRef name) {
  Expected<void *> function = lookup(name);
  if (!function)
    return function.takeError();
  reinterpret_cast<void (*)()> (*function)();
  return Error::success();
}

Error Jit::initialize() { return callVoidFunction(kInitFunction); }

Error Jit::deinitialize() { return callVoidFunction(kFiniFunction); }

} // namespace gpu_runner
