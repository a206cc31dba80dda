//===- HostKernels.cpp - Kernels compiled into host functions -------------===//
//
// See the description of gpu-runner-host-kernels in Passes.td. The kernel
// code stays in its gpu.module, annotated, until the lowering of
// gpu.launch_func has used the annotations; the host copies are what runs.
//
//===----------------------------------------------------------------------===//

#include "lowering/host/HostKernels.h"
#include "lowering/Passes.h"
#include "lowering/host/BarrierSplitting.h"
#include "lowering/host/HostMma.h"
#include "lowering/host/ScalarBits.h"
#include "lowering/runtime/GpuRuntimeToLLVM.h"
#include "lowering/runtime/MgpuCalls.h"

#include "wrappers/HostKernelAbi.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace gpu_runner {
#define GEN_PASS_DEF_HOSTKERNELS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// The arguments every host copy of a device function takes first.
enum ImplicitArgument : unsigned {
  kContextArg = 0,
  kThreadIdArg = 1,
  kBlockIdArg = 4,
  kBlockDimArg = 7,
  kGridDimArg = 10,
  kImplicitArgCount = 13,
};

unsigned getDimension(gpu::Dimension dimension) {
  return static_cast<unsigned>(dimension);
}

/// The implicit argument that holds what an id or size op reads.
template <typename OpTy> unsigned getIdArgument(OpTy op) {
  unsigned first = std::is_same_v<OpTy, gpu::ThreadIdOp>   ? kThreadIdArg
                   : std::is_same_v<OpTy, gpu::BlockIdOp>  ? kBlockIdArg
                   : std::is_same_v<OpTy, gpu::BlockDimOp> ? kBlockDimArg
                                                           : kGridDimArg;
  return first + getDimension(op.getDimension());
}

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value constantI32(OpBuilder &b, Location loc, int32_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

/// An nvvm.bar.warp.sync that gpu-runner-lower-warp-execute made.
bool isWarpSync(Operation *op) {
  return isa<NVVM::SyncWarpOp>(op) && op->hasAttr(kWarpSyncAttrName);
}

/// A pointer to slot `slot` of the HostKernelContext at `context`.
Value getContextSlot(OpBuilder &b, Location loc, Value context, int32_t slot) {
  return LLVM::GEPOp::create(b, loc, context.getType(), b.getI64Type(), context,
                             ArrayRef<LLVM::GEPArg>{slot});
}

Value loadContextIndex(OpBuilder &b, Location loc, Value context,
                       int32_t slot) {
  Value value = LLVM::LoadOp::create(b, loc, b.getI64Type(),
                                     getContextSlot(b, loc, context, slot));
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

Value loadContextPointer(OpBuilder &b, Location loc, Value context,
                         int32_t slot) {
  return LLVM::LoadOp::create(b, loc, context.getType(),
                              getContextSlot(b, loc, context, slot));
}

/// A memref of `type` (rank 1, identity layout) over the memory at
/// `pointer`, with `size` (an i64) elements when its size is dynamic.
Value createMemRefOverPointer(OpBuilder &b, Location loc,
                              const LLVMTypeConverter &converter,
                              MemRefType type, Value pointer, Value size) {
  Type structType = converter.convertType(type);
  FailureOr<unsigned> addressSpace = converter.getMemRefAddressSpace(type);
  if (succeeded(addressSpace) && *addressSpace != 0)
    pointer = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), *addressSpace),
        pointer);
  MemRefDescriptor descriptor = MemRefDescriptor::poison(b, loc, structType);
  descriptor.setAllocatedPtr(b, loc, pointer);
  descriptor.setAlignedPtr(b, loc, pointer);
  descriptor.setConstantOffset(b, loc, 0);
  if (type.isDynamicDim(0))
    descriptor.setSize(b, loc, 0, size);
  else
    descriptor.setConstantSize(b, loc, 0, type.getDimSize(0));
  descriptor.setConstantStride(b, loc, 0, 1);
  return UnrealizedConversionCastOp::create(b, loc, type, Value(descriptor))
      .getResult(0);
}

