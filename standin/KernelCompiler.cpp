//===- KernelCompiler.cpp - NVVM IR compiled to run on the CPU ------------===//
//
// See KernelCompiler.h. ProgramBuilder rewrites the NVVM module in place, in
// this order: check it is NVVM IR and agrees with the image (here); give
// every function the thread context, lower the calls (NvvmLowering.cpp),
// lay out shared memory and move the other globals to host memory
// (KernelRewrite.cpp); check every memory access (KernelAccessChecks.cpp);
// add each kernel's entry (KernelRewrite.cpp); then hand the module, now for
// the host's triple and data layout, to LLJIT (here).
//
// The data layouts of NVPTX and x86-64 agree on the size and alignment of
// every type a kernel's IR has (64-bit pointers, i64 and i128 aligned to
// their size, vectors to theirs), so the offsets the NVVM optimizer folded
// into the IR stay right on the host.
//
//===----------------------------------------------------------------------===//

#include "standin/KernelCompiler.h"

#include "standin/AmdgpuLowering.h"
#include "standin/KernelRuntime.h"
#include "standin/ProgramBuilder.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace llvm;

namespace gpu_runner {
namespace standin {

//===----------------------------------------------------------------------===//
// Checks of the IR against the image.
//===----------------------------------------------------------------------===//

Error ProgramBuilder::checkTarget(std::string &message) {
  const Triple &triple = module.getTargetTriple();
  // An AMDGPU image's IR is AMDGPU IR (AmdgpuLowering.h).
  if (image.format == "code object" || image.format == "offload bundle") {
    if (!isAmdgpuModule(module)) {
      message = "the kernel IR is for '" + triple.str() +
                "', not amdgcn-amd-amdhsa: it is not the IR of an AMDGPU "
                "code object";
      return Error::InvalidImage;
    }
    // The waves of the code object's kernels, which one chip and mode made
    // alike; 64 where it has none.
    warpSize = image.kernels.empty() ? 64 : image.kernels[0].waveSize;
    for (const KernelInfo &kernel : image.kernels)
      if (kernel.waveSize != warpSize) {
        message = "the code object's kernels run in waves of different "
                  "sizes (" +
                  std::to_string(warpSize) + " and " +
                  std::to_string(kernel.waveSize) + ")";
        return Error::InvalidImage;
      }
    return Error::Success;
  }
  if (triple.getArch() != Triple::nvptx64) {
    message = "the kernel IR is for '" + triple.str() +
              "', not nvptx64-nvidia-cuda: it is not the IR of a CUDA image";
    return Error::InvalidImage;
  }
  return Error::Success;
}

Error ProgramBuilder::collectKernels(std::string &message) {
  std::set<Function *> found;
  for (Function &function : module)
    if (function.getCallingConv() == CallingConv::PTX_Kernel ||
        function.getCallingConv() == CallingConv::AMDGPU_KERNEL)
      found.insert(&function);
  // Older IR marks kernels in !nvvm.annotations: {function, "kernel", 1}.
  if (NamedMDNode *annotations = module.getNamedMetadata("nvvm.annotations"))
    for (MDNode *node : annotations->operands()) {
      if (node->getNumOperands() < 3)
        continue;
      auto *function =
          mdconst::dyn_extract_or_null<Function>(node->getOperand(0));
      auto *key = dyn_cast<MDString>(node->getOperand(1));
      if (function && key && key->getString() == "kernel")
        found.insert(function);
    }
  for (Function *function : found) {
    if (function->isDeclaration())
      continue;
    if (!function->getReturnType()->isVoidTy()) {
      message = "kernel '" + function->getName().str() +
                "' of the kernel IR returns a value";
      return Error::InvalidImage;
    }
    kernelNames.push_back(function->getName().str());
    kernels[function->getName().str()] = function;
    params[function->getName().str()] = getParams(*function);
  }
  return Error::Success;
}

KernelParams ProgramBuilder::getParams(Function &kernel) const {
  // Each parameter's bytes in the kernel's parameter space, and its
  // offset there: aligned to its own alignment, as PTX's .param space and
  // cuLaunchKernel's `extra` buffer lay them out.
  KernelParams result;
  uint64_t offset = 0;
  for (Argument &argument : kernel.args()) {
    uint64_t bytes = 0;
    Align alignment;
    if (Type *byval = argument.getParamByValType()) {
      bytes = dataLayout.getTypeAllocSize(byval);
      alignment =
          argument.getParamAlign().value_or(dataLayout.getABITypeAlign(byval));
    } else {
      bytes = dataLayout.getTypeAllocSize(argument.getType());
      alignment = dataLayout.getABITypeAlign(argument.getType());
    }
    offset = alignTo(offset, alignment);
    result.sizes.push_back(static_cast<uint32_t>(bytes));
    result.offsets.push_back(static_cast<uint32_t>(offset));
    offset += bytes;
  }
  result.bufferBytes = static_cast<uint32_t>(offset);
  return result;
}

Error ProgramBuilder::checkAgainstImage(std::string &message) {
  // The IR must be the image's: the same kernels, whose parameters have the
  // sizes the image lists where it lists them.
  if (image.namesKnown) {
    for (const KernelInfo &kernel : image.kernels)
      if (!kernels.count(kernel.name)) {
        message = "the image has kernel '" + kernel.name +
                  "', which the kernel IR lacks: the IR is not the image's";
        return Error::InvalidImage;
      }
    for (const std::string &name : kernelNames)
      if (!image.find(name)) {
        message = "the kernel IR has kernel '" + name +
                  "', which the image lacks: the IR is not the image's";
        return Error::InvalidImage;
      }
  }
  for (const KernelInfo &kernel : image.kernels) {
    if (!kernel.paramsKnown || !kernels.count(kernel.name))
      continue;
    const std::vector<uint32_t> &sizes = params[kernel.name].sizes;
    if (sizes.size() != kernel.paramSizes.size()) {
      message = "kernel '" + kernel.name + "' has " +
                std::to_string(kernel.paramSizes.size()) +
                " parameters in the image but " + std::to_string(sizes.size()) +
                " in the kernel IR";
      return Error::InvalidImage;
    }
    const std::vector<uint32_t> &offsets = params[kernel.name].offsets;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (i < kernel.paramOffsets.size() &&
          kernel.paramOffsets[i] != offsets[i]) {
        message = "parameter " + std::to_string(i) + " of kernel '" +
                  kernel.name + "' is at offset " +
                  std::to_string(kernel.paramOffsets[i]) +
                  " in the image but " + std::to_string(offsets[i]) +
                  " in the kernel IR";
        return Error::InvalidImage;
      }
      if (sizes[i] != kernel.paramSizes[i]) {
        message = "parameter " + std::to_string(i) + " of kernel '" +
                  kernel.name + "' has " +
                  std::to_string(kernel.paramSizes[i]) +
                  " bytes in the image but " + std::to_string(sizes[i]) +
                  " in the kernel IR";
        return Error::InvalidImage;
      }
    }
  }
  return Error::Success;
}

//===----------------------------------------------------------------------===//
// The whole rewrite, and the JIT.
//===----------------------------------------------------------------------===//

Error ProgramBuilder::build(std::string &message) {
  if (Error error = checkTarget(message); error != Error::Success)
    return error;
  if (isAmdgpuModule(module))
    prepareAmdgpuModule(module,
                        [this](const std::string &why) { refuse(why); });
  if (Error error = collectKernels(message); error != Error::Success)
    return error;
  if (Error error = checkAgainstImage(message); error != Error::Success)
    return error;
  LLVMContext &c = module.getContext();
  PointerType *ptr = PointerType::get(c, 0);
  Type *i64 = Type::getInt64Ty(c);
  contextType = StructType::create(
      c,
      {ArrayType::get(Type::getInt32Ty(c), kSpecialRegisterCount), ptr, i64,
       i64, i64, ptr, ptr},
      "gpu_runner.standin.ThreadContext");
  addContextParameters();
  scalarizeMaskedAccesses();
  lowerCalls();
  layOutSharedMemory();
  moveGlobals();
  for (Function &function : module)
    if (!function.isDeclaration())
      checkAccesses(function);
  findWaitingFunctions();
  for (const std::string &name : kernelNames)
    needsFibers[name] = waiting.count(kernels[name]) > 0;
  addEntries();
  finishModule();
  if (!unsupported.empty()) {
    message = "the kernel IR uses what the stand-in does not implement: ";
    for (size_t i = 0; i < unsupported.size() && i < 8; ++i)
      message += (i ? "; " : "") + unsupported[i];
    if (unsupported.size() > 8)
      message += "; and " + std::to_string(unsupported.size() - 8) + " more";
    return Error::KernelNotSupported;
  }
  std::string errors;
  raw_string_ostream stream(errors);
  if (verifyModule(module, &stream)) {
    message = "the stand-in rewrote the kernel IR into invalid IR (a bug of "
              "the stand-in): " +
              errors.substr(0, 2000);
    return Error::KernelNotSupported;
  }
  return Error::Success;
}

Error ProgramBuilder::compile(orc::ThreadSafeContext context,
                              std::unique_ptr<Module> owned,
                              std::string &message) {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
  auto fail = [&](llvm::Error error) {
    message = "the stand-in cannot compile the kernel IR for the host: " +
              toString(std::move(error));
    return Error::KernelNotSupported;
  };
  auto builder = orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return fail(builder.takeError());
  builder->setCodeGenOptLevel(CodeGenOptLevel::Default);
  auto layout = builder->getDefaultDataLayoutForTarget();
  if (!layout)
    return fail(layout.takeError());
  owned->setDataLayout(*layout);
  owned->setTargetTriple(builder->getTargetTriple());
  {
    // The rewrite leaves what the host's optimizer cleans up: the checks'
    // context loads, the entries' unpacking, the NVVM intrinsics' host
    // forms.
    auto machine = builder->createTargetMachine();
    if (!machine)
      return fail(machine.takeError());
    LoopAnalysisManager loops;
    FunctionAnalysisManager functions;
    CGSCCAnalysisManager sccs;
    ModuleAnalysisManager modules;
    PassBuilder passes(machine->get());
    passes.registerModuleAnalyses(modules);
    passes.registerCGSCCAnalyses(sccs);
    passes.registerFunctionAnalyses(functions);
    passes.registerLoopAnalyses(loops);
    passes.crossRegisterProxies(loops, functions, sccs, modules);
    ModulePassManager pipeline =
        passes.buildPerModuleDefaultPipeline(OptimizationLevel::O2);
    pipeline.run(*owned, modules);
  }
  auto jit = orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*builder))
                 .create();
  if (!jit)
    return fail(jit.takeError());
  orc::JITDylib &library = (*jit)->getMainJITDylib();
  orc::SymbolMap symbols;
  for (const RuntimeSymbol &symbol : getRuntimeSymbols())
    symbols[(*jit)->mangleAndIntern(
        std::string(GPU_RUNNER_STANDIN_RUNTIME_PREFIX) + symbol.name)] = {
        orc::ExecutorAddr::fromPtr(symbol.address), JITSymbolFlags::Exported};
  if (auto error = library.define(orc::absoluteSymbols(std::move(symbols))))
    return fail(std::move(error));
  // What the host's code generator calls (libm's functions for the math
  // intrinsics, memcpy): the process's own.
  auto generator = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator)
    return fail(generator.takeError());
  library.addGenerator(std::move(*generator));
  if (auto error = (*jit)->addIRModule(
          orc::ThreadSafeModule(std::move(owned), std::move(context))))
    return fail(std::move(error));

  for (const std::string &name : kernelNames) {
    auto address = (*jit)->lookup(kEntryPrefix + name);
    if (!address)
      return fail(address.takeError());
    CompiledKernel kernel;
    kernel.name = name;
    kernel.entry = address->toPtr<KernelEntry>();
    const KernelParams &layout = params[name];
    kernel.paramSizes = layout.sizes;
    kernel.paramOffsets = layout.offsets;
    kernel.paramBufferBytes = layout.bufferBytes;
    kernel.needsFibers = needsFibers[name];
    kernel.warpSize = warpSize;
    program.kernels.push_back(std::move(kernel));
  }
  for (const MovedGlobal &moved : movedGlobals) {
    auto address = (*jit)->lookup(moved.symbol);
    if (!address)
      return fail(address.takeError());
    GlobalRange range;
    range.begin = address->getValue();
    range.bytes = moved.bytes;
    range.constant = moved.constant;
    range.name = moved.name;
    program.globals.push_back(std::move(range));
  }
  program.jit = std::move(*jit);
  return Error::Success;
}

