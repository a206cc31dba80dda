//===- Pipeline.cpp - The lowering pipeline of each backend ---------------===//

#include "lowering/Pipeline.h"

#include "lowering/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
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
                  cf::ControlFlowDialect, complex::ComplexDialect, DLTIDialect,
                  func::FuncDialect, gpu::GPUDialect, index::IndexDialect,
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
  registerLowerAffinePass();
  registerConvertVectorToSCF();
  registerSCFToControlFlowPass();
  memref::registerExpandStridedMetadataPass();
  arith::registerArithExpandOpsPass();
  registerReconcileUnrealizedCastsPass();
}

void buildLoweringPipeline(OpPassManager &pm, Backend backend,
                           const PipelineOptions &options) {
  // Kernels: outline inline launches, reduce reductions to shuffles and
  // barriers, then compile every kernel into host functions.
  pm.addPass(createGpuKernelOutliningPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createLowerGpuReductions());
  pm.addPass(createHostKernels(HostKernelsOptions{options.splitBarriers}));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createGpuToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCheckLowered());
}

} // namespace gpu_runner
