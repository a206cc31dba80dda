//===- Pipeline.cpp - The lowering pipeline of each backend ---------------===//

#include "lowering/Pipeline.h"

#include "lowering/Passes.h"

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
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

StringRef getBackendName(Backend backend) {
  switch (backend) {
  case Backend::Host:
    return "host";
  case Backend::Cuda:
    return "cuda";
  case Backend::Hip:
    return "hip";
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
  // What compiling kernels for a GPU target needs: the conversions that the
  // NVVM lowering of a gpu.module applies to the dialects in it, ...
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertComplexToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  // ... and the translation and serialization of its result.
  registerNVVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
  ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
  registerGPUDialectTranslation(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

std::string getPtxFeaturesForChip(StringRef chip) {
  unsigned version = 0;
  StringRef digits = chip;
  if (!digits.consume_front("sm_"))
    return "";
  char suffix = 0;
  if (digits.ends_with("a") || digits.ends_with("f")) {
    suffix = digits.back();
    digits = digits.drop_back();
  }
  if (digits.getAsInteger(10, version) || version < 75)
    return "";
  // The first PTX ISA version of each chip, from the PTX ISA's release
  // notes; sm_90 takes 8.0, as LLVM's NVPTX backend pairs them.
  static const std::pair<unsigned, unsigned> firstPtx[] = {
      {75, 64},  {80, 70},  {86, 71},  {87, 74},  {89, 78},  {90, 80},
      {100, 86}, {101, 86}, {103, 88}, {110, 90}, {120, 87}, {121, 88},
  };
  unsigned ptx = 0;
  for (auto [first, isa] : firstPtx)
    if (first <= version)
      ptx = std::max(ptx, isa);
  // The architecture- and family-specific variants came with PTX 8.0
  // (sm_90a) and 8.6 (the others), or with the chip itself.
  if (suffix)
    ptx = std::max(ptx, version == 90 ? 80u : 86u);
  return "+ptx" + std::to_string(ptx);
}

bool isAmdgpuChip(StringRef chip) {
  StringRef version = chip;
  return version.consume_front("gfx") && version.size() >= 3 &&
         llvm::all_of(version, llvm::isHexDigit);
}

unsigned getAmdgpuWaveSize(StringRef chip) {
  return chip.starts_with("gfx9") && chip.size() == 6 ? 64 : 32;
}

llvm::Expected<std::string> findRocmPath() {
  auto isRocmLayout = [](StringRef root) {
    SmallString<256> bitcode(root), lld(root);
    llvm::sys::path::append(bitcode, "amdgcn", "bitcode");
    llvm::sys::path::append(lld, "llvm", "bin", "ld.lld");
    return llvm::sys::fs::is_directory(bitcode) &&
           llvm::sys::fs::can_execute(lld);
  };
  if (const char *path = std::getenv("ROCM_PATH"); path && *path) {
    if (isRocmLayout(path))
      return std::string(path);
  }
  if (isRocmLayout("/opt/rocm"))
    return std::string("/opt/rocm");

  // Debian's packages put the pieces elsewhere: link them into the layout.
  StringRef amdgcn;
  for (StringRef candidate :
       {"/usr/lib/x86_64-linux-gnu/amdgcn", "/usr/lib/aarch64-linux-gnu/amdgcn",
        "/usr/lib/amdgcn"})
    if (llvm::sys::fs::is_directory(candidate + "/bitcode")) {
      amdgcn = candidate;
      break;
    }
  if (amdgcn.empty())
    return llvm::createStringError(
        "the ROCm device libraries are not installed (no amdgcn/bitcode "
        "under $ROCM_PATH, /opt/rocm or /usr/lib): install rocm-device-libs, "
        "or set ROCM_PATH");
  StringRef lld;
  for (StringRef candidate :
       {"/usr/lib/llvm-22/bin/ld.lld", "/usr/bin/ld.lld-22", "/usr/bin/ld.lld"})
    if (llvm::sys::fs::can_execute(candidate)) {
      lld = candidate;
      break;
    }
  if (lld.empty())
    return llvm::createStringError(
        "ld.lld is not installed: install lld-22, or set ROCM_PATH");

  SmallString<256> root;
  llvm::sys::path::system_temp_directory(/*erasedOnReboot=*/true, root);
  llvm::sys::path::append(root,
                          "gpu-runner-rocm-" + std::to_string(::getuid()));
  SmallString<256> bin(root);
  llvm::sys::path::append(bin, "llvm", "bin");
  if (std::error_code error = llvm::sys::fs::create_directories(bin))
    return llvm::createStringError("cannot create " + bin + ": " +
                                   error.message());
  SmallString<256> amdgcnLink(root), lldLink(bin);
  llvm::sys::path::append(amdgcnLink, "amdgcn");
  llvm::sys::path::append(lldLink, "ld.lld");
  // Links made by a concurrent run are as good as ours.
  const std::pair<StringRef, StringRef> links[] = {{amdgcn, amdgcnLink},
                                                   {lld, lldLink}};
  for (auto [target, link] : links) {
    std::error_code error = llvm::sys::fs::create_link(target, link);
    if (error && error != std::errc::file_exists)
      return llvm::createStringError("cannot create the link " + link + ": " +
                                     error.message());
  }
  if (!isRocmLayout(root))
    return llvm::createStringError(
        root + " does not link to the ROCm device libraries and ld.lld; "
               "remove it, or set ROCM_PATH");
  return std::string(root);
}

std::string findCudaToolkit() {
  SmallVector<std::string, 2> candidates;
  if (const char *path = std::getenv("CUDA_PATH"); path && *path)
    candidates.push_back(path);
  candidates.push_back("/usr/local/cuda");
  for (const std::string &candidate : candidates) {
    SmallString<256> ptxas(candidate);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(ptxas))
      return candidate;
  }
  return "";
}

void registerPipelinePasses() {
  registerGpuRunnerPasses();
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
void addKernelDialectPasses(OpPassManager &kernels) {
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createConvertComplexToStandardPass());
  kernels.addPass(math::createMathExpandOpsPass(
      math::MathExpandOpsPassOptions{{"clampf"}}));
  kernels.addPass(createConvertVectorToSCFPass());
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(arith::createArithExpandOpsPass());
  kernels.addPass(createLowerFloatAtomics());
}

/// Compiles every gpu.module, its NVVM target attached, into a gpu.binary.
void buildCudaKernelPipeline(OpPassManager &pm,
                             const PipelineOptions &options) {
  // Subgroup reductions become shuffles as on the host.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createLowerGpuReductions(LowerGpuReductionsOptions{
      /*subgroupSize=*/32, /*shuffleBitwidth=*/32, /*lowerSubgroupId=*/true}));
  addKernelDialectPasses(kernels);
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.cudaToolkitPath;
  // Without ptxas, PTX that the driver compiles when the module is loaded.
  binary.compilationTarget = options.cudaToolkitPath.empty() ? "isa" : "fatbin";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

