//===- HostMma.cpp - gpu.subgroup_mma_* ops of kernels run on the CPU -----===//
//
// See HostMma.h. One dialect conversion over the host copies of the device
// functions turns every !gpu.mma_matrix into its lane's slice (a vector),
// through function signatures, calls, scf and cf too, and the mma ops into
// loads, stores and arithmetic on the slices; the checks of what the host
// backend refuses (HostMmaChecks.cpp) come first.
//
//===----------------------------------------------------------------------===//

#include "lowering/host/HostMma.h"
#include "lowering/runtime/MgpuCalls.h"

#include "wrappers/HostKernelAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace gpu_runner {
namespace {

constexpr int64_t kLanes = kHostSubgroupSize;

/// `reason` of mgpuHostMmaFailAt.
enum MmaFailure : int32_t {
  kPartialSubgroup = 0,
  kThreadLocalIndex = 1,
};

/// The element type of `type` without its signedness.
Type getSignlessElementType(gpu::MMAMatrixType type) {
  Type element = type.getElementType();
  if (auto integer = dyn_cast<IntegerType>(element))
    return IntegerType::get(integer.getContext(), integer.getWidth());
  return element;
}

int64_t getElementCount(gpu::MMAMatrixType type) {
  return type.getShape()[0] * type.getShape()[1];
}

/// The number of elements each lane holds.
int64_t getSliceSize(gpu::MMAMatrixType type) {
  return getElementCount(type) / kLanes;
}

VectorType getSliceType(gpu::MMAMatrixType type) {
  return VectorType::get({getSliceSize(type)}, getSignlessElementType(type));
}

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// The kernel context: argument 0 of every host copy of a device function.
Value getKernelContext(Operation *op) {
  return op->getParentOfType<func::FuncOp>().getArgument(0);
}

/// Emits the call that reports a misuse `reason` (with `value` and
/// `limit`) at `op` in the thread that runs it.
LogicalResult emitFailure(OpBuilder &b, Operation *op, MmaFailure reason,
                          Value value, int64_t limit) {
  Location loc = op->getLoc();
  SmallVector<Value> args = {arith::ConstantIntOp::create(b, loc, reason, 32),
                             toI64(b, loc, value),
                             arith::ConstantIntOp::create(b, loc, limit, 64)};
  for (gpu::Dimension d :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    args.push_back(toI64(b, loc, gpu::ThreadIdOp::create(b, loc, d)));
  for (gpu::Dimension d :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    args.push_back(toI64(b, loc, gpu::BlockIdOp::create(b, loc, d)));
  args.push_back(getConstantString(b, loc, getRuntimeLocation(op)));
  return createMgpuCall(b, loc, MgpuFunction::mgpuHostMmaFailAt, args);
}

/// The mma ops need all 32 lanes of the subgroup ("This function must be
/// called by all threads in the warp, or the result is undefined", CUDA C++
/// Programming Guide, Warp Matrix Functions): a thread of the partial last
/// subgroup of a block reports an error at `op`.
LogicalResult emitSubgroupCheck(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  auto id = [&](auto opType, gpu::Dimension d) -> Value {
    return decltype(opType)::create(b, loc, d);
  };
  using gpu::Dimension;
  Value linear = arith::AddIOp::create(
      b, loc, id(gpu::ThreadIdOp(), Dimension::x),
      arith::MulIOp::create(
          b, loc, id(gpu::BlockDimOp(), Dimension::x),
          arith::AddIOp::create(
              b, loc, id(gpu::ThreadIdOp(), Dimension::y),
              arith::MulIOp::create(b, loc, id(gpu::BlockDimOp(), Dimension::y),
                                    id(gpu::ThreadIdOp(), Dimension::z)))));
  Value threads = arith::MulIOp::create(
      b, loc, id(gpu::BlockDimOp(), Dimension::x),
      arith::MulIOp::create(b, loc, id(gpu::BlockDimOp(), Dimension::y),
                            id(gpu::BlockDimOp(), Dimension::z)));
  Value lanesSize = constantIndex(b, loc, kLanes);
  Value first = arith::SubIOp::create(
      b, loc, linear, arith::RemUIOp::create(b, loc, linear, lanesSize));
  Value lanes = arith::MinUIOp::create(
      b, loc, lanesSize, arith::SubIOp::create(b, loc, threads, first));
  Value partial = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        lanes, lanesSize);
  auto ifOp = scf::IfOp::create(b, loc, partial, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  return emitFailure(b, op, kPartialSubgroup, lanes, kLanes);
}

/// A pointer to element 0 of `memref`'s buffer, and the index (in elements)
/// of the element at `indices`.
std::pair<Value, Value> getElementAddress(OpBuilder &b, Location loc,
                                          Value memref, ValueRange indices) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value pointer = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), toI64(b, loc, base));
  Value offset = metadata.getOffset();
  for (auto [index, stride] : llvm::zip_equal(indices, metadata.getStrides()))
    offset = arith::AddIOp::create(
        b, loc, offset, arith::MulIOp::create(b, loc, index, stride));
  return {pointer, offset};
}

