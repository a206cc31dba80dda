//===- ScalarBits.cpp - A scalar's bits as an integer, and back -----------===//

#include "lowering/host/ScalarBits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace gpu_runner {

Value scalarToBits(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  Type bitsType =
      b.getIntegerType(type.isIndex() ? 64 : type.getIntOrFloatBitWidth());
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, bitsType, value);
  if (type != bitsType)
    return arith::BitcastOp::create(b, loc, bitsType, value);
  return value;
}

Value scalarFromBits(OpBuilder &b, Location loc, Value bits, Type type) {
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, bits);
  if (type != bits.getType())
    return arith::BitcastOp::create(b, loc, type, bits);
  return bits;
}

} // namespace gpu_runner
