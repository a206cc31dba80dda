//===- Jit.cpp - The ORC JIT that runs a compiled program -----------------===//

#include "runner/Jit.h"

#include "wrappers/Backend.h"
#include "wrappers/common/ProgramFunctions.h"
#include "wrappers/common/Sanitizers.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebugInfoSupport.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h"
#include "llvm/ExecutionEngine/Orc/Debugging/PerfSupportPlugin.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/JITLoaderPerf.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <dlfcn.h>
#include <iterator>

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

namespace {

#define GPU_RUNNER_STRING(x) #x
#define GPU_RUNNER_EXPANDED_STRING(x) GPU_RUNNER_STRING(x)
/// The suffix of MLIR's shared libraries: ".so.22.1".
#define GPU_RUNNER_LLVM_SOVERSION                                              \
  ".so." GPU_RUNNER_EXPANDED_STRING(                                           \
      LLVM_VERSION_MAJOR) "." GPU_RUNNER_EXPANDED_STRING(LLVM_VERSION_MINOR)

/// MLIR's async runtime, by the name it is loaded under.
constexpr llvm::StringLiteral kAsyncRuntimeLibrary =
    "libmlir_async_runtime" GPU_RUNNER_LLVM_SOVERSION;

/// MLIR's runtime libraries, which programs call without --shared-libs, in
/// the order they are searched: the C runner utilities need libMLIR, which
/// takes longer to load than most programs take to run, so they come after
/// the runner utilities (printMemref*), which do not.
constexpr llvm::StringLiteral kRuntimeLibraries[] = {
    "libmlir_runner_utils" GPU_RUNNER_LLVM_SOVERSION,
    "libmlir_c_runner_utils" GPU_RUNNER_LLVM_SOVERSION,
    kAsyncRuntimeLibrary,
};

/// Defines what the program needs of MLIR's runtime libraries, loading each
/// library the first time it is searched: a program that calls none of
/// them loads none.
class RuntimeLibraryGenerator : public DefinitionGenerator {
public:
  Error tryToGenerate(LookupState &, LookupKind, JITDylib &dylib,
                      JITDylibLookupFlags,
                      const SymbolLookupSet &symbols) override {
    SymbolMap found;
    for (const auto &[name, flags] : symbols)
      for (Library &library : libraries) {
        if (!library.load())
          continue;
        if (void *address = library.handle.getAddressOfSymbol((*name).data())) {
          found[name] = {ExecutorAddr::fromPtr(address),
                         JITSymbolFlags::Exported};
          break;
        }
      }
    if (found.empty())
      return Error::success();
    return dylib.define(absoluteSymbols(std::move(found)));
  }

private:
  struct Library {
    explicit Library(StringRef name) : name(name) {}

    StringRef name;
    bool tried = false;
    sys::DynamicLibrary handle;

    /// Whether the library is loaded, loading it the first time.
    bool load() {
      if (!tried) {
        tried = true;
        SmallString<256> path(GPU_RUNNER_RUNTIME_LIBRARY_DIR);
        sys::path::append(path, name);
        // Where the build found them; else wherever the loader finds them
        // (next to a bundle's binaries).
        handle = sys::DynamicLibrary::getPermanentLibrary(path.c_str());
        if (!handle.isValid())
          handle = sys::DynamicLibrary::getPermanentLibrary(name.data());
      }
      return handle.isValid();
    }
  };