/// The position, in elements from the matrix's first, of element `e`
/// (row-major) of a rows x columns matrix laid out with `leadDimension`,
/// transposed or not.
Value getMatrixOffset(OpBuilder &b, Location loc, Value e, int64_t columns,
                      int64_t rows, int64_t leadDimension, bool transpose) {
  Value row = arith::DivUIOp::create(b, loc, e, constantIndex(b, loc, columns));
  Value column =
      arith::RemUIOp::create(b, loc, e, constantIndex(b, loc, columns));
  Value lead = constantIndex(b, loc, leadDimension);
  if (transpose)
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, column, lead), row);
  return arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, row, lead),
                               column);
}

Value elementPointer(OpBuilder &b, Location loc, Value pointer, Type element,
                     Value index) {
  return LLVM::GEPOp::create(b, loc, pointer.getType(), element, pointer,
                             ValueRange{toI64(b, loc, index)});
}

/// Element s of the lane's slice is element lane * S + s of the matrix.
Value getMatrixElement(OpBuilder &b, Location loc, Value lane,
                       int64_t sliceSize, int64_t s) {
  return arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, lane, constantIndex(b, loc, sliceSize)),
      constantIndex(b, loc, s));
}

Value getLane(OpBuilder &b, Location loc) {
  return gpu::LaneIdOp::create(b, loc, IntegerAttr());
}

struct LoadMatrixLowering
    : public OpConversionPattern<gpu::SubgroupMmaLoadMatrixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaLoadMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto matrix = cast<gpu::MMAMatrixType>(op.getRes().getType());
    if (failed(emitSubgroupCheck(rewriter, op)))
      return failure();
    auto [pointer, start] = getElementAddress(
        rewriter, loc, adaptor.getSrcMemref(), adaptor.getIndices());
    Type element = op.getSrcMemref().getType().getElementType();
    VectorType sliceType = getSliceType(matrix);
    Value lane = getLane(rewriter, loc);
    Value slice = arith::ConstantOp::create(rewriter, loc, sliceType,
                                            rewriter.getZeroAttr(sliceType));
    int64_t sliceSize = sliceType.getNumElements();
    for (int64_t s = 0; s < sliceSize; ++s) {
      Value e = getMatrixElement(rewriter, loc, lane, sliceSize, s);
      Value offset = getMatrixOffset(rewriter, loc, e, matrix.getShape()[1],
                                     matrix.getShape()[0],
                                     op.getLeadDimension().getSExtValue(),
                                     op.getTransposeAttr() != nullptr);
      Value value = LLVM::LoadOp::create(
          rewriter, loc, element,
          elementPointer(rewriter, loc, pointer, element,
                         arith::AddIOp::create(rewriter, loc, start, offset)));
      slice = vector::InsertOp::create(rewriter, loc, value, slice, s);
    }
    rewriter.replaceOp(op, slice);
    return success();
  }
};

