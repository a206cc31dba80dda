//===- KernelEntries.cpp - The functions a launch of a host kernel runs ---===//
//
// Step 4 of gpu-runner-host-kernels (HostKernelSteps.h). For each kernel:
// - how its blocks run: as a loop over the threads (no barrier, shuffle,
//   broadcast or mma compute), cut at its barriers into such loops
//   (BarrierSplitting.h), or each thread on a fiber;
// - its static workgroup memory laid out;
// - the block function, which runs the thread function as chosen;
// - the entry, which unpacks the launch's arguments and calls the block
//   function;
// - the attributes the lowering of its launches reads (HostKernels.h).
//
//===----------------------------------------------------------------------===//

#include "lowering/host/HostKernelSteps.h"

#include "lowering/host/BarrierSplitting.h"
#include "lowering/host/HostKernels.h"
#include "lowering/runtime/GpuRuntimeToLLVM.h"
#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace gpu_runner {
namespace {

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

/// How the threads of a kernel's block run.
enum class BlockMode {
  /// One loop over the threads.
  Loops,
  /// Loops that start again after a thread that failed a cf.assert.
  ResumableLoops,
  /// Loops over the threads between the barriers the kernel is cut at.
  Split,
  /// Each thread on a fiber: the block function runs one thread.
  Fibers,
};

/// The static workgroup memory of a kernel: each attribution at a 16-byte
/// aligned offset.
struct WorkgroupLayout {
  SmallVector<int64_t> offsets;
  int64_t bytes = 0;
};

/// Makes the block functions and entries of a gpu.module's kernels.
class KernelEntryBuilder {
public:
  KernelEntryBuilder(HostKernelModule &module,
                     const LLVMTypeConverter &converter, bool splitBarriers,
                     bool subgroupVectors)
      : module(module), converter(converter), splitBarriers(splitBarriers),
        subgroupVectors(subgroupVectors),
        dataLayout(DataLayout::closest(module.getHostModule())) {}

  LogicalResult build(gpu::GPUFuncOp kernel);

private:
  BlockMode chooseBlockMode(func::FuncOp thread, BarrierSplitter &splitter);
  std::optional<bool> launchesWholeSubgroups(gpu::GPUFuncOp kernel);
  FailureOr<WorkgroupLayout> layOutWorkgroupMemory(gpu::GPUFuncOp kernel);
  func::FuncOp createBlockFunction(gpu::GPUFuncOp kernel, func::FuncOp thread,
                                   const WorkgroupLayout &layout,
                                   BlockMode mode, BarrierSplitter &splitter,
                                   bool &onLanes);
  SmallVector<Value> createWorkgroupViews(OpBuilder &b, Location loc,
                                          gpu::GPUFuncOp kernel, Value context,
                                          const WorkgroupLayout &layout);
  FailureOr<func::FuncOp> createEntryFunction(gpu::GPUFuncOp kernel,
                                              func::FuncOp block);

  HostKernelModule &module;
  const LLVMTypeConverter &converter;
  bool splitBarriers;
  bool subgroupVectors;
  DataLayout dataLayout;
};

BlockMode KernelEntryBuilder::chooseBlockMode(func::FuncOp thread,
                                              BarrierSplitter &splitter) {
  bool synchronizes = module.synchronizing.contains(thread.getSymNameAttr());
  // A thread whose assertion fails ends there, as a thread that returns
  // early does: the loops cut at barriers have no way to leave it out of
  // the pieces after that, so such a kernel with barriers runs on fibers.
  bool asserts = module.asserting.contains(thread.getSymNameAttr());
  if (synchronizes)
    return splitBarriers && !asserts && splitter.canSplit() ? BlockMode::Split
                                                            : BlockMode::Fibers;
  // Without fibers, the block goes on after a failed thread by starting its
  // loops again at the next thread.
  return asserts ? BlockMode::ResumableLoops : BlockMode::Loops;
}

/// Whether every block `kernel` runs has a size in x that is a multiple of
/// the subgroup size (true), none has (false), or either may: from its
/// known_block_size, else from its launches in the host module, where each
/// gives the size as a constant. Launches with --launch are there too.
std::optional<bool>
KernelEntryBuilder::launchesWholeSubgroups(gpu::GPUFuncOp kernel) {
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize())
    return (*known)[0] % kHostSubgroupSize == 0;
  StringRef moduleName = module.getDeviceModule().getName();
  std::optional<bool> whole;
  bool mixed = false;
  module.getHostModule().walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() != moduleName ||
        launch.getKernelName() != kernel.getName())
      return WalkResult::advance();
    APInt size;
    if (!matchPattern(launch.getBlockSizeX(), m_ConstantInt(&size))) {
      mixed = true;
      return WalkResult::interrupt();
    }
    bool launchWhole = size.getZExtValue() % kHostSubgroupSize == 0;
    mixed = whole && *whole != launchWhole;
    whole = launchWhole;
    return mixed ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (mixed)
    return std::nullopt;
  return whole;
}

