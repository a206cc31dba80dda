//===- HostKernelSteps.h - The steps of gpu-runner-host-kernels -----------===//
//
// gpu-runner-host-kernels (HostKernels.cpp) compiles each gpu.module in
// steps, each in a file of its own, around the host copy of each device
// function, its thread function: a func.func that takes the kernel's
// context, the thread's ids and the block's and grid's sizes (the implicit
// arguments), then, for a kernel, its workgroup attributions, then the
// device function's own arguments.
//
// 1. DeviceFunctionCopies.cpp: the gpu.module's contents checked, and each
//    of its functions and globals copied into the host module under a name
//    of its own; which functions reach a barrier or a lane exchange, and
//    which a cf.assert.
// 2. HostMma.cpp: the gpu.subgroup_mma_* ops as each lane's slice, after
//    the checks of HostMmaChecks.cpp.
// 3. DeviceOpsToHost.cpp: the gpu ops, and cf.assert, of the thread
//    functions as reads of the implicit arguments and calls of the host
//    runtime, one rewrite pattern per op.
// 4. KernelEntries.cpp: for each kernel, the block function (a loop over
//    the threads, the kernel cut at its barriers, or one fiber's thread)
//    and the entry a launch starts.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_HOST_HOSTKERNELSTEPS_H
#define GPU_RUNNER_LOWERING_HOST_HOSTKERNELSTEPS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace gpu_runner {

/// The arguments every host copy of a device function takes first.
enum ImplicitArgument : unsigned {
  kContextArg = 0,
  kThreadIdArg = 1,
  kBlockIdArg = 4,
  kBlockDimArg = 7,
  kGridDimArg = 10,
  kImplicitArgCount = 13,
};

/// The attributes that mark, while a gpu.module is compiled, the host
/// copies of device functions and those of kernels.
inline constexpr llvm::StringLiteral kDeviceCopyAttrName = "gpu_runner.device";
inline constexpr llvm::StringLiteral kKernelCopyAttrName = "gpu_runner.kernel";

inline unsigned getDimension(mlir::gpu::Dimension dimension) {
  return static_cast<unsigned>(dimension);
}

mlir::Value constantIndex(mlir::OpBuilder &b, mlir::Location loc,
                          int64_t value);
mlir::Value constantI32(mlir::OpBuilder &b, mlir::Location loc, int32_t value);

/// An nvvm.bar.warp.sync that gpu-runner-lower-warp-execute made.
bool isWarpSync(mlir::Operation *op);

/// A pointer to slot `slot` of the HostKernelContext at `context`, and the
/// index or pointer it holds.
mlir::Value getContextSlot(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value context, int32_t slot);
mlir::Value loadContextIndex(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value context, int32_t slot);
mlir::Value loadContextPointer(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value context, int32_t slot);

/// A memref of `type` (rank 1, identity layout) over the memory at
/// `pointer`, with `size` (an i64) elements when its size is dynamic.
mlir::Value createMemRefOverPointer(mlir::OpBuilder &b, mlir::Location loc,
                                    const mlir::LLVMTypeConverter &converter,
                                    mlir::MemRefType type, mlir::Value pointer,
                                    mlir::Value size);

/// One gpu.module being compiled into the host module: what the steps make
/// and read.
class HostKernelModule {
public:
  HostKernelModule(mlir::ModuleOp hostModule,
                   mlir::gpu::GPUModuleOp deviceModule)
      : hostModule(hostModule), deviceModule(deviceModule),
        symbols(hostModule) {}

  mlir::ModuleOp getHostModule() const { return hostModule; }
  mlir::gpu::GPUModuleOp getDeviceModule() const { return deviceModule; }
  mlir::SymbolTable &getSymbols() { return symbols; }

  /// A name no symbol of the host module has, nor any given out before:
  /// `__gpu_runner_<module>_<name>`, numbered if need be.
  std::string getUniqueName(llvm::StringRef name);

  /// Device function or global name -> its host copy's name.
  llvm::MapVector<mlir::StringAttr, mlir::StringAttr> renamed;
  /// The host copies of device functions, by device function.
  llvm::MapVector<mlir::Operation *, mlir::func::FuncOp> copies;
  /// Host copy names of the functions that reach a barrier, a shuffle, a
  /// broadcast, a warp synchronization or a gpu.subgroup_mma_compute.
  llvm::DenseSet<mlir::StringAttr> synchronizing;
  /// Host copy names of the functions that reach a cf.assert.
  llvm::DenseSet<mlir::StringAttr> asserting;

private:
  mlir::ModuleOp hostModule;
  mlir::gpu::GPUModuleOp deviceModule;
  mlir::SymbolTable symbols;
  /// Names given out but not yet in the host module.
  llvm::StringSet<> reserved;
};

/// Step 1: checks what the gpu.module holds, names the copies, finds the
/// functions that synchronize or assert, and copies every function (marked
/// kDeviceCopyAttrName, kernels also kKernelCopyAttrName) and global into
/// the host module, with the uses of the device names renamed.
mlir::LogicalResult copyDeviceFunctions(HostKernelModule &module);

/// Step 3: lowers the gpu ops, cf.assert and the calls of other device
/// functions in every host copy.
mlir::LogicalResult lowerDeviceOps(HostKernelModule &module,
                                   const mlir::LLVMTypeConverter &converter);

/// Step 4: makes the block function and entry of every kernel, and
/// annotates the kernel for its launches (HostKernels.h).
mlir::LogicalResult
createKernelEntries(HostKernelModule &module,
                    const mlir::LLVMTypeConverter &converter,
                    bool splitBarriers, bool subgroupVectors);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_HOST_HOSTKERNELSTEPS_H
