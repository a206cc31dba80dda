//===- KernelJobs.cpp - gpu.modules compiled on threads of their own ------===//

#include "runner/compiler/CompilerSteps.h"

#include "lowering/Pipeline.h"
#include "lowering/device/DeviceBinaries.h"
#include "lowering/device/ModuleToBinaryWithIR.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace gpu_runner {

namespace {

/// The format the kernel pipeline compiles gpu.modules to on `options`'
/// backend.
gpu::CompilationTarget getKernelObjectFormat(const CompileOptions &options) {
  if (options.backend == Backend::Cuda &&
      options.pipeline.cudaToolkitPath.empty())
    return gpu::CompilationTarget::Assembly;
  return options.backend == Backend::Cuda ? gpu::CompilationTarget::Fatbin
                                          : gpu::CompilationTarget::Binary;
}

/// Compiles the gpu.module in `bytecode` (a module holding it, as MLIR
/// bytecode) with the kernel pipeline. Its messages quote `source`.
KernelResult compileKernels(const std::string &bytecode,
                            llvm::MemoryBufferRef source,
                            const CompileOptions &options,
                            TimingScope &timing) {
  KernelResult result;
  DialectRegistry registry;
  registerProgramDialects(registry, options);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(source),
                               llvm::SMLoc());
  llvm::raw_string_ostream diagnosticStream(result.diagnostics);
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, diagnosticStream);

  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(bytecode, ParserConfig(&context));
  if (!module)
    return result;
  if (failed(runPipeline(
          *module,
          [&](OpPassManager &pm) {
            buildKernelPipeline(pm, options.backend, options.pipeline);
          },
          /*printAfterAll=*/false, timing)))
    return result;
  for (auto binary : module->getOps<gpu::BinaryOp>()) {
    GpuBinary compiled;
    compiled.name = binary.getName().str();
    compiled.object =
        getLoadableDeviceObject(cast<gpu::ObjectAttr>(binary.getObjects()[0]));
    if (auto ir = binary->getAttrOfType<StringAttr>(kKernelIRAttrName))
      compiled.kernelIR = ir.getValue().str();
    result.binaries.push_back(std::move(compiled));
  }
  result.status = success();
  return result;
}

} // namespace

std::vector<KernelJob> startKernelJobs(ModuleOp module,
                                       llvm::MemoryBufferRef source,
                                       const CompileOptions &options,
                                       TimingScope &timing) {
  std::vector<KernelJob> jobs;
  auto gpuModules = llvm::to_vector(module.getOps<gpu::GPUModuleOp>());
  for (gpu::GPUModuleOp gpuModule : gpuModules)
    if (!gpuModule.getTargetsAttr() || gpuModule.getTargetsAttr().size() != 1)
      return jobs;

  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  for (gpu::GPUModuleOp gpuModule : gpuModules) {
    // The gpu.module, in a module of its own, as bytecode for the job.
    OwningOpRef<ModuleOp> holder = ModuleOp::create(gpuModule.getLoc());
    (*holder)->setAttrs(module->getAttrs());
    builder.setInsertionPointToEnd(holder->getBody());
    builder.clone(*gpuModule);
    std::string bytecode;
    llvm::raw_string_ostream os(bytecode);
    if (failed(writeBytecodeToFile(*holder, os)))
      return {};

    KernelJob job;
    job.name = gpuModule.getName().str();
    job.result =
        std::async(std::launch::async,
                   [bytecode = std::move(bytecode), source, &options,
                    scope = timing.nest("GPU kernel compilation")]() mutable {
                     KernelResult result =
                         compileKernels(bytecode, source, options, scope);
                     scope.stop(); // Not when the future that holds it goes.
                     return result;
                   });
    jobs.push_back(std::move(job));

    builder.setInsertionPoint(gpuModule);
    auto object = gpu::ObjectAttr::get(
        context, gpuModule.getTargetsAttr()[0], getKernelObjectFormat(options),
        builder.getStringAttr(""), DictionaryAttr(), gpu::KernelTableAttr());
    auto binary =
        gpu::BinaryOp::create(builder, gpuModule.getLoc(), gpuModule.getName(),
                              Attribute(), builder.getArrayAttr({object}));
    binary->setAttr(kExternalObjectAttrName, builder.getUnitAttr());
    // The CUDA and HIP pipelines keep each binary's kernel IR.
    if (options.backend == Backend::Cuda || options.backend == Backend::Hip)
      binary->setAttr(kExternalKernelIRAttrName, builder.getUnitAttr());
    gpuModule.erase();
  }
  return jobs;
}

LogicalResult finishKernelJobs(std::vector<KernelJob> &jobs,
                               CompiledProgram &program) {
  bool ok = true;
  for (KernelJob &job : jobs) {
    KernelResult result = job.result.get();
    llvm::errs() << result.diagnostics;
    ok &= succeeded(result.status);
    for (GpuBinary &binary : result.binaries)
      program.gpuBinaries.push_back(std::move(binary));
  }
  return success(ok);
}

} // namespace gpu_runner
