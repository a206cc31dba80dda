//===- Jit.cpp - The ORC JIT that runs a lowered program ------------------===//

#include "runner/Jit.h"

#include "wrappers/Backend.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/ObjectTransformLayer.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

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
  auto targetMachine = machineBuilder->createTargetMachine();
  if (!targetMachine)
    return targetMachine.takeError();

  auto lljit = LLJITBuilder()
                   .setJITTargetMachineBuilder(std::move(*machineBuilder))
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

  if (!options.objectDumpPath.empty()) {
    std::string path = options.objectDumpPath;
    Jit *self = jit.get();
    jit->lljit->getObjTransformLayer().setTransform(
        [path, self](std::unique_ptr<MemoryBuffer> object)
            -> Expected<std::unique_ptr<MemoryBuffer>> {
          // The JIT compiles modules of its own too (the platform's); only
          // the program's object is wanted.
          if (object->getBufferIdentifier() !=
              self->programModuleName + "-jitted-objectbuffer")
            return std::move(object);
          std::error_code ec;
          raw_fd_ostream os(path, ec, sys::fs::OF_None);
          if (ec)
            return createStringError(ec, "cannot write the object file '" +
                                             path + "': " + ec.message());
          os << object->getBuffer();
          return std::move(object);
        });
  }
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

Error Jit::addModule(std::unique_ptr<Module> module,
                     std::unique_ptr<LLVMContext> context) {
  programModuleName = module->getModuleIdentifier();
  // Frames larger than a page touch each page on the way down, so that a
  // kernel whose private memory overflows a fiber's stack faults on the
  // guard page below it (which the host backend reports) rather than
  // jumping past it into other memory.
  for (Function &function : *module)
    if (!function.isDeclaration())
      function.addFnAttr("probe-stack", "inline-asm");
  // Optimized before the JIT sees it, not in its IR layer: the JIT takes the
  // definitions it must provide from the module as added, and optimization
  // may drop some (an inlined linkonce_odr function, say).
  auto optimize =
      mlir::makeOptimizingTransformer(optLevel, 0, targetMachine.get());
  if (Error error = optimize(module.get()))
    return error;
  return lljit->addIRModule(
      ThreadSafeModule(std::move(module), std::move(context)));
}

JITDylib &Jit::getMainJITDylib() { return lljit->getMainJITDylib(); }

bool Jit::isExternalSymbolResolvable(StringRef name) {
  auto symbol = lljit->lookup(name);
  if (!symbol) {
    consumeError(symbol.takeError());
    return false;
  }
  return true;
}

Expected<void *> Jit::lookup(StringRef name) {
  auto address = lljit->lookup(name);
  if (!address)
    return address.takeError();
  return address->toPtr<void *>();
}

Error Jit::initialize() { return lljit->initialize(lljit->getMainJITDylib()); }

Error Jit::deinitialize() {
  return lljit->deinitialize(lljit->getMainJITDylib());
}

} // namespace gpu_runner
