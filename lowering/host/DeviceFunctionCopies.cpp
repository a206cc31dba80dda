//===- DeviceFunctionCopies.cpp - Device functions copied to the host -----===//
//
// Step 1 of gpu-runner-host-kernels (HostKernelSteps.h): each function of a
// gpu.module becomes a func.func of the host module that takes the implicit
// arguments first, and each global a host global, every block's memory.
// External functions are linked as they are.
//
//===----------------------------------------------------------------------===//

#include "lowering/host/HostKernelSteps.h"

#include "lowering/host/HostMma.h"
#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace gpu_runner {
namespace {

LogicalResult checkContents(gpu::GPUModuleOp deviceModule) {
  for (Operation &op : deviceModule.getBody()->getOperations()) {
    if (isa<gpu::GPUFuncOp, func::FuncOp, memref::GlobalOp>(op))
      continue;
    if (auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
        function && function.isExternal())
      continue;
    return op.emitError()
           << "'" << op.getName()
           << "' cannot run on the host backend: a kernel module may hold "
              "gpu.func, func.func, memref.global and external llvm.func "
              "declarations only";
  }
  WalkResult result = deviceModule.walk([](Operation *op) -> WalkResult {
    if (!isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) || isMmaOp(op))
      return WalkResult::advance();
    if (isa<gpu::GPUModuleOp, gpu::GPUFuncOp, gpu::ReturnOp, gpu::ThreadIdOp,
            gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp, gpu::GlobalIdOp,
            gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::SubgroupSizeOp,
            gpu::NumSubgroupsOp, gpu::BarrierOp, gpu::ShuffleOp,
            gpu::SubgroupBroadcastOp, gpu::PrintfOp, gpu::DynamicSharedMemoryOp,
            gpu::ClusterIdOp, gpu::ClusterDimOp, gpu::ClusterDimBlocksOp,
            gpu::ClusterBlockIdOp>(op))
      return WalkResult::advance();
    op->emitError() << "'" << op->getName()
                    << "' is not supported in kernels on the host backend; "
                       "kernels here may use the id and size ops, "
                       "gpu.barrier, gpu.shuffle, gpu.rotate, "
                       "gpu.subgroup_broadcast, gpu.all_reduce, "
                       "gpu.subgroup_reduce, gpu.warp_execute_on_lane_0, "
                       "the gpu.subgroup_mma_* ops, "
                       "gpu.printf and gpu.dynamic_shared_memory";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// The host copy names of the device functions that have an op for which
/// `reaches` holds, or call one that does.
llvm::DenseSet<StringAttr>
findFunctionsThatReach(HostKernelModule &module,
                       function_ref<bool(Operation *)> reaches) {
  // A function reaches the op if it has one, or calls a function that
  // does: iterate to a fixed point over the module's few functions.
  llvm::DenseSet<StringAttr> found;
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto function :
         module.getDeviceModule().getOps<FunctionOpInterface>()) {
      StringAttr name = SymbolTable::getSymbolName(function);
      if (function.isExternal() || found.contains(name))
        continue;
      WalkResult result = function.walk([&](Operation *op) {
        if (reaches(op))
          return WalkResult::interrupt();
        if (auto call = dyn_cast<CallOpInterface>(op))
          if (auto callee =
                  dyn_cast<SymbolRefAttr>(call.getCallableForCallee()))
            if (found.contains(callee.getRootReference()))
              return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (result.wasInterrupted()) {
        found.insert(name);
        changed = true;
      }
    }
  }
  llvm::DenseSet<StringAttr> copyNames;
  for (StringAttr name : found)
    copyNames.insert(module.renamed.lookup(name));
  return copyNames;
}

void findFunctionsThatSynchronize(HostKernelModule &module) {
  module.synchronizing = findFunctionsThatReach(module, [](Operation *op) {
    // Barriers, shuffles, broadcasts, matrix multiply-accumulates and warp
    // synchronizations, where the lanes meet.
    return isa<gpu::BarrierOp, gpu::ShuffleOp, gpu::SubgroupBroadcastOp,
               gpu::SubgroupMmaComputeOp>(op) ||
           isWarpSync(op);
  });
  module.asserting = findFunctionsThatReach(
      module, [](Operation *op) { return isa<cf::AssertOp>(op); });
}

LogicalResult copyGlobal(HostKernelModule &module, Operation *global) {
  // Device globals become host globals: memory every block shares.
  OpBuilder b = OpBuilder::atBlockEnd(module.getHostModule().getBody());
  Operation *copy = b.clone(*global);
  SymbolTable::setSymbolName(
      copy, module.renamed.lookup(SymbolTable::getSymbolName(global)));
  module.getSymbols().insert(copy);
  return success();
}

/// External functions are linked as they are: once, and only if the host
/// code declares them alike.
LogicalResult copyExternalFunction(HostKernelModule &module,
                                   FunctionOpInterface function) {
  StringAttr name = SymbolTable::getSymbolName(function);
  if (Operation *existing = module.getSymbols().lookup(name)) {
    auto existingFunction = dyn_cast<FunctionOpInterface>(existing);
    if (existingFunction &&
        existingFunction.getFunctionType() == function.getFunctionType())
      return success();
    return function.emitError() << "'" << name.getValue()
                                << "' is declared differently in the host code";
  }
  OpBuilder b = OpBuilder::atBlockEnd(module.getHostModule().getBody());
  module.getSymbols().insert(b.clone(*function));
  return success();
}

LogicalResult copyFunction(HostKernelModule &module,
                           FunctionOpInterface function) {
  if (function.isExternal())
    return copyExternalFunction(module, function);
  Location loc = function.getLoc();
  MLIRContext *context = function.getContext();
  auto gpuFunction = dyn_cast<gpu::GPUFuncOp>(function.getOperation());
  bool isKernel = gpuFunction && gpuFunction.isKernel();

  SmallVector<Type> workgroupTypes, privateTypes;
  if (gpuFunction) {
    for (BlockArgument attribution : gpuFunction.getWorkgroupAttributions())
      workgroupTypes.push_back(attribution.getType());
    for (BlockArgument attribution : gpuFunction.getPrivateAttributions())
      privateTypes.push_back(attribution.getType());
    if (!isKernel && !workgroupTypes.empty())
      return function.emitError()
             << "workgroup attributions are supported on kernels only";
  }

  SmallVector<Type> inputs;
  Type index = IndexType::get(context);
  inputs.push_back(LLVM::LLVMPointerType::get(context));
  inputs.append(kImplicitArgCount - 1, index);
  inputs.append(workgroupTypes);
  ArrayRef<Type> originalInputs = function.getArgumentTypes();
  inputs.append(originalInputs.begin(), originalInputs.end());
  auto type = FunctionType::get(context, inputs, function.getResultTypes());

  OpBuilder b = OpBuilder::atBlockEnd(module.getHostModule().getBody());
  StringAttr name = module.renamed.lookup(SymbolTable::getSymbolName(function));
  auto copy = func::FuncOp::create(b, loc, name, type);
  copy.setPrivate();
  module.getSymbols().insert(copy);
  module.copies[function] = copy;

  Block *entry = copy.addEntryBlock();
  IRMapping mapping;
  function.getFunctionBody().cloneInto(&copy.getBody(), mapping);
  Block *clonedEntry = entry->getNextNode();

  // The device function's entry arguments are its inputs, then (gpu.func)
  // its workgroup and private attributions.
  SmallVector<Value> replacements;
  unsigned firstInput = kImplicitArgCount + workgroupTypes.size();
  for (unsigned i = 0; i < originalInputs.size(); ++i)
    replacements.push_back(entry->getArgument(firstInput + i));
  for (unsigned i = 0; i < workgroupTypes.size(); ++i)
    replacements.push_back(entry->getArgument(kImplicitArgCount + i));
  b.setInsertionPointToStart(entry);
  for (Type privateType : privateTypes) {
    // Stack memory lives in address space 0 on the host; the attribution's
    // type is reached by a cast.
    auto memrefType = cast<MemRefType>(privateType);
    auto stackType =
        MemRefType::get(memrefType.getShape(), memrefType.getElementType(),
                        memrefType.getLayout());
    Value stack = memref::AllocaOp::create(b, loc, stackType);
    replacements.push_back(
        memref::MemorySpaceCastOp::create(b, loc, memrefType, stack));
  }
  for (auto [argument, replacement] :
       llvm::zip_equal(clonedEntry->getArguments(), replacements))
    argument.replaceAllUsesWith(replacement);
  entry->getOperations().splice(entry->end(), clonedEntry->getOperations());
  clonedEntry->erase();

  if (isKernel)
    copy->setAttr(kKernelCopyAttrName, UnitAttr::get(context));
  // Its private memory gets margins that code generation compares
  // (HostKernelAbi.h), so that a store out of bounds is an error.
  copy->setAttr("passthrough",
                b.getArrayAttr({b.getArrayAttr(
                    {b.getStringAttr(kHostPrivateMemoryGuardAttr),
                     b.getStringAttr("true")})}));
  return success();
}

} // namespace

LogicalResult copyDeviceFunctions(HostKernelModule &module) {
  gpu::GPUModuleOp deviceModule = module.getDeviceModule();
  if (failed(checkContents(deviceModule)))
    return failure();

  // Names first, so that copies can refer to each other.
  for (Operation &op : deviceModule.getBody()->getOperations()) {
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (function && function.isExternal())
      continue;
    StringAttr name = SymbolTable::getSymbolName(&op);
    module.renamed[name] =
        StringAttr::get(op.getContext(), module.getUniqueName(name.getValue()));
  }
  findFunctionsThatSynchronize(module);

  for (Operation &op : deviceModule.getBody()->getOperations()) {
    LogicalResult copied =
        isa<FunctionOpInterface>(op)
            ? copyFunction(module, cast<FunctionOpInterface>(op))
            : copyGlobal(module, &op);
    if (failed(copied))
      return failure();
  }
  for (auto [function, copy] : module.copies) {
    copy->setAttr(kDeviceCopyAttrName, UnitAttr::get(copy.getContext()));
    for (auto [from, to] : module.renamed)
      if (failed(SymbolTable::replaceAllSymbolUses(from, to, copy)))
        return copy.emitError() << "cannot rename the uses of " << from;
  }
  return success();
}

} // namespace gpu_runner
