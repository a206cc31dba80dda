//===- MgpuCalls.cpp - Emitting calls of the mgpu runtime ABI -------------===//

#include "lowering/runtime/MgpuCalls.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <cstdint>
#include <type_traits>

using namespace mlir;

namespace gpu_runner {
namespace {

/// The LLVM type that carries a C type of the ABI.
template <typename T> Type getLLVMType(MLIRContext *context) {
  if constexpr (std::is_void_v<T>) {
    return LLVM::LLVMVoidType::get(context);
  } else if constexpr (std::is_pointer_v<T>) {
    return LLVM::LLVMPointerType::get(context);
  } else if constexpr (std::is_same_v<T, bool>) {
    return IntegerType::get(context, 8);
  } else {
    static_assert(std::is_integral_v<T>,
                  "the mgpu ABI only passes integers, bool and pointers");
    return IntegerType::get(context, sizeof(T) * 8);
  }
}

template <typename Signature> struct FunctionTypeOf;
template <typename Result, typename... Params>
struct FunctionTypeOf<Result(Params...)> {
  static LLVM::LLVMFunctionType get(MLIRContext *context) {
    return LLVM::LLVMFunctionType::get(getLLVMType<Result>(context),
                                       {getLLVMType<Params>(context)...});
  }
};

struct MgpuFunctionInfo {
  const char *name;
  LLVM::LLVMFunctionType (*getType)(MLIRContext *);
};

const MgpuFunctionInfo kMgpuFunctions[] = {
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, &FunctionTypeOf<RET PARAMS>::get},
#include "wrappers/MgpuAbi.def"
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, &FunctionTypeOf<RET PARAMS>::get},
#include "wrappers/HostKernelAbi.def"
#define MGPU_FUNCTION(RET, NAME, PARAMS)                                       \
  {#NAME, &FunctionTypeOf<RET PARAMS>::get},
#include "wrappers/DeviceKernelAbi.def"
};

const MgpuFunctionInfo &getInfo(MgpuFunction fn) {
  return kMgpuFunctions[static_cast<size_t>(fn)];
}

ModuleOp getEnclosingModule(OpBuilder &builder) {
  Operation *op = builder.getInsertionBlock()->getParentOp();
  if (auto module = dyn_cast<ModuleOp>(op))
    return module;
  return op->getParentOfType<ModuleOp>();
}

} // namespace

StringRef getMgpuFunctionName(MgpuFunction fn) { return getInfo(fn).name; }

std::optional<MgpuFunction> lookupMgpuFunction(StringRef name) {
  for (size_t i = 0; i < std::size(kMgpuFunctions); ++i)
    if (name == kMgpuFunctions[i].name)
      return static_cast<MgpuFunction>(i);
  return std::nullopt;
}

LLVM::LLVMFunctionType getMgpuFunctionType(MLIRContext *context,
                                           MgpuFunction fn) {
  return getInfo(fn).getType(context);
}

FailureOr<LLVM::CallOp> createMgpuCall(OpBuilder &builder, Location loc,
                                       MgpuFunction fn, ValueRange args) {
  ModuleOp module = getEnclosingModule(builder);
  StringRef name = getMgpuFunctionName(fn);
  LLVM::LLVMFunctionType type = getMgpuFunctionType(builder.getContext(), fn);

  auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!function) {
    if (Operation *other = module.lookupSymbol(name))
      return other->emitError()
             << "'" << name
             << "' is a function of gpu-runner's runtime; this symbol "
                "cannot be defined by the program";
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    function = LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
  } else if (function.getFunctionType() != type) {
    return function.emitError()
           << "'" << name << "' is declared with type "
           << function.getFunctionType()
           << ", but gpu-runner's runtime defines it as " << type;
  }
  return LLVM::CallOp::create(builder, loc, function, args);
}

std::string getRuntimeLocation(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (auto nameAttr = op->getAttrOfType<StringAttr>(kRuntimeOpNameAttrName))
    name = nameAttr.getValue();
  return getRuntimeLocation(name, op->getLoc());
}

std::string getRuntimeLocation(StringRef name, Location loc) {
  std::string text = name.str();
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>()) {
    text += "@";
    text += fileLoc.getFilename().str();
    text += ":" + std::to_string(fileLoc.getLine());
    text += ":" + std::to_string(fileLoc.getColumn());
  }
  return text;
}

Value getConstantString(OpBuilder &builder, Location loc, StringRef text) {
  ModuleOp module = getEnclosingModule(builder);
  // The hash keeps names stable and short; the content check below makes a
  // collision harmless.
  uint64_t hash = llvm::xxh3_64bits(text);
  std::string name;
  LLVM::GlobalOp global;
  for (unsigned attempt = 0;; ++attempt) {
    name = "__gpu_runner_str_" + llvm::utohexstr(hash) +
           (attempt ? "_" + std::to_string(attempt) : "");
    global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global) {
      if (module.lookupSymbol(name))
        continue;
      break;
    }
    auto value = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
    if (value && value.getValue().drop_back() == text)
      break;
  }

  if (!global) {
    std::string bytes = text.str();
    bytes.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size());
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Private, name,
                                    builder.getStringAttr(bytes));
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}

} // namespace gpu_runner
