//===- HostMmaChecks.cpp - The mma ops the host backend refuses -----------===//
//
// See HostMma.h. Before the mma ops of host kernels are lowered, each op and
// matrix is checked against the matrices and operations NVIDIA GPUs have
// (CUDA C++ Programming Guide, Warp Matrix Functions) and what the dialect's
// verifier lets through but the lowering cannot run; a failure is an error
// at the op that says why. The checks change with the documented matrices,
// the lowering with the host's layout of them, hence a file each.
//
//===----------------------------------------------------------------------===//

#include "lowering/host/HostMma.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/TypeSwitch.h"

#include <string>

using namespace mlir;

namespace gpu_runner {
namespace {

/// The shapes (m, n, k) of NVIDIA's warp matrix operations on f16 and 8-bit
/// integers; f64 has 8 x 8 x 4 only (CUDA C++ Programming Guide, Warp
/// Matrix Functions, Element Types and Matrix Sizes).
struct Geometry {
  int64_t m, n, k;
};
constexpr Geometry kHalfAndByteGeometries[] = {
    {16, 16, 16}, {32, 8, 16}, {8, 32, 16}};
constexpr Geometry kDoubleGeometry = {8, 8, 4};

/// The error every check emits at `op`, which it completes with why.
InFlightDiagnostic emitHostMmaError(Operation *op) {
  return op->emitError() << "'" << op->getName()
                         << "' cannot run on the host backend: ";
}

/// The fragments (row x column) NVIDIA GPUs have for an operand: A is m x k,
/// B k x n, C (and D) m x n.
bool hasFragment(const Geometry &g, StringRef operand, int64_t rows,
                 int64_t columns) {
  if (operand == "AOp")
    return rows == g.m && columns == g.k;
  if (operand == "BOp")
    return rows == g.k && columns == g.n;
  return rows == g.m && columns == g.n;
}

/// Fails, at `op`, which uses `type`, if NVIDIA GPUs have no fragment of
/// `type`.
LogicalResult checkFragment(Operation *op, gpu::MMAMatrixType type) {
  auto fail = [&](StringRef why) -> LogicalResult {
    return emitHostMmaError(op)
           << "NVIDIA GPUs have no " << type << " (" << why << ")";
  };
  Type element = type.getElementType();
  StringRef operand = type.getOperand();
  int64_t rows = type.getShape()[0], columns = type.getShape()[1];
  bool isC = operand == "COp";
  if (element.isF64())
    return hasFragment(kDoubleGeometry, operand, rows, columns)
               ? success()
               : fail("f64 matrices are 8x4 (A), 4x8 (B) and 8x8 (C)");
  bool abElement = element.isF16() || element.isSignedInteger(8) ||
                   element.isUnsignedInteger(8);
  bool cElement =
      element.isF16() || element.isF32() || element.isSignlessInteger(32);
  if (!isC && element.isF32())
    return fail("A and B matrices of f32 are TF32 on NVIDIA GPUs (wmma "
                "m16n16k8), whose rounding of the operands the host backend "
                "does not reproduce; use f16 or f64");
  if (isC ? !cElement : !abElement)
    return fail(isC ? "C matrices hold f16, f32, i32 or f64"
                    : "A and B matrices hold f16, si8, ui8 or f64");
  for (const Geometry &g : kHalfAndByteGeometries)
    if (hasFragment(g, operand, rows, columns))
      return success();
  return fail(isC ? "C matrices of f16, f32 and i32 are 16x16, 32x8 or 8x32"
              : operand == "AOp"
                  ? "A matrices of f16 and 8-bit integers are 16x16, 32x16 "
                    "or 8x16"
                  : "B matrices of f16 and 8-bit integers are 16x16, 16x8 "
                    "or 16x32");
}

/// Fails if NVIDIA GPUs have no matrix multiply-accumulate of these types
/// (the shapes of each were checked by checkFragment).
LogicalResult checkCompute(gpu::SubgroupMmaComputeOp op) {
  auto a = cast<gpu::MMAMatrixType>(op.getOpA().getType());
  auto b = cast<gpu::MMAMatrixType>(op.getOpB().getType());
  auto c = cast<gpu::MMAMatrixType>(op.getOpC().getType());
  Type ab = a.getElementType(), acc = c.getElementType();
  if (ab != b.getElementType())
    return emitHostMmaError(op) << "A and B must have the same element type";
  bool valid = (ab.isF16() && (acc.isF16() || acc.isF32())) ||
               (ab.isInteger(8) && acc.isSignlessInteger(32)) ||
               (ab.isF64() && acc.isF64());
  if (!valid)
    return emitHostMmaError(op)
           << "f16 A and B accumulate into f16 or f32, si8 and ui8 into i32, "
              "f64 into f64";
  Geometry g = {c.getShape()[0], c.getShape()[1], a.getShape()[1]};
  if (ab.isF64())
    return success();
  for (const Geometry &known : kHalfAndByteGeometries)
    if (known.m == g.m && known.n == g.n && known.k == g.k)
      return success();
  return emitHostMmaError(op)
         << "the shapes (m, n, k) of f16 and 8-bit integers are (16, 16, "
            "16), (32, 8, 16) and (8, 32, 16)";
}

/// Fails if the host backend cannot load or store, by `op`, a matrix of
/// `matrix` through `memref` with `leadDimension`.
LogicalResult checkMemoryAccess(Operation *op, gpu::MMAMatrixType matrix,
                                MemRefType memref, int64_t leadDimension) {
  Type element = memref.getElementType();
  if (!element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() !=
          matrix.getElementType().getIntOrFloatBitWidth() ||
      isa<FloatType>(element) != isa<FloatType>(matrix.getElementType()))
    return emitHostMmaError(op)
           << "the memref's element type must be the matrix's";
  if (!memref.isStrided())
    return emitHostMmaError(op) << "the memref needs a strided layout";
  // "ldm ... must be a multiple of 8 for __half element type or multiple of
  // 4 for float element type (i.e., multiple of 16 bytes in both cases)"
  // (CUDA C++ Programming Guide, Warp Matrix Functions, load_matrix_sync).
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  if (leadDimension < 1 || (leadDimension * bytes) % 16 != 0)
    return emitHostMmaError(op)
           << "the leading dimension (" << leadDimension << " elements of "
           << bytes
           << " bytes) must be a positive multiple of 16 bytes, as CUDA "
              "requires";
  return success();
}

/// Fails if the host backend cannot apply `op` to its operands: the
/// dialect's verifier checks only that they have one type.
LogicalResult checkElementwise(gpu::SubgroupMmaElementwiseOp op) {
  using Kind = gpu::MMAElementwiseOp;
  Kind kind = op.getOpType();
  bool unary =
      kind == Kind::NEGATEF || kind == Kind::NEGATES || kind == Kind::EXTF;
  bool onFloats = kind == Kind::ADDF || kind == Kind::MULF ||
                  kind == Kind::SUBF || kind == Kind::MAXF ||
                  kind == Kind::MINF || kind == Kind::DIVF ||
                  kind == Kind::NEGATEF || kind == Kind::EXTF;
  StringRef name = gpu::stringifyMMAElementwiseOp(kind);
  if (op.getArgs().size() != (unary ? 1u : 2u))
    return emitHostMmaError(op)
           << name << " takes " << (unary ? "one matrix" : "two matrices");
  Type element =
      cast<gpu::MMAMatrixType>(op.getArgs()[0].getType()).getElementType();
  Type result = op.getType().getElementType();
  if (onFloats != isa<FloatType>(element))
    return emitHostMmaError(op) << name << " works on matrices of "
                                << (onFloats ? "floats" : "integers");
  if (kind == Kind::EXTF) {
    if (!isa<FloatType>(result) ||
        result.getIntOrFloatBitWidth() <= element.getIntOrFloatBitWidth())
      return emitHostMmaError(op)
             << "extf makes a matrix of a wider float type";
  } else if (result != element) {
    return emitHostMmaError(op)
           << name << " gives a matrix of its operands' element type";
  }
  return success();
}

/// Checks `op`: every matrix it uses, then the op itself.
LogicalResult checkMmaOp(Operation *op) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Region &region : op->getRegions())
    for (Block &block : region)
      llvm::append_range(types, block.getArgumentTypes());
  for (Type type : types)
    if (auto matrix = dyn_cast<gpu::MMAMatrixType>(type))
      if (failed(checkFragment(op, matrix)))
        return failure();
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([](gpu::SubgroupMmaComputeOp op) { return checkCompute(op); })
      .Case([](gpu::SubgroupMmaLoadMatrixOp op) {
        return checkMemoryAccess(
            op, cast<gpu::MMAMatrixType>(op.getRes().getType()),
            op.getSrcMemref().getType(), op.getLeadDimension().getSExtValue());
      })
      .Case([](gpu::SubgroupMmaStoreMatrixOp op) {
        return checkMemoryAccess(
            op, cast<gpu::MMAMatrixType>(op.getSrc().getType()),
            op.getDstMemref().getType(), op.getLeadDimension().getSExtValue());
      })
      .Case(
          [](gpu::SubgroupMmaElementwiseOp op) { return checkElementwise(op); })
      .Case<gpu::SubgroupMmaExtractThreadLocalOp,
            gpu::SubgroupMmaInsertThreadLocalOp>([](auto op) -> LogicalResult {
        if (op.getIndices().size() == 1)
          return success();
        return emitHostMmaError(op)
               << "a lane's part of a matrix is indexed with one index on "
                  "the host backend";
      })
      .Default([](Operation *) { return success(); });
}

} // namespace

LogicalResult checkHostMmaOps(func::FuncOp function) {
  WalkResult result = function.walk([](Operation *op) {
    return failed(checkMmaOp(op)) ? WalkResult::interrupt()
                                  : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

} // namespace gpu_runner