/// Moves `value` between lanes by `call`, a runtime call that takes and
/// returns one scalar's bits as an i64: a vector goes element by element,
/// which keeps every element type (index included) and any vector size
/// simple. Values of more than 64 bits are refused at `op`, which `what`
/// names in the plural.
FailureOr<Value>
moveThroughRuntime(OpBuilder &b, Operation *op, Value value, StringRef what,
                   function_ref<FailureOr<LLVM::CallOp>(Value)> call) {
  Location loc = op->getLoc();
  auto moveScalar = [&](Value value) -> FailureOr<Value> {
    Value asBits = scalarToBits(b, loc, value);
    Type bitsType = asBits.getType();
    unsigned bits = bitsType.getIntOrFloatBitWidth();
    if (bits < 64)
      asBits = arith::ExtUIOp::create(b, loc, b.getI64Type(), asBits);
    FailureOr<LLVM::CallOp> called = call(asBits);
    if (failed(called))
      return failure();
    Value result = called->getResult();
    if (bits < 64)
      result = arith::TruncIOp::create(b, loc, bitsType, result);
    return scalarFromBits(b, loc, result, value.getType());
  };

  auto vectorType = dyn_cast<VectorType>(value.getType());
  Type elementType = vectorType ? vectorType.getElementType() : value.getType();
  if (!elementType.isIndex() && elementType.getIntOrFloatBitWidth() > 64)
    return op->emitError() << what
                           << " of more than 64 bits are not supported on the "
                              "host backend";
  if (!vectorType)
    return moveScalar(value);
  Value result = value;
  for (int64_t i = 0, e = vectorType.getNumElements(); i < e; ++i) {
    Value element = vector::ExtractOp::create(b, loc, value, i);
    FailureOr<Value> one = moveScalar(element);
    if (failed(one))
      return failure();
    result = vector::InsertOp::create(b, loc, *one, result, i);
  }
  return result;
}

/// Where a failed assertion says it is: `file:line: function:`, chosen from
/// the op's location as upstream's NVVM lowering of cf.assert chooses the
/// arguments of CUDA's __assertfail, so that a program prints the same line
/// here as on a GPU. Call sites are followed to their callee; a file
/// location gives the file and line, a name location the function (and the
/// file and line of its child); anything else "(unknown)" and line 0.
struct AssertSource {
  std::string file = "(unknown)";
  std::string function = "(unknown)";
  int32_t line = 0;
};

AssertSource getAssertSource(Location loc) {
  AssertSource source;
  while (auto callSite = dyn_cast<CallSiteLoc>(loc))
    loc = callSite.getCallee();
  auto fromFile = [&](Location child) {
    if (auto file = dyn_cast<FileLineColRange>(child)) {
      source.file = file.getFilename().str();
      source.line = static_cast<int32_t>(file.getStartLine());
    }
  };
  if (auto name = dyn_cast<NameLoc>(loc)) {
    source.function = name.getName().str();
    fromFile(name.getChildLoc());
  } else {
    fromFile(loc);
  }
  return source;
}

/// Emits at `b`'s insertion point the loops over the threads of a block of
/// `blockSize` that a kernel with cf.assert runs without fibers: like
/// createThreadLoops, but starting at the thread that the context's
/// `threadId` holds, so that the runtime can run the rest of the block again
/// after a thread whose assertion failed. Only the first row's start
/// differs; the inner loop is the same.
void createResumableThreadLoops(
    OpBuilder &b, Location loc, Value context, ValueRange blockSize,
    function_ref<void(OpBuilder &, ValueRange)> body) {
  OpBuilder::InsertionGuard guard(b);
  Value start[3];
  for (int32_t d = 0; d < 3; ++d)
    start[d] = loadContextIndex(b, loc, context, kContextThreadId + d);
  Value zero = constantIndex(b, loc, 0);
  Value one = constantIndex(b, loc, 1);
  auto equal = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  };
  auto z = scf::ForOp::create(b, loc, start[2], blockSize[2], one);
  b.setInsertionPointToStart(z.getBody());
  Value firstPlane = equal(z.getInductionVar(), start[2]);
  auto y = scf::ForOp::create(
      b, loc, arith::SelectOp::create(b, loc, firstPlane, start[1], zero),
      blockSize[1], one);
  b.setInsertionPointToStart(y.getBody());
  Value firstRow = arith::AndIOp::create(b, loc, firstPlane,
                                         equal(y.getInductionVar(), start[1]));
  auto x = scf::ForOp::create(
      b, loc, arith::SelectOp::create(b, loc, firstRow, start[0], zero),
      blockSize[0], one);
  b.setInsertionPointToStart(x.getBody());
  body(b, {x.getInductionVar(), y.getInductionVar(), z.getInductionVar()});
}

/// Compiles the kernels of one gpu.module into host functions.
class GpuModuleToHost {
public:
  GpuModuleToHost(ModuleOp hostModule, gpu::GPUModuleOp deviceModule,
                  const LLVMTypeConverter &converter, bool splitBarriers)
      : hostModule(hostModule), deviceModule(deviceModule),
        converter(converter), splitBarriers(splitBarriers), symbols(hostModule),
        dataLayout(DataLayout::closest(hostModule)) {}

