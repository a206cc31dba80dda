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

#include "standin/KernelAbi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

#include <regex>

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
              "activemask", "wmma_mma", "nanosleep"},
             true)
      .Default(false);
}

namespace {

/// Rewrites one call; `why` says what is missing when it cannot.
class CallLowering {
public:
  CallLowering(CallBase &call, const LoweringContext &lc)
      : call(call), lc(lc), b(&call), ctx(call.getFunction()->getArg(0)),
        i1(b.getInt1Ty()), i8(b.getInt8Ty()), i16(b.getInt16Ty()),
        i32(b.getInt32Ty()), i64(b.getInt64Ty()), f32(b.getFloatTy()),
        f64(b.getDoubleTy()), ptr(b.getPtrTy()) {}

  bool lowerIntrinsic(StringRef name, std::string &why);
  bool lowerAsm(const InlineAsm &assembly, std::string &why);
  bool lowerExternal(StringRef name, std::string &why);

private:
  Value *arg(unsigned i) { return call.getArgOperand(i); }
  void replace(Value *value) {
    if (value)
      call.replaceAllUsesWith(value);
    call.eraseFromParent();
  }
  uint32_t site(const std::string &what) { return lc.addSite(&call, what); }
  Value *siteValue(const std::string &what) { return b.getInt32(site(what)); }
  CallInst *runtime(StringRef name, Type *result, ArrayRef<Value *> args) {
    SmallVector<Type *> types;
    for (Value *v : args)
      types.push_back(v->getType());
    return b.CreateCall(lc.getRuntime(name, result, types), args);
  }
  Value *reg(SpecialRegister r) {
    Value *at = b.CreateInBoundsGEP(
        lc.contextType, ctx,
        {b.getInt32(0), b.getInt32(kFieldRegisters), b.getInt32(r)});
    LoadInst *load = b.CreateAlignedLoad(i32, at, Align(4));
    load->setMetadata(LLVMContext::MD_invariant_load,
                      MDNode::get(b.getContext(), {}));
    LoweringContext::trust(load);
    return load;
  }
  Value *field(ThreadContextField f, Type *type) {
    Value *at = b.CreateStructGEP(lc.contextType, ctx, f);
    LoadInst *load = b.CreateLoad(type, at);
    LoweringContext::trust(load);
    return load;
  }
  Value *unary(Intrinsic::ID id, Value *x) {
    return b.CreateUnaryIntrinsic(id, x);
  }
  /// Flushes a subnormal to a zero of its sign: the .ftz modifier (PTX ISA,
  /// "Floating Point Instructions": "subnormal inputs and results are
  /// flushed to sign-preserving zero").
  Value *ftz(Value *x) {
    Type *type = x->getType();
    const fltSemantics &semantics = type->getFltSemantics();
    Value *smallest =
        ConstantFP::get(type, APFloat::getSmallestNormalized(semantics));
    Value *isSubnormal = b.CreateFCmpOLT(unary(Intrinsic::fabs, x), smallest);
    Value *zero = b.CreateBinaryIntrinsic(Intrinsic::copysign,
                                          ConstantFP::get(type, 0.0), x);
    return b.CreateSelect(isSubnormal, zero, x);
  }
  Value *maybeFtz(Value *x, bool flush) { return flush ? ftz(x) : x; }
  /// PTX's min/max (PTX ISA, min and max: "If one of the inputs is NaN,
  /// the result is the other"; -0.0 is less than +0.0); with .NaN a NaN
  /// input gives NaN.
  Value *minMax(Value *x, Value *y, bool isMax, bool propagateNan) {
    if (propagateNan)
      return b.CreateBinaryIntrinsic(
          isMax ? Intrinsic::maximum : Intrinsic::minimum, x, y);
    Value *less = isMax ? b.CreateFCmpOGT(x, y) : b.CreateFCmpOLT(x, y);
    Value *picked = b.CreateSelect(less, x, y);
    // Equal (+0 and -0 among them): the negative one for min, else the
    // other.
    Type *intType = b.getIntNTy(x->getType()->getPrimitiveSizeInBits());
    Value *xNegative = b.CreateICmpSLT(b.CreateBitCast(x, intType),
                                       ConstantInt::get(intType, 0));
    Value *onEqual = isMax ? b.CreateSelect(xNegative, y, x)
                           : b.CreateSelect(xNegative, x, y);
    picked = b.CreateSelect(b.CreateFCmpOEQ(x, y), onEqual, picked);
    Value *xNan = b.CreateFCmpUNO(x, x);
    Value *yNan = b.CreateFCmpUNO(y, y);
    picked = b.CreateSelect(yNan, x, picked);
    return b.CreateSelect(xNan, y, picked);
  }
  /// cvt.sat: clamps to [0.0, 1.0], NaN to +0.0 (PTX ISA, cvt, ".sat").
  Value *saturate(Value *x) {
    Type *type = x->getType();
    Value *zero = ConstantFP::get(type, 0.0);
    Value *one = ConstantFP::get(type, 1.0);
    Value *clamped = b.CreateSelect(b.CreateFCmpOLT(x, one), x, one);
    return b.CreateSelect(b.CreateFCmpOGT(x, zero), clamped, zero);
  }
  /// A float rounded to an integral value in a PTX rounding mode.
  Value *roundIntegral(Value *x, RoundingMode mode) {
    switch (mode) {
    case kRoundRz:
      return unary(Intrinsic::trunc, x);
    case kRoundRm:
      return unary(Intrinsic::floor, x);
    case kRoundRp:
      return unary(Intrinsic::ceil, x);
    default:
      return unary(Intrinsic::roundeven, x);
    }
  }
  bool lowerArithmetic(StringRef op, ArrayRef<StringRef> parts,
                       std::string &why);
  bool lowerConversion(StringRef op, ArrayRef<StringRef> parts,
                       std::string &why);
  bool lowerWmma(StringRef name, std::string &why);

