//===- GpuRuntimeToLLVM.h - gpu runtime ops to mgpu ABI calls -------------===//

#ifndef GPU_RUNNER_LOWERING_GPURUNTIMETOLLVM_H
#define GPU_RUNNER_LOWERING_GPURUNTIMETOLLVM_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace gpu_runner {

/// Adds the patterns that lower gpu.memcpy, gpu.memset, gpu.alloc,
/// gpu.dealloc, gpu.wait, gpu.host_register, gpu.host_unregister and
/// gpu.set_default_device to calls of the mgpu ABI. The type converter must
/// convert !gpu.async.token to !llvm.ptr (the stream).
void populateGpuRuntimeToLLVMPatterns(const mlir::LLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

/// The element width gpu.memset supports for `type` (8, 16, 32 or 64 bits),
/// or nothing when it has another width.
std::optional<unsigned> getMemsetElementBits(mlir::Type type,
                                             unsigned indexBitwidth);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_GPURUNTIMETOLLVM_H