  LogicalResult compile();

private:
  LogicalResult checkContents();
  void findFunctionsThatSynchronize();
  /// The host copy names of the device functions that have an op for which
  /// `reaches` holds, or call one that does.
  llvm::DenseSet<StringAttr>
  findFunctionsThatReach(function_ref<bool(Operation *)> reaches);
  std::string getUniqueName(StringRef name);
  LogicalResult copyFunction(FunctionOpInterface function);
  LogicalResult copyGlobal(Operation *global);
  LogicalResult lowerDeviceOps(func::FuncOp function);
  LogicalResult lowerShuffle(OpBuilder &b, gpu::ShuffleOp op, Value context,
                             Value lane, Value laneCount);
  LogicalResult lowerBroadcast(OpBuilder &b, gpu::SubgroupBroadcastOp op,
                               Value context);
  LogicalResult lowerPrintf(OpBuilder &b, gpu::PrintfOp op);
  LogicalResult lowerAssert(OpBuilder &b, cf::AssertOp op, Value context,
                            ValueRange threadIds);
  LogicalResult createKernelEntry(gpu::GPUFuncOp kernel);

  ModuleOp hostModule;
  gpu::GPUModuleOp deviceModule;
  const LLVMTypeConverter &converter;
  bool splitBarriers;
  SymbolTable symbols;
  DataLayout dataLayout;

  /// Device function or global name -> its host copy's name.
  llvm::MapVector<StringAttr, StringAttr> renamed;
  /// The host copies of device functions, by device function.
  llvm::MapVector<Operation *, func::FuncOp> copies;
  /// Host copy names of the functions that reach a barrier, a shuffle, a
  /// broadcast or a gpu.subgroup_mma_compute.
  llvm::DenseSet<StringAttr> synchronizing;
  /// Host copy names of the functions that reach a cf.assert.
  llvm::DenseSet<StringAttr> asserting;
  /// Names given out but not yet in the host module.
  llvm::StringSet<> reserved;
};

