//===- KernelAccessChecks.cpp - Every memory access of a kernel checked ---===//
//
// The step of ProgramBuilder (ProgramBuilder.h) that checks each load,
// store, atomic and memory intrinsic: an address in the device's arena is
// translated inline to the stand-in's view of it, a shared pointer into the
// block's shared memory passes inline, and anything else goes to the
// runtime's check (rtAccess), which fails the launch with an illegal or
// misaligned address.
//
//===----------------------------------------------------------------------===//

#include "standin/NvvmLowering.h"
#include "standin/ProgramBuilder.h"

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Transforms/Scalar/ScalarizeMaskedMemIntrin.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace gpu_runner {
namespace standin {

//===----------------------------------------------------------------------===//
// Memory accesses.
//===----------------------------------------------------------------------===//

Value *ProgramBuilder::checkRange(Instruction *at, Value *pointer, Value *bytes,
                                  bool write, const std::string &what) {
  IRBuilder<> b(at);
  Function *function = at->getFunction();
  unsigned space = pointer->getType()->getPointerAddressSpace();
  uint32_t flags =
      (space <= kLocal ? space : 0) | (write ? uint32_t(kAccessWrite) : 0u);
  LoweringContext lowering;
  lowering.module = &module;
  FunctionCallee access =
      lowering.getRuntime("access", b.getPtrTy(),
                          {b.getPtrTy(), b.getInt64Ty(), b.getInt64Ty(),
                           b.getInt32Ty(), b.getInt32Ty()});
  return b.CreateCall(
      access, {function->getArg(0), b.CreatePtrToInt(pointer, b.getInt64Ty()),
               b.CreateZExtOrTrunc(bytes, b.getInt64Ty()), b.getInt32(flags),
               b.getInt32(addSite(at, what))});
}

Value *ProgramBuilder::checkAccess(Instruction *at, Value *pointer,
                                   uint64_t bytes, uint64_t alignment,
                                   bool write, const std::string &what) {
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space != kGeneric && space != kGlobal && space != kShared &&
      space != kConstant && space != kLocal) {
    refuse(what + " through a pointer in address space " +
           std::to_string(space));
    return pointer;
  }
  Function *function = at->getFunction();
  IRBuilder<> b(at);
  Type *i64 = b.getInt64Ty();
  Value *address = b.CreatePtrToInt(pointer, i64);
  // Fast path: an address in the device's arena (generic, global and
  // constant pointers), or in the block's shared memory (shared pointers),
  // with the alignment the IR promises.
  Value *ok = nullptr;
  Value *fast = nullptr;
  if (space == kShared) {
    auto &[base, size] = sharedRanges[function];
    if (!base) {
      IRBuilder<> entry(&*function->getEntryBlock().getFirstInsertionPt());
      LoadInst *loadBase = entry.CreateLoad(
          i64, entry.CreateStructGEP(contextType, function->getArg(0),
                                     kFieldShared));
      LoadInst *loadSize = entry.CreateLoad(
          i64, entry.CreateStructGEP(contextType, function->getArg(0),
                                     kFieldSharedBytes));
      LoweringContext::trust(loadBase);
      LoweringContext::trust(loadSize);
      base = loadBase;
      size = loadSize;
    }
    Value *offset = b.CreateSub(address, base);
    Value *fits = b.CreateICmpUGE(size, b.getInt64(bytes));
    Value *limit = b.CreateSub(size, b.getInt64(bytes));
    ok = b.CreateAnd(fits, b.CreateICmpULE(offset, limit));
  } else if (space != kLocal) {
    const ArenaView &arena = program.arena;
    Value *offset = b.CreateSub(address, b.getInt64(arena.base));
    ok = b.CreateICmpULE(offset, b.getInt64(arena.size - bytes));
  }
  if (!ok)
    return checkRange(at, pointer, b.getInt64(bytes), write, what);
  if (alignment > 1)
    ok = b.CreateAnd(
        ok, b.CreateICmpEQ(b.CreateAnd(address, alignment - 1), b.getInt64(0)));
  MDNode *likely = MDBuilder(module.getContext()).createLikelyBranchWeights();
  Instruction *thenTerm = nullptr, *elseTerm = nullptr;
  SplitBlockAndInsertIfThenElse(ok, at, &thenTerm, &elseTerm, likely);
  b.SetInsertPoint(thenTerm);
  if (space == kShared)
    fast = b.CreateIntToPtr(address, b.getPtrTy());
  else
    fast = b.CreateIntToPtr(
        b.CreateAdd(address, b.getInt64(program.arena.delta)), b.getPtrTy());
  // Slow path: the runtime checks everything else, and fails the launch
  // when the kernel may not reach the address.
  uint32_t flags = space | (write ? uint32_t(kAccessWrite) : 0u) |
                   (Log2_64(alignment) << kAccessAlignShift);
  b.SetInsertPoint(elseTerm);
  LoweringContext lowering;
  lowering.module = &module;
  FunctionCallee access = lowering.getRuntime(
      "access", b.getPtrTy(),
      {b.getPtrTy(), i64, i64, b.getInt32Ty(), b.getInt32Ty()});
  Value *slow =
      b.CreateCall(access, {function->getArg(0), address, b.getInt64(bytes),
                            b.getInt32(flags), b.getInt32(addSite(at, what))});
  b.SetInsertPoint(at->getParent(), at->getParent()->begin());
  PHINode *phi = b.CreatePHI(b.getPtrTy(), 2);
  phi->addIncoming(fast, thenTerm->getParent());
  phi->addIncoming(slow, elseTerm->getParent());
  return phi;
}

void ProgramBuilder::scalarizeMaskedAccesses() {
  // llvm.masked.load, .store, .gather, .scatter, .expandload and
  // .compressstore, lane by lane as the LangRef defines them: a lane whose
  // mask bit is off is not accessed (a load's lane takes the passthru
  // value), so only the lanes that are become loads and stores, each then
  // checked like any other. LLVM's own pass does it, with the target-less
  // cost model, which has no masked access legal.
  FunctionAnalysisManager analyses;
  analyses.registerPass([] { return TargetIRAnalysis(); });
  analyses.registerPass([] { return DominatorTreeAnalysis(); });
  analyses.registerPass([] { return PassInstrumentationAnalysis(); });
  for (Function &function : module)
    if (!function.isDeclaration()) {
      ScalarizeMaskedMemIntrinPass().run(function, analyses);
      analyses.clear(function, function.getName());
    }
}

void ProgramBuilder::checkAccesses(Function &function) {
  std::vector<Instruction *> accesses;
  for (Instruction &instruction : instructions(function))
    if (isa<LoadInst, StoreInst, AtomicRMWInst, AtomicCmpXchgInst,
            MemIntrinsic>(instruction) &&
        !LoweringContext::isTrusted(&instruction))
      accesses.push_back(&instruction);
  // An access at a constant offset within the thread's own alloca needs no
  // check: it is the thread's stack, and in bounds.
  auto isInOwnAlloca = [&](Value *pointer, uint64_t bytes) {
    APInt offset(64, 0);
    const Value *base =
        pointer->stripAndAccumulateConstantOffsets(dataLayout, offset, true);
    auto *alloca = dyn_cast<AllocaInst>(base);
    if (!alloca)
      return false;
    std::optional<TypeSize> size = alloca->getAllocationSize(dataLayout);
    return size && !size->isScalable() && offset.sge(0) &&
           offset.getZExtValue() + bytes <= size->getFixedValue();
  };
  auto describe = [](const char *kind, uint64_t bytes) {
    return std::string(kind) + " of " + std::to_string(bytes) + " bytes";
  };
  for (Instruction *instruction : accesses) {
    if (auto *load = dyn_cast<LoadInst>(instruction)) {
      uint64_t bytes = dataLayout.getTypeStoreSize(load->getType());
      if (isInOwnAlloca(load->getPointerOperand(), bytes))
        continue;
      load->setOperand(0, checkAccess(load, load->getPointerOperand(), bytes,
                                      load->getAlign().value(), false,
                                      describe("a load", bytes)));
    } else if (auto *store = dyn_cast<StoreInst>(instruction)) {
      uint64_t bytes =
          dataLayout.getTypeStoreSize(store->getValueOperand()->getType());
      if (isInOwnAlloca(store->getPointerOperand(), bytes))
        continue;
      store->setOperand(1, checkAccess(store, store->getPointerOperand(), bytes,
                                       store->getAlign().value(), true,
                                       describe("a store", bytes)));
    } else if (auto *rmw = dyn_cast<AtomicRMWInst>(instruction)) {
      uint64_t bytes = dataLayout.getTypeStoreSize(rmw->getType());
      rmw->setOperand(0, checkAccess(rmw, rmw->getPointerOperand(), bytes,
                                     rmw->getAlign().value(), true,
                                     describe("an atomic", bytes)));
    } else if (auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(instruction)) {
      uint64_t bytes =
          dataLayout.getTypeStoreSize(cmpxchg->getCompareOperand()->getType());
      cmpxchg->setOperand(
          0, checkAccess(cmpxchg, cmpxchg->getPointerOperand(), bytes,
                         cmpxchg->getAlign().value(), true,
                         describe("an atomic compare-and-swap", bytes)));
    } else if (auto *intrinsic = dyn_cast<MemIntrinsic>(instruction)) {
      IRBuilder<> b(intrinsic);
      Value *length = intrinsic->getLength();
      Value *dest = checkRange(intrinsic, intrinsic->getRawDest(), length, true,
                               "a memory intrinsic's destination");
      MaybeAlign destAlign = intrinsic->getDestAlign();
      bool isVolatile = intrinsic->isVolatile();
      if (auto *set = dyn_cast<MemSetInst>(intrinsic)) {
        b.CreateMemSet(dest, set->getValue(), length, destAlign, isVolatile);
      } else {
        auto *transfer = cast<MemTransferInst>(intrinsic);
        Value *source = checkRange(intrinsic, transfer->getRawSource(), length,
                                   false, "a memory intrinsic's source");
        if (isa<MemMoveInst>(transfer))
          b.CreateMemMove(dest, destAlign, source, transfer->getSourceAlign(),
                          length, isVolatile);
        else
          b.CreateMemCpy(dest, destAlign, source, transfer->getSourceAlign(),
                         length, isVolatile);
      }
      intrinsic->eraseFromParent();
    }
  }
}

} // namespace standin
} // namespace gpu_runner
