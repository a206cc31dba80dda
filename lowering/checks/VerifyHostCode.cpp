//===- VerifyHostCode.cpp - Run-time checks of the host code's memrefs ----===//
//
// See the description of gpu-runner-verify-host-code in Passes.td. The
// checks are upstream's runtime verification (RuntimeVerifiableOpInterface,
// whose memref and linalg models registerInputDialects attaches), plus ours
// for what MLIR 22 does not check: memref.reinterpret_cast, and the affine
// and vector loads and stores.
// Each check is a cf.assert at the op's location that names the op
// (kRuntimeOpNameAttrName); the host lowering of cf.assert
// (populateAssertToMgpuCallPatterns) reports a failed one at that op.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/RuntimeVerifiableOpInterface.h"
#include "llvm/ADT/SmallVectorExtras.h"

namespace gpu_runner {
#define GEN_PASS_DEF_VERIFYHOSTCODE
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

/// Collects the cf.assert ops a builder makes, for naming their op.
class AssertCollector : public OpBuilder::Listener {
public:
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    if (isa<cf::AssertOp>(op))
      asserts.push_back(op);
  }

  SmallVector<Operation *> asserts;
};

/// Whether `op` works on tensors: the runner reports those ops (it does not
/// bufferize), so their checks, written on tensors, would only be in the way.
bool worksOnTensors(Operation *op) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

/// The lowest and highest element offsets, relative to the memref's own
/// offset, that a strided view of `sizes` and `strides` reaches, and whether
/// it reaches none (a size of 0).
struct Span {
  Value lowest, highest, empty;
};

Span getSpan(OpBuilder &b, Location loc, ArrayRef<Value> sizes,
             ArrayRef<Value> strides) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Span span{zero, zero, arith::ConstantIntOp::create(b, loc, 0, 1)};
  for (auto [size, stride] : llvm::zip_equal(sizes, strides)) {
    // The last element's distance from the first along this dimension,
    // negative for a negative stride.
    Value last = arith::MulIOp::create(
        b, loc, arith::SubIOp::create(b, loc, size, one), stride);
    span.lowest = arith::AddIOp::create(
        b, loc, span.lowest, arith::MinSIOp::create(b, loc, last, zero));
    span.highest = arith::AddIOp::create(
        b, loc, span.highest, arith::MaxSIOp::create(b, loc, last, zero));
    span.empty = arith::OrIOp::create(
        b, loc, span.empty,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, zero));
  }
  return span;
}

/// What MLIR 22 does not check: the elements a memref.reinterpret_cast's
/// result reaches must be elements its source reaches, both counted from
/// the aligned pointer they share. A source of rank 0 or unranked is not
/// checked: that is how a whole buffer is named (the base buffer of
/// memref.extract_strided_metadata), and its descriptor does not say how
/// far the buffer goes.
void verifyReinterpretCast(memref::ReinterpretCastOp op, OpBuilder &b,
                           Location loc) {
  auto sourceType = dyn_cast<MemRefType>(op.getSource().getType());
  if (!sourceType || sourceType.getRank() == 0 || !sourceType.isStrided())
    return;
  auto source =
      memref::ExtractStridedMetadataOp::create(b, loc, op.getSource());
  Span sourceSpan =
      getSpan(b, loc, llvm::to_vector_of<Value>(source.getSizes()),
              llvm::to_vector_of<Value>(source.getStrides()));

  auto toValues = [&](ArrayRef<OpFoldResult> values) {
    return llvm::map_to_vector(values, [&](OpFoldResult value) {
      return getValueOrCreateConstantIndexOp(b, loc, value);
    });
  };
  // The verifier has checked the static sizes.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [d, size] : llvm::enumerate(op.getMixedSizes())) {
    auto dynamicSize = dyn_cast<Value>(size);
    if (!dynamicSize)
      continue;
    Value nonNegative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                              dynamicSize, zero);
    cf::AssertOp::create(b, loc, nonNegative,
                         "the result's size in dimension " + std::to_string(d) +
                             " is negative");
  }
  Span resultSpan = getSpan(b, loc, toValues(op.getMixedSizes()),
                            toValues(op.getMixedStrides()));
  Value resultOffset =
      getValueOrCreateConstantIndexOp(b, loc, op.getMixedOffsets().front());

  auto absolute = [&](Value offset, Value relative) -> Value {
    return arith::AddIOp::create(b, loc, offset, relative);
  };
  Value above =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                            absolute(resultOffset, resultSpan.lowest),
                            absolute(source.getOffset(), sourceSpan.lowest));
  Value below =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                            absolute(resultOffset, resultSpan.highest),
                            absolute(source.getOffset(), sourceSpan.highest));
  Value sourceNotEmpty = arith::XOrIOp::create(
      b, loc, sourceSpan.empty, arith::ConstantIntOp::create(b, loc, 1, 1));
  Value inside = arith::AndIOp::create(
      b, loc, sourceNotEmpty, arith::AndIOp::create(b, loc, above, below));
  cf::AssertOp::create(b, loc,
                       arith::OrIOp::create(b, loc, resultSpan.empty, inside),
                       "the result reaches elements outside the source memref");
}