LogicalResult GpuModuleToHost::checkContents() {
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

llvm::DenseSet<StringAttr> GpuModuleToHost::findFunctionsThatReach(
    function_ref<bool(Operation *)> reaches) {
  // A function reaches the op if it has one, or calls a function that
  // does: iterate to a fixed point over the module's few functions.
  llvm::DenseSet<StringAttr> found;
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto function : deviceModule.getOps<FunctionOpInterface>()) {
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
    copyNames.insert(renamed.lookup(name));
  return copyNames;
}

void GpuModuleToHost::findFunctionsThatSynchronize() {
  synchronizing = findFunctionsThatReach([](Operation *op) {
    // Barriers, shuffles, broadcasts, matrix multiply-accumulates and warp
    // synchronizations, where the lanes meet.
    return isa<gpu::BarrierOp, gpu::ShuffleOp, gpu::SubgroupBroadcastOp,
               gpu::SubgroupMmaComputeOp>(op) ||
           isWarpSync(op);
  });
  asserting = findFunctionsThatReach(
      [](Operation *op) { return isa<cf::AssertOp>(op); });
}

std::string GpuModuleToHost::getUniqueName(StringRef name) {
  std::string base =
      ("__gpu_runner_" + deviceModule.getName() + "_" + name).str();
  std::string unique = base;
  for (unsigned i = 1; symbols.lookup(unique) || reserved.contains(unique); ++i)
    unique = base + "_" + std::to_string(i);
  reserved.insert(unique);
  return unique;
}

LogicalResult GpuModuleToHost::copyGlobal(Operation *global) {
  // Device globals become host globals: memory every block shares.
  OpBuilder b = OpBuilder::atBlockEnd(hostModule.getBody());
  Operation *copy = b.clone(*global);
  SymbolTable::setSymbolName(
      copy, renamed.lookup(SymbolTable::getSymbolName(global)));
  symbols.insert(copy);
  return success();
}

LogicalResult GpuModuleToHost::copyFunction(FunctionOpInterface function) {
  Location loc = function.getLoc();
  MLIRContext *context = function.getContext();
  auto gpuFunction = dyn_cast<gpu::GPUFuncOp>(function.getOperation());
  bool isKernel = gpuFunction && gpuFunction.isKernel();

  // External functions are linked as they are.
  if (function.isExternal()) {
    StringAttr name = SymbolTable::getSymbolName(function);
    if (Operation *existing = symbols.lookup(name)) {
      auto existingFunction = dyn_cast<FunctionOpInterface>(existing);
      if (existingFunction &&
          existingFunction.getFunctionType() == function.getFunctionType())
        return success();
      return function.emitError()
             << "'" << name.getValue()
             << "' is declared differently in the host code";
    }
    OpBuilder b = OpBuilder::atBlockEnd(hostModule.getBody());
    symbols.insert(b.clone(*function));
    return success();
  }

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

  OpBuilder b = OpBuilder::atBlockEnd(hostModule.getBody());
  StringAttr name = renamed.lookup(SymbolTable::getSymbolName(function));
  auto copy = func::FuncOp::create(b, loc, name, type);
  copy.setPrivate();
  symbols.insert(copy);
  copies[function] = copy;

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
    copy->setAttr("gpu_runner.kernel", UnitAttr::get(context));
  return success();
}

LogicalResult GpuModuleToHost::lowerShuffle(OpBuilder &b, gpu::ShuffleOp op,
                                            Value context, Value lane,
                                            Value laneCount) {
  Location loc = op.getLoc();
  Value offset = op.getOffset(), width = op.getWidth();
  Value source;
  switch (op.getMode()) {
  case gpu::ShuffleMode::XOR:
    source = arith::XOrIOp::create(b, loc, lane, offset);
    break;
  case gpu::ShuffleMode::DOWN:
    source = arith::AddIOp::create(b, loc, lane, offset);
    break;
  case gpu::ShuffleMode::UP:
    source = arith::SubIOp::create(b, loc, lane, offset);
    break;
  case gpu::ShuffleMode::IDX:
    source = offset;
    break;
  }
  // Valid when this lane takes part (lane < width) and its source is one
  // of the lanes that do and exists: the partial last subgroup of a block
  // has only `laneCount` lanes. Otherwise the lane keeps its own value.
  Value zero = constantI32(b, loc, 0);
  auto lessThan = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  };
  Value valid = arith::AndIOp::create(
      b, loc, lessThan(lane, width),
      arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, source,
                                zero),
          arith::AndIOp::create(b, loc, lessThan(source, width),
                                lessThan(source, laneCount))));
  Value sourceLane = arith::SelectOp::create(b, loc, valid, source, zero);
  Value location = getConstantString(b, loc, getRuntimeLocation(op));

  // Where the source lane is the lane xor, plus or minus a constant, the
  // call says so (BarrierSplitting.cpp reads it).
  std::optional<NamedAttribute> sourceAttr;
  APInt constantOffset;
  if (matchPattern(offset, m_ConstantInt(&constantOffset))) {
    int32_t c = static_cast<int32_t>(constantOffset.getSExtValue());
    if (op.getMode() == gpu::ShuffleMode::XOR)
      sourceAttr =
          b.getNamedAttr(kShuffleLaneXorAttrName, b.getI32IntegerAttr(c));
    else if (op.getMode() == gpu::ShuffleMode::DOWN)
      sourceAttr =
          b.getNamedAttr(kShuffleLaneShiftAttrName, b.getI32IntegerAttr(c));
    else if (op.getMode() == gpu::ShuffleMode::UP)
      sourceAttr =
          b.getNamedAttr(kShuffleLaneShiftAttrName, b.getI32IntegerAttr(-c));
  }

  // Every lane calls the runtime, valid or not: the call is where the lanes
  // meet.
  FailureOr<Value> shuffled =
      moveThroughRuntime(b, op, op.getValue(), "shuffles", [&](Value bits) {
        FailureOr<LLVM::CallOp> call =
            createMgpuCall(b, loc, MgpuFunction::mgpuHostShuffleAt,
                           {context, bits, sourceLane, width, location});
        if (succeeded(call) && sourceAttr)
          (*call)->setAttr(sourceAttr->getName(), sourceAttr->getValue());
        return call;
      });
  if (failed(shuffled))
    return failure();
  Value value = op.getValue();
  Value result = arith::SelectOp::create(b, loc, valid, *shuffled, value);
  op.replaceAllUsesWith(ValueRange{result, valid});
  op.erase();
  return success();
}

LogicalResult GpuModuleToHost::lowerBroadcast(OpBuilder &b,
                                              gpu::SubgroupBroadcastOp op,
                                              Value context) {
  Location loc = op.getLoc();
  // -1 asks the runtime for the first active lane.
  Value lane = op.getBroadcastType() == gpu::BroadcastType::specific_lane
                   ? op.getLane()
                   : constantI32(b, loc, -1);
  Value location = getConstantString(b, loc, getRuntimeLocation(op));
  FailureOr<Value> result =
      moveThroughRuntime(b, op, op.getSrc(), "broadcasts", [&](Value bits) {
        return createMgpuCall(b, loc, MgpuFunction::mgpuHostBroadcastAt,
                              {context, bits, lane, location});
      });
  if (failed(result))
    return failure();
  op.replaceAllUsesWith(*result);
  op.erase();
  return success();
}

