//===- Pipeline.cpp - The lowering pipeline of each backend ---------------===//

#include "lowering/Pipeline.h"

#include "lowering/ExpandArith.h"
#include "lowering/Passes.h"
#include "lowering/checks/CheckLaunchSizes.h"
#include "lowering/device/DeviceAsserts.h"
#include "lowering/device/MathToOcml.h"
#include "lowering/device/ModuleToBinaryWithIR.h"
#include "lowering/device/Shuffles.h"
#include "lowering/device/Targets.h"
#include "lowering/device/WorkgroupMemory.h"

#include "mlir/Conversion/AMDGPUToROCDL/AMDGPUToROCDL.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/AsyncToLLVM/AsyncToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/GPUToROCDL/Runtimes.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
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
#include "mlir/Dialect/Linalg/Transforms/RuntimeOpVerification.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/RuntimeOpVerification.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include <cstdlib>
#include <unistd.h>

using namespace mlir;

namespace gpu_runner {

void registerPipelinePasses() {
  registerGpuRunnerPasses();
  registerCheckLaunchSizes();
  registerExpandArith();
  registerShuffleToNVVM();
  registerShuffleToROCDL();
  registerAssertToROCDL();
  registerWorkgroupMemory();
  registerMathToOcml();
  registerModuleToBinaryWithIR();
  PassPipelineRegistration<>(
      "gpu-runner-host-pipeline",
      "The whole lowering gpu-runner-host runs before translation",
      [](OpPassManager &pm) { buildLoweringPipeline(pm, Backend::Host); });
  PassPipelineRegistration<>(
      "gpu-runner-cuda-pipeline",
      "The whole lowering gpu-runner-cuda runs before translation, for sm_90 "
      "with the toolkit that findCudaToolkit finds",
      [](OpPassManager &pm) {
        PipelineOptions options;
        options.cudaToolkitPath = findCudaToolkit();
        buildLoweringPipeline(pm, Backend::Cuda, options);
      });
  PassPipelineRegistration<>(
      "gpu-runner-hip-pipeline",
      "The whole lowering gpu-runner-hip runs before translation, for gfx90a "
      "with the ROCm layout that findRocmPath finds",
      [](OpPassManager &pm) {
        PipelineOptions options;
        options.gpuChip = kDefaultHipChip.str();
        if (auto path = findRocmPath())
          options.rocmPath = *path;
        else
          llvm::consumeError(path.takeError());
        buildLoweringPipeline(pm, Backend::Hip, options);
      });
  registerGpuNVVMAttachTarget();
  registerGpuROCDLAttachTarget();
  registerConvertGpuOpsToROCDLOpsPass();
  registerGpuModuleToBinaryPass();
  registerConvertGpuOpsToNVVMOpsPass();
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

namespace {

/// The kernels' own dialects down to what the GPU targets' conversions take.
/// Each pass comes after those that make the ops it lowers: vector-to-scf
/// makes the transfers of rank 1 that gpu-runner-lower-vector-ops lowers
/// (the targets' conversions do not), it and expand-strided-metadata make
/// affine.apply, lower-affine scf loops.
void addKernelDialectPasses(OpPassManager &kernels) {
  kernels.addPass(createConvertComplexToStandardPass());
  kernels.addPass(math::createMathExpandOpsPass(
      math::MathExpandOpsPassOptions{{"clampf"}}));
  kernels.addPass(createLowerVectorMasks());
  kernels.addPass(createConvertVectorToSCFPass());
  kernels.addPass(createLowerVectorOps());
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createExpandArith());
  kernels.addPass(createLowerFloatAtomics());
}

/// Compiles every gpu.module, its NVVM target attached, into a gpu.binary.
void buildCudaKernelPipeline(OpPassManager &pm,
                             const PipelineOptions &options) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  // The ops upstream's NVVM lowering lacks, by name, before anything.
  kernels.addPass(createRefuseTargetOps(RefuseTargetOpsOptions{/*nvvm=*/true}));
  kernels.addPass(createLowerWarpExecute(
      LowerWarpExecuteOptions{/*subgroupSize=*/32, /*target=*/"nvvm"}));
  // Subgroup reductions become shuffles as on the host.
  kernels.addPass(createLowerGpuReductions(LowerGpuReductionsOptions{
      /*subgroupSize=*/32, /*shuffleBitwidth=*/32, /*lowerSubgroupId=*/true}));
  // Which upstream's NVVM lowering lacks; ROCDL's has it.
  kernels.addPass(createSubgroupBroadcastToNVVM());
  // Shuffles, which upstream's NVVM lowering lets lanes outside the member
  // mask execute, and up shuffles, which it gets wrong below a width of 32.
  kernels.addPass(createShuffleToNVVM());
  // The dynamic shared memory's size, which upstream's gives as 0.
  kernels.addPass(createDynamicSharedSizeToNVVM());
  addKernelDialectPasses(kernels);
  // NVIDIA's own ops (mma.sync, ldmatrix, cp.async, TMA, mbarrier, wgmma).
  kernels.addPass(createConvertNVGPUToNVVMPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  // The NVVM ops that are PTX written inline (mbarrier waits, TMA, wgmma).
  kernels.addPass(createConvertNVVMToLLVMPass());
  // Shared variables aligned as LLVM's optimizer assumes they are.
  kernels.addPass(createAlignSharedGlobals());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  kernels.addPass(createTrapUnreachable());

  // Upstream's gpu-module-to-binary, each binary also keeping its module's
  // final LLVM IR for a driver stand-in (ModuleToBinaryWithIR.h).
  ModuleToBinaryWithIROptions binary;
  binary.toolkitPath = options.cudaToolkitPath;
  // Without ptxas, PTX that the driver compiles when the module is loaded.
  binary.compilationTarget = options.cudaToolkitPath.empty() ? "isa" : "fatbin";
  pm.addPass(createModuleToBinaryWithIR(binary));
}

/// Compiles every gpu.module, its ROCDL target attached, into a gpu.binary
/// holding an AMDGPU code object.
void buildHipKernelPipeline(OpPassManager &pm, const PipelineOptions &options) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  // The ops upstream's ROCDL lowering lacks, by name, before anything.
  kernels.addPass(createRefuseTargetOps());
  kernels.addPass(createLowerWarpExecute(LowerWarpExecuteOptions{
      /*subgroupSize=*/getAmdgpuWaveSize(options.gpuChip),
      /*target=*/"rocdl"}));
  kernels.addPass(createLowerGpuReductions(LowerGpuReductionsOptions{
      /*subgroupSize=*/getAmdgpuWaveSize(options.gpuChip),
      /*shuffleBitwidth=*/32,
      /*lowerSubgroupId=*/true}));
  // Shuffles, which upstream's ROCDL lowering calls valid where the
  // dialect does not, after the reductions that make them.
  kernels.addPass(createShuffleToROCDL(getAmdgpuWaveSize(options.gpuChip)));
  // The dynamic shared memory's size, which upstream's gives as 0.
  kernels.addPass(createDynamicSharedSizeToROCDL());
  // Which upstream's ROCDL lowering lacks: HIP's own device assert, after
  // the passes that make asserts.
  kernels.addPass(createAssertToROCDL());
  addKernelDialectPasses(kernels);
  // Before convert-gpu-to-rocdl, whose math lowering makes LLVM intrinsics
  // that the AMDGPU code generator cannot compile (MathToOcml.cpp).
  kernels.addPass(createMathToOcml(options.gpuChip));
  // AMD's own ops (buffer loads, mfma, wmma, LDS barriers), for the chip.
  ConvertAMDGPUToROCDLPassOptions amdgpu;
  amdgpu.chipset = options.gpuChip;
  kernels.addPass(createConvertAMDGPUToROCDLPass(amdgpu));
  ConvertGpuOpsToROCDLOpsOptions rocdl;
  rocdl.chipset = options.gpuChip;
  rocdl.runtime = gpu::amd::Runtime::HIP;
  kernels.addPass(createConvertGpuOpsToROCDLOps(rocdl));
  kernels.addPass(createReconcileUnrealizedCastsPass());
  kernels.addPass(createTrapUnreachable());

  // As the CUDA pipeline: each binary also keeps its module's final LLVM
  // IR, for a runtime stand-in, and LLVM's errors while it compiles a
  // module become the module's (ModuleToBinaryWithIR.h).
  ModuleToBinaryWithIROptions binary;
  binary.toolkitPath = options.rocmPath;
  binary.compilationTarget = "bin";
  pm.addPass(createModuleToBinaryWithIR(binary));
}

} // namespace