/// What MLIR 22 does not check either: the accesses of affine.load and
/// affine.store (their indices computed from the map) and of vector.load
/// and vector.store, whose vector covers the trailing dimensions from the
/// indices on. Every element accessed must be inside the memref's shape;
/// a failure reads as upstream's for memref.load and memref.store.
void verifyAccess(OpBuilder &b, Location loc, Value memref, ValueRange indices,
                  ArrayRef<int64_t> vectorShape) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  int64_t firstVectorDim = rank - static_cast<int64_t>(vectorShape.size());
  if (firstVectorDim < 0 || static_cast<int64_t>(indices.size()) != rank)
    return;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (int64_t d = 0; d < rank; ++d) {
    Value first = indices[d];
    Value last = first;
    if (d >= firstVectorDim)
      last = arith::AddIOp::create(
          b, loc, first,
          arith::ConstantIndexOp::create(b, loc,
                                         vectorShape[d - firstVectorDim] - 1));
    Value size = memref::DimOp::create(b, loc, memref, d);
    inside = arith::AndIOp::create(
        b, loc, inside,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, first, zero));
    inside = arith::AndIOp::create(
        b, loc, inside,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, last, size));
  }
  cf::AssertOp::create(b, loc, inside, "out-of-bounds access");
}

/// The vector shape a vector.load or vector.store accesses in the memref's
/// trailing dimensions: none where the memref's elements are vectors.
SmallVector<int64_t> getAccessedShape(VectorType vector, MemRefType memref) {
  if (isa<VectorType>(memref.getElementType()))
    return {};
  return llvm::to_vector(vector.getShape());
}

/// Adds the checks of our own to `op`, one of those isOurCheck accepts.
void verifyOurs(Operation *op, OpBuilder &b, Location loc) {
  if (auto reinterpret = dyn_cast<memref::ReinterpretCastOp>(op)) {
    verifyReinterpretCast(reinterpret, b, loc);
  } else if (auto access = dyn_cast<affine::AffineReadOpInterface>(op)) {
    if (auto indices = affine::expandAffineMap(b, loc, access.getAffineMap(),
                                               access.getMapOperands()))
      verifyAccess(b, loc, access.getMemRef(), *indices, {});
  } else if (auto access = dyn_cast<affine::AffineWriteOpInterface>(op)) {
    if (auto indices = affine::expandAffineMap(b, loc, access.getAffineMap(),
                                               access.getMapOperands()))
      verifyAccess(b, loc, access.getMemRef(), *indices, {});
  } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
    verifyAccess(b, loc, load.getBase(), load.getIndices(),
                 getAccessedShape(load.getVectorType(), load.getMemRefType()));
  } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
    verifyAccess(
        b, loc, store.getBase(), store.getIndices(),
        getAccessedShape(store.getVectorType(), store.getMemRefType()));
  }
}

/// Whether `op` gets a check of ours: one MLIR 22 has no runtime
/// verification for. Scalable vectors, whose length is the hardware's, are
/// left alone.
bool isOurCheck(Operation *op) {
  if (isa<memref::ReinterpretCastOp, affine::AffineLoadOp,
          affine::AffineStoreOp>(op))
    return true;
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return !load.getVectorType().isScalable();
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return !store.getVectorType().isScalable();
  return false;
}

class VerifyHostCodePass : public impl::VerifyHostCodeBase<VerifyHostCodePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Kernels, outlined or not, are not host code.
      if (isa<gpu::GPUModuleOp, gpu::BinaryOp, gpu::LaunchOp>(op))
        return WalkResult::skip();
      if ((isa<RuntimeVerifiableOpInterface>(op) || isOurCheck(op)) &&
          !worksOnTensors(op) && op->getParentOfType<FunctionOpInterface>())
        ops.push_back(op);
      return WalkResult::advance();
    });

    for (Operation *op : ops) {
      AssertCollector collector;
      OpBuilder b(op, &collector);
      Location loc = op->getLoc();
      if (isOurCheck(op))
        verifyOurs(op, b, loc);
      else
        cast<RuntimeVerifiableOpInterface>(op).generateRuntimeVerification(
            b, loc,
            [](Operation *, StringRef message) { return message.str(); });
      // A failed check is reported as memcheck's error at the op it checks
      // (wrappers/common/CheckReports.h).
      auto name = StringAttr::get(&getContext(),
                                  "memcheck: " + op->getName().getStringRef());
      for (Operation *assert : collector.asserts)
        assert->setAttr(kRuntimeOpNameAttrName, name);
    }
  }
};

} // namespace
} // namespace gpu_runner