struct StoreMatrixLowering
    : public OpConversionPattern<gpu::SubgroupMmaStoreMatrixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaStoreMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto matrix = cast<gpu::MMAMatrixType>(op.getSrc().getType());
    if (failed(emitSubgroupCheck(rewriter, op)))
      return failure();
    auto [pointer, start] = getElementAddress(
        rewriter, loc, adaptor.getDstMemref(), adaptor.getIndices());
    Type element = op.getDstMemref().getType().getElementType();
    Value lane = getLane(rewriter, loc);
    int64_t sliceSize = getSliceSize(matrix);
    for (int64_t s = 0; s < sliceSize; ++s) {
      Value e = getMatrixElement(rewriter, loc, lane, sliceSize, s);
      Value offset = getMatrixOffset(rewriter, loc, e, matrix.getShape()[1],
                                     matrix.getShape()[0],
                                     op.getLeadDimension().getSExtValue(),
                                     op.getTransposeAttr() != nullptr);
      Value value =
          vector::ExtractOp::create(rewriter, loc, adaptor.getSrc(), s);
      LLVM::StoreOp::create(
          rewriter, loc, value,
          elementPointer(rewriter, loc, pointer, element,
                         arith::AddIOp::create(rewriter, loc, start, offset)));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A scalar of the matrix's element type, signless.
Value toSignless(OpBuilder &b, Location loc, Value value) {
  auto integer = dyn_cast<IntegerType>(value.getType());
  if (!integer || integer.isSignless())
    return value;
  return UnrealizedConversionCastOp::create(
             b, loc, IntegerType::get(b.getContext(), integer.getWidth()),
             value)
      .getResult(0);
}

struct ConstantMatrixLowering
    : public OpConversionPattern<gpu::SubgroupMmaConstantMatrixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaConstantMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(emitSubgroupCheck(rewriter, op)))
      return failure();
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
        op, getSliceType(op.getType()),
        toSignless(rewriter, loc, adaptor.getValue()));
    return success();
  }
};

struct ElementwiseLowering
    : public OpConversionPattern<gpu::SubgroupMmaElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange args = adaptor.getArgs();
    VectorType type = getSliceType(op.getType());
    auto binary = [&](auto opType) -> Value {
      if (args.size() != 2)
        return Value();
      return decltype(opType)::create(rewriter, loc, args[0], args[1]);
    };
    auto unary = [&](auto build) -> Value {
      return args.size() == 1 ? build(args[0]) : Value();
    };
    Value result;
    switch (op.getOpType()) {
    case gpu::MMAElementwiseOp::ADDF:
      result = binary(arith::AddFOp());
      break;
    case gpu::MMAElementwiseOp::MULF:
      result = binary(arith::MulFOp());
      break;
    case gpu::MMAElementwiseOp::SUBF:
      result = binary(arith::SubFOp());
      break;
    case gpu::MMAElementwiseOp::MAXF:
      result = binary(arith::MaximumFOp());
      break;
    case gpu::MMAElementwiseOp::MINF:
      result = binary(arith::MinimumFOp());
      break;
    case gpu::MMAElementwiseOp::DIVF:
      result = binary(arith::DivFOp());
      break;
    case gpu::MMAElementwiseOp::ADDI:
      result = binary(arith::AddIOp());
      break;
    case gpu::MMAElementwiseOp::MULI:
      result = binary(arith::MulIOp());
      break;
    case gpu::MMAElementwiseOp::SUBI:
      result = binary(arith::SubIOp());
      break;
    case gpu::MMAElementwiseOp::DIVS:
      result = binary(arith::DivSIOp());
      break;
    case gpu::MMAElementwiseOp::DIVU:
      result = binary(arith::DivUIOp());
      break;
    case gpu::MMAElementwiseOp::NEGATEF:
      result = unary([&](Value x) -> Value {
        return arith::NegFOp::create(rewriter, loc, x);
      });
      break;
    case gpu::MMAElementwiseOp::NEGATES:
      result = unary([&](Value x) -> Value {
        Value zero = arith::ConstantOp::create(
            rewriter, loc, x.getType(), rewriter.getZeroAttr(x.getType()));
        return arith::SubIOp::create(rewriter, loc, zero, x);
      });
      break;
    case gpu::MMAElementwiseOp::EXTF:
      result = unary([&](Value x) -> Value {
        return arith::ExtFOp::create(rewriter, loc, type, x);
      });
      break;
    }
    if (!result || result.getType() != type)
      return op.emitError() << "'" << op->getName() << "' with "
                            << gpu::stringifyMMAElementwiseOp(op.getOpType())
                            << " on these operands cannot run on the host "
                               "backend";
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The check that a thread-local index lies inside the lane's slice.
LogicalResult emitIndexCheck(OpBuilder &b, Operation *op, Value index,
                             int64_t sliceSize) {
  Location loc = op->getLoc();
  Value outside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, index,
                            constantIndex(b, loc, sliceSize));
  auto ifOp = scf::IfOp::create(b, loc, outside, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  return emitFailure(b, op, kThreadLocalIndex, index, sliceSize);
}

