//===- CompilerLoader.h - Finding the compiler ----------------------------===//
//
// The runner loads libGpuRunnerCompiler.so, and with it libMLIR, only when
// it compiles (runner/compiler/Compiler.h says why); where LLVM is linked
// statically the compiler is linked in.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_COMPILERLOADER_H
#define GPU_RUNNER_RUNNER_COMPILERLOADER_H

#include "runner/compiler/Compiler.h"

#include "llvm/Support/Error.h"

#include <string>

namespace gpu_runner {

/// The compiler: linked in, or loaded the first time from
/// libGpuRunnerCompiler.so in the lib folder next to the runner's bin.
llvm::Expected<const Compiler *> loadCompiler();

/// The file loadCompiler loads; empty where the compiler is linked in.
std::string getCompilerLibraryPath();

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_COMPILERLOADER_H
