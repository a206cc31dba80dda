//===- CheckIntegerWidths.cpp - Integers that LLVM can represent ----------===//
//
// See the description of gpu-runner-check-integer-widths in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "llvm/IR/DerivedTypes.h"

namespace gpu_runner {
#define GEN_PASS_DEF_CHECKINTEGERWIDTHS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

constexpr unsigned kMaxIntegerWidth = llvm::IntegerType::MAX_INT_BITS;

bool hasLLVMWidth(IntegerType type) {
  return type.getWidth() >= llvm::IntegerType::MIN_INT_BITS &&
         type.getWidth() <= kMaxIntegerWidth;
}

/// The first integer type in `type`, or in a type it is made of, that LLVM
/// cannot represent.
IntegerType findInvalidInteger(Type type) {
  IntegerType invalid;
  type.walk([&](IntegerType integer) {
    if (!invalid && !hasLLVMWidth(integer))
      invalid = integer;
  });
  return invalid;
}

/// The same in what `op` makes or holds: its results, its regions'
/// arguments, and the types in its attributes (a function's signature, a
/// constant's value).
IntegerType findInvalidInteger(Operation *op) {
  for (Type type : op->getResultTypes())
    if (IntegerType invalid = findInvalidInteger(type))
      return invalid;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Type type : block.getArgumentTypes())
        if (IntegerType invalid = findInvalidInteger(type))
          return invalid;
  IntegerType invalid;
  op->getAttrDictionary().walk([&](Type type) {
    if (!invalid)
      if (auto integer = dyn_cast<IntegerType>(type);
          integer && !hasLLVMWidth(integer))
        invalid = integer;
  });
  return invalid;
}

class CheckIntegerWidthsPass
    : public impl::CheckIntegerWidthsBase<CheckIntegerWidthsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      IntegerType invalid = findInvalidInteger(op);
      if (!invalid)
        return;
      InFlightDiagnostic error = op->emitError()
                                 << "'" << op->getName() << "' uses " << invalid
                                 << ", which LLVM cannot represent: ";
      if (invalid.getWidth() == 0)
        error << "its integers have at least 1 bit";
      else
        error << "its integers have at most " << kMaxIntegerWidth << " bits";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
