//===- NvvmWmma.cpp - wmma intrinsics, for the host -----------------------===//
//
// wmma's loads, stores and mma (NvvmCallLowering.h). A fragment's element
// e of lane l is element (l x count + e) of the matrix, row-major, whatever
// layout the load read it in: the PTX ISA leaves the distribution
// unspecified, and loads, stores and the runtime's mma (KernelWmma.cpp)
// agree on this one.
//
//===----------------------------------------------------------------------===//

#include "standin/NvvmCallLowering.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

#include <regex>

using namespace llvm;

namespace gpu_runner {
namespace standin {

namespace {

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

} // namespace

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
  if (parts[2] == "load" || parts[2] == "store")
    return lowerWmmaLoadStore(parts, m, n, k, why);
  if (parts[2] == "mma")
    return lowerWmmaMma(parts, m, n, k, why);
  why = "is not implemented";
  return false;
}

bool CallLowering::lowerWmmaLoadStore(ArrayRef<StringRef> parts, uint32_t m,
                                      uint32_t n, uint32_t k,
                                      std::string &why) {
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
  Value *stride =
      hasStride ? arg(call.arg_size() - 1) : b.getInt32(rowMajor ? cols : rows);
  Type *element = canonicalType(b.getContext(), type);
  SmallVector<Type *> registerTypes;
  SmallVector<Value *> elements;
  if (isLoad) {
    // A fragment of one register (m8n8k4's f64 a and b) is loaded as that
    // register, not a structure of one.
    if (auto *result = dyn_cast<StructType>(call.getType()))
      registerTypes.append(result->element_begin(), result->element_end());
    else
      registerTypes.push_back(call.getType());
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
  if (!call.getType()->isStructTy()) {
    replace(packRegister(b, elements, registerTypes[0]));
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

bool CallLowering::lowerWmmaMma(ArrayRef<StringRef> parts, uint32_t m,
                                uint32_t n, uint32_t k, std::string &why) {
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

} // namespace standin
} // namespace gpu_runner
