//===- ScalarBits.h - A scalar's bits as an integer, and back -------------===//
//
// What moves a value between lanes (a shuffle of 32-bit words, a runtime
// call that takes 64 bits) moves integers; these give the bits of an
// integer, float or index as the signless integer of its width (64 for
// index), and make the value again from them.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_HOST_SCALARBITS_H
#define GPU_RUNNER_LOWERING_HOST_SCALARBITS_H

#include "mlir/IR/Builders.h"

namespace gpu_runner {

/// The bits of `value`, an integer, float or index, as a signless integer
/// of its width (64 for index).
mlir::Value scalarToBits(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value);

/// The value of type `type` whose bits scalarToBits gave as `bits`.
mlir::Value scalarFromBits(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value bits, mlir::Type type);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_HOST_SCALARBITS_H