  CallBase &call;
  const LoweringContext &lc;
  IRBuilder<> b;
  Value *ctx;
  Type *i1, *i8, *i16, *i32, *i64, *f32, *f64;
  PointerType *ptr;
};

bool hasPart(ArrayRef<StringRef> parts, StringRef part) {
  return llvm::is_contained(parts, part);
}

RoundingMode getMode(ArrayRef<StringRef> parts, bool &found) {
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
// wmma
//===----------------------------------------------------------------------===//

struct WmmaFragmentInfo {
  uint32_t rows = 0, cols = 0;
  /// Elements per register, and the element's canonical type and size.
  uint32_t perRegister = 1;
  uint32_t type = kWmmaF32;
};

bool parseShape(StringRef shape, uint32_t &m, uint32_t &n, uint32_t &k) {
  static const std::regex pattern("^m([0-9]+)n([0-9]+)k([0-9]+)$");
  std::string text = shape.str();
  std::smatch match;
  if (!std::regex_match(text, match, pattern))
    return false;
  m = std::stoul(match[1]);
  n = std::stoul(match[2]);
  k = std::stoul(match[3]);
  return true;
}

bool parseWmmaType(StringRef name, uint32_t &type) {
  type = StringSwitch<uint32_t>(name)
             .Case("f16", kWmmaF16)
             .Case("f32", kWmmaF32)
             .Case("s8", kWmmaS8)
             .Case("u8", kWmmaU8)
             .Case("s32", kWmmaS32)
             .Case("bf16", kWmmaBF16)
             .Case("tf32", kWmmaTF32)
             .Case("f64", kWmmaF64)
             .Default(UINT32_MAX);
  return type != UINT32_MAX;
}

uint32_t elementsPerRegister(uint32_t type, Type *registerType) {
  if (auto *vector = dyn_cast<FixedVectorType>(registerType))
    return vector->getNumElements();
  if (registerType->isIntegerTy(32) && (type == kWmmaS8 || type == kWmmaU8))
    return 4;
  if (registerType->isIntegerTy(32) && type == kWmmaBF16)
    return 2;
  return 1;
}

/// The canonical type of a fragment's elements in a lane's array (what
/// runWmma reads): f16 and bf16 as 16 bits, tf32 as f32's bits.
Type *canonicalType(LLVMContext &c, uint32_t type) {
  switch (type) {
  case kWmmaF16:
  case kWmmaBF16:
    return Type::getInt16Ty(c);
  case kWmmaS8:
  case kWmmaU8:
    return Type::getInt8Ty(c);
  case kWmmaF64:
    return Type::getDoubleTy(c);
  case kWmmaF32:
    return Type::getFloatTy(c);
  default:
    return Type::getInt32Ty(c);
  }
}

/// The registers of one wmma fragment as its elements, in order.
SmallVector<Value *> unpackRegisters(IRBuilder<> &b, ArrayRef<Value *> regs,
                                     uint32_t type) {
  SmallVector<Value *> elements;
  Type *element = canonicalType(b.getContext(), type);
  for (Value *reg : regs) {
    Type *t = reg->getType();
    if (auto *vector = dyn_cast<FixedVectorType>(t)) {
      for (unsigned i = 0; i < vector->getNumElements(); ++i)
        elements.push_back(
            b.CreateBitCast(b.CreateExtractElement(reg, i), element));
      continue;
    }
    uint32_t per = elementsPerRegister(type, t);
    if (per == 1) {
      elements.push_back(b.CreateBitCast(reg, element));
      continue;
    }
    unsigned bits = element->getPrimitiveSizeInBits();
    for (uint32_t i = 0; i < per; ++i)
      elements.push_back(b.CreateTrunc(b.CreateLShr(reg, i * bits), element));
  }
  return elements;
}

/// The reverse: elements packed into registers of `registerType`.
Value *packRegister(IRBuilder<> &b, ArrayRef<Value *> elements,
                    Type *registerType) {
  if (auto *vector = dyn_cast<FixedVectorType>(registerType)) {
    Value *result = PoisonValue::get(vector);
    for (unsigned i = 0; i < vector->getNumElements(); ++i)
      result = b.CreateInsertElement(
          result, b.CreateBitCast(elements[i], vector->getElementType()), i);
    return result;
  }
  if (elements.size() == 1)
    return b.CreateBitCast(elements[0], registerType);
  unsigned bits = elements[0]->getType()->getPrimitiveSizeInBits();
  Value *result = ConstantInt::get(registerType, 0);
  for (size_t i = 0; i < elements.size(); ++i)
    result = b.CreateOr(
        result, b.CreateShl(b.CreateZExt(elements[i], registerType), i * bits));
  return result;
}

bool CallLowering::lowerWmma(StringRef name, std::string &why) {
  SmallVector<StringRef> parts;
  name.split(parts, '.');
  // wmma.<shape>.{load.<frag>,store.d}.<layout>[.stride].<type>[.p<as>]
  // wmma.<shape>.mma.<alayout>.<blayout>.<types>[.satfinite]
  uint32_t m = 0, n = 0, k = 0;
  if (parts.size() < 4 || !parseShape(parts[1], m, n, k)) {
    why = "is not implemented";
    return false;
  }
  Value *lane = reg(kLaneId);
  auto fragmentShape = [&](char fragment, uint32_t &rows, uint32_t &cols) {
    rows = fragment == 'b' ? k : m;
    cols = fragment == 'a' ? k : n;
  };
  // Element e of lane l: element (l * count + e) mod (rows * cols) of the
  // matrix, row-major, wherever the load reads it from (see runWmma).
  auto elementOffset = [&](uint32_t e, uint32_t count, uint32_t rows,
                           uint32_t cols, bool rowMajor, Value *stride) {
    Value *index = b.CreateURem(
        b.CreateAdd(b.CreateMul(lane, b.getInt32(count)), b.getInt32(e)),
        b.getInt32(rows * cols));
    Value *row = b.CreateUDiv(index, b.getInt32(cols));
    Value *col = b.CreateURem(index, b.getInt32(cols));
    return rowMajor ? b.CreateAdd(b.CreateMul(row, stride), col)
                    : b.CreateAdd(b.CreateMul(col, stride), row);
  };

  if (parts[2] == "load" || parts[2] == "store") {
    bool isLoad = parts[2] == "load";
    char fragment = parts[3][0];
    bool rowMajor = parts[4] == "row";
    bool hasStride = parts.size() > 5 && parts[5] == "stride";
    StringRef typeName = parts[hasStride ? 6 : 5];
    uint32_t type = 0;
    if (!parseWmmaType(typeName, type)) {
      why = "is not implemented";
      return false;
    }
    uint32_t rows = 0, cols = 0;
    fragmentShape(fragment, rows, cols);
    Value *base = arg(0);
    Value *stride = hasStride ? arg(call.arg_size() - 1)
                              : b.getInt32(rowMajor ? cols : rows);
    Type *element = canonicalType(b.getContext(), type);
    SmallVector<Type *> registerTypes;
    SmallVector<Value *> elements;
    if (isLoad) {
      auto *result = cast<StructType>(call.getType());
      for (Type *t : result->elements())
        registerTypes.push_back(t);
    } else {
      unsigned last = call.arg_size() - (hasStride ? 1 : 0);
      SmallVector<Value *> regs;
      for (unsigned i = 1; i < last; ++i) {
        regs.push_back(arg(i));
        registerTypes.push_back(arg(i)->getType());
      }
      elements = unpackRegisters(b, regs, type);
    }
    uint32_t count = 0;
    for (Type *t : registerTypes)
      count += elementsPerRegister(type, t);
    if (count == 0 || (uint64_t(kWarpSize) * count) % (rows * cols) != 0 ||
        kWarpSize * count < rows * cols) {
      why = "has a fragment the stand-in cannot lay out";
      return false;
    }
    for (uint32_t e = 0; e < count; ++e) {
      Value *offset = elementOffset(e, count, rows, cols, rowMajor, stride);
      Value *at = b.CreateGEP(element, base, b.CreateZExt(offset, i64));
      if (isLoad)
        elements.push_back(b.CreateLoad(element, at));
      else
        b.CreateStore(elements[e], at);
    }
    if (!isLoad) {
      replace(nullptr);
      return true;
    }
    Value *result = PoisonValue::get(call.getType());
    size_t next = 0;
    for (size_t r = 0; r < registerTypes.size(); ++r) {
      uint32_t per = elementsPerRegister(type, registerTypes[r]);
      result = b.CreateInsertValue(
          result,
          packRegister(b, ArrayRef<Value *>(elements).slice(next, per),
                       registerTypes[r]),
          r);
      next += per;
    }
    replace(result);
    return true;
  }

  if (parts[2] != "mma") {
    why = "is not implemented";
    return false;
  }
  // The element types: "f32.f16" is D f32 and C f16 with f16 A and B;
  // "s8"/"u8" multiply bytes into s32; "bf16", "tf32" accumulate in f32.
  WmmaDescriptor d{};
  d.m = m;
  d.n = n;
  d.k = k;
  d.saturate = parts.back() == "satfinite";
  SmallVector<StringRef> types(parts.begin() + 5,
                               parts.end() - (d.saturate ? 1 : 0));
  if (types.size() == 2) {
    d.aType = d.bType = kWmmaF16;
    if (!parseWmmaType(types[0], d.dType) ||
        !parseWmmaType(types[1], d.cType)) {
      why = "is not implemented";
      return false;
    }
  } else if (types.size() == 1 && (types[0] == "s8" || types[0] == "u8")) {
    parseWmmaType(types[0], d.aType);
    d.bType = d.aType;
    d.cType = d.dType = kWmmaS32;
  } else if (types.size() == 1 && (types[0] == "bf16" || types[0] == "tf32")) {
    parseWmmaType(types[0], d.aType);
    d.bType = d.aType;
    d.cType = d.dType = kWmmaF32;
  } else if (types.size() == 1 && types[0] == "f64") {
    d.aType = d.bType = d.cType = d.dType = kWmmaF64;
  } else {
    why = "is not implemented";
    return false;
  }
  // The registers of A and B per lane (PTX ISA, wmma.mma: "Matrix
  // fragments"); C has the rest of the operands.
  uint32_t aRegs = 0, bRegs = 0;
  switch (d.aType) {
  case kWmmaF16:
    aRegs = bRegs = 8;
    break;
  case kWmmaS8:
  case kWmmaU8:
    aRegs = m == 16 ? 2 : m == 32 ? 4 : 1;
    bRegs = m == 16 ? 2 : m == 32 ? 1 : 4;
    break;
  case kWmmaBF16:
    aRegs = m == 16 ? 4 : m == 32 ? 8 : 2;
    bRegs = m == 16 ? 4 : m == 32 ? 2 : 8;
    break;
  case kWmmaTF32:
    aRegs = bRegs = 4;
    break;
  default:
    aRegs = bRegs = 1;
    break;
  }
  if (call.arg_size() <= aRegs + bRegs) {
    why = "has operands the stand-in does not expect";
    return false;
  }
  SmallVector<Value *> aIn, bIn, cIn;
  for (unsigned i = 0; i < call.arg_size(); ++i)
    (i < aRegs ? aIn : i < aRegs + bRegs ? bIn : cIn).push_back(arg(i));
  auto *result = cast<StructType>(call.getType());
  // Each fragment in an array of its elements on the lane's stack.
  Function *function = call.getFunction();
  IRBuilder<> entry(&*function->getEntryBlock().getFirstInsertionPt());
  auto store = [&](ArrayRef<Value *> regs, uint32_t type, uint32_t &count) {
    SmallVector<Value *> elements = unpackRegisters(b, regs, type);
    count = elements.size();
    Type *element = canonicalType(b.getContext(), type);
    AllocaInst *array =
        entry.CreateAlloca(ArrayType::get(element, count), nullptr, "wmma");
    for (uint32_t e = 0; e < count; ++e)
      b.CreateStore(elements[e], b.CreateConstGEP2_32(array->getAllocatedType(),
                                                      array, 0, e));
    return array;
  };
  AllocaInst *aArray = store(aIn, d.aType, d.aCount);
  AllocaInst *bArray = store(bIn, d.bType, d.bCount);
  AllocaInst *cArray = store(cIn, d.cType, d.cCount);
  for (Type *t : result->elements())
    d.dCount += elementsPerRegister(d.dType, t);
  Type *dElement = canonicalType(b.getContext(), d.dType);
  AllocaInst *dArray =
      entry.CreateAlloca(ArrayType::get(dElement, d.dCount), nullptr, "wmma");
  // The descriptor, a constant of the module.
  SmallVector<Constant *> fields;
  for (uint32_t value : {d.m, d.n, d.k, d.aType, d.bType, d.cType, d.dType,
                         d.aCount, d.bCount, d.cCount, d.dCount, d.saturate})
    fields.push_back(b.getInt32(value));
  auto *descriptorType =
      ArrayType::get(i32, sizeof(WmmaDescriptor) / sizeof(uint32_t));
  auto *descriptor = new GlobalVariable(
      *lc.module, descriptorType, true, GlobalValue::PrivateLinkage,
      ConstantArray::get(descriptorType, fields), "wmma.descriptor");
  runtime("wmma_mma", b.getVoidTy(),
          {ctx, descriptor, aArray, bArray, cArray, dArray,
           siteValue("wmma.mma.sync")});
  Value *out = PoisonValue::get(result);
  uint32_t next = 0;
  for (unsigned r = 0; r < result->getNumElements(); ++r) {
    Type *t = result->getElementType(r);
    uint32_t per = elementsPerRegister(d.dType, t);
    SmallVector<Value *> elements;
    for (uint32_t e = 0; e < per; ++e) {
      LoadInst *load = b.CreateLoad(
          dElement, b.CreateConstGEP2_32(dArray->getAllocatedType(), dArray, 0,
                                         next + e));
      elements.push_back(load);
    }
    next += per;
    out = b.CreateInsertValue(out, packRegister(b, elements, t), r);
  }
  replace(out);
  return true;
}

//===----------------------------------------------------------------------===//
// Intrinsics.
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

  // Special registers: PTX ISA, "Special Registers".
  if (rest.consume_front("read.ptx.sreg.")) {
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
        {"dynamic.smem.size", kDynamicSmemSize},
        {"total.smem.size", kTotalSmemSize},
        {"aggr.smem.size", kTotalSmemSize},
    };
    for (const auto &[spelling, r] : registers)
      if (rest == spelling) {
        replace(reg(r));
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

  // Fences: the host's strongest, which orders at least as much as any
  // scope (PTX ISA, membar and fence).
  if (op == "membar" || name == "llvm.nvvm.fence.sc.cluster" ||
      rest.starts_with("fence.acq_rel") || rest.starts_with("fence.sc")) {
    b.CreateFence(AtomicOrdering::SequentiallyConsistent);
    replace(nullptr);
    return true;
  }

  // Scoped atomics: the host's atomics are atomic for every scope.
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
  if (op == "wmma")
    return lowerWmma(name.drop_front(strlen("llvm.nvvm.")), why);

  // Math.
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

//===----------------------------------------------------------------------===//
// Inline PTX.
//===----------------------------------------------------------------------===//

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

} // namespace

bool lowerCall(CallBase &call, const LoweringContext &context,
               std::string &why) {
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
