//===- DeviceBinaries.cpp - Loading gpu.binary objects at start-up --------===//
//
// A gpu.binary that the NVVM (or ROCDL) target compiled becomes:
// - a constant holding its object (fatbin, cubin, code object, or PTX);
// - a global for its module handle, and one for each kernel the program
//   launches from it;
// - a global constructor that loads the module and looks up each kernel
//   once (mgpuModuleLoadAt, mgpuModuleGetFunctionAt), and a destructor that
//   unloads it;
// - where the binary keeps the LLVM IR its object was made from (CUDA
//   kernels, ModuleToBinaryWithIR.h), a constant holding it, which the
//   constructor gives the module once loaded (mgpuModuleAttachIRAt): a
//   driver stand-in runs the kernels from it, a real driver ignores it.
// Launches then load the kernel's handle from its global: no lookup and no
// module load at launch time, unlike LLVM's own translation of
// gpu.launch_func.
//
//===----------------------------------------------------------------------===//

#include "lowering/device/DeviceBinaries.h"

#include "lowering/device/ModuleToBinaryWithIR.h"
#include "lowering/device/Targets.h"
#include "lowering/runtime/MgpuCalls.h"
#include "wrappers/MgpuAbi.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <tuple>

using namespace mlir;

namespace gpu_runner {

std::string getLoadableDeviceObject(gpu::ObjectAttr object) {
  std::string bytes = object.getObject().getValue().str();
  // The driver reads assembly up to its NUL.
  if (object.getFormat() == gpu::CompilationTarget::Assembly)
    bytes.push_back('\0');
  return bytes;
}

std::string getDeviceModuleGlobalName(StringRef binary) {
  return ("__gpu_runner_module_" + binary).str();
}

std::string getDeviceFunctionGlobalName(StringRef binary, StringRef kernel) {
  return ("__gpu_runner_function_" + binary + "_" + kernel).str();
}

namespace {

/// A global pointer that starts null.
LLVM::GlobalOp createPointerGlobal(OpBuilder &builder, Location loc,
                                   StringRef name) {
  auto type = LLVM::LLVMPointerType::get(builder.getContext());
  auto global = LLVM::GlobalOp::create(builder, loc, type,
                                       /*isConstant=*/false,
                                       LLVM::Linkage::Internal, name,
                                       /*value=*/Attribute());
  OpBuilder::InsertionGuard guard(builder);
  Block *init = builder.createBlock(&global.getInitializerRegion());
  builder.setInsertionPointToStart(init);
  Value null = LLVM::ZeroOp::create(builder, loc, type);
  LLVM::ReturnOp::create(builder, loc, null);
  return global;
}

/// A function without arguments or results, with an entry block to fill.
LLVM::LLVMFuncOp createVoidFunction(OpBuilder &builder, Location loc,
                                    StringRef name) {
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(builder.getContext()), {});
  auto function = LLVM::LLVMFuncOp::create(builder, loc, name, type,
                                           LLVM::Linkage::Internal);
  function.addEntryBlock(builder);
  return function;
}

/// The runtime's name for an object's format, or a diagnostic.
FailureOr<int32_t> getObjectFormat(gpu::BinaryOp binary,
                                   gpu::ObjectAttr object) {
  switch (object.getFormat()) {
  case gpu::CompilationTarget::Binary:
  case gpu::CompilationTarget::Fatbin:
    return static_cast<int32_t>(kDeviceObjectBinary);
  case gpu::CompilationTarget::Assembly:
    return static_cast<int32_t>(kDeviceObjectAssembly);
  case gpu::CompilationTarget::Offload:
    break;
  }
  return binary.emitError()
         << "gpu.binary @" << binary.getName()
         << " holds LLVM IR (format 'offload'), which no driver loads; "
            "compile it to a binary (fatbin, bin) or to assembly (isa)";
}

/// The globals of one gpu.binary: its object, its size when the object
/// comes from outside, its module handle, and a function handle per
/// launched kernel.
struct BinaryGlobals {
  LLVM::GlobalOp data, size, module;
  /// The size of an object held here; the `size` global's otherwise.
  int64_t bytes = 0;
  /// The kernel IR, if any, and its size, as for the object.
  LLVM::GlobalOp irData, irSize;
  int64_t irBytes = 0;
  SmallVector<std::pair<StringRef, LLVM::GlobalOp>> functions;
};

/// The object of `binary`, which must hold one, in a format a driver loads.
FailureOr<gpu::ObjectAttr> getLoadableObject(gpu::BinaryOp binary) {
  StringRef name = binary.getName();
  if (binary.getObjects().size() != 1)
    return binary.emitError()
           << "gpu.binary @" << name << " holds " << binary.getObjects().size()
           << " objects; gpu-runner loads binaries compiled for one target";
  auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
  if (!object)
    return binary.emitError()
           << "gpu.binary @" << name << " does not hold a #gpu.object";
  return object;
}

/// Bytes held by another object file of the program: an external array
/// named `dataName`, and its byte count, named `sizeName`.
std::pair<LLVM::GlobalOp, LLVM::GlobalOp>
createExternalBytes(OpBuilder &builder, Location loc, StringRef dataName,
                    StringRef sizeName) {
  auto data = LLVM::GlobalOp::create(
      builder, loc, LLVM::LLVMArrayType::get(builder.getI8Type(), 0),
      /*isConstant=*/true, LLVM::Linkage::External, dataName,
      /*value=*/Attribute());
  auto size = LLVM::GlobalOp::create(builder, loc, builder.getI64Type(),
                                     /*isConstant=*/true,
                                     LLVM::Linkage::External, sizeName,
                                     /*value=*/Attribute());
  return {data, size};
}

/// `bytes` held here, 16-byte aligned, in a global named `name`.
LLVM::GlobalOp createHeldBytes(OpBuilder &builder, Location loc, StringRef name,
                               StringAttr bytes) {
  auto type =
      LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.getValue().size());
  return LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                LLVM::Linkage::Internal, name, bytes,
                                /*alignment=*/16);
}