//===----------------------------------------------------------------------===//
// KernelProgram
//===----------------------------------------------------------------------===//

KernelProgram::KernelProgram() = default;

KernelProgram::~KernelProgram() = default;

const CompiledKernel *KernelProgram::find(const std::string &name) const {
  for (const CompiledKernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

const std::string &KernelProgram::describeSite(uint32_t site) const {
  static const std::string unknown = "an unknown place";
  return site < sites.size() ? sites[site] : unknown;
}

Error KernelProgram::compile(const void *bitcode, size_t bytes,
                             const ImageInfo &image, const ArenaView &arena,
                             std::unique_ptr<KernelProgram> &result,
                             std::string &message) {
  std::unique_ptr<KernelProgram> program(new KernelProgram());
  program->arena = arena;
  auto context = std::make_unique<LLVMContext>();
  LLVMContext &c = *context;
  orc::ThreadSafeContext safeContext(std::move(context));
  std::unique_ptr<MemoryBuffer> buffer = MemoryBuffer::getMemBuffer(
      StringRef(static_cast<const char *>(bitcode), bytes), "kernel IR",
      /*RequiresNullTerminator=*/false);
  auto parsed = parseBitcodeFile(buffer->getMemBufferRef(), c);
  if (!parsed) {
    message =
        "the kernel IR is not LLVM bitcode: " + toString(parsed.takeError());
    return Error::InvalidImage;
  }
  std::unique_ptr<Module> module = std::move(*parsed);
  std::string errors;
  raw_string_ostream stream(errors);
  if (verifyModule(*module, &stream)) {
    message = "the kernel IR is not valid IR: " + errors.substr(0, 2000);
    return Error::InvalidImage;
  }
  ProgramBuilder builder(*program, image, *module);
  if (Error error = builder.build(message); error != Error::Success)
    return error;
  if (Error error =
          builder.compile(std::move(safeContext), std::move(module), message);
      error != Error::Success)
    return error;
  result = std::move(program);
  return Error::Success;
}

} // namespace standin
} // namespace gpu_runner