LogicalResult GpuModuleToHost::lowerPrintf(OpBuilder &b, gpu::PrintfOp op) {
  Location loc = op.getLoc();
  auto printf = LLVM::lookupOrCreateFn(
      b, hostModule, "printf", {LLVM::LLVMPointerType::get(b.getContext())},
      b.getI32Type(), /*isVarArg=*/true);
  if (failed(printf))
    return op.emitError() << "cannot declare printf";
  SmallVector<Value> args = {getConstantString(b, loc, op.getFormat())};
  // C's default argument promotions, as a variadic call expects them.
  for (Value arg : op.getArgs()) {
    Type type = arg.getType();
    if (type.isIndex())
      arg = arith::IndexCastOp::create(b, loc, b.getI64Type(), arg);
    else if (auto floatType = dyn_cast<FloatType>(type);
             floatType && floatType.getWidth() < 64)
      arg = arith::ExtFOp::create(b, loc, b.getF64Type(), arg);
    else if (type.isInteger(1))
      arg = arith::ExtUIOp::create(b, loc, b.getI32Type(), arg);
    else if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
      arg = arith::ExtSIOp::create(b, loc, b.getI32Type(), arg);
    args.push_back(arg);
  }
  LLVM::CallOp::create(b, loc, *printf, args);
  op.erase();
  return success();
}