BinaryGlobals createBinaryGlobals(OpBuilder &builder, gpu::BinaryOp binary,
                                  gpu::ObjectAttr object,
                                  const llvm::SetVector<StringRef> &kernels) {
  Location loc = binary.getLoc();
  StringRef name = binary.getName();
  BinaryGlobals globals;
  // The object, and a global that holds its size when it comes from
  // outside.
  if (binary->hasAttr(kExternalObjectAttrName)) {
    std::tie(globals.data, globals.size) =
        createExternalBytes(builder, loc, getDeviceObjectGlobalName(name),
                            getDeviceObjectSizeGlobalName(name));
  } else {
    StringAttr bytes = builder.getStringAttr(getLoadableDeviceObject(object));
    globals.bytes = static_cast<int64_t>(bytes.getValue().size());
    globals.data =
        createHeldBytes(builder, loc, getDeviceObjectGlobalName(name), bytes);
  }
  // The kernel IR, from outside or held here.
  if (binary->hasAttr(kExternalKernelIRAttrName)) {
    std::tie(globals.irData, globals.irSize) =
        createExternalBytes(builder, loc, getKernelIRGlobalName(name),
                            getKernelIRSizeGlobalName(name));
  } else if (auto ir = binary->getAttrOfType<StringAttr>(kKernelIRAttrName)) {
    globals.irBytes = static_cast<int64_t>(ir.getValue().size());
    globals.irData =
        createHeldBytes(builder, loc, getKernelIRGlobalName(name), ir);
  }
  globals.module =
      createPointerGlobal(builder, loc, getDeviceModuleGlobalName(name));
  for (StringRef kernel : kernels)
    globals.functions.push_back(
        {kernel, createPointerGlobal(
                     builder, loc, getDeviceFunctionGlobalName(name, kernel))});
  return globals;
}

/// The constructor: loads the module, then looks up each kernel.
FailureOr<LLVM::LLVMFuncOp> createLoader(OpBuilder &builder,
                                         gpu::BinaryOp binary, int32_t format,
                                         const BinaryGlobals &globals) {
  Location loc = binary.getLoc();
  LLVM::LLVMFuncOp load = createVoidFunction(
      builder, loc, ("__gpu_runner_load_" + binary.getName()).str());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&load.getBody().front());
  // The size a global holds, or a constant.
  auto getSize = [&](LLVM::GlobalOp global, int64_t bytes) -> Value {
    if (global)
      return LLVM::LoadOp::create(
          builder, loc, builder.getI64Type(),
          LLVM::AddressOfOp::create(builder, loc, global));
    return LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                    builder.getI64IntegerAttr(bytes));
  };
  Value address = LLVM::AddressOfOp::create(builder, loc, globals.data);
  Value sizeValue = getSize(globals.size, globals.bytes);
  Value formatValue = LLVM::ConstantOp::create(
      builder, loc, builder.getI32Type(), builder.getI32IntegerAttr(format));
  Value locString = getConstantString(builder, loc, getRuntimeLocation(binary));
  FailureOr<LLVM::CallOp> handle =
      createMgpuCall(builder, loc, MgpuFunction::mgpuModuleLoadAt,
                     {address, sizeValue, formatValue, locString});
  if (failed(handle))
    return failure();
  Value moduleHandle = handle->getResult();
  LLVM::StoreOp::create(
      builder, loc, moduleHandle,
      LLVM::AddressOfOp::create(builder, loc, globals.module));
  if (globals.irData) {
    Value ir = LLVM::AddressOfOp::create(builder, loc, globals.irData);
    Value irSize = getSize(globals.irSize, globals.irBytes);
    if (failed(createMgpuCall(builder, loc, MgpuFunction::mgpuModuleAttachIRAt,
                              {moduleHandle, ir, irSize, locString})))
      return failure();
  }
  for (auto [kernel, global] : globals.functions) {
    Value kernelName = getConstantString(builder, loc, kernel);
    FailureOr<LLVM::CallOp> function =
        createMgpuCall(builder, loc, MgpuFunction::mgpuModuleGetFunctionAt,
                       {moduleHandle, kernelName, locString});
    if (failed(function))
      return failure();
    LLVM::StoreOp::create(builder, loc, function->getResult(),
                          LLVM::AddressOfOp::create(builder, loc, global));
  }
  LLVM::ReturnOp::create(builder, loc, ValueRange());
  return load;
}