void buildOutliningPipeline(OpPassManager &pm, Backend backend,
                            const PipelineOptions &options) {
  // Types and formats are checked, and printf's arguments promoted, for
  // every backend alike.
  pm.addPass(createCheckIntegerWidths());
  pm.addPass(createCheckPrintf());
  pm.addPass(createGpuKernelOutliningPass());
  // While the kernels' known sizes are there to read, on every backend.
  pm.addPass(createCheckLaunchSizes());
  switch (backend) {
  case Backend::Host:
    break;
  case Backend::Cuda: {
    GpuNVVMAttachTargetOptions target;
    target.chip = options.gpuChip;
    target.features = options.gpuFeatures;
    target.optLevel = options.gpuOptLevel;
    pm.addPass(createGpuNVVMAttachTarget(target));
    break;
  }
  case Backend::Hip: {
    GpuROCDLAttachTargetOptions target;
    target.chip = options.gpuChip;
    target.optLevel = options.gpuOptLevel;
    target.wave64Flag = getAmdgpuWaveSize(options.gpuChip) == 64;
    // Code object version 4: what the HIP runtime of ROCm 5 loads.
    target.abiVersion = "400";
    pm.addPass(createGpuROCDLAttachTarget(target));
    break;
  }
  }
}

void buildKernelPipeline(OpPassManager &pm, Backend backend,
                         const PipelineOptions &options) {
  switch (backend) {
  case Backend::Host:
    return; // The host pipeline compiles kernels with the host code.
  case Backend::Cuda:
    buildCudaKernelPipeline(pm, options);
    break;
  case Backend::Hip:
    buildHipKernelPipeline(pm, options);
    break;
  }
  if (!options.dumpGpuBinaryDir.empty())
    pm.addPass(createDumpGpuBinaries(
        DumpGpuBinariesOptions{options.dumpGpuBinaryDir}));
}

