//===- WorkgroupMemory.cpp - Workgroup memory for the GPU targets ---------===//
//
// WorkgroupMemory.h says what each pass does and why.
//
//===----------------------------------------------------------------------===//

#include "lowering/device/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace gpu_runner {
namespace {

/// NVVM's address space of shared memory.
constexpr unsigned kSharedAddressSpace = 3;
/// What LLVM's optimizer takes a defined global larger than 16 bytes to
/// have (DataLayout::getPreferredAlign), and more than any NVPTX type needs.
constexpr uint64_t kSharedAlignment = 16;

/// The memref.dim ops that read the size of a gpu.dynamic_shared_memory's
/// memref, whose one dimension is 0, each replaced by the i32 that
/// `makeBytes` builds before it.
void replaceDynamicSharedSizes(
    gpu::GPUModuleOp module,
    function_ref<Value(OpBuilder &, Location)> makeBytes) {
  SmallVector<memref::DimOp> dims;
  module.walk([&](memref::DimOp dim) {
    if (dim.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
      dims.push_back(dim);
  });
  for (memref::DimOp dim : dims) {
    // The memref is 1-D: any other dimension is out of bounds, left as it
    // is.
    if (!matchPattern(dim.getIndex(), m_Zero()))
      continue;
    OpBuilder b(dim);
    Value bytes = makeBytes(b, dim.getLoc());
    Value wide = arith::ExtUIOp::create(b, dim.getLoc(), b.getI64Type(), bytes);
    Value size =
        arith::IndexCastUIOp::create(b, dim.getLoc(), b.getIndexType(), wide);
    dim.getResult().replaceAllUsesWith(size);
    dim.erase();
  }
}

class DynamicSharedSizeToNVVMPass
    : public PassWrapper<DynamicSharedSizeToNVVMPass,
                         OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DynamicSharedSizeToNVVMPass)

  StringRef getArgument() const final {
    return "gpu-runner-dynamic-shared-size-to-nvvm";
  }
  StringRef getDescription() const final {
    return "Give gpu.dynamic_shared_memory's memref the launch's dynamic "
           "shared memory size, which upstream's NVVM lowering gives as 0";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, NVVM::NVVMDialect>();
  }

  void runOnOperation() override {
    replaceDynamicSharedSizes(getOperation(), [](OpBuilder &b, Location loc) {
      return NVVM::DynamicSmemSize::create(b, loc, b.getI32Type());
    });
  }
};

/// AMDGPUUsage, "Address Spaces": the constant address space, that of the
/// dispatch packet.
constexpr unsigned kConstantAddressSpace = 4;
/// hsa_kernel_dispatch_packet_t's group_segment_size, a uint32_t.
constexpr int32_t kGroupSegmentSizeOffset = 28;

class DynamicSharedSizeToROCDLPass
    : public PassWrapper<DynamicSharedSizeToROCDLPass,
                         OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DynamicSharedSizeToROCDLPass)

  StringRef getArgument() const final {
    return "gpu-runner-dynamic-shared-size-to-rocdl";
  }
  StringRef getDescription() const final {
    return "Give gpu.dynamic_shared_memory's memref the launch's dynamic "
           "LDS size, which upstream's ROCDL lowering gives as 0";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    replaceDynamicSharedSizes(getOperation(), [](OpBuilder &b, Location loc) {
      Type i32 = b.getI32Type();
      auto constantPtr =
          LLVM::LLVMPointerType::get(b.getContext(), kConstantAddressSpace);
      Value packet =
          LLVM::CallIntrinsicOp::create(
              b, loc, constantPtr, b.getStringAttr("llvm.amdgcn.dispatch.ptr"),
              ValueRange())
              .getResult(0);
      Value field =
          LLVM::GEPOp::create(b, loc, constantPtr, b.getI8Type(), packet,
                              ArrayRef<LLVM::GEPArg>{kGroupSegmentSizeOffset},
                              LLVM::GEPNoWrapFlags::inbounds);
      Value total = LLVM::LoadOp::create(b, loc, i32, field, /*alignment=*/4,
                                         /*isVolatile=*/false,
                                         /*isNonTemporal=*/false,
                                         /*isInvariant=*/true);
      Value fixed =
          LLVM::CallIntrinsicOp::create(
              b, loc, i32, b.getStringAttr("llvm.amdgcn.groupstaticsize"),
              ValueRange())
              .getResult(0);
      return arith::SubIOp::create(b, loc, total, fixed).getResult();
    });
  }
};

class AlignSharedGlobalsPass
    : public PassWrapper<AlignSharedGlobalsPass,
                         OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AlignSharedGlobalsPass)

  StringRef getArgument() const final {
    return "gpu-runner-align-shared-globals";
  }
  StringRef getDescription() const final {
    return "Give each shared variable defined without an alignment 16 "
           "bytes, the alignment LLVM's optimizer assumes of it";
  }

  void runOnOperation() override {
    getOperation().walk([](LLVM::GlobalOp global) {
      // An external one (an `extern` array) is a declaration, which the
      // optimizer takes to have its type's alignment, as the PTX says.
      if (global.getAddrSpace() != kSharedAddressSpace ||
          global.getAlignment() ||
          global.getLinkage() == LLVM::Linkage::External)
        return;
      global.setAlignment(kSharedAlignment);
    });
  }
};

} // namespace

std::unique_ptr<Pass> createDynamicSharedSizeToNVVM() {
  return std::make_unique<DynamicSharedSizeToNVVMPass>();
}

std::unique_ptr<Pass> createDynamicSharedSizeToROCDL() {
  return std::make_unique<DynamicSharedSizeToROCDLPass>();
}

std::unique_ptr<Pass> createAlignSharedGlobals() {
  return std::make_unique<AlignSharedGlobalsPass>();
}

void registerWorkgroupMemory() {
  PassRegistration<DynamicSharedSizeToNVVMPass>();
  PassRegistration<DynamicSharedSizeToROCDLPass>();
  PassRegistration<AlignSharedGlobalsPass>();
}

} // namespace gpu_runner