  Library libraries[std::size(kRuntimeLibraries)] = {
      Library(kRuntimeLibraries[0]), Library(kRuntimeLibraries[1]),
      Library(kRuntimeLibraries[2])};
};

/// Tells fault reports where each function of the program's code is once
/// it is linked (ProgramFunctions.h), so that a fault in host code can name
/// the function: no loaded object covers JIT'd code for dladdr to find.
class ProgramFunctionsPlugin : public ObjectLinkingLayer::Plugin {
public:
  void modifyPassConfig(MaterializationResponsibility &, jitlink::LinkGraph &,
                        jitlink::PassConfiguration &config) override {
    config.PostFixupPasses.push_back(publishFunctions);
  }
  Error notifyFailed(MaterializationResponsibility &) override {
    return Error::success();
  }
  Error notifyRemovingResources(JITDylib &, ResourceKey) override {
    return Error::success();
  }
  void notifyTransferringResources(JITDylib &, ResourceKey,
                                   ResourceKey) override {}

private:
  static Error publishFunctions(jitlink::LinkGraph &graph) {
    std::vector<ProgramFunction> functions;
    for (jitlink::Symbol *symbol : graph.defined_symbols())
      if (symbol->isCallable() && symbol->hasName() && symbol->getSize())
        functions.push_back(
            {static_cast<uintptr_t>(symbol->getAddress().getValue()),
             static_cast<uintptr_t>(symbol->getAddress().getValue() +
                                    symbol->getSize()),
             (*symbol->getName()).str()});
    addProgramFunctions(std::move(functions));
    return Error::success();
  }
};

/// Makes the folder LLVM's jitdump writer puts its file in, under
/// $JITDUMPDIR/.debug/jit or else ~/.debug/jit, and sets $JITDUMPDIR to an
/// absolute path: the writer makes a folder of its own there with a call
/// that takes a relative path as relative to the temporary folder, and a
/// folder it cannot make shows only as a failed link, with no path.
Error prepareJitdumpFolder() {
  SmallString<256> base;
  if (const char *given = std::getenv("JITDUMPDIR"))
    base = given;
  else if (!sys::path::home_directory(base))
    base = ".";
  SmallString<256> folder(base);
  std::error_code error = sys::fs::make_absolute(folder);
  if (!error) {
    base = folder;
    sys::path::append(folder, ".debug", "jit");
    error = sys::fs::create_directories(folder);
  }
  if (!error)
    error = sys::fs::access(folder, sys::fs::AccessMode::Write);
  if (error)
    return createStringError(
        inconvertibleErrorCode(),
        "--perf-jitdump: cannot write the jitdump file in '" + folder + "/': " +
            error.message() + "; set JITDUMPDIR to a folder you may write to");
  ::setenv("JITDUMPDIR", base.c_str(), /*overwrite=*/1);
  return Error::success();
}

} // namespace

Jit::Jit(std::unique_ptr<LLJIT> lljit, JITTargetMachineBuilder machineBuilder)
    : lljit(std::move(lljit)), machineBuilder(std::move(machineBuilder)) {}

Jit::~Jit() {
  for (auto destroy : libraryDestructors)
    destroy();
  if (Error error = lljit->getExecutionSession().endSession())
    logAllUnhandledErrors(std::move(error), errs(), "error: ");
  clearProgramFunctions();
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
  // An `unreachable` that is reached traps, also after a call that does
  // not return, rather than running into whatever code comes next.
  machineBuilder->getOptions().TrapUnreachable = true;
  machineBuilder->getOptions().NoTrapAfterNoreturn = false;

  // No platform: the program's constructors and destructors are plain
  // functions (kInitFunctionName), and the generic IR platform would only
  // compile a module of its own on every run.
  auto lljit = LLJITBuilder()
                   .setJITTargetMachineBuilder(*machineBuilder)
                   .setPlatformSetUp(setUpInactivePlatform)
                   .create();
  if (!lljit)
    return lljit.takeError();

  std::unique_ptr<Jit> jit(
      new Jit(std::move(*lljit), std::move(*machineBuilder)));
  if (auto *linker =
          dyn_cast<ObjectLinkingLayer>(&jit->lljit->getObjLinkingLayer()))
    linker->addPlugin(std::make_shared<ProgramFunctionsPlugin>());
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
  jit->getMainJITDylib().addGenerator(
      std::make_unique<RuntimeLibraryGenerator>());

  jit->optLevel = options.optLevel;
  jit->debugInfo = options.debugInfo;
  jit->perfJitdump = options.perfJitdump;
  if (options.debugInfo)
    if (Error error = jit->enableDebuggerRegistration())
      return std::move(error);
  if (options.perfJitdump)
    if (Error error = jit->enablePerfJitdump())
      return std::move(error);
  return std::move(jit);
}

Error Jit::enableDebuggerRegistration() {
  // ORC's plugin for ELF copies each object that has debug sections, with
  // the addresses its sections were linked at, and registers the copy
  // through __jit_debug_register_code, where gdb has a breakpoint: gdb then
  // reads the copy as it reads a shared library.
  if (Error error = enableDebuggerSupport(*lljit))
    return createStringError(inconvertibleErrorCode(),
                             "-g: cannot register the program's code with "
                             "the debugger: " +
                                 toString(std::move(error)));
  return Error::success();
}

