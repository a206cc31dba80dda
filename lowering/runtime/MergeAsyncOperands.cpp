//===- MergeAsyncOperands.cpp - Pass each value to async.execute once -----===//
//
// async-to-async-runtime outlines an async.execute into a function whose
// parameters are the distinct values the region needs, then reads the body
// operands back at fixed positions after the dependencies. A repeated
// operand breaks that arithmetic; this pass removes the repeats first.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Async/IR/Async.h"
#include "llvm/ADT/SetVector.h"

namespace gpu_runner {
#define GEN_PASS_DEF_MERGEASYNCOPERANDS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// Keeps the first of each repeated dependency token.
void mergeRepeatedDependencies(async::ExecuteOp execute) {
  llvm::SetVector<Value> unique(llvm::from_range, execute.getDependencies());
  if (unique.size() != execute.getDependencies().size())
    execute.getDependenciesMutable().assign(unique.getArrayRef());
}

/// Keeps the first of each repeated body operand; the region argument of a
/// repeat is replaced by the first one's, which holds the same value.
void mergeRepeatedBodyOperands(async::ExecuteOp execute) {
  Block &body = execute.getBodyRegion().front();
  llvm::SmallDenseMap<Value, BlockArgument> firstArgument;
  SmallVector<unsigned> repeats;
  for (auto [index, operand] : llvm::enumerate(execute.getBodyOperands())) {
    auto [first, inserted] =
        firstArgument.try_emplace(operand, body.getArgument(index));
    if (inserted)
      continue;
    body.getArgument(index).replaceAllUsesWith(first->second);
    repeats.push_back(index);
  }
  for (unsigned index : llvm::reverse(repeats)) {
    execute.getBodyOperandsMutable().erase(index);
    body.eraseArgument(index);
  }
}

class MergeAsyncOperandsPass
    : public impl::MergeAsyncOperandsBase<MergeAsyncOperandsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([](async::ExecuteOp execute) {
      mergeRepeatedDependencies(execute);
      mergeRepeatedBodyOperands(execute);
    });
  }
};

} // namespace
} // namespace gpu_runner
