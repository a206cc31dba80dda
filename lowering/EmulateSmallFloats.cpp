//===- EmulateSmallFloats.cpp - Float types LLVM has no type for ----------===//
//
// LLVM has half, bfloat, float and double, but not the small float types
// of MLIR: the f8 types (f8E4M3FN, f8E5M2, f8E8M0FNU, ...), the f6 and f4
// types and tf32. A program computes on them through f32, as upstream's
// arith-emulate-unsupported-floats does:
//
//   %c = arith.addf %a, %b : f8E4M3FN
//   -> %c = arith.truncf (arith.addf (arith.extf %a), (arith.extf %b))
//
// f32 holds every value of these types exactly, and its 24 bits are more
// than twice their precision plus two, so one rounding of the f32 sum,
// difference, product, quotient or square root to the small type gives the
// correctly rounded result (the f32 operation's own rounding is innocuous).
// A fused multiply-add is rounded in f32 first, then to the type.
//
// The conversions between a small type and any other float type then call
// the runtime's mgpuConvertFloat, which converts with LLVM's APFloat: each
// type's rounding, range, NaN and infinity rules, as MLIR's own constant
// folding applies them, and arith.truncf's rounding mode.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/SmallFloats.h"
#include "lowering/checks/CheckCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/APFloat.h"

namespace gpu_runner {
#define GEN_PASS_DEF_EMULATESMALLFLOATS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {

bool isSmallFloat(Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return floatType && !isa<Float16Type, BFloat16Type, Float32Type, Float64Type,
                           Float80Type, Float128Type>(floatType);
}

namespace {

/// The runtime function that converts a float's bits between two
/// semantics (wrappers/MgpuAbi.def).
constexpr llvm::StringLiteral kConvertFloat = "mgpuConvertFloat";

/// `type` with its small float elements made f32.
Type widen(Type type) {
  if (!isSmallFloat(type))
    return type;
  Type f32 = Float32Type::get(type.getContext());
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(f32);
  return f32;
}

/// Whether `op` is an elementwise arith or math op on a small float that
/// f32 can compute: any but the conversions, which are lowered apart, and
/// the ops that only move bits.
bool computesOnSmallFloats(Operation *op) {
  if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
          op->getDialect()) ||
      isa<arith::ExtFOp, arith::TruncFOp, arith::ScalingExtFOp,
          arith::ScalingTruncFOp, arith::BitcastOp, arith::ConstantOp,
          arith::SelectOp>(op) ||
      op->getNumRegions() != 0 || !op->hasTrait<OpTrait::Elementwise>())
    return false;
  return llvm::any_of(op->getOperandTypes(), isSmallFloat) ||
         llvm::any_of(op->getResultTypes(), isSmallFloat);
}

/// Rewrites `op` on f32: its small float operands extended, its small
/// float results truncated back (rounding to nearest, ties to even).
void computeInF32(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(
        isSmallFloat(operand.getType())
            ? arith::ExtFOp::create(b, loc, widen(operand.getType()), operand)
                  .getResult()
            : operand);
  SmallVector<Type> resultTypes;
  for (Type type : op->getResultTypes())
    resultTypes.push_back(widen(type));
  OperationState state(loc, op->getName(), operands, resultTypes,
                       op->getAttrs());
  Operation *wide = b.create(state);
  for (auto [result, wideResult] :
       llvm::zip(op->getResults(), wide->getResults())) {
    Value narrow = wideResult;
    if (isSmallFloat(result.getType()))
      narrow = arith::TruncFOp::create(b, loc, result.getType(), wideResult);
    result.replaceAllUsesWith(narrow);
  }
  op->erase();
}

/// The rounding mode of APFloat, as the runtime takes it, for an
/// arith.truncf's: to nearest, ties to even, where it has none.
int32_t getRoundingMode(arith::TruncFOp truncf) {
  using llvm::RoundingMode;
  RoundingMode mode = RoundingMode::NearestTiesToEven;
  if (std::optional<arith::RoundingMode> given = truncf.getRoundingmode()) {
    switch (*given) {
    case arith::RoundingMode::to_nearest_even:
      break;
    case arith::RoundingMode::downward:
      mode = RoundingMode::TowardNegative;
      break;
    case arith::RoundingMode::upward:
      mode = RoundingMode::TowardPositive;
      break;
    case arith::RoundingMode::toward_zero:
      mode = RoundingMode::TowardZero;
      break;
    case arith::RoundingMode::to_nearest_away:
      mode = RoundingMode::NearestTiesToAway;
      break;
    }
  }
  return static_cast<int32_t>(mode);
}

