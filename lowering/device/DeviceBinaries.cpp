//===- DeviceBinaries.cpp - Loading gpu.binary objects at start-up --------===//
//
// A gpu.binary that the NVVM (or ROCDL) target compiled becomes:
// - a constant holding its object (fatbin, cubin, code object, or PTX);
// - a global for its module handle, and one for each kernel the program
//   launches from it;
// - a global constructor that loads the module and looks up each kernel
//   once (mgpuModuleLoadAt, mgpuModuleGetFunctionAt), and a destructor that
//   unloads it.
// Launches then load the kernel's handle from its global: no lookup and no
// module load at launch time, unlike LLVM's own translation of
// gpu.launch_func.
//
//===----------------------------------------------------------------------===//

#include "lowering/runtime/GpuRuntimeToLLVM.h"

#include "lowering/runtime/MgpuCalls.h"
#include "wrappers/MgpuAbi.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

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
  SmallVector<Attribute> ctors, dtors, priorities, data;
  auto pointerType = LLVM::LLVMPointerType::get(context);

  for (gpu::BinaryOp binary : binaries) {
    Location loc = binary.getLoc();
    StringRef name = binary.getName();
    if (binary.getObjects().size() != 1)
      return binary.emitError()
             << "gpu.binary @" << name << " holds "
             << binary.getObjects().size()
             << " objects; gpu-runner loads binaries compiled for one target";
    auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    if (!object)
      return binary.emitError()
             << "gpu.binary @" << name << " does not hold a #gpu.object";
    FailureOr<int32_t> format = getObjectFormat(binary, object);
    if (failed(format))
      return failure();

    // The object, and a global that holds its size when it comes from
    // outside.
    LLVM::GlobalOp dataGlobal, sizeGlobal;
    int64_t size = 0;
    if (binary->hasAttr(kExternalObjectAttrName)) {
      dataGlobal = LLVM::GlobalOp::create(
          builder, loc, LLVM::LLVMArrayType::get(builder.getI8Type(), 0),
          /*isConstant=*/true, LLVM::Linkage::External,
          getDeviceObjectGlobalName(name), /*value=*/Attribute());
      sizeGlobal = LLVM::GlobalOp::create(
          builder, loc, builder.getI64Type(), /*isConstant=*/true,
          LLVM::Linkage::External, getDeviceObjectSizeGlobalName(name),
          /*value=*/Attribute());
    } else {
      std::string bytes = getLoadableDeviceObject(object);
      size = static_cast<int64_t>(bytes.size());
      auto dataType =
          LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size());
      dataGlobal = LLVM::GlobalOp::create(
          builder, loc, dataType, /*isConstant=*/true, LLVM::Linkage::Internal,
          getDeviceObjectGlobalName(name), builder.getStringAttr(bytes),
          /*alignment=*/16);
    }
    LLVM::GlobalOp moduleGlobal =
        createPointerGlobal(builder, loc, getDeviceModuleGlobalName(name));
    SmallVector<std::pair<StringRef, LLVM::GlobalOp>> functionGlobals;
    for (StringRef kernel : kernels.lookup(name))
      functionGlobals.push_back(
          {kernel,
           createPointerGlobal(builder, loc,
                               getDeviceFunctionGlobalName(name, kernel))});

    // The constructor: load the module, then look up each kernel.
    std::string loadLoc = getRuntimeLocation(binary);
    LLVM::LLVMFuncOp load =
        createVoidFunction(builder, loc, ("__gpu_runner_load_" + name).str());
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&load.getBody().front());
      Value address = LLVM::AddressOfOp::create(builder, loc, dataGlobal);
      Value sizeValue =
          sizeGlobal
              ? LLVM::LoadOp::create(
                    builder, loc, builder.getI64Type(),
                    LLVM::AddressOfOp::create(builder, loc, sizeGlobal))
                    .getResult()
              : LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                         builder.getI64IntegerAttr(size))
                    .getResult();
      Value formatValue =
          LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                   builder.getI32IntegerAttr(*format));
      Value locString = getConstantString(builder, loc, loadLoc);
      FailureOr<LLVM::CallOp> handle =
          createMgpuCall(builder, loc, MgpuFunction::mgpuModuleLoadAt,
                         {address, sizeValue, formatValue, locString});
      if (failed(handle))
        return failure();
      Value moduleHandle = handle->getResult();
      LLVM::StoreOp::create(
          builder, loc, moduleHandle,
          LLVM::AddressOfOp::create(builder, loc, moduleGlobal));
      for (auto [kernel, global] : functionGlobals) {
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
    }

    // The destructor: unload it.
    LLVM::LLVMFuncOp unload =
        createVoidFunction(builder, loc, ("__gpu_runner_unload_" + name).str());
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&unload.getBody().front());
      Value moduleHandle = LLVM::LoadOp::create(
          builder, loc, pointerType,
          LLVM::AddressOfOp::create(builder, loc, moduleGlobal));
      Value locString = getConstantString(builder, loc, loadLoc);
      if (failed(createMgpuCall(builder, loc, MgpuFunction::mgpuModuleUnloadAt,
                                {moduleHandle, locString})))
        return failure();
      LLVM::ReturnOp::create(builder, loc, ValueRange());
    }

    ctors.push_back(FlatSymbolRefAttr::get(load));
    dtors.push_back(FlatSymbolRefAttr::get(unload));
    priorities.push_back(builder.getI32IntegerAttr(0));
    data.push_back(LLVM::ZeroAttr::get(context));
  }

  // Appended to the program's own constructors and destructors, if any.
  Location loc = module.getLoc();
  auto concat = [&](ArrayAttr existing, ArrayRef<Attribute> added) {
    SmallVector<Attribute> all;
    if (existing)
      llvm::append_range(all, existing);
    llvm::append_range(all, added);
    return builder.getArrayAttr(all);
  };
  LLVM::GlobalCtorsOp oldCtors;
  for (auto op : module.getOps<LLVM::GlobalCtorsOp>())
    oldCtors = op;
  LLVM::GlobalCtorsOp::create(
      builder, loc, concat(oldCtors ? oldCtors.getCtors() : nullptr, ctors),
      concat(oldCtors ? oldCtors.getPriorities() : nullptr, priorities),
      concat(oldCtors ? oldCtors.getData() : nullptr, data));
  if (oldCtors)
    oldCtors.erase();
  LLVM::GlobalDtorsOp oldDtors;
  for (auto op : module.getOps<LLVM::GlobalDtorsOp>())
    oldDtors = op;
  LLVM::GlobalDtorsOp::create(
      builder, loc, concat(oldDtors ? oldDtors.getDtors() : nullptr, dtors),
      concat(oldDtors ? oldDtors.getPriorities() : nullptr, priorities),
      concat(oldDtors ? oldDtors.getData() : nullptr, data));
  if (oldDtors)
    oldDtors.erase();
  return success();
}

} // namespace gpu_runner
