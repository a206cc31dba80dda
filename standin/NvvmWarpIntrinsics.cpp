//===- NvvmWarpIntrinsics.cpp - Warp intrinsics, for the host -------------===//
//
// The warp-collective NVVM intrinsics (NvvmCallLowering.h): shfl.sync,
// vote.sync, match.sync and redux.sync become calls of the runtime, which
// computes each once the lanes of its member mask have met (BlockThreads).
//
//===----------------------------------------------------------------------===//

#include "standin/NvvmCallLowering.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace gpu_runner {
namespace standin {

std::optional<bool> CallLowering::lowerWarpIntrinsic(StringRef rest) {
  // shfl.sync.{up,down,bfly,idx}.{i32,f32}[p](mask, a, b, c): PTX ISA,
  // shfl.sync; the p forms also give the predicate.
  if (rest.consume_front("shfl.sync.")) {
    SmallVector<StringRef> form;
    rest.split(form, '.');
    uint32_t mode = StringSwitch<uint32_t>(form[0])
                        .Case("up", kShflUp)
                        .Case("down", kShflDown)
                        .Case("bfly", kShflBfly)
                        .Case("idx", kShflIdx)
                        .Default(UINT32_MAX);
    if (mode == UINT32_MAX)
      return false;
    Value *a = arg(1);
    Type *valueType = a->getType();
    if (!valueType->isIntegerTy(32))
      a = b.CreateBitCast(a, i32);
    Value *result = runtime("shfl", i64,
                            {ctx, b.getInt32(mode), a, arg(2), arg(3), arg(0),
                             siteValue("shfl.sync." + form[0].str())});
    Value *value = b.CreateBitCast(b.CreateTrunc(result, i32), valueType);
    if (call.getType()->isStructTy()) {
      Value *predicate = b.CreateTrunc(b.CreateLShr(result, 32), i1);
      Value *pair = PoisonValue::get(call.getType());
      pair = b.CreateInsertValue(pair, value, 0);
      value = b.CreateInsertValue(pair, predicate, 1);
    }
    replace(value);
    return true;
  }

  // vote.sync: PTX ISA, vote.sync.
  if (rest.consume_front("vote.") && rest.ends_with(".sync")) {
    uint32_t mode = StringSwitch<uint32_t>(rest.drop_back(5))
                        .Case("all", kVoteAll)
                        .Case("any", kVoteAny)
                        .Case("uni", kVoteUni)
                        .Case("ballot", kVoteBallot)
                        .Default(UINT32_MAX);
    if (mode == UINT32_MAX)
      return false;
    Value *result = runtime("vote", i32,
                            {ctx, b.getInt32(mode), b.CreateZExt(arg(1), i32),
                             arg(0), siteValue("vote.sync")});
    if (call.getType()->isIntegerTy(1))
      result = b.CreateICmpNE(result, b.getInt32(0));
    replace(result);
    return true;
  }

  // match.sync: PTX ISA, match.sync.
  if (rest.consume_front("match.")) {
    bool all = rest.starts_with("all.");
    Value *value = arg(1);
    bool wide = value->getType()->isIntegerTy(64);
    Value *result =
        runtime("match", i64,
                {ctx, b.getInt32(all), b.CreateZExt(value, i64),
                 b.getInt32(wide), arg(0), siteValue("match.sync")});
    Value *mask = b.CreateTrunc(result, i32);
    if (call.getType()->isStructTy()) {
      Value *pair = PoisonValue::get(call.getType());
      pair = b.CreateInsertValue(pair, mask, 0);
      mask = b.CreateInsertValue(
          pair, b.CreateTrunc(b.CreateLShr(result, 32), i1), 1);
    }
    replace(mask);
    return true;
  }

  // redux.sync on 32-bit integers (value, mask): PTX ISA, redux.sync.
  if (rest.consume_front("redux.sync.")) {
    uint32_t reduction = StringSwitch<uint32_t>(rest)
                             .Case("add", kReduxAdd)
                             .Case("min", kReduxMin)
                             .Case("max", kReduxMax)
                             .Case("umin", kReduxUmin)
                             .Case("umax", kReduxUmax)
                             .Case("and", kReduxAnd)
                             .Case("or", kReduxOr)
                             .Case("xor", kReduxXor)
                             .Default(UINT32_MAX);
    if (reduction == UINT32_MAX)
      return false;
    replace(runtime(
        "redux", i32,
        {ctx, b.getInt32(reduction), arg(0), arg(1), siteValue("redux.sync")}));
    return true;
  }
  return std::nullopt;
}

} // namespace standin
} // namespace gpu_runner