struct ExtractThreadLocalLowering
    : public OpConversionPattern<gpu::SubgroupMmaExtractThreadLocalOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaExtractThreadLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto matrix = cast<gpu::MMAMatrixType>(op.getMatrix().getType());
    Value index = adaptor.getIndices()[0];
    if (failed(emitIndexCheck(rewriter, op, index, getSliceSize(matrix))))
      return failure();
    Value value = vector::ExtractOp::create(rewriter, loc, adaptor.getMatrix(),
                                            ArrayRef<OpFoldResult>{index});
    if (value.getType() != op.getType())
      value =
          UnrealizedConversionCastOp::create(rewriter, loc, op.getType(), value)
              .getResult(0);
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct InsertThreadLocalLowering
    : public OpConversionPattern<gpu::SubgroupMmaInsertThreadLocalOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaInsertThreadLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto matrix = cast<gpu::MMAMatrixType>(op.getMatrix().getType());
    Value index = adaptor.getIndices()[0];
    if (failed(emitIndexCheck(rewriter, op, index, getSliceSize(matrix))))
      return failure();
    rewriter.replaceOpWithNewOp<vector::InsertOp>(
        op, toSignless(rewriter, loc, adaptor.getValue()), adaptor.getMatrix(),
        ArrayRef<OpFoldResult>{index});
    return success();
  }
};

/// Each lane gathers A and B whole from the slices of its subgroup, then
/// computes its own slice of D = A * B + C: element (i, j) is
/// C(i, j) + sum over k of A(i, k) * B(k, j), in the order of k, in the
/// accumulator's type, but for an f16 accumulator: its sum is kept in f32
/// and rounded to f16 once, as tensor cores keep a compute's products and
/// sums at a higher precision than its f16 result (rounding every partial
/// sum gives 2636 for 16 products of 11 and 15, not 2640). The a_transpose and
/// b_transpose attributes say how the operands were loaded on a GPU; the
/// matrices here are the logical A and B whatever they say.
struct ComputeLowering : public OpConversionPattern<gpu::SubgroupMmaComputeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaComputeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<gpu::MMAMatrixType>(op.getOpA().getType());
    auto bType = cast<gpu::MMAMatrixType>(op.getOpB().getType());
    auto cType = cast<gpu::MMAMatrixType>(op.getOpC().getType());
    int64_t n = cType.getShape()[1], k = aType.getShape()[1];
    if (failed(emitSubgroupCheck(rewriter, op)))
      return failure();

    // The buffers the slices are gathered through, in the function's entry
    // block, so that a compute in a loop does not grow the stack.
    Value context = getKernelContext(op);
    auto function = op->getParentOfType<func::FuncOp>();
    Type pointerType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value location = getConstantString(rewriter, loc, getRuntimeLocation(op));
    auto gather = [&](Value slice,
                      gpu::MMAMatrixType type) -> FailureOr<Value> {
      VectorType sliceType = getSliceType(type);
      Type element = sliceType.getElementType();
      Value ownSlice, gathered;
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&function.getBody().front());
        Value one =
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), 1);
        Value count = LLVM::ConstantOp::create(
            rewriter, loc, rewriter.getI64Type(), getElementCount(type));
        ownSlice =
            LLVM::AllocaOp::create(rewriter, loc, pointerType, sliceType, one);
        gathered =
            LLVM::AllocaOp::create(rewriter, loc, pointerType, element, count);
      }
      LLVM::StoreOp::create(rewriter, loc, slice, ownSlice);
      int64_t bytes =
          sliceType.getNumElements() * element.getIntOrFloatBitWidth() / 8;
      Value sliceBytes =
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), bytes);
      if (failed(createMgpuCall(
              rewriter, loc, MgpuFunction::mgpuHostSubgroupGatherAt,
              {context, ownSlice, gathered, sliceBytes, location})))
        return failure();
      return gathered;
    };
    FailureOr<Value> wholeA = gather(adaptor.getOpA(), aType);
    if (failed(wholeA))
      return failure();
    FailureOr<Value> wholeB = gather(adaptor.getOpB(), bType);
    if (failed(wholeB))
      return failure();

    VectorType resultType = getSliceType(cType);
    Type resultElement = resultType.getElementType();
    bool isFloat = isa<FloatType>(resultElement);
    Type accumulator = isFloat && resultElement.getIntOrFloatBitWidth() < 32
                           ? rewriter.getF32Type()
                           : resultElement;
    Type operandElement = getSignlessElementType(aType);
    auto widen = [&](OpBuilder &b, Value x, bool isSigned) -> Value {
      if (x.getType() == accumulator)
        return x;
      if (isa<FloatType>(accumulator))
        return arith::ExtFOp::create(b, loc, accumulator, x);
      if (isSigned)
        return arith::ExtSIOp::create(b, loc, accumulator, x);
      return arith::ExtUIOp::create(b, loc, accumulator, x);
    };
    bool aSigned = !aType.getElementType().isUnsignedInteger();
    bool bSigned = !bType.getElementType().isUnsignedInteger();

    Value lane = getLane(rewriter, loc);
    Value result = adaptor.getOpC();
    int64_t sliceSize = resultType.getNumElements();
    Value zero = constantIndex(rewriter, loc, 0);
    Value one = constantIndex(rewriter, loc, 1);
    Value kValue = constantIndex(rewriter, loc, k);
    Value nValue = constantIndex(rewriter, loc, n);
    for (int64_t s = 0; s < sliceSize; ++s) {
      Value e = getMatrixElement(rewriter, loc, lane, sliceSize, s);
      Value row = arith::DivUIOp::create(rewriter, loc, e, nValue);
      Value column = arith::RemUIOp::create(rewriter, loc, e, nValue);
      Value initial = widen(
          rewriter, vector::ExtractOp::create(rewriter, loc, result, s), true);
      auto loop = scf::ForOp::create(
          rewriter, loc, zero, kValue, one, ValueRange{initial},
          [&](OpBuilder &b, Location loc, Value i, ValueRange sum) {
            Value aIndex = arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, row, kValue), i);
            Value bIndex = arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, i, nValue), column);
            Value x = LLVM::LoadOp::create(
                b, loc, operandElement,
                elementPointer(b, loc, *wholeA, operandElement, aIndex));
            Value y = LLVM::LoadOp::create(
                b, loc, operandElement,
                elementPointer(b, loc, *wholeB, operandElement, bIndex));
            x = widen(b, x, aSigned);
            y = widen(b, y, bSigned);
            Value next =
                isFloat
                    ? Value(arith::AddFOp::create(
                          b, loc, sum[0], arith::MulFOp::create(b, loc, x, y)))
                    : Value(arith::AddIOp::create(
                          b, loc, sum[0], arith::MulIOp::create(b, loc, x, y)));
            scf::YieldOp::create(b, loc, next);
          });
      Value sum = loop.getResult(0);
      if (sum.getType() != resultElement)
        sum = arith::TruncFOp::create(rewriter, loc, resultElement, sum);
      result = vector::InsertOp::create(rewriter, loc, sum, result, s);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