Error Jit::enablePerfJitdump() {
  if (Error error = prepareJitdumpFolder())
    return error;
  // The plugin finds the functions that write the jitdump file in the
  // executor, which is this process. They are defined here by address,
  // rather than found by name, so that a runner that links LLVM statically
  // and exports nothing has them too.
  ExecutionSession &session = lljit->getExecutionSession();
  JITDylibSP process = lljit->getProcessSymbolsJITDylib();
  auto *linker = dyn_cast<ObjectLinkingLayer>(&lljit->getObjLinkingLayer());
  if (!process || !linker)
    return createStringError(inconvertibleErrorCode(),
                             "--perf-jitdump needs JITLink and the process's "
                             "symbols, which this JIT does not have");
  JITSymbolFlags flags = JITSymbolFlags::Exported | JITSymbolFlags::Callable;
  SymbolMap writers;
  writers[session.intern("llvm_orc_registerJITLoaderPerfStart")] = {
      ExecutorAddr::fromPtr(&llvm_orc_registerJITLoaderPerfStart), flags};
  writers[session.intern("llvm_orc_registerJITLoaderPerfEnd")] = {
      ExecutorAddr::fromPtr(&llvm_orc_registerJITLoaderPerfEnd), flags};
  writers[session.intern("llvm_orc_registerJITLoaderPerfImpl")] = {
      ExecutorAddr::fromPtr(&llvm_orc_registerJITLoaderPerfImpl), flags};
  if (Error error = process->define(absoluteSymbols(std::move(writers))))
    return error;
  // With -g, line records too, read from the object's debug sections,
  // which JITLink would otherwise drop before the plugin sees them. No
  // unwind records: LLVM's writer of them prints a line on stderr for each
  // object, and perf unwinds the program's frames by their frame pointers.
  if (debugInfo)
    linker->addPlugin(std::make_unique<DebugInfoPreservationPlugin>());
  Expected<std::unique_ptr<PerfSupportPlugin>> plugin =
      PerfSupportPlugin::Create(session.getExecutorProcessControl(), *process,
                                /*EmitDebugInfo=*/debugInfo,
                                /*EmitUnwindInfo=*/false);
  if (!plugin)
    return createStringError(inconvertibleErrorCode(),
                             "--perf-jitdump: " + toString(plugin.takeError()));
  linker->addPlugin(std::move(*plugin));
  return Error::success();
}

Error Jit::loadSharedLibrary(const std::string &path) {
  std::string message;
  sys::DynamicLibrary library =
      sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &message);
  if (!library.isValid()) {
    // dlopen looks for a name without a slash on the library path only,
    // which surprises whoever names a file in the current folder.
    std::string hint;
    if (!StringRef(path).contains('/')) {
      hint = "; a name without a '/' is searched for on the library path "
             "(LD_LIBRARY_PATH, the system's folders), not in the current "
             "folder";
      if (sys::fs::exists(path))
        hint += ": name the one here './" + path + "'";
    }
    return createStringError(inconvertibleErrorCode(),
                             "--shared-libs: cannot load '" + path +
                                 "': " + message + hint);
  }

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

Expected<TargetMachine &> Jit::getTargetMachine() {
  if (!targetMachine) {
    Expected<std::unique_ptr<TargetMachine>> made =
        machineBuilder.createTargetMachine();
    if (!made)
      return made.takeError();
    targetMachine = std::move(*made);
  }
  return *targetMachine;
}

std::string Jit::getTargetDescription() const {
  // The target options that change the code are part of it, so that the
  // compile cache misses code generated without them.
  const TargetOptions &options = machineBuilder.getOptions();
  return machineBuilder.getTargetTriple().str() + " " +
         machineBuilder.getCPU() + " " +
         machineBuilder.getFeatures().getString() +
         (options.TrapUnreachable ? " trap-unreachable" : "") +
         (options.NoTrapAfterNoreturn ? " no-trap-after-noreturn" : "") +
         (getDebugInfo() ? " debug-info" : "") +
         (getFramePointers() ? " frame-pointers" : "");
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
    if (!found->contains(mangle(name)))
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
  reinterpret_cast<void (*)()>(*function)();
  return Error::success();
}

Error Jit::initialize() { return callVoidFunction(kInitFunctionName); }

Error Jit::deinitialize() { return callVoidFunction(kFiniFunctionName); }

void Jit::shutDownAsyncRuntime() {
  void *library = dlopen(kAsyncRuntimeLibrary.data(), RTLD_LAZY | RTLD_NOLOAD);
  if (!library)
    return; // Never loaded: no worker to wait for.
  // Destroying its default runtime waits for the workers; it is made again
  // if a program uses it after.
  if (auto destroy = reinterpret_cast<void (*)()>(
          dlsym(library, "__mlir_execution_engine_destroy")))
    destroy();
  dlclose(library);
}

} // namespace gpu_runner
