//===- EntryPoint.cpp - Calling the entry point with data -----------------===//
//
// What --input, --output and --expected-output need of the compiler: the
// entry point's signature, read before lowering (EntrySignature.h), and a
// function that calls it with its arguments and results passed through
// pointers, generated next to it in LLVM IR (as MLIR's ExecutionEngine
// packs a function's arguments), so that the runner calls an entry point of
// any signature through one C type. And for --launch, the host code that
// runs one kernel: a function that copies its memref arguments to device
// memory, launches the kernel, waits and copies them back, with the gpu
// dialect's own ops, so that every backend runs it through the lowering and
// runtime calls a program's own host code gets.
//
//===----------------------------------------------------------------------===//

#include "runner/compiler/CompilerSteps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace gpu_runner {

namespace {

std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

std::optional<ElementType> getElementType(Type type) {
  if (type.isIndex())
    return ElementType::Index;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    if (!integer.isSignless())
      return std::nullopt;
    switch (integer.getWidth()) {
    case 1:
      return ElementType::I1;
    case 8:
      return ElementType::I8;
    case 16:
      return ElementType::I16;
    case 32:
      return ElementType::I32;
    case 64:
      return ElementType::I64;
    default:
      return std::nullopt;
    }
  }
  if (type.isF16())
    return ElementType::F16;
  if (type.isF32())
    return ElementType::F32;
  if (type.isF64())
    return ElementType::F64;
  return std::nullopt;
}

/// The EntryType of `type`, if values can be given or read for it: a
/// scalar, or a memref of one with an identity layout (or, for a result,
/// any strided layout) in the default memory space.
std::optional<EntryType> getEntryType(Type type, bool isResult) {
  EntryType entry;
  entry.text = printType(type);
  if (auto memref = dyn_cast<MemRefType>(type)) {
    if (memref.getMemorySpace())
      return std::nullopt;
    if (!memref.getLayout().isIdentity() && (!isResult || !memref.isStrided()))
      return std::nullopt;
    std::optional<ElementType> element =
        getElementType(memref.getElementType());
    if (!element)
      return std::nullopt;
    entry.element = *element;
    entry.isMemRef = true;
    for (int64_t size : memref.getShape())
      entry.shape.push_back(ShapedType::isDynamic(size) ? kDynamicSize : size);
    return entry;
  }
  std::optional<ElementType> element = getElementType(type);
  if (!element)
    return std::nullopt;
  entry.element = *element;
  return entry;
}

/// What a kernel's arguments may be for --launch; an entry point's may also
/// be ranked tensors, which bufferization makes such memrefs.
constexpr llvm::StringLiteral kKernelSupportedTypes =
    "index, integer (i1 to i64) and float (f16, f32, f64) scalars, and "
    "memrefs of them with an identity layout";
constexpr llvm::StringLiteral kSupportedTypes =
    "index, integer (i1 to i64) and float (f16, f32, f64) scalars, and "
    "memrefs of them with an identity layout, or ranked tensors of them";

std::string formatLocation(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  return "";
}

/// The type to name in messages and the `result[N]: TYPE` lines: the one
/// the program wrote, where bufferization made a tensor a memref.
Type getShownType(Type type, TypeRange written, size_t i) {
  if (i < written.size() && isa<TensorType>(written[i]))
    return written[i];
  return type;
}

/// The signature of `types` (inputs and results of a function at `op`).
/// `writtenInputs` and `writtenResults`, where not empty, are the types as
/// the program wrote them.
FailureOr<EntrySignature> makeSignature(Operation *op, StringRef name,
                                        TypeRange inputs, TypeRange results,
                                        TypeRange writtenInputs = {},
                                        TypeRange writtenResults = {}) {
  EntrySignature signature;
  signature.name = name.str();
  signature.location = formatLocation(op->getLoc());
  for (auto [i, type] : llvm::enumerate(inputs)) {
    Type shown = getShownType(type, writtenInputs, i);
    std::optional<EntryType> entry = getEntryType(type, false);
    if (!entry)
      return op->emitError()
             << "entry point '" << name << "': argument " << i << " is "
             << shown << ", which --input cannot give: it gives "
             << kSupportedTypes;
    entry->text = printType(shown);
    signature.params.push_back(*entry);
  }
  for (auto [i, type] : llvm::enumerate(results)) {
    Type shown = getShownType(type, writtenResults, i);
    std::optional<EntryType> entry = getEntryType(type, true);
    if (!entry)
      return op->emitError()
             << "entry point '" << name << "': result " << i << " is " << shown
             << ", which gpu-runner cannot read: it reads " << kSupportedTypes
             << " (or any strided layout)";
    entry->text = printType(shown);
    signature.results.push_back(*entry);
  }
  return signature;
}

} // namespace

