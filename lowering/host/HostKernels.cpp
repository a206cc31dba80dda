//===- HostKernels.cpp - Kernels compiled into host functions -------------===//
//
// See the description of gpu-runner-host-kernels in Passes.td. The kernel
// code stays in its gpu.module, annotated, until the lowering of
// gpu.launch_func has used the annotations; the host copies are what runs.
// This file runs the steps of HostKernelSteps.h on each gpu.module, and
// holds what they share.
//
//===----------------------------------------------------------------------===//

#include "lowering/host/HostKernelSteps.h"

#include "lowering/Passes.h"
#include "lowering/checks/VendorOps.h"
#include "lowering/host/HostMma.h"
#include "lowering/runtime/GpuRuntimeToLLVM.h"
#include "lowering/runtime/MgpuCalls.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace gpu_runner {
#define GEN_PASS_DEF_HOSTKERNELS
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value constantI32(OpBuilder &b, Location loc, int32_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

bool isWarpSync(Operation *op) {
  return isa<NVVM::SyncWarpOp>(op) && op->hasAttr(kWarpSyncAttrName);
}

Value getContextSlot(OpBuilder &b, Location loc, Value context, int32_t slot) {
  return LLVM::GEPOp::create(b, loc, context.getType(), b.getI64Type(), context,
                             ArrayRef<LLVM::GEPArg>{slot});
}

Value loadContextIndex(OpBuilder &b, Location loc, Value context,
                       int32_t slot) {
  Value value = LLVM::LoadOp::create(b, loc, b.getI64Type(),
                                     getContextSlot(b, loc, context, slot));
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

Value loadContextPointer(OpBuilder &b, Location loc, Value context,
                         int32_t slot) {
  return LLVM::LoadOp::create(b, loc, context.getType(),
                              getContextSlot(b, loc, context, slot));
}

Value createMemRefOverPointer(OpBuilder &b, Location loc,
                              const LLVMTypeConverter &converter,
                              MemRefType type, Value pointer, Value size) {
  Type structType = converter.convertType(type);
  FailureOr<unsigned> addressSpace = converter.getMemRefAddressSpace(type);
  if (succeeded(addressSpace) && *addressSpace != 0)
    pointer = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), *addressSpace),
        pointer);
  MemRefDescriptor descriptor = MemRefDescriptor::poison(b, loc, structType);
  descriptor.setAllocatedPtr(b, loc, pointer);
  descriptor.setAlignedPtr(b, loc, pointer);
  descriptor.setConstantOffset(b, loc, 0);
  if (type.isDynamicDim(0))
    descriptor.setSize(b, loc, 0, size);
  else
    descriptor.setConstantSize(b, loc, 0, type.getDimSize(0));
  descriptor.setConstantStride(b, loc, 0, 1);
  return UnrealizedConversionCastOp::create(b, loc, type, Value(descriptor))
      .getResult(0);
}

std::string HostKernelModule::getUniqueName(StringRef name) {
  std::string base =
      ("__gpu_runner_" + deviceModule.getName() + "_" + name).str();
  std::string unique = base;
  for (unsigned i = 1; symbols.lookup(unique) || reserved.contains(unique); ++i)
    unique = base + "_" + std::to_string(i);
  reserved.insert(unique);
  return unique;
}

namespace {

/// Compiles the kernels of `deviceModule` into host functions of
/// `hostModule`, step by step (HostKernelSteps.h).
LogicalResult compileToHost(ModuleOp hostModule, gpu::GPUModuleOp deviceModule,
                            const LLVMTypeConverter &converter,
                            bool splitBarriers, bool subgroupVectors) {
  HostKernelModule module(hostModule, deviceModule);
  if (failed(copyDeviceFunctions(module)))
    return failure();
  // The mma ops first: they become per-lane code that uses the id ops.
  SmallVector<func::FuncOp> copies;
  for (auto [function, copy] : module.copies)
    copies.push_back(copy);
  if (failed(lowerHostMmaOps(copies)) ||
      failed(lowerDeviceOps(module, converter)) ||
      failed(createKernelEntries(module, converter, splitBarriers,
                                 subgroupVectors)))
    return failure();
  for (func::FuncOp copy : copies) {
    copy->removeAttr(kDeviceCopyAttrName);
    copy->removeAttr(kKernelCopyAttrName);
  }
  return success();
}

class HostKernelsPass : public impl::HostKernelsBase<HostKernelsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A gpu.binary holds kernels already compiled for a GPU; there is
    // nothing the host can run in it.
    for (gpu::BinaryOp binary : module.getOps<gpu::BinaryOp>()) {
      binary.emitError()
          << "a gpu.binary holds kernels compiled for a GPU, which the host "
             "backend cannot run; give the kernels' source as a gpu.module, "
             "or run the program with gpu-runner-cuda or gpu-runner-hip";
      return signalPassFailure();
    }
    if (failed(refuseVendorOps(module, VendorOpPlace::HostBackend)))
      return signalPassFailure();
    LowerToLLVMOptions options(&getContext());
    LLVMTypeConverter converter(&getContext(), options);
    addGpuTypeConversions(converter, /*hostWorkgroupMemory=*/true);
    SmallVector<gpu::GPUModuleOp> deviceModules(
        module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp deviceModule : deviceModules)
      if (failed(compileToHost(module, deviceModule, converter, splitBarriers,
                               subgroupVectors)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
