//===- CheckCalls.cpp - What the run-time checks' passes share ------------===//

#include "lowering/checks/CheckCalls.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace gpu_runner {

func::FuncOp getCheckFunction(Operation *module, SymbolTable &symbols,
                              StringRef name, FunctionType type,
                              StringRef flag) {
  if (Operation *existing = symbols.lookup(name)) {
    auto function = dyn_cast<func::FuncOp>(existing);
    if (function && function.getFunctionType() == type)
      return function;
    existing->emitError() << "'" << name
                          << "' is gpu-runner's own runtime function; " << flag
                          << " cannot use this symbol";
    return nullptr;
  }
  OpBuilder b = OpBuilder::atBlockBegin(&module->getRegion(0).front());
  auto function = func::FuncOp::create(b, module->getLoc(), name, type);
  function.setPrivate();
  symbols.insert(function);
  return function;
}

Value LocStrings::get(OpBuilder &b, Location loc, StringRef text) {
  memref::GlobalOp global = globals.lookup(text);
  if (!global) {
    SmallVector<int8_t> bytes(text.begin(), text.end());
    bytes.push_back(0);
    auto type =
        MemRefType::get({static_cast<int64_t>(bytes.size())}, b.getI8Type());
    auto tensorType = RankedTensorType::get(type.getShape(), b.getI8Type());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&module->getRegion(0).front());
    global = memref::GlobalOp::create(
        b, loc, "__gpu_runner_check_loc", b.getStringAttr("private"), type,
        DenseElementsAttr::get(tensorType, ArrayRef<int8_t>(bytes)),
        /*constant=*/true, /*alignment=*/nullptr);
    symbols.insert(global); // renames it to a unique name
    globals[text] = global;
  }
  Value memref = memref::GetGlobalOp::create(b, loc, global.getType(),
                                             global.getSymName());
  return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
}

} // namespace gpu_runner