/// The destructor: unloads the module.
FailureOr<LLVM::LLVMFuncOp> createUnloader(OpBuilder &builder,
                                           gpu::BinaryOp binary,
                                           const BinaryGlobals &globals) {
  Location loc = binary.getLoc();
  LLVM::LLVMFuncOp unload = createVoidFunction(
      builder, loc, ("__gpu_runner_unload_" + binary.getName()).str());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&unload.getBody().front());
  Value moduleHandle = LLVM::LoadOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()),
      LLVM::AddressOfOp::create(builder, loc, globals.module));
  Value locString = getConstantString(builder, loc, getRuntimeLocation(binary));
  if (failed(createMgpuCall(builder, loc, MgpuFunction::mgpuModuleUnloadAt,
                            {moduleHandle, locString})))
    return failure();
  LLVM::ReturnOp::create(builder, loc, ValueRange());
  return unload;
}

/// The constructors and destructors of a module's binaries, appended to
/// the program's own, if any.
struct Structors {
  SmallVector<Attribute> ctors, dtors, priorities, data;
};

void appendStructors(OpBuilder &builder, ModuleOp module,
                     const Structors &added) {
  Location loc = module.getLoc();
  auto concat = [&](ArrayAttr existing, ArrayRef<Attribute> more) {
    SmallVector<Attribute> all;
    if (existing)
      llvm::append_range(all, existing);
    llvm::append_range(all, more);
    return builder.getArrayAttr(all);
  };
  LLVM::GlobalCtorsOp oldCtors;
  for (auto op : module.getOps<LLVM::GlobalCtorsOp>())
    oldCtors = op;
  LLVM::GlobalCtorsOp::create(
      builder, loc,
      concat(oldCtors ? oldCtors.getCtors() : nullptr, added.ctors),
      concat(oldCtors ? oldCtors.getPriorities() : nullptr, added.priorities),
      concat(oldCtors ? oldCtors.getData() : nullptr, added.data));
  if (oldCtors)
    oldCtors.erase();
  LLVM::GlobalDtorsOp oldDtors;
  for (auto op : module.getOps<LLVM::GlobalDtorsOp>())
    oldDtors = op;
  LLVM::GlobalDtorsOp::create(
      builder, loc,
      concat(oldDtors ? oldDtors.getDtors() : nullptr, added.dtors),
      concat(oldDtors ? oldDtors.getPriorities() : nullptr, added.priorities),
      concat(oldDtors ? oldDtors.getData() : nullptr, added.data));
  if (oldDtors)
    oldDtors.erase();
}

} // namespace

LogicalResult lowerDeviceBinaries(ModuleOp module) {
  auto binaries = llvm::to_vector(module.getOps<gpu::BinaryOp>());
  if (binaries.empty())
    return success();

  // The kernels each binary must provide: those the program launches.
  llvm::MapVector<StringRef, llvm::SetVector<StringRef>> kernels;
  module.walk([&](gpu::LaunchFuncOp launch) {
    kernels[launch.getKernelModuleName().getValue()].insert(
        launch.getKernelName().getValue());
  });

  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module.getBody());
  Structors structors;
  for (gpu::BinaryOp binary : binaries) {
    FailureOr<gpu::ObjectAttr> object = getLoadableObject(binary);
    if (failed(object))
      return failure();
    FailureOr<int32_t> format = getObjectFormat(binary, *object);
    if (failed(format))
      return failure();
    BinaryGlobals globals = createBinaryGlobals(
        builder, binary, *object, kernels.lookup(binary.getName()));
    FailureOr<LLVM::LLVMFuncOp> load =
        createLoader(builder, binary, *format, globals);
    if (failed(load))
      return failure();
    FailureOr<LLVM::LLVMFuncOp> unload =
        createUnloader(builder, binary, globals);
    if (failed(unload))
      return failure();
    structors.ctors.push_back(FlatSymbolRefAttr::get(*load));
    structors.dtors.push_back(FlatSymbolRefAttr::get(*unload));
    structors.priorities.push_back(builder.getI32IntegerAttr(0));
    structors.data.push_back(LLVM::ZeroAttr::get(context));
  }
  appendStructors(builder, module, structors);
  return success();
}

} // namespace gpu_runner