FailureOr<EntrySignature> readEntrySignature(ModuleOp module, StringRef name,
                                             FunctionType written) {
  Operation *symbol = module.lookupSymbol(name);
  if (auto function = dyn_cast_or_null<func::FuncOp>(symbol);
      function && !function.isExternal()) {
    TypeRange writtenInputs, writtenResults;
    if (written && written.getNumInputs() == function.getNumArguments() &&
        written.getNumResults() == function.getNumResults()) {
      writtenInputs = written.getInputs();
      writtenResults = written.getResults();
    }
    return makeSignature(function, name, function.getArgumentTypes(),
                         function.getResultTypes(), writtenInputs,
                         writtenResults);
  }
  if (auto function = dyn_cast_or_null<LLVM::LLVMFuncOp>(symbol);
      function && !function.isExternal() &&
      !function.getFunctionType().isVarArg()) {
    // A program lowered already: its parameters are LLVM's.
    LLVM::LLVMFunctionType type = function.getFunctionType();
    SmallVector<Type> results;
    if (!isa<LLVM::LLVMVoidType>(type.getReturnType()))
      results.push_back(type.getReturnType());
    return makeSignature(function, name, type.getParams(), results);
  }
  // Missing, declared only, not a function: checkEntryPoint says which,
  // after lowering.
  EntrySignature signature;
  signature.name = name.str();
  return signature;
}

FunctionType getWrittenEntryType(ModuleOp module, StringRef name) {
  auto function = dyn_cast_or_null<func::FuncOp>(module.lookupSymbol(name));
  return function ? function.getFunctionType() : FunctionType();
}

std::string describeEntryCandidates(ModuleOp module) {
  SmallVector<std::string> functions, kernels;
  for (Operation &op : module.getBody()->getOperations()) {
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (function && !function.isExternal())
      functions.push_back(function.getName().str());
  }
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (kernel.isKernel())
      kernels.push_back((kernel->getParentOfType<gpu::GPUModuleOp>().getName() +
                         "::" + kernel.getName())
                            .str());
  });
  // A long list helps no one: the first few say what the names look like.
  auto list = [](ArrayRef<std::string> names) {
    constexpr size_t kShown = 8;
    std::string text =
        llvm::join(names.take_front(std::min(names.size(), kShown)), ", ");
    if (names.size() > kShown)
      text += ", ... (" + std::to_string(names.size()) + " in all)";
    return text;
  };
  std::string hint;
  llvm::raw_string_ostream os(hint);
  if (!functions.empty()) {
    os << "; name it with -e: the program's functions are " << list(functions);
    if (!kernels.empty())
      os << "; or run one kernel with --launch=MODULE::KERNEL: "
         << list(kernels);
  } else if (!kernels.empty()) {
    os << "; the program has kernels but no host code: run one with --launch="
       << kernels.front() << " (with --grid, --block and an --input per "
       << "argument; docs/data.md)";
    if (kernels.size() > 1)
      os << "; its kernels are " << list(kernels);
  } else {
    os << "; the program defines no function";
  }
  return hint;
}

