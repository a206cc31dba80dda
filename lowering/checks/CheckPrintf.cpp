//===- CheckPrintf.cpp - The formats and arguments of gpu.printf ----------===//
//
// See the description of gpu-runner-check-printf in Passes.td; the rules
// are in PrintfFormat.h. It runs before the backends' lowerings part, so
// that a format is refused, and arguments are promoted, the same way
// whether libc, CUDA's vprintf or HIP's hostcall printf prints them.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/checks/PrintfFormat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpu_runner {
#define GEN_PASS_DEF_CHECKPRINTF
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

PrintfArgument describeArgument(Type type) {
  PrintfArgument argument;
  llvm::raw_string_ostream(argument.typeName) << type;
  if (type.isIndex()) {
    argument.kind = PrintfArgument::Kind::Index;
    argument.bits = 64;
  } else if (auto integer = dyn_cast<IntegerType>(type);
             integer && integer.isSignless()) {
    argument.kind = PrintfArgument::Kind::Integer;
    argument.bits = integer.getWidth();
  } else if (type.isF16() || type.isBF16() || type.isF32() || type.isF64()) {
    argument.kind = PrintfArgument::Kind::Float;
    argument.bits = type.getIntOrFloatBitWidth();
  }
  return argument;
}

class CheckPrintfPass : public impl::CheckPrintfBase<CheckPrintfPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](gpu::PrintfOp op) {
      SmallVector<PrintfArgument> arguments;
      for (Type type : op.getArgs().getTypes())
        arguments.push_back(describeArgument(type));
      if (llvm::Error error = checkPrintfFormat(op.getFormat(), arguments)) {
        op.emitError() << "'gpu.printf' cannot print this format: "
                       << llvm::toString(std::move(error));
        failed = true;
        return;
      }
      promoteArguments(op);
    });
    if (failed)
      signalPassFailure();
  }

private:
  /// C's integer promotions, done here once for every backend: upstream's
  /// NVVM lowering would store an i8 in one byte of vprintf's buffer where
  /// "%d" reads four, and HIP's would zero-extend it. Signless integers
  /// are sign-extended, i1 (a bool) zero-extended.
  void promoteArguments(gpu::PrintfOp op) {
    OpBuilder b(op);
    Type i32 = b.getI32Type();
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<IntegerType>(operand.get().getType());
      if (!type || type.getWidth() >= 32)
        continue;
      Value promoted =
          type.getWidth() == 1
              ? arith::ExtUIOp::create(b, op.getLoc(), i32, operand.get())
                    .getResult()
              : arith::ExtSIOp::create(b, op.getLoc(), i32, operand.get())
                    .getResult();
      operand.set(promoted);
    }
  }
};

} // namespace
} // namespace gpu_runner
