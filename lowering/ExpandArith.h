//===- ExpandArith.h - Arith ops LLVM has no instruction for ---*- C++ -*-===//
//
// `gpu-runner-expand-arith`: upstream's arith-expand (ceil and floor
// divisions, the scaling conversions, the integer minima and maxima,
// maxnumf, minnumf), less its expansion of arith.maximumf and
// arith.minimumf into a compare and a select, which returns -0 for
// maximumf(+0, -0). The arith dialect defines both as IEEE 754-2019's
// maximum and minimum, where -0 is below +0 and a NaN operand gives NaN:
// what llvm.intr.maximum and llvm.intr.minimum are, which the conversion to
// the LLVM dialect makes of them, on the host and in CUDA and HIP kernels
// alike.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_EXPANDARITH_H
#define GPU_RUNNER_LOWERING_EXPANDARITH_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace gpu_runner {

std::unique_ptr<mlir::Pass> createExpandArith();
/// Makes the pass known to gpu-runner-opt by its flag.
void registerExpandArith();

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_EXPANDARITH_H