FailureOr<WorkgroupLayout>
KernelEntryBuilder::layOutWorkgroupMemory(gpu::GPUFuncOp kernel) {
  WorkgroupLayout layout;
  for (BlockArgument attribution : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(attribution.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return kernel.emitError()
             << "workgroup attribution of type " << type
             << " is not supported: it needs a static shape and the "
                "identity layout";
    layout.bytes = llvm::alignTo(layout.bytes, kHostSharedMemoryAlignment);
    layout.offsets.push_back(layout.bytes);
    layout.bytes +=
        type.getNumElements() * dataLayout.getTypeSize(type.getElementType());
  }
  return layout;
}

/// A view of the block's workgroup memory for each attribution of
/// `kernel`: one buffer per memory space, a view at each offset.
SmallVector<Value>
KernelEntryBuilder::createWorkgroupViews(OpBuilder &b, Location loc,
                                         gpu::GPUFuncOp kernel, Value context,
                                         const WorkgroupLayout &layout) {
  SmallVector<Value> workgroup;
  if (layout.offsets.empty())
    return workgroup;
  Value shared = loadContextPointer(b, loc, context, kContextSharedMemory);
  llvm::DenseMap<Attribute, Value> buffers;
  for (auto [attribution, offset] :
       llvm::zip_equal(kernel.getWorkgroupAttributions(), layout.offsets)) {
    auto type = cast<MemRefType>(attribution.getType());
    Value &buffer = buffers[type.getMemorySpace()];
    if (!buffer)
      buffer = createMemRefOverPointer(b, loc, converter,
                                       MemRefType::get({layout.bytes},
                                                       b.getI8Type(), nullptr,
                                                       type.getMemorySpace()),
                                       shared, Value());
    workgroup.push_back(memref::ViewOp::create(
        b, loc, type, buffer, constantIndex(b, loc, offset), ValueRange()));
  }
  return workgroup;
}

/// The block function: the thread function for every thread of a block (a
/// loop), the kernel cut at its barriers into such loops, or the thread
/// function for the fiber's thread. It takes the context, then the
/// kernel's arguments.
func::FuncOp KernelEntryBuilder::createBlockFunction(
    gpu::GPUFuncOp kernel, func::FuncOp thread, const WorkgroupLayout &layout,
    BlockMode mode, BarrierSplitter &splitter, bool &onLanes) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  ArrayRef<Type> kernelInputs = kernel.getArgumentTypes();
  OpBuilder b = OpBuilder::atBlockEnd(module.getHostModule().getBody());
  SmallVector<Type> blockInputs = {LLVM::LLVMPointerType::get(context)};
  blockInputs.append(kernelInputs.begin(), kernelInputs.end());
  auto block = func::FuncOp::create(
      b, loc, module.getUniqueName((kernel.getName() + "_block").str()),
      FunctionType::get(context, blockInputs, {}));
  block.setPrivate();
  module.getSymbols().insert(block);
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
  SmallVector<Value> workgroup =
      createWorkgroupViews(b, loc, kernel, ctx, layout);
  auto callThread = [&](OpBuilder &b, ValueRange threadIds) {
    SmallVector<Value> operands = implicit;
    llvm::copy(threadIds, operands.begin() + kThreadIdArg);
    operands.append(workgroup);
    operands.append(blockEntry->getArguments().begin() + 1,
                    blockEntry->getArguments().end());
    func::CallOp::create(b, loc, thread, operands);
  };
  switch (mode) {
  case BlockMode::Split: {
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
    onLanes = splitter.emit(b, map, blockSize, launchesWholeSubgroups(kernel));
    break;
  }
  case BlockMode::Fibers: {
    SmallVector<Value> threadIds;
    for (int32_t d = 0; d < 3; ++d)
      threadIds.push_back(loadContextIndex(b, loc, ctx, kContextThreadId + d));
    callThread(b, threadIds);
    break;
  }
  case BlockMode::ResumableLoops:
    createResumableThreadLoops(b, loc, ctx, blockSize, callThread);
    break;
  case BlockMode::Loops:
    createThreadLoops(b, loc, blockSize, callThread);
    break;
  }
  func::ReturnOp::create(b, loc);
  return block;
}

