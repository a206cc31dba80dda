//===- CheckCalls.h - What the run-time checks' passes share --------------===//
//
// The passes that add run-time checks to a program (CheckBounds.cpp,
// CheckHostAccesses.cpp) call a runtime function with the op's loc string.
// The string travels as the address of a memref.global holding it, the one
// kind of constant data both a gpu.module and the host module may hold.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_CHECKS_CHECKCALLS_H
#define GPU_RUNNER_LOWERING_CHECKS_CHECKCALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace gpu_runner {

/// Declares the runtime function `name` of `type` in `module` (a gpu.module
/// or the host module), or finds its declaration. A symbol of that name that
/// is something else is an error at it, naming `flag`; returns null then.
mlir::func::FuncOp getCheckFunction(mlir::Operation *module,
                                    mlir::SymbolTable &symbols,
                                    llvm::StringRef name,
                                    mlir::FunctionType type,
                                    llvm::StringRef flag);

/// The loc strings of one module's checks, each a constant global made once.
class LocStrings {
public:
  LocStrings(mlir::Operation *module, mlir::SymbolTable &symbols)
      : module(module), symbols(symbols) {}

  /// The address, as an index, of a NUL-terminated constant holding `text`.
  mlir::Value get(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef text);

private:
  mlir::Operation *module;
  mlir::SymbolTable &symbols;
  llvm::StringMap<mlir::memref::GlobalOp> globals;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_CHECKS_CHECKCALLS_H
