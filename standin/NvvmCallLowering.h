//===- NvvmCallLowering.h - The rewrite of one call, for NvvmLowering -----===//
//
// CallLowering rewrites one call of an NVVM intrinsic, of inline PTX or of
// an external function (NvvmLowering.h) at the call, with the IR helpers
// every family of intrinsics shares (special registers, .ftz, PTX's min and
// max, .sat, rounding to an integral value). Its member functions are
// defined by family: NvvmLowering.cpp (the dispatch, external functions),
// NvvmThreadIntrinsics.cpp, NvvmWarpIntrinsics.cpp,
// NvvmMemoryIntrinsics.cpp, NvvmMathIntrinsics.cpp, NvvmInlinePtx.cpp and
// NvvmWmma.cpp. Only those files include it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_NVVMCALLLOWERING_H
#define GPU_RUNNER_STANDIN_NVVMCALLLOWERING_H

#include "standin/KernelAbi.h"
#include "standin/NvvmLowering.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

#include <optional>
#include <string>

namespace gpu_runner {
namespace standin {

using llvm::ArrayRef;
using llvm::StringRef;

/// Rewrites one call; `why` says what is missing when it cannot.
class CallLowering {
public:
  CallLowering(llvm::CallBase &call, const LoweringContext &lc)
      : call(call), lc(lc), b(&call), ctx(call.getFunction()->getArg(0)),
        i1(b.getInt1Ty()), i8(b.getInt8Ty()), i16(b.getInt16Ty()),
        i32(b.getInt32Ty()), i64(b.getInt64Ty()), f32(b.getFloatTy()),
        f64(b.getDoubleTy()), ptr(b.getPtrTy()) {}

  bool lowerIntrinsic(StringRef name, std::string &why);
  bool lowerAsm(const llvm::InlineAsm &assembly, std::string &why);
  bool lowerExternal(StringRef name, std::string &why);

private:
  llvm::Value *arg(unsigned i) { return call.getArgOperand(i); }
  void replace(llvm::Value *value) {
    if (value)
      call.replaceAllUsesWith(value);
    call.eraseFromParent();
  }
  uint32_t site(const std::string &what) { return lc.addSite(&call, what); }
  llvm::Value *siteValue(const std::string &what) {
    return b.getInt32(site(what));
  }
  llvm::CallInst *runtime(StringRef name, llvm::Type *result,
                          ArrayRef<llvm::Value *> args) {
    llvm::SmallVector<llvm::Type *> types;
    for (llvm::Value *v : args)
      types.push_back(v->getType());
    return b.CreateCall(lc.getRuntime(name, result, types), args);
  }
  llvm::Value *reg(SpecialRegister r) {
    llvm::Value *at = b.CreateInBoundsGEP(
        lc.contextType, ctx,
        {b.getInt32(0), b.getInt32(kFieldRegisters), b.getInt32(r)});
    llvm::LoadInst *load = b.CreateAlignedLoad(i32, at, llvm::Align(4));
    load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                      llvm::MDNode::get(b.getContext(), {}));
    LoweringContext::trust(load);
    return load;
  }
  llvm::Value *field(ThreadContextField f, llvm::Type *type) {
    llvm::Value *at = b.CreateStructGEP(lc.contextType, ctx, f);
    llvm::LoadInst *load = b.CreateLoad(type, at);
    LoweringContext::trust(load);
    return load;
  }
  llvm::Value *unary(llvm::Intrinsic::ID id, llvm::Value *x) {
    return b.CreateUnaryIntrinsic(id, x);
  }
  /// Flushes a subnormal to a zero of its sign: the .ftz modifier (PTX ISA,
  /// "Floating Point Instructions": "subnormal inputs and results are
  /// flushed to sign-preserving zero").
  llvm::Value *ftz(llvm::Value *x) {
    llvm::Type *type = x->getType();
    const llvm::fltSemantics &semantics = type->getFltSemantics();
    llvm::Value *smallest = llvm::ConstantFP::get(
        type, llvm::APFloat::getSmallestNormalized(semantics));
    llvm::Value *isSubnormal =
        b.CreateFCmpOLT(unary(llvm::Intrinsic::fabs, x), smallest);
    llvm::Value *zero = b.CreateBinaryIntrinsic(
        llvm::Intrinsic::copysign, llvm::ConstantFP::get(type, 0.0), x);
    return b.CreateSelect(isSubnormal, zero, x);
  }
  llvm::Value *maybeFtz(llvm::Value *x, bool flush) {
    return flush ? ftz(x) : x;
  }
  /// PTX's min/max (PTX ISA, min and max: "If one of the inputs is NaN,
  /// the result is the other"; -0.0 is less than +0.0); with .NaN a NaN
  /// input gives NaN.
  llvm::Value *minMax(llvm::Value *x, llvm::Value *y, bool isMax,
                      bool propagateNan) {
    if (propagateNan)
      return b.CreateBinaryIntrinsic(
          isMax ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum, x, y);
    llvm::Value *less = isMax ? b.CreateFCmpOGT(x, y) : b.CreateFCmpOLT(x, y);
    llvm::Value *picked = b.CreateSelect(less, x, y);
    // Equal (+0 and -0 among them): the negative one for min, else the
    // other.
    llvm::Type *intType = b.getIntNTy(x->getType()->getPrimitiveSizeInBits());
    llvm::Value *xNegative = b.CreateICmpSLT(
        b.CreateBitCast(x, intType), llvm::ConstantInt::get(intType, 0));
    llvm::Value *onEqual = isMax ? b.CreateSelect(xNegative, y, x)
                                 : b.CreateSelect(xNegative, x, y);
    picked = b.CreateSelect(b.CreateFCmpOEQ(x, y), onEqual, picked);
    llvm::Value *xNan = b.CreateFCmpUNO(x, x);
    llvm::Value *yNan = b.CreateFCmpUNO(y, y);
    picked = b.CreateSelect(yNan, x, picked);
    return b.CreateSelect(xNan, y, picked);
  }
  /// cvt.sat: clamps to [0.0, 1.0], NaN to +0.0 (PTX ISA, cvt, ".sat").
  llvm::Value *saturate(llvm::Value *x) {
    llvm::Type *type = x->getType();
    llvm::Value *zero = llvm::ConstantFP::get(type, 0.0);
    llvm::Value *one = llvm::ConstantFP::get(type, 1.0);
    llvm::Value *clamped = b.CreateSelect(b.CreateFCmpOLT(x, one), x, one);
    return b.CreateSelect(b.CreateFCmpOGT(x, zero), clamped, zero);
  }
  /// A float rounded to an integral value in a PTX rounding mode.
  llvm::Value *roundIntegral(llvm::Value *x, RoundingMode mode) {
    switch (mode) {
    case kRoundRz:
      return unary(llvm::Intrinsic::trunc, x);
    case kRoundRm:
      return unary(llvm::Intrinsic::floor, x);
    case kRoundRp:
      return unary(llvm::Intrinsic::ceil, x);
    default:
      return unary(llvm::Intrinsic::roundeven, x);
    }
  }

