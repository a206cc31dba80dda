//===- AsyncGpuRegions.cpp - gpu-async-region where async regions are ----===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

namespace gpu_runner {
#define GEN_PASS_DEF_ASYNCGPUREGIONS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

class AsyncGpuRegionsPass
    : public impl::AsyncGpuRegionsBase<AsyncGpuRegionsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    OpPassManager pipeline(func::FuncOp::getOperationName());
    pipeline.addPass(createGpuAsyncRegionPass());
    SmallVector<func::FuncOp> functions;
    for (auto function : getOperation().getOps<func::FuncOp>())
      if (function
              .walk([](async::ExecuteOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        functions.push_back(function);
    for (func::FuncOp function : functions)
      if (failed(runPipeline(pipeline, function)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
