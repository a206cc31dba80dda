//===- NvvmLowering.cpp - NVVM intrinsics and inline PTX, for the host ----===//
//
// See NvvmLowering.h. Each rule cites where the PTX ISA (or the CUDA C++
// Programming Guide) states it. The IR already holds libdevice's bodies
// (the NVVM target links libdevice before it optimizes), so the math
// intrinsics below are those libdevice's functions are made of: their
// accuracy is at least what the PTX ISA documents for each instruction,
// which is what libdevice's own error bounds are built on.
//
//===----------------------------------------------------------------------===//

#include "standin/NvvmLowering.h"

#include "standin/AmdgpuLowering.h"
#include "standin/KernelAbi.h"
#include "standin/NvvmCallLowering.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpu_runner {
namespace standin {

FunctionCallee LoweringContext::getRuntime(StringRef name, Type *result,
                                           ArrayRef<Type *> params) const {
  return module->getOrInsertFunction(
      (Twine(GPU_RUNNER_STANDIN_RUNTIME_PREFIX) + name).str(),
      FunctionType::get(result, params, false));
}

void LoweringContext::trust(Instruction *instruction) {
  instruction->setMetadata("gpu_runner.standin.trusted",
                           MDNode::get(instruction->getContext(), {}));
}

bool LoweringContext::isTrusted(const Instruction *instruction) {
  return instruction->getMetadata("gpu_runner.standin.trusted") != nullptr;
}

bool isWaitingRuntimeFunction(StringRef name) {
  if (!name.consume_front(GPU_RUNNER_STANDIN_RUNTIME_PREFIX))
    return false;
  return StringSwitch<bool>(name)
      .Cases({"barrier", "shfl", "vote", "match", "redux", "warpsync",
              "activemask", "wave", "wmma_mma", "nanosleep"},
             true)
      .Default(false);
}

//===----------------------------------------------------------------------===//
// Intrinsics, by family.
//===----------------------------------------------------------------------===//

bool CallLowering::lowerIntrinsic(StringRef name, std::string &why) {
  why = "is not implemented";
  StringRef rest = name;
  if (!rest.consume_front("llvm.nvvm."))
    return false;
  SmallVector<StringRef> parts;
  rest.split(parts, '.');
  StringRef op = parts[0];
  ArrayRef<StringRef> modifiers = ArrayRef<StringRef>(parts).drop_front();

  if (std::optional<bool> lowered = lowerThreadIntrinsic(name, rest))
    return *lowered;
  if (std::optional<bool> lowered = lowerWarpIntrinsic(rest))
    return *lowered;
  if (std::optional<bool> lowered = lowerMemoryIntrinsic(name, rest, op))
    return *lowered;
  if (op == "wmma")
    return lowerWmma(rest, why);
  return lowerMath(name, op, modifiers, why);
}

//===----------------------------------------------------------------------===//
// External functions.
//===----------------------------------------------------------------------===//

bool CallLowering::lowerExternal(StringRef name, std::string &why) {
  if (name == "vprintf") {
    // CUDA C++ Programming Guide, "Formatted Output": vprintf(format,
    // arguments), the arguments packed in a buffer.
    replace(runtime("vprintf", i32, {ctx, arg(0), arg(1)}));
    return true;
  }
  if (name == "__assertfail") {
    // __assertfail(message, file, line, function, charSize).
    Value *size =
        call.arg_size() > 4 ? b.CreateZExtOrTrunc(arg(4), i64) : b.getInt64(1);
    runtime(
        "assertfail", b.getVoidTy(),
        {ctx, arg(0), arg(1), b.CreateZExtOrTrunc(arg(2), i32), arg(3), size});
    replace(nullptr);
    return true;
  }
  if (name == "__nvvm_reflect") {
    // What NVVMReflect leaves when the target's optimizer did not run:
    // no flush to zero, the default.
    replace(b.getInt32(0));
    return true;
  }
  why = "is a function outside the module the stand-in does not provide";
  return false;
}

bool lowerCall(CallBase &call, const LoweringContext &context,
               std::string &why) {
  if (isAmdgpuModule(*context.module))
    return lowerAmdgpuCall(call, context, why);
  CallLowering lowering(call, context);
  if (auto *assembly = dyn_cast<InlineAsm>(call.getCalledOperand()))
    return lowering.lowerAsm(*assembly, why);
  Function *callee = call.getCalledFunction();
  if (!callee) {
    why = "is an indirect call, which the stand-in does not run";
    return false;
  }
  StringRef name = callee->getName();
  if (name == "llvm.trap" || name == "llvm.debugtrap" ||
      name == "llvm.ubsantrap") {
    IRBuilder<> b(&call);
    b.CreateCall(context.getRuntime("trap", b.getVoidTy(),
                                    {b.getPtrTy(), b.getInt32Ty()}),
                 {call.getFunction()->getArg(0),
                  b.getInt32(context.addSite(&call, "trap"))});
    call.eraseFromParent();
    return true;
  }
  if (name.starts_with("llvm.nvvm."))
    return lowering.lowerIntrinsic(name, why);
  return lowering.lowerExternal(name, why);
}

} // namespace standin
} // namespace gpu_runner
