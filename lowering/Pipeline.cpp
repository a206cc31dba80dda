//===- Pipeline.cpp - The lowering pipeline of each backend ---------------===//

#include "lowering/Pipeline.h"

#include "lowering/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/AsyncToLLVM/AsyncToLLVM.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/Async/Passes.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

using namespace mlir;

namespace gpu_runner {

StringRef getBackendName(Backend backend) {
  switch (backend) {
  case Backend::Host:
    return "host";
  }
  llvm_unreachable("unknown backend");
}

void registerInputDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  async::AsyncDialect, cf::ControlFlowDialect,
                  complex::ComplexDialect, DLTIDialect, func::FuncDialect,
                  gpu::GPUDialect, index::IndexDialect, linalg::LinalgDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect, ub::UBDialect, vector::VectorDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void registerPipelinePasses() {
  registerGpuRunnerPasses();
  PassPipelineRegistration<>(
      "gpu-runner-host-pipeline",
      "The whole lowering gpu-runner-host runs before translation",
      [](OpPassManager &pm) { buildLoweringPipeline(pm, Backend::Host); });
  registerGpuKernelOutliningPass();
  registerConvertLinalgToLoopsPass();
  registerConvertComplexToStandardPass();
  registerConvertMathToFuncs();
  registerAsyncToAsyncRuntimePass();
  registerAsyncRuntimeRefCountingPass();
  registerConvertAsyncToLLVMPass();
  math::registerMathExpandOpsPass();
  registerLowerAffinePass();
  registerConvertVectorToSCF();
  registerSCFToControlFlowPass();
  memref::registerExpandReallocPass();
  memref::registerExpandStridedMetadataPass();
  arith::registerArithExpandOpsPass();
  registerReconcileUnrealizedCastsPass();
}

void buildLoweringPipeline(OpPassManager &pm, Backend backend,
                           const PipelineOptions &options) {
  // Kernels: outline inline launches, reduce reductions to shuffles and
  // barriers, then compile every kernel into host functions.
  pm.addPass(createGpuKernelOutliningPass());
  if (options.checkBounds)
    pm.addNestedPass<gpu::GPUModuleOp>(createCheckBounds());
  pm.addNestedPass<gpu::GPUModuleOp>(createLowerGpuReductions());
  pm.addPass(createHostKernels(HostKernelsOptions{options.splitBarriers}));
  // gpu ops in async.execute regions become asynchronous on tokens.
  pm.addPass(createAsyncGpuRegions());
  // Dynamic sizes of host and kernel allocations, checked when they run.
  pm.addPass(createCheckAllocSizes());
  // Host dialects down to what converts to LLVM directly.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandReallocPass());
  pm.addPass(createConvertComplexToStandardPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createLowerVectorOps());
  // clampf is the one math op without an LLVM or libm lowering.
  pm.addPass(math::createMathExpandOpsPass(
      math::MathExpandOpsPassOptions{{"clampf"}}));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(arith::createArithExpandOpsPass());
  // Everything to LLVM but the async ops, whose values it converts...
  pm.addPass(createGpuToLLVM());
  // ...then async regions become coroutines on the async runtime, and what
  // that lowering makes (functions, branches) goes to LLVM too.
  pm.addPass(createAsyncToAsyncRuntimePass());
  pm.addPass(createAsyncRuntimeRefCountingPass());
  pm.addPass(createConvertAsyncToLLVMPass());
  pm.addPass(createGpuToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCheckLowered());
}

} // namespace gpu_runner
