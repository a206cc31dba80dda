// A library that exports its functions the way MLIR's ExecutionEngine
// expects from --shared-libs libraries that define an init function: under
// names of its choosing, here one its symbol table does not have.
#include "llvm/ADT/StringMap.h"

namespace {
int answer() { return 7; }
int destroyed = 0;
} // namespace

extern "C" void __mlir_execution_engine_init(llvm::StringMap<void *> &symbols) {
  symbols["gpuRunnerTestViaInit"] = reinterpret_cast<void *>(&answer);
}

extern "C" void __mlir_execution_engine_destroy() { destroyed = 1; }