  // The intrinsics by family, each in a file of its own. A family's
  // function gives std::nullopt when the intrinsic (`rest`: its name after
  // "llvm.nvvm.") is not of the family, else whether it was lowered.

  /// NvvmThreadIntrinsics.cpp: special registers, barriers, activemask,
  /// exit, nanosleep.
  std::optional<bool> lowerThreadIntrinsic(StringRef name, StringRef rest);
  bool lowerSpecialRegister(StringRef rest);
  /// NvvmWarpIntrinsics.cpp: shfl.sync, vote.sync, match.sync, redux.sync.
  std::optional<bool> lowerWarpIntrinsic(StringRef rest);
  /// NvvmMemoryIntrinsics.cpp: fences, atomics, ldu, isspacep, move.
  std::optional<bool> lowerMemoryIntrinsic(StringRef name, StringRef rest,
                                           StringRef op);
  /// NvvmMathIntrinsics.cpp: what libdevice's bodies are made of.
  bool lowerMath(StringRef name, StringRef op, ArrayRef<StringRef> modifiers,
                 std::string &why);
  bool lowerArithmetic(StringRef op, ArrayRef<StringRef> parts,
                       std::string &why);
  bool lowerConversion(StringRef op, ArrayRef<StringRef> parts,
                       std::string &why);
  /// NvvmWmma.cpp: wmma loads, stores and mma; `name` without "llvm.nvvm.".
  bool lowerWmma(StringRef name, std::string &why);
  bool lowerWmmaLoadStore(ArrayRef<StringRef> parts, uint32_t m, uint32_t n,
                          uint32_t k, std::string &why);
  bool lowerWmmaMma(ArrayRef<StringRef> parts, uint32_t m, uint32_t n,
                    uint32_t k, std::string &why);

  llvm::CallBase &call;
  const LoweringContext &lc;
  llvm::IRBuilder<> b;
  llvm::Value *ctx;
  llvm::Type *i1, *i8, *i16, *i32, *i64, *f32, *f64;
  llvm::PointerType *ptr;
};

/// Whether a modifier (".ftz", ".sat", ...) is among `parts`.
inline bool hasPart(ArrayRef<StringRef> parts, StringRef part) {
  return llvm::is_contained(parts, part);
}

/// The rounding modifier among `parts`; `found` says whether there is one.
inline RoundingMode getMode(ArrayRef<StringRef> parts, bool &found) {
  found = true;
  for (StringRef part : parts) {
    if (part == "rn")
      return kRoundRn;
    if (part == "rz")
      return kRoundRz;
    if (part == "rm")
      return kRoundRm;
    if (part == "rp")
      return kRoundRp;
  }
  found = false;
  return kRoundRn;
}

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_NVVMCALLLOWERING_H