/// The entry: unpacks the arguments the launch packed into a struct of
/// their LLVM types, and calls the block function.
FailureOr<func::FuncOp>
KernelEntryBuilder::createEntryFunction(gpu::GPUFuncOp kernel,
                                        func::FuncOp block) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  ArrayRef<Type> kernelInputs = kernel.getArgumentTypes();
  Type pointerType = LLVM::LLVMPointerType::get(context);
  OpBuilder b = OpBuilder::atBlockEnd(module.getHostModule().getBody());
  auto entryFunction = func::FuncOp::create(
      b, loc, module.getUniqueName((kernel.getName() + "_entry").str()),
      FunctionType::get(context, {pointerType, pointerType}, {}));
  entryFunction.setPrivate();
  module.getSymbols().insert(entryFunction);
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
  return entryFunction;
}

LogicalResult KernelEntryBuilder::build(gpu::GPUFuncOp kernel) {
  func::FuncOp thread = module.copies.lookup(kernel);
  BarrierSplitter splitter(thread, module.synchronizing, subgroupVectors);
  BlockMode mode = chooseBlockMode(thread, splitter);
  FailureOr<WorkgroupLayout> layout = layOutWorkgroupMemory(kernel);
  if (failed(layout))
    return failure();
  bool onLanes = false;
  func::FuncOp block =
      createBlockFunction(kernel, thread, *layout, mode, splitter, onLanes);
  FailureOr<func::FuncOp> entry = createEntryFunction(kernel, block);
  if (failed(entry))
    return failure();

  MLIRContext *context = kernel.getContext();
  kernel->setAttr(kHostEntryAttrName,
                  FlatSymbolRefAttr::get(entry->getSymNameAttr()));
  kernel->setAttr(kHostStaticSharedBytesAttrName,
                  Builder(context).getI64IntegerAttr(layout->bytes));
  if (mode == BlockMode::Fibers)
    kernel->setAttr(kHostUsesFibersAttrName, UnitAttr::get(context));
  if (onLanes)
    kernel->setAttr(kHostSubgroupVectorsAttrName, UnitAttr::get(context));
  if (mode == BlockMode::ResumableLoops)
    kernel->setAttr(kHostResumesAfterAssertionsAttrName,
                    UnitAttr::get(context));
  return success();
}

} // namespace

LogicalResult createKernelEntries(HostKernelModule &module,
                                  const LLVMTypeConverter &converter,
                                  bool splitBarriers, bool subgroupVectors) {
  KernelEntryBuilder builder(module, converter, splitBarriers, subgroupVectors);
  for (auto kernel : module.getDeviceModule().getOps<gpu::GPUFuncOp>())
    if (kernel.isKernel() && failed(builder.build(kernel)))
      return failure();
  return success();
}

} // namespace gpu_runner