LogicalResult GpuModuleToHost::lowerAssert(OpBuilder &b, cf::AssertOp op,
                                           Value context,
                                           ValueRange threadIds) {
  // The runtime records the thread's failure and ends the thread: it never
  // returns, so nothing after the call runs for a thread that failed. A
  // passing assertion costs the branch.
  Location loc = op.getLoc();
  Value fails = arith::XOrIOp::create(
      b, loc, op.getArg(), arith::ConstantIntOp::create(b, loc, 1, 1));
  auto ifOp = scf::IfOp::create(b, loc, fails, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  AssertSource source = getAssertSource(loc);
  SmallVector<Value> args = {context};
  for (Value id : threadIds)
    args.push_back(arith::IndexCastOp::create(b, loc, b.getI64Type(), id));
  args.push_back(getConstantString(b, loc, op.getMsg()));
  args.push_back(getConstantString(b, loc, source.file));
  args.push_back(constantI32(b, loc, source.line));
  args.push_back(getConstantString(b, loc, source.function));
  if (failed(createMgpuCall(b, loc, MgpuFunction::mgpuHostAssertFailAt, args)))
    return failure();
  op.erase();
  return success();
}

LogicalResult GpuModuleToHost::lowerDeviceOps(func::FuncOp function) {
  Block &entry = function.getBody().front();
  auto argument = [&](unsigned i) -> Value { return entry.getArgument(i); };
  Value context = argument(kContextArg);

  // lane and subgroup ids come from the linear thread id; computed once, at
  // the top, where every thread can see it.
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Location loc = function.getLoc();
  Value linear = arith::AddIOp::create(
      b, loc, argument(kThreadIdArg),
      arith::MulIOp::create(
          b, loc, argument(kBlockDimArg),
          arith::AddIOp::create(
              b, loc, argument(kThreadIdArg + 1),
              arith::MulIOp::create(b, loc, argument(kBlockDimArg + 1),
                                    argument(kThreadIdArg + 2)))));
  Value subgroupSize = constantIndex(b, loc, kHostSubgroupSize);
  Value laneIndex = arith::RemUIOp::create(b, loc, linear, subgroupSize);
  Value lane32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), laneIndex);
  // The lanes of this thread's subgroup: fewer than the subgroup size in
  // the partial last subgroup of a block whose size is not a multiple of it.
  Value threads = arith::MulIOp::create(
      b, loc, argument(kBlockDimArg),
      arith::MulIOp::create(b, loc, argument(kBlockDimArg + 1),
                            argument(kBlockDimArg + 2)));
  Value laneCount = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      arith::MinUIOp::create(
          b, loc, subgroupSize,
          arith::SubIOp::create(
              b, loc, threads,
              arith::SubIOp::create(b, loc, linear, laneIndex))));

  SmallVector<Operation *> ops;
  function.walk([&](Operation *op) {
    if (isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) ||
        isa<func::CallOp, cf::AssertOp>(op) || isWarpSync(op))
      ops.push_back(op);
  });

  for (Operation *op : ops) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    LogicalResult result = success();
    TypeSwitch<Operation *>(op)
        .Case<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp>(
            [&](auto op) {
              op.replaceAllUsesWith(argument(getIdArgument(op)));
              op.erase();
            })
        .Case<gpu::ClusterIdOp, gpu::ClusterDimOp, gpu::ClusterDimBlocksOp,
              gpu::ClusterBlockIdOp>([&](auto op) {
          // CUDA's registers: the blocks per cluster come from the launch
          // (1 without clusters), the rest from the block id and the grid,
          // which is made of whole clusters.
          unsigned d = getDimension(op.getDimension());
          Value blocks = loadContextIndex(b, loc, context,
                                          kContextClusterDim + int32_t(d));
          using OpTy = decltype(op);
          Value value = blocks;
          if constexpr (std::is_same_v<OpTy, gpu::ClusterIdOp>)
            value = arith::DivUIOp::create(b, loc, argument(kBlockIdArg + d),
                                           blocks);
          else if constexpr (std::is_same_v<OpTy, gpu::ClusterDimOp>)
            value = arith::DivUIOp::create(b, loc, argument(kGridDimArg + d),
                                           blocks);
          else if constexpr (std::is_same_v<OpTy, gpu::ClusterBlockIdOp>)
            value = arith::RemUIOp::create(b, loc, argument(kBlockIdArg + d),
                                           blocks);
          op.replaceAllUsesWith(value);
          op.erase();
        })
        .Case([&](gpu::GlobalIdOp op) {
          unsigned d = getDimension(op.getDimension());
          Value global = arith::AddIOp::create(
              b, loc,
              arith::MulIOp::create(b, loc, argument(kBlockIdArg + d),
                                    argument(kBlockDimArg + d)),
              argument(kThreadIdArg + d));
          op.replaceAllUsesWith(global);
          op.erase();
        })
        .Case([&](gpu::LaneIdOp op) {
          op.replaceAllUsesWith(laneIndex);
          op.erase();
        })
        .Case([&](gpu::SubgroupIdOp op) {
          op.replaceAllUsesWith(
              arith::DivUIOp::create(b, loc, linear, subgroupSize).getResult());
          op.erase();
        })
        .Case([&](gpu::SubgroupSizeOp op) {
          op.replaceAllUsesWith(subgroupSize);
          op.erase();
        })
        .Case([&](gpu::NumSubgroupsOp op) {
          op.replaceAllUsesWith(
              arith::CeilDivUIOp::create(b, loc, threads, subgroupSize)
                  .getResult());
          op.erase();
        })
        .Case([&](gpu::BarrierOp op) {
          Value location = getConstantString(b, loc, getRuntimeLocation(op));
          result = createMgpuCall(b, loc, MgpuFunction::mgpuHostBarrierAt,
                                  {context, location});
          op.erase();
        })
        .Case([&](gpu::ShuffleOp op) {
          result = lowerShuffle(b, op, context, lane32, laneCount);
        })
        .Case([&](NVVM::SyncWarpOp op) {
          // A warp of gpu.warp_execute_on_lane_0 synchronizing: the lanes of
          // the subgroup that can reach it meet as at a broadcast (from the
          // first active lane), whose value no one reads.
          Value location = getConstantString(b, loc, getRuntimeLocation(op));
          Value nothing = arith::ConstantIntOp::create(b, loc, 0, 64);
          result = createMgpuCall(
              b, loc, MgpuFunction::mgpuHostBroadcastAt,
              {context, nothing, constantI32(b, loc, -1), location});
          op.erase();
        })
        .Case([&](gpu::SubgroupBroadcastOp op) {
          result = lowerBroadcast(b, op, context);
        })
        .Case([&](gpu::PrintfOp op) { result = lowerPrintf(b, op); })
        .Case([&](cf::AssertOp op) {
          result = lowerAssert(b, op, context,
                               entry.getArguments().slice(kThreadIdArg, 3));
        })
        .Case([&](gpu::DynamicSharedMemoryOp op) {
          Value pointer =
              loadContextPointer(b, loc, context, kContextDynamicSharedMemory);
          Value bytes = LLVM::LoadOp::create(
              b, loc, b.getI64Type(),
              getContextSlot(b, loc, context, kContextDynamicSharedBytes));
          op.replaceAllUsesWith(createMemRefOverPointer(
              b, loc, converter, op.getType(), pointer, bytes));
          op.erase();
        })
        .Case([&](gpu::ReturnOp op) {
          func::ReturnOp::create(b, loc, op.getOperands());
          op.erase();
        })
        .Case([&](func::CallOp op) {
          // Calls of other device functions pass the implicit arguments on.
          StringAttr callee = op.getCalleeAttr().getAttr();
          auto target = symbols.lookup<func::FuncOp>(callee);
          if (!target || !target->hasAttr("gpu_runner.device"))
            return;
          SmallVector<Value> operands(
              entry.getArguments().take_front(kImplicitArgCount));
          operands.append(op.getOperands().begin(), op.getOperands().end());
          auto call = func::CallOp::create(b, loc, target, operands);
          op.replaceAllUsesWith(call.getResults());
          op.erase();
        })
        .Default([&](Operation *op) {
          result = op->emitError() << "'" << op->getName()
                                   << "' is not supported in kernels on "
                                      "the host backend";
        });
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult GpuModuleToHost::createKernelEntry(gpu::GPUFuncOp kernel) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  func::FuncOp thread = copies.lookup(kernel);
  // Barriers every thread reaches together need no fibers: the kernel runs
  // as loops over the threads between them (BarrierSplitting.h).
  BarrierSplitter splitter(thread, synchronizing);
  bool synchronizes = synchronizing.contains(thread.getSymNameAttr());
  // A thread whose assertion fails ends there, as a thread that returns
  // early does: the loops cut at barriers have no way to leave it out of
  // the pieces after that, so such a kernel with barriers runs on fibers.
  bool asserts = asserting.contains(thread.getSymNameAttr());
  bool split = synchronizes && splitBarriers && !asserts && splitter.canSplit();
  bool usesFibers = synchronizes && !split;
  // Without fibers, the block goes on after a failed thread by starting its
  // loops again at the next thread.
  bool resumes = asserts && !usesFibers;
  Type pointerType = LLVM::LLVMPointerType::get(context);
  ArrayRef<Type> kernelInputs = kernel.getArgumentTypes();

  // Static workgroup memory: each attribution at a 16-byte aligned offset.
  SmallVector<int64_t> offsets;
  int64_t staticBytes = 0;
  for (BlockArgument attribution : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(attribution.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return kernel.emitError()
             << "workgroup attribution of type " << type
             << " is not supported: it needs a static shape and the "
                "identity layout";
    staticBytes = llvm::alignTo(staticBytes, kHostSharedMemoryAlignment);
    offsets.push_back(staticBytes);
    staticBytes +=
        type.getNumElements() * dataLayout.getTypeSize(type.getElementType());
  }

  OpBuilder b = OpBuilder::atBlockEnd(hostModule.getBody());

  // The block function: the thread function for every thread of a block
  // (a loop), the kernel cut at its barriers into such loops, or the thread
  // function for the fiber's thread.
  SmallVector<Type> blockInputs = {pointerType};
  blockInputs.append(kernelInputs.begin(), kernelInputs.end());
  auto block = func::FuncOp::create(
      b, loc, getUniqueName((kernel.getName() + "_block").str()),
      FunctionType::get(context, blockInputs, {}));
  block.setPrivate();
  symbols.insert(block);
  Block *blockEntry = block.addEntryBlock();
  b.setInsertionPointToStart(blockEntry);
  Value ctx = blockEntry->getArgument(0);
  // The thread function's implicit arguments, by position; the thread ids
  // (1 to 3) depend on how the block runs and are filled in below.
  SmallVector<Value> implicit(kImplicitArgCount);
  implicit[kContextArg] = ctx;
  for (int32_t d = 0; d < 3; ++d) {
    implicit[kBlockIdArg + d] =
        loadContextIndex(b, loc, ctx, kContextBlockId + d);
    implicit[kBlockDimArg + d] =
        loadContextIndex(b, loc, ctx, kContextBlockDim + d);
    implicit[kGridDimArg + d] =
        loadContextIndex(b, loc, ctx, kContextGridDim + d);
  }
  ValueRange blockSize = ArrayRef(implicit).slice(kBlockDimArg, 3);
  SmallVector<Value> workgroup;
  if (!offsets.empty()) {
    Value shared = loadContextPointer(b, loc, ctx, kContextSharedMemory);
    llvm::DenseMap<Attribute, Value> buffers;
    for (auto [attribution, offset] :
         llvm::zip_equal(kernel.getWorkgroupAttributions(), offsets)) {
      auto type = cast<MemRefType>(attribution.getType());
      Value &buffer = buffers[type.getMemorySpace()];
      if (!buffer)
        buffer = createMemRefOverPointer(b, loc, converter,
                                         MemRefType::get({staticBytes},
                                                         b.getI8Type(), nullptr,
                                                         type.getMemorySpace()),
                                         shared, Value());
      workgroup.push_back(memref::ViewOp::create(
          b, loc, type, buffer, constantIndex(b, loc, offset), ValueRange()));
    }
  }
  auto callThread = [&](OpBuilder &b, ValueRange threadIds) {
    SmallVector<Value> operands = implicit;
    llvm::copy(threadIds, operands.begin() + kThreadIdArg);
    operands.append(workgroup);
    operands.append(blockEntry->getArguments().begin() + 1,
                    blockEntry->getArguments().end());
    func::CallOp::create(b, loc, thread, operands);
  };
  if (split) {
    IRMapping map;
    map.map(thread.getArgument(kContextArg), ctx);
    for (unsigned i = kBlockIdArg; i < kImplicitArgCount; ++i)
      map.map(thread.getArgument(i), implicit[i]);
    for (auto [i, view] : llvm::enumerate(workgroup))
      map.map(thread.getArgument(kImplicitArgCount + i), view);
    unsigned firstInput = kImplicitArgCount + workgroup.size();
    for (unsigned i = 0; i < kernelInputs.size(); ++i)
      map.map(thread.getArgument(firstInput + i),
              blockEntry->getArgument(1 + i));
    splitter.emit(b, map, blockSize);
  } else if (usesFibers) {
    SmallVector<Value> threadIds;
    for (int32_t d = 0; d < 3; ++d)
      threadIds.push_back(loadContextIndex(b, loc, ctx, kContextThreadId + d));
    callThread(b, threadIds);
  } else if (resumes) {
    createResumableThreadLoops(b, loc, ctx, blockSize, callThread);
  } else {
    createThreadLoops(b, loc, blockSize, callThread);
  }
  func::ReturnOp::create(b, loc);

  // The entry: unpacks the arguments the launch packed into a struct of
  // their LLVM types.
  b.setInsertionPointToEnd(hostModule.getBody());
  auto entryFunction = func::FuncOp::create(
      b, loc, getUniqueName((kernel.getName() + "_entry").str()),
      FunctionType::get(context, {pointerType, pointerType}, {}));
  entryFunction.setPrivate();
  symbols.insert(entryFunction);
  Block *entry = entryFunction.addEntryBlock();
  b.setInsertionPointToStart(entry);
  SmallVector<Value> arguments = {entry->getArgument(0)};
  if (!kernelInputs.empty()) {
    FailureOr<Type> packedType = getPackedArgumentsType(
        converter, kernelInputs, [&]() { return kernel.emitError(); });
    if (failed(packedType))
      return failure();
    Value packed =
        LLVM::LoadOp::create(b, loc, *packedType, entry->getArgument(1));
    for (auto [i, type] : llvm::enumerate(kernelInputs)) {
      Value value = LLVM::ExtractValueOp::create(b, loc, packed, i);
      if (value.getType() != type)
        value = UnrealizedConversionCastOp::create(b, loc, type, value)
                    .getResult(0);
      arguments.push_back(value);
    }
  }
  func::CallOp::create(b, loc, block, arguments);
  func::ReturnOp::create(b, loc);

  kernel->setAttr(kHostEntryAttrName,
                  FlatSymbolRefAttr::get(entryFunction.getSymNameAttr()));
  kernel->setAttr(kHostStaticSharedBytesAttrName,
                  b.getI64IntegerAttr(staticBytes));
  if (usesFibers)
    kernel->setAttr(kHostUsesFibersAttrName, UnitAttr::get(context));
  if (resumes)
    kernel->setAttr(kHostResumesAfterAssertionsAttrName,
                    UnitAttr::get(context));
  return success();
}