/// Compiles every gpu.module, its ROCDL target attached, into a gpu.binary
/// holding an AMDGPU code object.
void buildHipKernelPipeline(OpPassManager &pm, const PipelineOptions &options) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createLowerGpuReductions(LowerGpuReductionsOptions{
      /*subgroupSize=*/getAmdgpuWaveSize(options.gpuChip),
      /*shuffleBitwidth=*/32,
      /*lowerSubgroupId=*/true}));
  addKernelDialectPasses(kernels);
  ConvertGpuOpsToROCDLOpsOptions rocdl;
  rocdl.chipset = options.gpuChip;
  rocdl.runtime = gpu::amd::Runtime::HIP;
  kernels.addPass(createConvertGpuOpsToROCDLOps(rocdl));
  kernels.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.rocmPath;
  binary.compilationTarget = "bin";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

} // namespace

void buildOutliningPipeline(OpPassManager &pm, Backend backend,
                            const PipelineOptions &options) {
  pm.addPass(createGpuKernelOutliningPass());
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
  if (backend == Backend::Host) {
    // Reduce reductions to shuffles and barriers, then compile every
    // kernel into host functions.
    if (options.checkBounds)
      pm.addNestedPass<gpu::GPUModuleOp>(createCheckBounds());
    pm.addNestedPass<gpu::GPUModuleOp>(createLowerGpuReductions());
    pm.addPass(createHostKernels(HostKernelsOptions{options.splitBarriers}));
  }
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

void buildLoweringPipeline(OpPassManager &pm, Backend backend,
                           const PipelineOptions &options) {
  buildOutliningPipeline(pm, backend, options);
  buildKernelPipeline(pm, backend, options);
  buildHostPipeline(pm, backend, options);
}

} // namespace gpu_runner
