//===- NvvmThreadIntrinsics.cpp - Thread intrinsics, for the host ---------===//
//
// The NVVM intrinsics of a thread and its block (NvvmCallLowering.h): the
// special registers, read from the thread's context; barriers,
// bar.warp.sync, activemask, exit and nanosleep, calls of the runtime (each
// waits for the block's other threads in BlockThreads); clocks and timers.
//
//===----------------------------------------------------------------------===//

#include "standin/NvvmCallLowering.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace gpu_runner {
namespace standin {

// Special registers: PTX ISA, "Special Registers". `rest` is the name
// after "llvm.nvvm.read.ptx.sreg.".
bool CallLowering::lowerSpecialRegister(StringRef rest) {
  static const std::pair<const char *, SpecialRegister> registers[] = {
      {"tid.x", kTidX},
      {"tid.y", kTidY},
      {"tid.z", kTidZ},
      {"ntid.x", kNtidX},
      {"ntid.y", kNtidY},
      {"ntid.z", kNtidZ},
      {"ctaid.x", kCtaidX},
      {"ctaid.y", kCtaidY},
      {"ctaid.z", kCtaidZ},
      {"nctaid.x", kNctaidX},
      {"nctaid.y", kNctaidY},
      {"nctaid.z", kNctaidZ},
      {"laneid", kLaneId},
      {"warpid", kWarpId},
      {"nwarpid", kNwarpId},
      {"cluster.ctaid.x", kClusterCtaidX},
      {"cluster.ctaid.y", kClusterCtaidY},
      {"cluster.ctaid.z", kClusterCtaidZ},
      {"cluster.nctaid.x", kClusterNctaidX},
      {"cluster.nctaid.y", kClusterNctaidY},
      {"cluster.nctaid.z", kClusterNctaidZ},
      {"clusterid.x", kClusterIdX},
      {"clusterid.y", kClusterIdY},
      {"clusterid.z", kClusterIdZ},
      {"nclusterid.x", kNclusterIdX},
      {"nclusterid.y", kNclusterIdY},
      {"nclusterid.z", kNclusterIdZ},
      {"cluster.ctarank", kClusterCtarank},
      {"cluster.nctarank", kClusterNctarank},
      {"smid", kSmId},
      {"nsmid", kNsmId},
      // LLVM spells these three with underscores, as PTX does
      // (IntrinsicsNVVM.td gives them explicit names).
      {"dynamic_smem_size", kDynamicSmemSize},
      {"total_smem_size", kTotalSmemSize},
      {"aggr_smem_size", kTotalSmemSize},
      {"gridid", kGridId},
  };
  for (const auto &[spelling, r] : registers)
    if (rest == spelling) {
      // %gridid is 64 bits in PTX; LLVM's intrinsic may read it as 32.
      Value *value = reg(r);
      if (call.getType()->isIntegerTy(64))
        value = b.CreateZExt(value, i64);
      replace(value);
      return true;
    }
  // The .w components are 0: "%tid.w" and the like are reserved.
  if (rest.ends_with(".w") && call.getType()->isIntegerTy(32)) {
    replace(b.getInt32(0));
    return true;
  }
  if (rest == "warpsize") {
    replace(b.getInt32(kWarpSize));
    return true;
  }
  if (rest.starts_with("lanemask.")) {
    // %lanemask_eq: the lane's own bit; lt, le, gt, ge: the lanes below,
    // up to, above, from it.
    Value *lane = reg(kLaneId);
    Value *bit = b.CreateShl(b.getInt32(1), lane);
    Value *lt = b.CreateSub(bit, b.getInt32(1));
    Value *le = b.CreateOr(lt, bit);
    Value *result = StringSwitch<Value *>(rest.drop_front(9))
                        .Case("eq", bit)
                        .Case("lt", lt)
                        .Case("le", le)
                        .Case("gt", b.CreateNot(le))
                        .Case("ge", b.CreateNot(lt))
                        .Default(nullptr);
    if (!result)
      return false;
    replace(result);
    return true;
  }
  if (rest == "clock64" || rest == "clock") {
    Value *clock = runtime("clock", i64, {ctx});
    replace(rest == "clock" ? b.CreateTrunc(clock, i32) : clock);
    return true;
  }
  if (rest == "globaltimer" || rest == "globaltimer.lo") {
    Value *timer = runtime("globaltimer", i64, {ctx});
    replace(rest == "globaltimer.lo" ? b.CreateTrunc(timer, i32) : timer);
    return true;
  }
  return false;
}

std::optional<bool> CallLowering::lowerThreadIntrinsic(StringRef name,
                                                       StringRef rest) {
  if (rest.consume_front("read.ptx.sreg."))
    return lowerSpecialRegister(rest);

  // Barriers: PTX ISA, barrier. LLVM 22 spells bar.sync 0 (barrier0)
  // barrier.cta.sync.aligned.all.
  if (rest.consume_front("barrier.cta.")) {
    SmallVector<StringRef> form;
    rest.split(form, '.');
    uint32_t flags = 0;
    if (hasPart(form, "aligned"))
      flags |= kBarrierAligned;
    if (form[0] == "arrive")
      flags |= kBarrierArrive;
    if (form[0] == "red")
      flags |= StringSwitch<uint32_t>(form[1])
                   .Case("popc", kBarrierRedPopc)
                   .Case("and", kBarrierRedAnd)
                   .Case("or", kBarrierRedOr)
                   .Default(kBarrierRedNone)
               << kBarrierRedShift;
    bool counted = form.back() == "count";
    Value *count = counted ? arg(1) : b.getInt32(0);
    Value *predicate = form[0] == "red"
                           ? b.CreateZExt(arg(call.arg_size() - 1), i32)
                           : b.getInt32(0);
    Value *result = runtime("barrier", i32,
                            {ctx, arg(0), count, b.getInt32(flags), predicate,
                             siteValue("barrier." + rest.str())});
    if (call.getType()->isIntegerTy(1))
      result = b.CreateICmpNE(result, b.getInt32(0));
    replace(call.getType()->isVoidTy() ? nullptr : result);
    return true;
  }
  if (rest == "bar.warp.sync") {
    runtime("warpsync", b.getVoidTy(),
            {ctx, arg(0), siteValue("bar.warp.sync")});
    replace(nullptr);
    return true;
  }

  // %is_explicit_cluster (PTX ISA, "Special Registers"): whether the
  // launch asked for clusters; LLVM reads it with an intrinsic outside
  // read.ptx.sreg.
  if (name == "llvm.nvvm.is_explicit_cluster") {
    replace(b.CreateICmpNE(reg(kIsExplicitCluster), b.getInt32(0)));
    return true;
  }
  if (name == "llvm.nvvm.activemask") {
    replace(runtime("activemask", i32, {ctx, siteValue("activemask")}));
    return true;
  }
  if (name == "llvm.nvvm.exit") {
    runtime("exit", b.getVoidTy(), {ctx, siteValue("exit")});
    replace(nullptr);
    return true;
  }
  if (name == "llvm.nvvm.nanosleep") {
    runtime("nanosleep", b.getVoidTy(), {ctx, arg(0)});
    replace(nullptr);
    return true;
  }
  return std::nullopt;
}

} // namespace standin
} // namespace gpu_runner
