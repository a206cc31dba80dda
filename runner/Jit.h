//===- Jit.h - The ORC JIT that runs a lowered program --------------------===//
//
// A small LLJIT wrapper. Symbols resolve, in order, against: the runtime of
// the statically linked wrapper library (an explicit symbol map), the
// libraries named by --shared-libs, and the process itself (the MLIR runner
// utilities the runner is linked with, the C and math libraries).
//
// The program is compiled to an object apart from loading it, so that an
// object from the compile cache loads the same way. Its global constructors
// and destructors become two plain functions the runner calls, since an
// object carries them in sections that only a native ORC platform, with
// its runtime library, would run.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_JIT_H
#define GPU_RUNNER_RUNNER_JIT_H

#include "mlir/Support/Timing.h"
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
  /// The triple, CPU and CPU features the code is compiled for: what an
  /// object depends on besides the program.
  std::string getTargetDescription() const;

  /// Optimizes `module` and compiles it to an object, timing each under
  /// `timing`.
  llvm::Expected<std::string> compile(llvm::Module &module,
                                      mlir::TimingScope &timing);

  /// Defines each name as the address that goes with it, for the program
  /// to refer to.
  llvm::Error
  defineSymbols(llvm::ArrayRef<std::pair<std::string, const void *>> symbols);

  /// Adds the program's object, compiled by `compile`; it is linked on the
  /// first lookup.
  llvm::Error addObject(llvm::StringRef object);

  /// Those of `names` that resolve to no definition outside the program, in
  /// one lookup. Call it before adding the program's object, so that
  /// nothing is linked.
  std::vector<std::string>
  findUnresolvedSymbols(llvm::ArrayRef<std::string> names);

  /// The address of `name`, linking what it needs.
  llvm::Expected<void *> lookup(llvm::StringRef name);

  /// Runs the global constructors and destructors of the program.
  llvm::Error initialize();
  llvm::Error deinitialize();

private:
  Jit(std::unique_ptr<llvm::orc::LLJIT> lljit,
      std::unique_ptr<llvm::TargetMachine> targetMachine);

  llvm::Error loadSharedLibrary(const std::string &path);
  llvm::orc::JITDylib &getMainJITDylib();
  /// Calls the program's function `name`, which takes and returns nothing.
  llvm::Error callVoidFunction(llvm::StringRef name);

  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  unsigned optLevel = 2;
  /// Functions that --shared-libs libraries asked to be called at exit.
  std::vector<void (*)()> libraryDestructors;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_JIT_H