LogicalResult addLaunchFunction(ModuleOp module, const LaunchTarget &launch) {
  auto listKernels = [&](InFlightDiagnostic &diag, gpu::GPUModuleOp only) {
    SmallVector<std::string> names;
    module.walk([&](gpu::GPUFuncOp kernel) {
      auto parent = kernel->getParentOfType<gpu::GPUModuleOp>();
      if (kernel.isKernel() && (!only || parent == only))
        names.push_back((parent.getName() + "::" + kernel.getName()).str());
    });
    if (names.empty())
      diag << "; the program has no kernel";
    else
      diag << "; the kernels there are: " << llvm::join(names, ", ");
  };
  auto gpuModule = module.lookupSymbol<gpu::GPUModuleOp>(launch.module);
  if (!gpuModule) {
    InFlightDiagnostic diag = emitError(getModuleLocation(module))
                              << "--launch: no gpu.module named '"
                              << launch.module << "'";
    listKernels(diag, nullptr);
    return diag;
  }
  auto kernel = gpuModule.lookupSymbol<gpu::GPUFuncOp>(launch.kernel);
  if (!kernel || !kernel.isKernel()) {
    InFlightDiagnostic diag = emitError(gpuModule.getLoc())
                              << "--launch: gpu.module '" << launch.module
                              << "' has no kernel named '" << launch.kernel
                              << "'";
    listKernels(diag, gpuModule);
    return diag;
  }
  if (module.lookupSymbol(kLaunchEntryName))
    return module.lookupSymbol(kLaunchEntryName)->emitError()
           << "--launch: the program defines '" << kLaunchEntryName
           << "', the name of the function --launch makes";

  // The host function takes the kernel's arguments, memrefs in host memory.
  SmallVector<Type> hostTypes;
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (!memref.getLayout().isIdentity() ||
          !getElementType(memref.getElementType()))
        return kernel.emitError()
               << "--launch: argument " << i << " of kernel '" << launch.kernel
               << "' is " << type << ", which --input cannot give: it gives "
               << kKernelSupportedTypes;
      hostTypes.push_back(
          MemRefType::get(memref.getShape(), memref.getElementType()));
      continue;
    }
    if (!getElementType(type))
      return kernel.emitError()
             << "--launch: argument " << i << " of kernel '" << launch.kernel
             << "' is " << type << ", which --input cannot give: it gives "
             << kKernelSupportedTypes;
    hostTypes.push_back(type);
  }

  Location loc = kernel.getLoc();
  MLIRContext *context = module.getContext();
  // A file of kernels alone has not loaded the dialects of host code.
  context->loadDialect<arith::ArithDialect, func::FuncDialect,
                       memref::MemRefDialect>();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(context));
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto function = func::FuncOp::create(builder, loc, kLaunchEntryName,
                                       builder.getFunctionType(hostTypes, {}));
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  SmallVector<Value> kernelArgs;
  SmallVector<std::pair<Value, Value>> copies; // host, device
  for (auto [host, type] :
       llvm::zip(body->getArguments(), kernel.getArgumentTypes())) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref) {
      kernelArgs.push_back(host);
      continue;
    }
    SmallVector<Value> dynamicSizes;
    for (auto [dim, size] : llvm::enumerate(memref.getShape()))
      if (ShapedType::isDynamic(size))
        dynamicSizes.push_back(
            memref::DimOp::create(builder, loc, host, int64_t(dim)));
    Value device =
        gpu::AllocOp::create(builder, loc, memref, Type(), ValueRange(),
                             dynamicSizes, ValueRange())
            .getMemref();
    gpu::MemcpyOp::create(builder, loc, Type(), ValueRange(), device, host);
    kernelArgs.push_back(device);
    copies.push_back({host, device});
  }
  gpu::KernelDim3 grid{index(launch.grid[0]), index(launch.grid[1]),
                       index(launch.grid[2])};
  gpu::KernelDim3 block{index(launch.block[0]), index(launch.block[1]),
                        index(launch.block[2])};
  Value sharedMemory;
  if (launch.dynamicSharedMemory)
    sharedMemory = arith::ConstantIntOp::create(
        builder, loc, builder.getI32Type(), launch.dynamicSharedMemory);
  gpu::LaunchFuncOp::create(builder, loc, kernel, grid, block, sharedMemory,
                            kernelArgs);
  for (auto [host, device] : copies) {
    gpu::MemcpyOp::create(builder, loc, Type(), ValueRange(), host, device);
    gpu::DeallocOp::create(builder, loc, Type(), ValueRange(), device);
  }
  func::ReturnOp::create(builder, loc);
  return success();
}

llvm::Error addPackedEntry(llvm::Module &module,
                           const EntrySignature &signature) {
  llvm::Function *entry = module.getFunction(signature.name);
  if (!entry || entry->isDeclaration())
    return llvm::createStringError("the entry point '" + signature.name +
                                   "' is not in the translated program");
  // A memref is passed as its descriptor's fields, 3 + 2 x rank of them.
  unsigned expected = 0;
  for (const EntryType &param : signature.params)
    expected += param.isMemRef ? 3 + 2 * param.shape.size() : 1;
  if (entry->arg_size() != expected)
    return llvm::createStringError(
        "the entry point '" + signature.name + "' takes " +
        llvm::Twine(entry->arg_size()) + " values once lowered, not the " +
        llvm::Twine(expected) + " its signature makes");

  // The entry point stays a function of its own, so that a fault in it is
  // reported in it, not in the function that calls it.
  if (!entry->hasFnAttribute(llvm::Attribute::AlwaysInline))
    entry->addFnAttr(llvm::Attribute::NoInline);

  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  llvm::Type *ptr = builder.getPtrTy();
  auto *packed = llvm::Function::Create(
      llvm::FunctionType::get(builder.getVoidTy(), {ptr}, false),
      llvm::Function::ExternalLinkage, kPackedEntryName.str(), module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", packed));
  llvm::Value *slots = packed->getArg(0);
  auto slot = [&](unsigned i) {
    return builder.CreateLoad(ptr, builder.CreateConstGEP1_64(ptr, slots, i));
  };
  SmallVector<llvm::Value *> args;
  for (auto [i, param] : llvm::enumerate(signature.params)) {
    llvm::Value *at = slot(i);
    unsigned fields = param.isMemRef ? 3 + 2 * param.shape.size() : 1;
    for (unsigned field = 0; field < fields; ++field) {
      llvm::Type *type = entry->getArg(args.size())->getType();
      llvm::Value *address =
          field ? builder.CreateConstGEP1_64(builder.getInt8Ty(), at, 8 * field)
                : at;
      args.push_back(builder.CreateLoad(type, address));
    }
  }
  llvm::Value *result = builder.CreateCall(entry, args);
  unsigned params = signature.params.size();
  if (signature.results.size() == 1) {
    builder.CreateStore(result, slot(params));
  } else {
    for (unsigned j = 0; j < signature.results.size(); ++j)
      builder.CreateStore(builder.CreateExtractValue(result, j),
                          slot(params + j));
  }
  builder.CreateRetVoid();
  return llvm::Error::success();
}

} // namespace gpu_runner
