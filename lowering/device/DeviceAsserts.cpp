//===- DeviceAsserts.cpp - cf.assert in HIP kernels -----------------------===//
//
// See DeviceAsserts.h. The device libraries' printf interface (ockl,
// services.cl) sends a message in pieces: a begin that names the stream, then
// strings (their bytes with the NUL, counted) and 64-bit arguments, the last
// piece flagged; HIP's __assert_fail sends its format, the file, the line,
// the function and the assertion so, and traps.
//
//===----------------------------------------------------------------------===//

#include "lowering/device/DeviceAsserts.h"

#include "lowering/AssertSource.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SmallString.h"

using namespace mlir;

namespace gpu_runner {
namespace {

/// AMDGPUUsage, "Address Spaces": constant memory, where the strings live.
constexpr unsigned kConstantAddressSpace = 4;

class AssertToROCDLPass
    : public PassWrapper<AssertToROCDLPass, OperationPass<gpu::GPUModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AssertToROCDLPass)

  StringRef getArgument() const final { return "gpu-runner-assert-to-rocdl"; }
  StringRef getDescription() const final {
    return "Make each cf.assert in a HIP kernel what HIP's device assert "
           "does: its line on stderr through the device libraries' hostcall "
           "printf, then a trap";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, LLVM::LLVMDialect, scf::SCFDialect>();
  }

  void runOnOperation() override {
    strings.clear();
    SmallVector<cf::AssertOp> asserts;
    getOperation()->walk([&](cf::AssertOp op) { asserts.push_back(op); });
    for (cf::AssertOp op : asserts)
      if (failed(lower(op))) {
        signalPassFailure();
        return;
      }
  }

private:
  /// The address of a constant string holding `text` and its NUL, as a
  /// generic pointer, and its length with the NUL.
  std::pair<Value, Value> getString(OpBuilder &b, Location loc,
                                    StringRef text) {
    gpu::GPUModuleOp module = getOperation();
    SmallString<64> bytes(text);
    bytes.push_back('\0');
    auto &global = strings[bytes.str()];
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
      global = LLVM::GlobalOp::create(
          b, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal,
          "__gpu_runner_assert_" + std::to_string(strings.size() - 1),
          b.getStringAttr(bytes.str()), /*alignment=*/0, kConstantAddressSpace);
      SymbolTable(module).insert(global);
    }
    auto constantPtr =
        LLVM::LLVMPointerType::get(b.getContext(), kConstantAddressSpace);
    Value address =
        LLVM::AddressOfOp::create(b, loc, constantPtr, global.getSymName());
    Value generic = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
    Value length = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                            static_cast<int64_t>(bytes.size()));
    return {generic, length};
  }

  LogicalResult lower(cf::AssertOp op) {
    gpu::GPUModuleOp module = getOperation();
    OpBuilder b(op);
    Location loc = op.getLoc();
    MLIRContext *context = b.getContext();
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    Type ptr = LLVM::LLVMPointerType::get(context);
    auto begin = LLVM::lookupOrCreateFn(b, module,
                                        "__ockl_fprintf_stderr_begin", {}, i64);
    auto appendString = LLVM::lookupOrCreateFn(
        b, module, "__ockl_fprintf_append_string_n", {i64, ptr, i64, i32}, i64);
    SmallVector<Type> argsTypes{i64, i32};
    argsTypes.append(7, i64);
    argsTypes.push_back(i32);
    auto appendArgs = LLVM::lookupOrCreateFn(
        b, module, "__ockl_fprintf_append_args", argsTypes, i64);
    if (failed(begin) || failed(appendString) || failed(appendArgs))
      return op.emitError() << "the module declares the device libraries' "
                               "printf functions otherwise than they are";

    Value fails = arith::XOrIOp::create(
        b, loc, op.getArg(), arith::ConstantIntOp::create(b, loc, 1, 1));
    auto ifOp = scf::IfOp::create(b, loc, fails, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
    AssertSource source = getAssertSource(loc);
    Value zero32 = LLVM::ConstantOp::create(b, loc, i32, 0);
    Value one32 = LLVM::ConstantOp::create(b, loc, i32, 1);
    Value zero64 = LLVM::ConstantOp::create(b, loc, i64, 0);
    Value message =
        LLVM::CallOp::create(b, loc, *begin, ValueRange{}).getResult();
    auto appendText = [&](StringRef text, Value last) {
      auto [address, length] = getString(b, loc, text);
      message = LLVM::CallOp::create(b, loc, *appendString,
                                     ValueRange{message, address, length, last})
                    .getResult();
    };
    appendText("%s:%u: %s: Device-side assertion `%s' failed.\n", zero32);
    appendText(source.file, zero32);
    SmallVector<Value> line{
        message, one32,
        LLVM::ConstantOp::create(b, loc, i64,
                                 static_cast<int64_t>(uint32_t(source.line)))};
    line.append(6, zero64);
    line.push_back(zero32);
    message = LLVM::CallOp::create(b, loc, *appendArgs, line).getResult();
    appendText(source.function, zero32);
    appendText(op.getMsg(), one32);
    LLVM::Trap::create(b, loc);
    op.erase();
    return success();
  }

  llvm::StringMap<LLVM::GlobalOp> strings;
};

} // namespace

std::unique_ptr<Pass> createAssertToROCDL() {
  return std::make_unique<AssertToROCDLPass>();
}

void registerAssertToROCDL() { PassRegistration<AssertToROCDLPass>(); }

} // namespace gpu_runner