void buildHostPipeline(OpPassManager &pm, Backend backend,
                       const PipelineOptions &options) {
  // vector.mask around transfers becomes their masked forms, first: the
  // checks below would put their own ops inside it, which it does not take.
  pm.addPass(createLowerVectorMasks());
  // The host code's memref ops checked when they run, on every backend,
  // before anything else rewrites them.
  bool memcheck = options.checks.has(Check::Memcheck);
  if (memcheck)
    pm.addPass(createVerifyHostCode());
  if (backend == Backend::Host) {
    // The host backend's device memory is the host's: the host code must
    // not touch it, as it cannot on a GPU (memcheck), nor memory that a
    // stream's op not waited for touches (racecheck); what it writes of
    // host_shared memory is written (initcheck).
    if (memcheck || options.checks.has(Check::Racecheck) ||
        options.checks.has(Check::Initcheck))
      pm.addPass(createCheckHostAccesses());
    // The kernels' accesses go through the runtime's checks, and under
    // racecheck so do their barriers: the user's, before the warp execution
    // regions become what runs them, whose lanes meet at the host's own
    // points.
    bool racecheck = options.checks.has(Check::Racecheck);
    if (memcheck || racecheck || options.checks.has(Check::Initcheck))
      pm.addNestedPass<gpu::GPUModuleOp>(
          createCheckBounds(CheckBoundsOptions{/*markBarriers=*/racecheck}));
    // Reduce reductions to shuffles and barriers, then compile every
    // kernel into host functions.
    pm.addNestedPass<gpu::GPUModuleOp>(createLowerWarpExecute(
        LowerWarpExecuteOptions{/*subgroupSize=*/32, /*target=*/"host"}));
    LowerGpuReductionsOptions reductions;
    reductions.sequentialLanes = true;
    pm.addNestedPass<gpu::GPUModuleOp>(createLowerGpuReductions(reductions));
    pm.addPass(createHostKernels(
        HostKernelsOptions{options.splitBarriers, options.subgroupVectors}));
  }
  // gpu ops in async.execute regions become asynchronous on tokens.
  pm.addPass(createAsyncGpuRegions());
  // What is not async leaves the async.execute bodies before loops and
  // assertions become blocks, which a body, made a coroutine, may not have.
  pm.addPass(createOutlineAsyncBodies());
  // Dynamic sizes of host and kernel allocations, checked when they run.
  pm.addPass(createCheckAllocSizes());
  // Host dialects down to what converts to LLVM directly. Each pass comes
  // after those that make the ops it lowers: linalg-to-loops, vector-to-scf
  // and expand-strided-metadata make affine.apply; complex-to-standard makes
  // math ops; those and lower-affine make scf ops.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandReallocPass());
  pm.addPass(createConvertComplexToStandardPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createLowerVectorOps());
  // clampf is the one math op without an LLVM or libm lowering.
  pm.addPass(math::createMathExpandOpsPass(
      math::MathExpandOpsPassOptions{{"clampf"}}));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createExpandArith());
  pm.addPass(createEmulateSmallFloats());
  // Everything to LLVM but the async ops, whose values it converts...
  pm.addPass(createGpuToLLVM());
  // ...then async regions become coroutines on the async runtime, and what
  // that lowering makes (functions, branches) goes to LLVM too.
  pm.addPass(createMergeAsyncOperands());
  pm.addPass(createAsyncToAsyncRuntimePass());
  pm.addPass(createAsyncRuntimeRefCountingPass());
  pm.addPass(createConvertAsyncToLLVMPass());
  pm.addPass(createGpuToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCheckLowered());
}

void buildLoweringPipeline(OpPassManager &pm, Backend backend,
                           const PipelineOptions &options) {
  buildOutliningPipeline(pm, backend, options);
  buildKernelPipeline(pm, backend, options);
  buildHostPipeline(pm, backend, options);
}

} // namespace gpu_runner
