//===- Jit.h - The ORC JIT that runs a lowered program --------------------===//
//
// A small LLJIT wrapper. Symbols resolve, in order, against: the runtime of
// the statically linked wrapper library (an explicit symbol map), the
// libraries named by --shared-libs, and the process itself (the MLIR runner
// utilities the runner is linked with, the C and math libraries).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_JIT_H
#define GPU_RUNNER_RUNNER_JIT_H

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Module.h"
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
  /// Where to write the compiled object; empty to write nothing.
  std::string objectDumpPath;
};

class Jit {
public:
  /// Creates the JIT for the host: loads the shared libraries and registers
  /// the mgpu ABI. Fails with a message that names what could not be done.
  static llvm::Expected<std::unique_ptr<Jit>> create(const JitOptions &options);

  ~Jit();

  /// The target the module must be compiled for.
  const llvm::DataLayout &getDataLayout() const;
  const llvm::Triple &getTargetTriple() const;

  /// Optimizes and adds the program's `module`; code is generated on first
  /// lookup.
  llvm::Error addModule(std::unique_ptr<llvm::Module> module,
                        std::unique_ptr<llvm::LLVMContext> context);

  /// Whether `name` resolves to a definition outside the program. Call it
  /// before adding the program's module, so that nothing is compiled.
  bool isExternalSymbolResolvable(llvm::StringRef name);

  /// The address of `name`, compiling what it needs.
  llvm::Expected<void *> lookup(llvm::StringRef name);

  /// Runs the global constructors and destructors of the added modules.
  llvm::Error initialize();
  llvm::Error deinitialize();

private:
  Jit(std::unique_ptr<llvm::orc::LLJIT> lljit,
      std::unique_ptr<llvm::TargetMachine> targetMachine);

  llvm::Error loadSharedLibrary(const std::string &path);
  llvm::orc::JITDylib &getMainJITDylib();

  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  unsigned optLevel = 2;
  /// The identifier of the module added last, the program's.
  std::string programModuleName;
  /// Functions that --shared-libs libraries asked to be called at exit.
  std::vector<void (*)()> libraryDestructors;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_JIT_H