bool isMmaOp(Operation *op) {
  return isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
             gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaConstantMatrixOp,
             gpu::SubgroupMmaElementwiseOp,
             gpu::SubgroupMmaExtractThreadLocalOp,
             gpu::SubgroupMmaInsertThreadLocalOp>(op);
}

LogicalResult lowerHostMmaOps(ArrayRef<func::FuncOp> functions) {
  if (functions.empty())
    return success();
  for (func::FuncOp function : functions)
    if (failed(checkHostMmaOps(function)))
      return failure();
  func::FuncOp first = functions.front();
  MLIRContext *context = first.getContext();

  TypeConverter converter;
  converter.addConversion([](Type type) { return type; });
  converter.addConversion(
      [](gpu::MMAMatrixType type) -> Type { return getSliceType(type); });

  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal(
      [&](Operation *op) { return !isMmaOp(op) && converter.isLegal(op); });
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp function) {
    return converter.isSignatureLegal(function.getFunctionType()) &&
           converter.isLegal(&function.getBody());
  });
  RewritePatternSet patterns(context);
  patterns.add<LoadMatrixLowering, StoreMatrixLowering, ConstantMatrixLowering,
               ElementwiseLowering, ExtractThreadLocalLowering,
               InsertThreadLocalLowering, ComputeLowering>(converter, context);
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);

  SmallVector<Operation *> ops;
  for (func::FuncOp function : functions)
    ops.push_back(function);
  return applyPartialConversion(ops, target, std::move(patterns));
}

} // namespace gpu_runner
