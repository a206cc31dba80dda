//===- WorkgroupMemoryToNVVM.cpp - Workgroup memory for NVVM
//---------------===//
//
// WorkgroupMemoryToNVVM.h says what each pass does and why.
//
//===----------------------------------------------------------------------===//

#include "lowering/device/WorkgroupMemoryToNVVM.h"

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
    SmallVector<memref::DimOp> dims;
    getOperation().walk([&](memref::DimOp dim) {
      if (dim.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
        dims.push_back(dim);
    });
    for (memref::DimOp dim : dims) {
      // The memref is 1-D: any other dimension is out of bounds, left as
      // it is.
      if (!matchPattern(dim.getIndex(), m_Zero()))
        continue;
      OpBuilder b(dim);
      Value bytes =
          NVVM::DynamicSmemSize::create(b, dim.getLoc(), b.getI32Type());
      Value wide =
          arith::ExtUIOp::create(b, dim.getLoc(), b.getI64Type(), bytes);
      Value size =
          arith::IndexCastUIOp::create(b, dim.getLoc(), b.getIndexType(), wide);
      dim.getResult().replaceAllUsesWith(size);
      dim.erase();
    }
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

std::unique_ptr<Pass> createAlignSharedGlobals() {
  return std::make_unique<AlignSharedGlobalsPass>();
}

void registerWorkgroupMemoryToNVVM() {
  PassRegistration<DynamicSharedSizeToNVVMPass>();
  PassRegistration<AlignSharedGlobalsPass>();
}

} // namespace gpu_runner
