//===- PrivateMemoryGuards.cpp - Margins around a GPU thread's allocas ----===//
//
// On the host backend a GPU thread's private memory is its function's stack
// frame, among the frames of the runner's own code that runs it: a store
// just before or past a private array would change another variable, a
// saved register or a return address, silently or far from the store. The
// host copies of a gpu.module's functions carry kHostPrivateMemoryGuardAttr;
// each static alloca of theirs is given a margin on each side that holds a
// pattern, compared before the function returns. A changed margin is an
// error at the launch that names the kernel, the block and the thread
// (mgpuHostPrivateMemoryOutOfBounds). An alloca whose every access the
// optimizer resolves keeps no margin: SROA folds the pattern's loads, and
// the check goes away with them.
//
//===----------------------------------------------------------------------===//

#include "runner/compiler/CompilerSteps.h"

#include "wrappers/HostKernelAbi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

namespace gpu_runner {

namespace {

/// One alloca given margins: the array's first byte, its size and the
/// bytes of each margin.
struct GuardedArray {
  llvm::AllocaInst *storage;
  llvm::Value *array;
  uint64_t bytes;
  uint64_t margin;
};

/// Whether `function`'s arguments begin with the implicit ones of a host
/// copy: the context, then the thread's and the block's ids.
bool hasImplicitArguments(llvm::Function &function) {
  constexpr unsigned kIds = 7;
  if (function.arg_size() < kIds ||
      !function.getArg(0)->getType()->isPointerTy())
    return false;
  for (unsigned i = 1; i < kIds; ++i)
    if (!function.getArg(i)->getType()->isIntegerTy(64))
      return false;
  return true;
}

/// Replaces each static alloca of `function` by one with a margin on each
/// side, filled with the pattern where the alloca was.
llvm::SmallVector<GuardedArray> addMargins(llvm::Function &function) {
  const llvm::DataLayout &layout = function.getDataLayout();
  llvm::SmallVector<llvm::AllocaInst *> allocas;
  for (llvm::Instruction &instruction : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
        alloca && alloca->isStaticAlloca())
      allocas.push_back(alloca);

  llvm::SmallVector<GuardedArray> guarded;
  llvm::Type *byteType = llvm::Type::getInt8Ty(function.getContext());
  for (llvm::AllocaInst *alloca : allocas) {
    std::optional<llvm::TypeSize> size = alloca->getAllocationSize(layout);
    if (!size || size->isScalable() || size->getFixedValue() == 0)
      continue;
    uint64_t bytes = size->getFixedValue();
    uint64_t margin = std::max<uint64_t>(kHostPrivateMemoryMarginBytes,
                                         alloca->getAlign().value());
    llvm::IRBuilder<> builder(alloca);
    auto *storage = builder.CreateAlloca(
        llvm::ArrayType::get(byteType, margin + bytes + margin), nullptr,
        alloca->getName() + ".guarded");
    storage->setAlignment(alloca->getAlign());
    llvm::Value *array = builder.CreateConstInBoundsGEP1_64(
        byteType, storage, margin, alloca->getName());
    builder.CreateMemSet(storage, builder.getInt8(kHostPrivateMemoryPattern),
                         margin, alloca->getAlign());
    builder.CreateMemSet(
        builder.CreateConstInBoundsGEP1_64(byteType, storage, margin + bytes),
        builder.getInt8(kHostPrivateMemoryPattern), margin, llvm::Align(1));
    // Lifetime markers take an alloca itself, not a pointer into one.
    for (llvm::User *user : llvm::make_early_inc_range(alloca->users()))
      if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(user);
          intrinsic && intrinsic->isLifetimeStartOrEnd())
        intrinsic->eraseFromParent();
    alloca->replaceAllUsesWith(array);
    alloca->eraseFromParent();
    guarded.push_back({storage, array, bytes, margin});
  }
  return guarded;
}

/// Whether the margins of `guarded` hold anything but the pattern, read at
/// `builder`'s insertion point.
llvm::Value *createMarginsChanged(llvm::IRBuilder<> &builder,
                                  const GuardedArray &guarded) {
  llvm::Type *byteType = builder.getInt8Ty();
  llvm::Type *wordType = builder.getInt64Ty();
  uint64_t patternWord = 0x0101010101010101ULL * kHostPrivateMemoryPattern;
  llvm::Value *changed = nullptr;
  auto compare = [&](uint64_t begin) {
    for (uint64_t offset = 0; offset < guarded.margin; offset += 8) {
      llvm::Value *word = builder.CreateAlignedLoad(
          wordType,
          builder.CreateConstInBoundsGEP1_64(byteType, guarded.storage,
                                             begin + offset),
          llvm::Align(1));
      llvm::Value *difference =
          builder.CreateXor(word, builder.getInt64(patternWord));
      changed = changed ? builder.CreateOr(changed, difference) : difference;
    }
  };
  compare(0);
  compare(guarded.margin + guarded.bytes);
  return builder.CreateICmpNE(changed, builder.getInt64(0));
}

/// Drops `nuw` from the address computations of `function`: an index of
/// -1 into private memory makes such an address poison, and the optimizer
/// then removes the store (or the select that chose the index) rather than
/// letting it reach the margin. `inbounds` stays: an address in a margin is
/// within the alloca that holds it.
void allowNegativeIndices(llvm::Function &function) {
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &instruction : block)
      if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction))
        gep->setNoWrapFlags(gep->getNoWrapFlags().withoutNoUnsignedWrap());
}

