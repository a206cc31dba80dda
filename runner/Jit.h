//===- Jit.h - The ORC JIT that runs a compiled program -------------------===//
//
// A small LLJIT wrapper. Symbols resolve, in order, against: the runtime of
// the statically linked wrapper library (an explicit symbol map), the
// libraries named by --shared-libs, the process itself (the C and math
// libraries), and MLIR's runner utilities and async runtime, which are
// loaded the first time a program needs one of their symbols.
//
// The program comes compiled, as an object (runner/compiler/Compiler.h), from
// the compiler or from the compile cache. Its global constructors and
// destructors are plain functions the runner calls, kInitFunctionName and
// kFiniFunctionName.
//
// For gdb (-g) and perf (--perf-jitdump) the JIT uses ORC's own plugins:
// objects with debug info are registered through GDB's JIT interface, and
// each function linked is written to a perf jitdump file
// (docs/debugging.md).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_JIT_H
#define GPU_RUNNER_RUNNER_JIT_H

#include "runner/compiler/Compiler.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace gpu_runner {

struct JitOptions {
  /// LLVM optimization and code generation level, 0 to 3.
  unsigned optLevel = 2;
  /// Libraries to resolve symbols from, searched in this order.
  std::vector<std::string> sharedLibs;
  /// -g: the program is compiled with debug info (the lines of its input)
  /// and frame pointers, and its code is registered with the debugger
  /// through GDB's JIT interface.
  bool debugInfo = false;
  /// --perf-jitdump: the program keeps its frame pointers, and each of its
  /// functions is written to a perf jitdump file for `perf inject --jit`
  /// (with -g, with its lines).
  bool perfJitdump = false;
};

class Jit : public CompileTarget {
public:
  /// Creates the JIT for the host: loads the shared libraries and registers
  /// the mgpu ABI. Fails with a message that names what could not be done.
  static llvm::Expected<std::unique_ptr<Jit>> create(const JitOptions &options);

  ~Jit() override;

  const llvm::DataLayout &getDataLayout() const override;
  const llvm::Triple &getTargetTriple() const override;
  llvm::Expected<llvm::TargetMachine &> getTargetMachine() override;
  unsigned getOptLevel() const override { return optLevel; }
  bool getDebugInfo() const override { return debugInfo; }
  bool getFramePointers() const override { return debugInfo || perfJitdump; }
  /// Those of `names` that resolve to no definition outside the program, in
  /// one lookup. Call it before adding the program's object, so that
  /// nothing is linked.
  std::vector<std::string>
  findUnresolvedSymbols(llvm::ArrayRef<std::string> names) override;

  /// The triple, CPU and CPU features the code is compiled for, and the
  /// options that change the code (traps, debug info, frame pointers):
  /// what an object depends on besides the program.
  std::string getTargetDescription() const;

  /// Defines each name as the address that goes with it, for the program
  /// to refer to.
  llvm::Error
  defineSymbols(llvm::ArrayRef<std::pair<std::string, const void *>> symbols);

  /// Adds the program's object; it is linked on the first lookup.
  llvm::Error addObject(llvm::StringRef object);

  /// The address of `name`, linking what it needs.
  llvm::Expected<void *> lookup(llvm::StringRef name);

  /// Runs the global constructors and destructors of the program.
  llvm::Error initialize();
  llvm::Error deinitialize();

  /// Waits for the workers of MLIR's async runtime, if the program loaded
  /// it: one may still be finishing a coroutine of the program after the
  /// entry point returns, and must be done before the program's code goes.
  void shutDownAsyncRuntime();

private:
  Jit(std::unique_ptr<llvm::orc::LLJIT> lljit,
      llvm::orc::JITTargetMachineBuilder machineBuilder);

  llvm::Error loadSharedLibrary(const std::string &path);
  /// Registers the objects that carry debug info with GDB's JIT interface.
  llvm::Error enableDebuggerRegistration();
  /// Writes each function linked to a perf jitdump file.
  llvm::Error enablePerfJitdump();
  llvm::orc::JITDylib &getMainJITDylib();
  /// Calls the program's function `name`, which takes and returns nothing.
  llvm::Error callVoidFunction(llvm::StringRef name);

  std::unique_ptr<llvm::orc::LLJIT> lljit;
  /// What the JIT itself compiles for: a program run from the cache needs
  /// no target machine, so one is made only to compile.
  llvm::orc::JITTargetMachineBuilder machineBuilder;
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  unsigned optLevel = 2;
  bool debugInfo = false;
  bool perfJitdump = false;
  /// Functions that --shared-libs libraries asked to be called at exit.
  std::vector<void (*)()> libraryDestructors;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_JIT_H
