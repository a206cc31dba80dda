//===- NvvmInlinePtx.cpp - libdevice's inline PTX, for the host -----------===//
//
// The inline PTX that libdevice's bodies hold (NvvmCallLowering.h), matched
// by its text after white space is normalized: rcp and rsqrt .approx.ftz,
// sub in the rounding modes, bfind, setp/selp, and the carry chains of
// 128-bit arithmetic. Any other inline assembly is refused with its text.
//
//===----------------------------------------------------------------------===//

#include "standin/NvvmCallLowering.h"

#include <regex>

using namespace llvm;

namespace gpu_runner {
namespace standin {

namespace {

std::string normalize(StringRef text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n') {
      space = true;
      continue;
    }
    if (space && !out.empty())
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

} // namespace

bool CallLowering::lowerAsm(const InlineAsm &assembly, std::string &why) {
  std::string text = normalize(assembly.getAsmString());
  why = "is inline PTX the stand-in does not implement: \"" + text + "\"";
  Type *type = call.getType();
  // rcp.approx.ftz.f32 and rsqrt.approx.ftz.f64, computed exactly (see
  // lowerArithmetic).
  if (text == "rcp.approx.ftz.f32 $0,$1;" && type->isFloatTy()) {
    replace(ftz(b.CreateFDiv(ConstantFP::get(type, 1.0), ftz(arg(0)))));
    return true;
  }
  if (text == "rsqrt.approx.ftz.f64 $0, $1;" && type->isDoubleTy()) {
    Value *root = unary(Intrinsic::sqrt, ftz(arg(0)));
    replace(ftz(b.CreateFDiv(ConstantFP::get(type, 1.0), root)));
    return true;
  }
  // sub.{rn,rz,rm,rp}[.ftz].{f32,f64}: a + (-b), rounded once.
  static const std::regex sub(
      R"(^sub\.(rn|rz|rm|rp)(\.ftz)?\.(f32|f64) \$0, \$1, \$2;$)");
  std::smatch match;
  if (std::regex_match(text, match, sub)) {
    bool flush = match[2].matched;
    bool found = false;
    std::string modeText = match[1];
    RoundingMode mode = getMode({StringRef(modeText)}, found);
    Value *x = maybeFtz(arg(0), flush);
    Value *y = b.CreateFNeg(maybeFtz(arg(1), flush));
    Value *result = mode == kRoundRn
                        ? b.CreateFAdd(x, y)
                        : static_cast<Value *>(runtime(
                              type->isFloatTy() ? "roundf32" : "roundf64", type,
                              {b.getInt32(kRoundedAdd), b.getInt32(mode), x, y,
                               ConstantFP::get(type, 0.0)}));
    replace(maybeFtz(result, flush));
    return true;
  }
  // bfind.shiftamt.u32: the left shift that brings the most significant
  // set bit to bit 31, 0xffffffff when none is set (PTX ISA, bfind).
  if (text == "bfind.shiftamt.u32 $0, $1;") {
    Value *zero = b.CreateICmpEQ(arg(0), b.getInt32(0));
    Value *leading =
        b.CreateBinaryIntrinsic(Intrinsic::ctlz, arg(0), b.getTrue());
    replace(b.CreateSelect(zero, b.getInt32(0xffffffffu), leading));
    return true;
  }
  // setp.equ.f64 then selp.f64: $3 when $1 and $2 are equal or unordered,
  // else $4.
  if (text == "{ .reg .pred __$$temp3; setp.equ.f64 __$$temp3, $1, $2; "
              "selp.f64 $0, $3, $4, __$$temp3;}") {
    Value *equal = b.CreateFCmpUEQ(arg(0), arg(1));
    replace(b.CreateSelect(equal, arg(2), arg(3)));
    return true;
  }
  // Multi-word integer arithmetic with carries, as libdevice's double
  // functions use it; each computes one wide sum or product whose words
  // are the outputs, low first.
  auto *pairType = dyn_cast<StructType>(type);
  auto outputs = [&](Value *wide, Type *word) {
    unsigned bits = word->getIntegerBitWidth();
    Value *pair = PoisonValue::get(type);
    pair = b.CreateInsertValue(pair, b.CreateTrunc(wide, word), 0);
    return b.CreateInsertValue(
        pair, b.CreateTrunc(b.CreateLShr(wide, bits), word), 1);
  };
  if (pairType && pairType->getNumElements() == 2) {
    Type *i128 = b.getInt128Ty();
    auto word128 = [&](Value *low, Value *high) {
      return b.CreateOr(b.CreateZExt(low, i128),
                        b.CreateShl(b.CreateZExt(high, i128), 64));
    };
    // mad.lo.cc.u32 then madc.hi.u32: a * b + c in 64 bits.
    if (text ==
        "{ mad.lo.cc.u32 $0, $2, $3, $4; madc.hi.u32 $1, $2, $3, 0; }") {
      Value *product =
          b.CreateMul(b.CreateZExt(arg(0), i64), b.CreateZExt(arg(1), i64));
      replace(outputs(b.CreateAdd(product, b.CreateZExt(arg(2), i64)), i32));
      return true;
    }
    bool add = StringRef(text).contains("add.cc.u32 r0, a0, b0;") &&
               StringRef(text).contains("addc.u32 r3, a3, b3;");
    bool subtract = StringRef(text).contains("sub.cc.u32 r0, a0, b0;") &&
                    StringRef(text).contains("subc.u32 r3, a3, b3;");
    if ((add || subtract) && call.arg_size() == 4) {
      // 128-bit a ($2, $3) plus or minus b ($4, $5).
      Value *x = word128(arg(0), arg(1));
      Value *y = word128(arg(2), arg(3));
      replace(outputs(add ? b.CreateAdd(x, y) : b.CreateSub(x, y), i64));
      return true;
    }
    bool product = StringRef(text).starts_with(
        "{ .reg .u32 r0, r1, r2, r3, alo, ahi, blo, bhi; mov.b64 {alo,ahi}, "
        "$2; mov.b64 {blo,bhi}, $3; mul.lo.u32 r0, alo, blo;");
    bool productSum = StringRef(text).starts_with(
        "{ .reg .u32 r0, r1, r2, r3, alo, ahi, blo, bhi, clo, chi; mov.b64 "
        "{alo,ahi}, $2; mov.b64 {blo,bhi}, $3; mov.b64 {clo,chi}, $4; "
        "mad.lo.cc.u32 r0, alo, blo, clo;");
    if ((product && call.arg_size() == 2) ||
        (productSum && call.arg_size() == 3)) {
      // The 128-bit product of two 64-bit words, plus a third.
      Value *wide =
          b.CreateMul(b.CreateZExt(arg(0), i128), b.CreateZExt(arg(1), i128));
      if (productSum)
        wide = b.CreateAdd(wide, b.CreateZExt(arg(2), i128));
      replace(outputs(wide, i64));
      return true;
    }
  }
  return false;
}

} // namespace standin
} // namespace gpu_runner
