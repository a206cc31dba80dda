//===- CompilerLoader.cpp - Finding the compiler --------------------------===//
//
// See CompilerLoader.h. GPU_RUNNER_COMPILER_LINKED says the compiler is
// linked in.
//
//===----------------------------------------------------------------------===//

#include "runner/CompilerLoader.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#ifdef GPU_RUNNER_COMPILER_LINKED
extern "C" const gpu_runner::Compiler *gpuRunnerGetCompiler();
#else
// Any function of the runner, for the loader to find the executable by.
static void anchor() {}
#endif

namespace gpu_runner {

std::string getCompilerLibraryPath() {
#ifdef GPU_RUNNER_COMPILER_LINKED
  return "";
#else
  // <prefix>/bin/gpu-runner-<backend> loads <prefix>/lib/<library>.
  llvm::SmallString<256> path(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(llvm::sys::fs::getMainExecutable(
          "gpu-runner", reinterpret_cast<void *>(&anchor)))));
  llvm::sys::path::append(path, "lib", "libGpuRunnerCompiler.so");
  return std::string(path);
#endif
}

llvm::Expected<const Compiler *> loadCompiler() {
#ifdef GPU_RUNNER_COMPILER_LINKED
  return gpuRunnerGetCompiler();
#else
  static const Compiler *compiler = nullptr;
  if (compiler)
    return compiler;
  std::string path = getCompilerLibraryPath();
  std::string message;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &message);
  if (!library.isValid())
    return llvm::createStringError("cannot load gpu-runner's compiler: " +
                                   message);
  auto get = reinterpret_cast<const Compiler *(*)()>(
      library.getAddressOfSymbol("gpuRunnerGetCompiler"));
  if (!get)
    return llvm::createStringError(path + " is not gpu-runner's compiler: " +
                                   "it has no gpuRunnerGetCompiler");
  compiler = get();
  return compiler;
#endif
}

} // namespace gpu_runner