void guardFunction(llvm::Function &function, llvm::FunctionCallee report) {
  // A device function may get the private array of its caller.
  allowNegativeIndices(function);
  llvm::SmallVector<GuardedArray> guarded = addMargins(function);
  if (guarded.empty())
    return;
  llvm::SmallVector<llvm::ReturnInst *> returns;
  for (llvm::BasicBlock &block : function)
    if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator()))
      returns.push_back(ret);
  llvm::MDNode *unlikely =
      llvm::MDBuilder(function.getContext()).createUnlikelyBranchWeights();
  for (llvm::ReturnInst *ret : returns)
    for (const GuardedArray &array : guarded) {
      llvm::IRBuilder<> builder(ret);
      llvm::Value *changed = createMarginsChanged(builder, array);
      llvm::Instruction *failed =
          llvm::SplitBlockAndInsertIfThen(changed, ret, true, unlikely);
      builder.SetInsertPoint(failed);
      builder.CreateCall(report, {array.array, builder.getInt64(array.bytes),
                                  builder.getInt64(array.margin),
                                  function.getArg(1), function.getArg(2),
                                  function.getArg(3), function.getArg(4),
                                  function.getArg(5), function.getArg(6)});
    }
}

} // namespace

void guardPrivateMemory(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::FunctionCallee report;
  for (llvm::Function &function : module) {
    if (function.isDeclaration() ||
        !function.hasFnAttribute(kHostPrivateMemoryGuardAttr))
      continue;
    function.removeFnAttr(kHostPrivateMemoryGuardAttr);
    if (!hasImplicitArguments(function))
      continue;
    if (!report) {
      llvm::Type *pointer = llvm::PointerType::getUnqual(context);
      llvm::Type *word = llvm::Type::getInt64Ty(context);
      auto *type = llvm::FunctionType::get(
          llvm::Type::getVoidTy(context),
          {pointer, word, word, word, word, word, word, word, word}, false);
      report =
          module.getOrInsertFunction("mgpuHostPrivateMemoryOutOfBounds", type);
      if (auto *declared = llvm::dyn_cast<llvm::Function>(report.getCallee())) {
        declared->setDoesNotReturn();
        declared->setDoesNotThrow();
        declared->addFnAttr(llvm::Attribute::Cold);
      }
    }
    guardFunction(function, report);
  }
}

} // namespace gpu_runner
