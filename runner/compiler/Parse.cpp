//===- Parse.cpp - A program's text to MLIR, with clearer messages --------===//

#include "runner/compiler/CompilerSteps.h"

#include "mlir/IR/MLIRContext.h"

using namespace mlir;

namespace gpu_runner {

Location getModuleLocation(ModuleOp module) {
  auto fileLoc = dyn_cast<FileLineColLoc>(module.getLoc());
  if (fileLoc && fileLoc.getLine() == 0)
    return FileLineColLoc::get(fileLoc.getFilename(), 1, 1);
  return module.getLoc();
}

ParseDiagnostics::ParseDiagnostics(MLIRContext &context,
                                   llvm::SourceMgr &sourceMgr)
    : context(context), sourceMgr(sourceMgr),
      handler(&context, [this](Diagnostic &diag) { return handle(diag); }) {}

LogicalResult ParseDiagnostics::handle(Diagnostic &diag) {
  if (diag.getSeverity() != DiagnosticSeverity::Error)
    return failure();
  std::string message = diag.str();
  size_t cut = message.find(". If this is intended");
  if (cut != std::string::npos &&
      message.find("unregistered dialect") != std::string::npos) {
    InFlightDiagnostic better = emitError(diag.getLocation());
    better << message.substr(0, cut)
           << ": gpu-runner accepts ops and types of the dialects ";
    llvm::interleaveComma(context.getAvailableDialects(), better);
    return success(); // replaced by `better`, printed when it goes
  }
  auto fileLoc = dyn_cast<FileLineColLoc>(diag.getLocation());
  if (fileLoc && fileLoc.getLine() == 0 && isBytecode()) {
    // The bytecode reader has no positions to give: the file's start.
    emitError(FileLineColLoc::get(fileLoc.getFilename(), 1, 1))
        << "invalid MLIR bytecode: " << message;
    return success();
  }
  if (isAtEndOfInput(diag.getLocation()))
    diag.attachNote() << "the input ends here: it may be truncated";
  return failure();
}

bool ParseDiagnostics::isBytecode() {
  return sourceMgr.getNumBuffers() != 0 &&
         sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
             ->getBuffer()
             .starts_with("ML\xefR");
}

bool ParseDiagnostics::isAtEndOfInput(Location loc) {
  auto fileLoc = dyn_cast<FileLineColLoc>(loc);
  if (!fileLoc || sourceMgr.getNumBuffers() == 0)
    return false;
  unsigned buffer = sourceMgr.getMainFileID();
  llvm::SMLoc position = sourceMgr.FindLocForLineAndColumn(
      buffer, fileLoc.getLine(), fileLoc.getColumn());
  if (!position.isValid())
    return false;
  StringRef text = sourceMgr.getMemoryBuffer(buffer)->getBuffer();
  size_t offset = position.getPointer() - text.data();
  return offset <= text.size() && text.drop_front(offset).trim().empty();
}

} // namespace gpu_runner
