//===- NvvmMathIntrinsics.cpp - Math intrinsics, for the host -------------===//
//
// The NVVM math intrinsics that libdevice's bodies are made of
// (NvvmCallLowering.h): arithmetic in the four rounding modes, with and
// without .ftz; the .approx functions; min, max, rounding to integers,
// saturation; conversions; and the integer instructions (mul.hi, mul24, sad,
// prmt). Each is computed at least as accurately as the PTX ISA requires.
//
//===----------------------------------------------------------------------===//

#include "standin/NvvmCallLowering.h"

#include "llvm/ADT/StringSwitch.h"

#include <regex>

using namespace llvm;

namespace gpu_runner {
namespace standin {

//===----------------------------------------------------------------------===//
// Arithmetic.
//===----------------------------------------------------------------------===//

bool CallLowering::lowerArithmetic(StringRef op, ArrayRef<StringRef> parts,
                                   std::string &why) {
  Type *type = call.getType();
  if (!type->isFloatTy() && !type->isDoubleTy()) {
    why = "is not implemented for this type";
    return false;
  }
  bool flush = hasPart(parts, "ftz");
  bool hasMode = false;
  RoundingMode mode = getMode(parts, hasMode);
  // .approx and .full are at least as accurate as the PTX ISA requires
  // (e.g. div.full.f32: 2 ulp, rcp.approx: 1 ulp) when computed exactly;
  // .rn is what the host computes. The directed modes are computed in the
  // rounding mode itself.
  bool native = !hasMode || mode == kRoundRn;
  SmallVector<Value *, 3> in;
  for (unsigned i = 0; i < call.arg_size(); ++i)
    in.push_back(maybeFtz(arg(i), flush));
  uint32_t rounded = StringSwitch<uint32_t>(op)
                         .Case("add", kRoundedAdd)
                         .Case("mul", kRoundedMul)
                         .Case("div", kRoundedDiv)
                         .Case("fma", kRoundedFma)
                         .Case("sqrt", kRoundedSqrt)
                         .Case("rcp", kRoundedRcp)
                         .Default(UINT32_MAX);
  if (rounded == UINT32_MAX) {
    why = "is not implemented";
    return false;
  }
  Value *result = nullptr;
  if (native) {
    switch (rounded) {
    case kRoundedAdd:
      result = b.CreateFAdd(in[0], in[1]);
      break;
    case kRoundedMul:
      result = b.CreateFMul(in[0], in[1]);
      break;
    case kRoundedDiv:
      result = b.CreateFDiv(in[0], in[1]);
      break;
    case kRoundedFma:
      result = b.CreateIntrinsic(Intrinsic::fma, {type}, {in[0], in[1], in[2]});
      break;
    case kRoundedSqrt:
      result = unary(Intrinsic::sqrt, in[0]);
      break;
    default:
      result = b.CreateFDiv(ConstantFP::get(type, 1.0), in[0]);
      break;
    }
  } else {
    Value *zero = ConstantFP::get(type, 0.0);
    result =
        runtime(type->isFloatTy() ? "roundf32" : "roundf64", type,
                {b.getInt32(rounded), b.getInt32(mode), in[0],
                 in.size() > 1 ? in[1] : zero, in.size() > 2 ? in[2] : zero});
  }
  bool saturated = hasPart(parts, "sat");
  if (saturated)
    result = saturate(result);
  replace(maybeFtz(result, flush));
  return true;
}

//===----------------------------------------------------------------------===//
// Conversions.
//===----------------------------------------------------------------------===//

bool CallLowering::lowerConversion(StringRef op, ArrayRef<StringRef> parts,
                                   std::string &why) {
  bool flush = hasPart(parts, "ftz");
  bool hasMode = false;
  RoundingMode mode = getMode(parts, hasMode);
  // Float to integer: "cvt.rni, .rzi, .rmi, .rpi", saturating: PTX ISA,
  // cvt: "For float-to-integer conversions, the result is clamped to the
  // destination range by default", NaN giving 0.
  static const std::regex floatToInt("^(f|d)2(i|ui|ll|ull)$");
  static const std::regex intToFloat("^(i|ui|ll|ull)2(f|d)$");
  std::string opText = op.str();
  std::smatch match;
  if (std::regex_match(opText, match, floatToInt)) {
    if (!hasMode) {
      why = "is not implemented";
      return false;
    }
    Value *x = arg(0);
    if (match[1] == "f")
      x = maybeFtz(x, flush);
    std::string to = match[2];
    bool isUnsigned = to[0] == 'u';
    Type *target = to == "i" || to == "ui" ? i32 : i64;
    Value *rounded = roundIntegral(x, mode);
    replace(b.CreateIntrinsic(isUnsigned ? Intrinsic::fptoui_sat
                                         : Intrinsic::fptosi_sat,
                              {target, x->getType()}, {rounded}));
    return true;
  }
  if (std::regex_match(opText, match, intToFloat)) {
    std::string from = match[1];
    bool isUnsigned = from[0] == 'u';
    Type *target = match[2] == "f" ? f32 : f64;
    Value *x = arg(0);
    if (mode == kRoundRn) {
      replace(isUnsigned ? b.CreateUIToFP(x, target)
                         : b.CreateSIToFP(x, target));
      return true;
    }
    Value *wide = x->getType() == i64 ? x
                  : isUnsigned        ? b.CreateZExt(x, i64)
                                      : b.CreateSExt(x, i64);
    // A 32-bit value in 64 bits converts to the same float.
    bool wideUnsigned = isUnsigned && x->getType() == i64;
    replace(runtime(target == f32 ? "itof32" : "itof64", target,
                    {b.getInt32(wideUnsigned), b.getInt32(mode), wide}));
    return true;
  }
  if (op == "d2f") {
    Value *result = mode == kRoundRn
                        ? b.CreateFPTrunc(arg(0), f32)
                        : static_cast<Value *>(
                              runtime("d2f", f32, {b.getInt32(mode), arg(0)}));
    replace(maybeFtz(result, flush));
    return true;
  }
  if (op == "f2h" && mode == kRoundRn) {
    // cvt.rn.f16.f32, its 16 bits.
    Value *half = b.CreateFPTrunc(maybeFtz(arg(0), flush), b.getHalfTy());
    replace(b.CreateBitCast(half, i16));
    return true;
  }
  why = "is not implemented";
  return false;
}

//===----------------------------------------------------------------------===//
// The other math intrinsics.
//===----------------------------------------------------------------------===//

bool CallLowering::lowerMath(StringRef name, StringRef op,
                             ArrayRef<StringRef> modifiers, std::string &why) {
  Type *type = call.getType();
  bool flush = hasPart(modifiers, "ftz");
  if (op == "add" || op == "mul" || op == "div" || op == "fma" ||
      op == "sqrt" || op == "rcp")
    return lowerArithmetic(op, modifiers, why);
  if ((op == "rsqrt" || op == "ex2" || op == "lg2" || op == "sin" ||
       op == "cos") &&
      hasPart(modifiers, "approx") &&
      (type->isFloatTy() || type->isDoubleTy())) {
    // .approx: the host's function is at least as accurate as the PTX ISA
    // requires of each (rsqrt.approx, ex2.approx, lg2.approx, sin.approx,
    // cos.approx give their maximum errors there).
    Value *x = maybeFtz(arg(0), flush);
    Value *result = nullptr;
    if (op == "rsqrt")
      result =
          b.CreateFDiv(ConstantFP::get(type, 1.0), unary(Intrinsic::sqrt, x));
    else
      result = unary(StringSwitch<Intrinsic::ID>(op)
                         .Case("ex2", Intrinsic::exp2)
                         .Case("lg2", Intrinsic::log2)
                         .Case("sin", Intrinsic::sin)
                         .Default(Intrinsic::cos),
                     x);
    replace(maybeFtz(result, flush));
    return true;
  }
  if (op == "fabs" && (type->isFloatTy() || type->isDoubleTy())) {
    replace(maybeFtz(unary(Intrinsic::fabs, arg(0)), flush));
    return true;
  }
  if ((op == "fmin" || op == "fmax") &&
      (type->isFloatTy() || type->isDoubleTy()) &&
      !hasPart(modifiers, "xorsign")) {
    Value *result = minMax(maybeFtz(arg(0), flush), maybeFtz(arg(1), flush),
                           op == "fmax", hasPart(modifiers, "nan"));
    replace(maybeFtz(result, flush));
    return true;
  }
  if ((op == "trunc" || op == "round" || op == "floor" || op == "ceil") &&
      (type->isFloatTy() || type->isDoubleTy())) {
    // nvvm.round is cvt.rni: to the nearest integer, ties to even.
    RoundingMode mode = op == "trunc"   ? kRoundRz
                        : op == "floor" ? kRoundRm
                        : op == "ceil"  ? kRoundRp
                                        : kRoundRn;
    replace(maybeFtz(roundIntegral(maybeFtz(arg(0), flush), mode), flush));
    return true;
  }
  if (op == "saturate" && (type->isFloatTy() || type->isDoubleTy())) {
    replace(maybeFtz(saturate(maybeFtz(arg(0), flush)), flush));
    return true;
  }
  if (op == "d2i" && modifiers.size() == 1 &&
      (modifiers[0] == "hi" || modifiers[0] == "lo")) {
    Value *bits = b.CreateBitCast(arg(0), i64);
    if (modifiers[0] == "hi")
      bits = b.CreateLShr(bits, 32);
    replace(b.CreateTrunc(bits, i32));
    return true;
  }
  if (name == "llvm.nvvm.lohi.i2d") {
    Value *bits = b.CreateOr(b.CreateZExt(arg(0), i64),
                             b.CreateShl(b.CreateZExt(arg(1), i64), 32));
    replace(b.CreateBitCast(bits, f64));
    return true;
  }
  if (op.contains('2'))
    return lowerConversion(op, modifiers, why);
  if (op == "mulhi") {
    // mul.hi: the upper half of the full product.
    Type *t = type;
    unsigned bits = t->getIntegerBitWidth();
    bool isUnsigned = modifiers[0].starts_with("u");
    Type *wide = b.getIntNTy(2 * bits);
    auto extend = [&](Value *v) {
      return isUnsigned ? b.CreateZExt(v, wide) : b.CreateSExt(v, wide);
    };
    Value *product = b.CreateMul(extend(arg(0)), extend(arg(1)));
    replace(b.CreateTrunc(b.CreateLShr(product, bits), t));
    return true;
  }
  if (op == "mul24") {
    // mul24.lo: the low 32 bits of the product of the operands' low 24
    // bits, signed or not.
    bool isUnsigned = modifiers[0] == "ui";
    auto low24 = [&](Value *v) {
      Value *shifted = b.CreateShl(v, 8);
      return isUnsigned ? b.CreateLShr(shifted, 8) : b.CreateAShr(shifted, 8);
    };
    replace(b.CreateMul(low24(arg(0)), low24(arg(1))));
    return true;
  }
  if (op == "sad") {
    // sad: |a - b| + c.
    bool isUnsigned = modifiers[0].starts_with("u");
    Value *x = arg(0), *y = arg(1);
    Value *greater = isUnsigned ? b.CreateICmpUGT(x, y) : b.CreateICmpSGT(x, y);
    Value *difference =
        b.CreateSelect(greater, b.CreateSub(x, y), b.CreateSub(y, x));
    replace(b.CreateAdd(difference, arg(2)));
    return true;
  }
  if (name == "llvm.nvvm.prmt") {
    // prmt.b32 in its default mode (PTX ISA, prmt): byte n of the result is
    // byte c[4n+2:4n] of {b, a}, or its sign replicated when c[4n+3] is set.
    Value *source = b.CreateOr(b.CreateZExt(arg(0), i64),
                               b.CreateShl(b.CreateZExt(arg(1), i64), 32));
    Value *result = b.getInt32(0);
    for (unsigned byte = 0; byte < 4; ++byte) {
      Value *selector =
          b.CreateAnd(b.CreateLShr(arg(2), 4 * byte), b.getInt32(0xf));
      Value *index = b.CreateZExt(b.CreateAnd(selector, b.getInt32(7)), i64);
      Value *picked = b.CreateTrunc(
          b.CreateLShr(source, b.CreateMul(index, b.getInt64(8))), i8);
      Value *sign =
          b.CreateSExt(b.CreateICmpSLT(picked, ConstantInt::get(i8, 0)), i8);
      Value *replicate =
          b.CreateICmpNE(b.CreateAnd(selector, b.getInt32(8)), b.getInt32(0));
      picked = b.CreateSelect(replicate, sign, picked);
      result =
          b.CreateOr(result, b.CreateShl(b.CreateZExt(picked, i32), 8 * byte));
    }
    replace(result);
    return true;
  }
  return false;
}

} // namespace standin
} // namespace gpu_runner