LogicalResult GpuModuleToHost::compile() {
  if (failed(checkContents()))
    return failure();

  // Names first, so that copies can refer to each other.
  for (Operation &op : deviceModule.getBody()->getOperations()) {
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (function && function.isExternal())
      continue;
    StringAttr name = SymbolTable::getSymbolName(&op);
    renamed[name] =
        StringAttr::get(op.getContext(), getUniqueName(name.getValue()));
  }
  findFunctionsThatSynchronize();

  for (Operation &op : deviceModule.getBody()->getOperations()) {
    LogicalResult copied = isa<FunctionOpInterface>(op)
                               ? copyFunction(cast<FunctionOpInterface>(op))
                               : copyGlobal(&op);
    if (failed(copied))
      return failure();
  }
  for (auto [function, copy] : copies) {
    copy->setAttr("gpu_runner.device", UnitAttr::get(copy.getContext()));
    for (auto [from, to] : renamed)
      if (failed(SymbolTable::replaceAllSymbolUses(from, to, copy)))
        return copy.emitError() << "cannot rename the uses of " << from;
  }
  // The mma ops first: they become per-lane code that uses the id ops.
  SmallVector<func::FuncOp> copyList;
  for (auto [function, copy] : copies)
    copyList.push_back(copy);
  if (failed(lowerHostMmaOps(copyList)))
    return failure();
  for (auto [function, copy] : copies)
    if (failed(lowerDeviceOps(copy)))
      return failure();
  for (auto kernel : deviceModule.getOps<gpu::GPUFuncOp>())
    if (kernel.isKernel() && failed(createKernelEntry(kernel)))
      return failure();
  for (auto [function, copy] : copies) {
    copy->removeAttr("gpu_runner.device");
    copy->removeAttr("gpu_runner.kernel");
  }
  return success();
}

class HostKernelsPass : public impl::HostKernelsBase<HostKernelsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A gpu.binary holds kernels already compiled for a GPU; there is
    // nothing the host can run in it.
    for (gpu::BinaryOp binary : module.getOps<gpu::BinaryOp>()) {
      binary.emitError()
          << "a gpu.binary holds kernels compiled for a GPU, which the host "
             "backend cannot run; give the kernels' source as a gpu.module, "
             "or run the program with gpu-runner-cuda or gpu-runner-hip";
      return signalPassFailure();
    }
    LowerToLLVMOptions options(&getContext());
    LLVMTypeConverter converter(&getContext(), options);
    addGpuTypeConversions(converter, /*hostWorkgroupMemory=*/true);
    SmallVector<gpu::GPUModuleOp> deviceModules(
        module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp deviceModule : deviceModules)
      if (failed(GpuModuleToHost(module, deviceModule, converter, splitBarriers)
                     .compile()))
        return signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
