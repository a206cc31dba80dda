//===- CodeGenerationDiagnostics.cpp - LLVM's errors at the program's ops -===//
//
// LLVM reports what its code generation refuses, an inline assembly the
// target's assembler cannot read above all, through the LLVMContext's
// diagnostic handler; the default one prints "<inline asm>:1:2: ..." and
// exits the process. Here each inline assembly call carries a !srcloc
// cookie naming its llvm.inline_asm op, and the handler reports the error at
// that op, through MLIR's diagnostics, and lets the compilation fail.
//
//===----------------------------------------------------------------------===//

#include "runner/compiler/CompilerSteps.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace gpu_runner {

namespace {

/// The calls of inline assembly in `function`, in the order of its blocks.
SmallVector<llvm::CallBase *> getInlineAsmCalls(llvm::Function &function) {
  SmallVector<llvm::CallBase *> calls;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
      if (call->isInlineAsm())
        calls.push_back(call);
  return calls;
}

/// The llvm.inline_asm ops of `function`, in the order the translation to
/// LLVM IR emits its blocks.
SmallVector<LLVM::InlineAsmOp> getInlineAsmOps(LLVM::LLVMFuncOp function) {
  SmallVector<LLVM::InlineAsmOp> ops;
  for (Block *block : getBlocksSortedByDominance(function.getBody()))
    for (auto op : block->getOps<LLVM::InlineAsmOp>())
      ops.push_back(op);
  return ops;
}

} // namespace

/// Forwards LLVM's diagnostics to the owner.
struct CodeGenerationDiagnostics::Handler final : llvm::DiagnosticHandler {
  explicit Handler(CodeGenerationDiagnostics &owner) : owner(owner) {}

  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (info.getSeverity() != llvm::DS_Error)
      return false; // Warnings and remarks print as LLVM prints them.
    owner.report(info);
    return true;
  }

  CodeGenerationDiagnostics &owner;
};

CodeGenerationDiagnostics::CodeGenerationDiagnostics(ModuleOp module,
                                                     llvm::Module &llvmModule)
    : context(llvmModule.getContext()), mlirContext(module.getContext()) {
  llvm::LLVMContext &llvmContext = llvmModule.getContext();
  llvm::Type *cookieType = llvm::Type::getInt64Ty(llvmContext);
  for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
    if (function.isExternal())
      continue;
    SmallVector<LLVM::InlineAsmOp> ops = getInlineAsmOps(function);
    llvm::Function *translated = llvmModule.getFunction(function.getSymName());
    if (ops.empty() || !translated)
      continue;
    SmallVector<llvm::CallBase *> calls = getInlineAsmCalls(*translated);
    // Each call must be its op's, in the same order, or none is named: a
    // wrong location would be worse than none.
    bool matches =
        calls.size() == ops.size() &&
        llvm::all_of(llvm::zip(calls, ops), [](auto pair) {
          auto *assembly = llvm::cast<llvm::InlineAsm>(
              std::get<0>(pair)->getCalledOperand());
          return assembly->getAsmString() == std::get<1>(pair).getAsmString();
        });
    if (!matches)
      continue;
    for (auto [call, op] : llvm::zip(calls, ops)) {
      locations.push_back(op.getLoc());
      llvm::Metadata *cookie = llvm::ConstantAsMetadata::get(
          llvm::ConstantInt::get(cookieType, locations.size()));
      call->setMetadata("srcloc", llvm::MDNode::get(llvmContext, cookie));
    }
  }
  context.setDiagnosticHandler(std::make_unique<Handler>(*this));
}

CodeGenerationDiagnostics::~CodeGenerationDiagnostics() {
  context.setDiagnosticHandler(nullptr);
}

Location CodeGenerationDiagnostics::getLocation(uint64_t cookie) {
  if (cookie == 0 || cookie > locations.size())
    return UnknownLoc::get(mlirContext);
  return locations[cookie - 1];
}

void CodeGenerationDiagnostics::report(const llvm::DiagnosticInfo &info) {
  errors = true;
  uint64_t cookie = 0;
  std::string message, note;
  llvm::raw_string_ostream messageStream(message), noteStream(note);
  if (const auto *assembler =
          llvm::dyn_cast<llvm::DiagnosticInfoSrcMgr>(&info)) {
    const llvm::SMDiagnostic &diagnostic = assembler->getSMDiag();
    cookie = assembler->getLocCookie();
    messageStream << "inline assembly: " << diagnostic.getMessage();
    if (!diagnostic.getLineContents().empty())
      noteStream << "at line " << diagnostic.getLineNo() << ", column "
                 << diagnostic.getColumnNo() + 1
                 << " of the assembly: " << diagnostic.getLineContents().trim();
  } else if (const auto *assembly =
                 llvm::dyn_cast<llvm::DiagnosticInfoInlineAsm>(&info)) {
    cookie = assembly->getLocCookie();
    messageStream << "inline assembly: " << assembly->getMsgStr();
  } else {
    llvm::DiagnosticPrinterRawOStream printer(messageStream);
    info.print(printer);
  }
  // The optimizer copies an op's assembly wherever it inlines or unrolls
  // the code around it; its error is the same each time.
  if (!reported.insert(std::to_string(cookie) + message + note).second)
    return;
  InFlightDiagnostic error = emitError(getLocation(cookie)) << message;
  if (!note.empty())
    error.attachNote() << note;
}

} // namespace gpu_runner
