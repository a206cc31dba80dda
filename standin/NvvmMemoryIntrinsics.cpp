//===- NvvmMemoryIntrinsics.cpp - Memory intrinsics, for the host ---------===//
//
// The NVVM intrinsics of memory (NvvmCallLowering.h): fences and membar,
// the scoped atomics, ldu, isspacep and move, as host IR. The access checks
// (KernelCompiler) then check their addresses like any other access.
//
//===----------------------------------------------------------------------===//

#include "standin/NvvmCallLowering.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace gpu_runner {
namespace standin {

std::optional<bool> CallLowering::lowerMemoryIntrinsic(StringRef name,
                                                       StringRef rest,
                                                       StringRef op) {
  // Fences: the host's strongest, which orders at least as much as any
  // scope (PTX ISA, membar and fence).
  if (op == "membar" || name == "llvm.nvvm.fence.sc.cluster" ||
      rest.starts_with("fence.acq_rel") || rest.starts_with("fence.sc")) {
    b.CreateFence(AtomicOrdering::SequentiallyConsistent);
    replace(nullptr);
    return true;
  }

  // Scoped atomics (PTX ISA, atom): the host's atomics are atomic for every
  // scope (.cta, .gpu, .sys), and sequentially consistent, the strongest
  // order. atom.inc is "(old >= b) ? 0 : old + 1" and atom.dec
  // "((old == 0) || (old > b)) ? b : old - 1": LLVM's uinc_wrap and
  // udec_wrap.
  if (rest.consume_front("atomic.")) {
    SmallVector<StringRef> form;
    rest.split(form, '.');
    Value *pointer = arg(0);
    if (form[0] == "cas") {
      Value *pair =
          b.CreateAtomicCmpXchg(pointer, arg(1), arg(2), MaybeAlign(),
                                AtomicOrdering::SequentiallyConsistent,
                                AtomicOrdering::SequentiallyConsistent);
      replace(b.CreateExtractValue(pair, 0));
      return true;
    }
    bool isFloat = form.size() > 2 && form[2] == "f";
    std::optional<AtomicRMWInst::BinOp> rmw =
        StringSwitch<std::optional<AtomicRMWInst::BinOp>>(form[0])
            .Case("add", isFloat ? AtomicRMWInst::FAdd : AtomicRMWInst::Add)
            .Case("exch", AtomicRMWInst::Xchg)
            .Case("max", AtomicRMWInst::Max)
            .Case("min", AtomicRMWInst::Min)
            .Case("inc", AtomicRMWInst::UIncWrap)
            .Case("dec", AtomicRMWInst::UDecWrap)
            .Case("and", AtomicRMWInst::And)
            .Case("or", AtomicRMWInst::Or)
            .Case("xor", AtomicRMWInst::Xor)
            .Default(std::nullopt);
    if (!rmw)
      return false;
    replace(b.CreateAtomicRMW(*rmw, pointer, arg(1), MaybeAlign(),
                              AtomicOrdering::SequentiallyConsistent));
    return true;
  }
  if (rest.starts_with("ldu.global.")) {
    auto *alignment = cast<ConstantInt>(arg(1));
    replace(b.CreateAlignedLoad(call.getType(), arg(0),
                                Align(alignment->getZExtValue())));
    return true;
  }
  if (rest.consume_front("isspacep.")) {
    // Where a generic address points (PTX ISA, isspacep): shared and local
    // memory are the context's ranges; anything else is global.
    Value *address = b.CreatePtrToInt(arg(0), i64);
    auto within = [&](Value *low, Value *size) {
      return b.CreateICmpULT(b.CreateSub(address, low), size);
    };
    Value *shared = within(b.CreatePtrToInt(field(kFieldShared, ptr), i64),
                           field(kFieldSharedBytes, i64));
    Value *low = field(kFieldStackLow, i64);
    Value *local = within(low, b.CreateSub(field(kFieldStackHigh, i64), low));
    Value *result = StringSwitch<Value *>(rest)
                        .Case("shared", shared)
                        .Case("local", local)
                        .Case("global", b.CreateNot(b.CreateOr(shared, local)))
                        .Case("const", b.getFalse())
                        .Default(nullptr);
    if (!result)
      return false;
    replace(result);
    return true;
  }
  if (op == "move") {
    replace(arg(0));
    return true;
  }
  return std::nullopt;
}

} // namespace standin
} // namespace gpu_runner