int32_t getSemantics(Type type) {
  return static_cast<int32_t>(llvm::APFloatBase::SemanticsToEnum(
      cast<FloatType>(type).getFloatSemantics()));
}

/// A scalar conversion of `value` to `to`: the bits, widened to 64, through
/// mgpuConvertFloat.
Value convertScalar(OpBuilder &b, Location loc, func::FuncOp convert,
                    Value value, FloatType to, int32_t roundingMode) {
  auto from = cast<FloatType>(value.getType());
  Type i32 = b.getI32Type();
  Type i64 = b.getI64Type();
  Value bits = arith::BitcastOp::create(
      b, loc, b.getIntegerType(from.getWidth()), value);
  bits = arith::ExtUIOp::create(b, loc, i64, bits);
  Value args[] = {arith::ConstantIntOp::create(b, loc, i32, getSemantics(from)),
                  arith::ConstantIntOp::create(b, loc, i32, getSemantics(to)),
                  arith::ConstantIntOp::create(b, loc, i32, roundingMode),
                  bits};
  Value result = func::CallOp::create(b, loc, convert, args).getResult(0);
  result =
      arith::TruncIOp::create(b, loc, b.getIntegerType(to.getWidth()), result);
  return arith::BitcastOp::create(b, loc, to, result);
}

/// Replaces the conversion `op` (arith.extf or arith.truncf) by calls of
/// mgpuConvertFloat, one per element of a vector.
void lowerConversion(Operation *op, func::FuncOp convert,
                     int32_t roundingMode) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value source = op->getOperand(0);
  Type resultType = op->getResult(0).getType();
  auto to = cast<FloatType>(getElementTypeOrSelf(resultType));
  auto vectorType = dyn_cast<VectorType>(resultType);
  if (!vectorType) {
    op->getResult(0).replaceAllUsesWith(
        convertScalar(b, loc, convert, source, to, roundingMode));
    op->erase();
    return;
  }
  // Element by element, through a vector of one dimension.
  int64_t count = vectorType.getNumElements();
  auto flatSource = VectorType::get(
      {count}, cast<VectorType>(source.getType()).getElementType());
  Value flat = vector::ShapeCastOp::create(b, loc, flatSource, source);
  auto flatResultType = VectorType::get({count}, to);
  Value result = arith::ConstantOp::create(b, loc, flatResultType,
                                           b.getZeroAttr(flatResultType));
  for (int64_t i = 0; i < count; ++i) {
    Value element = vector::ExtractOp::create(b, loc, flat, i);
    Value converted = convertScalar(b, loc, convert, element, to, roundingMode);
    result = vector::InsertOp::create(b, loc, converted, result, i);
  }
  op->getResult(0).replaceAllUsesWith(
      vector::ShapeCastOp::create(b, loc, vectorType, result));
  op->erase();
}

class EmulateSmallFloatsPass
    : public impl::EmulateSmallFloatsBase<EmulateSmallFloatsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> computes;
    module.walk([&](Operation *op) {
      if (computesOnSmallFloats(op))
        computes.push_back(op);
    });
    for (Operation *op : computes)
      computeInF32(op);

    SmallVector<Operation *> conversions;
    module.walk([&](Operation *op) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
          (isSmallFloat(op->getOperand(0).getType()) ||
           isSmallFloat(op->getResult(0).getType())) &&
          !isa<TensorType>(op->getResult(0).getType()))
        conversions.push_back(op);
    });
    // int64_t mgpuConvertFloat(from, to, rounding mode, bits), declared in
    // the symbol table of each conversion (the module, or a gpu.module
    // whose kernels the host backend runs).
    MLIRContext *context = &getContext();
    Type i32 = IntegerType::get(context, 32);
    Type i64 = IntegerType::get(context, 64);
    auto type = FunctionType::get(context, {i32, i32, i32, i64}, {i64});
    SymbolTableCollection tables;
    llvm::DenseMap<Operation *, func::FuncOp> declarations;
    int32_t nearest =
        static_cast<int32_t>(llvm::RoundingMode::NearestTiesToEven);
    for (Operation *op : conversions) {
      Operation *scope = op->getParentWithTrait<OpTrait::SymbolTable>();
      func::FuncOp &convert = declarations[scope];
      if (!convert)
        convert = getCheckFunction(scope, tables.getSymbolTable(scope),
                                   kConvertFloat, type, "a small float type");
      if (!convert)
        return signalPassFailure();
      auto truncf = dyn_cast<arith::TruncFOp>(op);
      lowerConversion(op, convert, truncf ? getRoundingMode(truncf) : nearest);
    }
  }
};

} // namespace
} // namespace gpu_runner
