//===- InputPasses.cpp - --passes: the user's passes before the lowering --===//
//
// A RUN line `mlir-opt -some-pass X | mlir-runner` becomes
// `gpu-runner --passes=some-pass X`: the passes run on the parsed program
// before anything of gpu-runner's own. Any pass MLIR registers may be
// named, so with --passes the program may use any dialect MLIR has, as long
// as the passes leave what the lowering takes.
//
//===----------------------------------------------------------------------===//

#include "runner/compiler/CompilerSteps.h"

#include "lowering/Pipeline.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

namespace gpu_runner {

namespace {

/// The pipeline's passes without an anchor: the text of `builtin.module(...)`
/// is what is inside the parentheses, as the passes run on the module.
StringRef stripModuleAnchor(StringRef pipeline) {
  pipeline = pipeline.trim();
  if (pipeline.consume_front("builtin.module(") && pipeline.consume_back(")"))
    return pipeline.trim();
  return pipeline;
}

/// The pass parser's message for the flag: "--passes: 'x' does not refer to
/// a registered pass or pass pipeline", then the text with a caret under the
/// fault, without the parser's own names and blank lines.
std::string describePipelineError(StringRef message) {
  std::string text = "--passes: ";
  const char *separator = "";
  SmallVector<StringRef> lines;
  message.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    // "MLIR Textual PassPipeline Parser:1:5: error: ...", and an option's
    // "<Pass-Options-Parser>: no such option x".
    if (size_t error = line.find("error: "); error != StringRef::npos)
      line = line.drop_front(error + strlen("error: "));
    line.consume_front("<Pass-Options-Parser>: ");
    text += separator + line.str();
    separator = "\n";
  }
  return text;
}

} // namespace

void registerProgramDialects(DialectRegistry &registry,
                             const CompileOptions &options) {
  registerInputDialects(registry);
  if (options.passes.empty())
    return;
  registerAllDialects(registry);
  registerAllExtensions(registry);
}

LogicalResult runInputPasses(ModuleOp module, const CompileOptions &options,
                             TimingScope &timing) {
  static std::once_flag registered;
  std::call_once(registered, [] { registerAllPasses(); });
  StringRef pipeline = stripModuleAnchor(options.passes);
  // Parsed once to report a bad pipeline, then into the pass manager. The
  // parser nests nothing, whatever the manager's nesting says.
  OpPassManager check(ModuleOp::getOperationName());
  std::string message;
  llvm::raw_string_ostream errors(message);
  if (failed(parsePassPipeline(pipeline, check, errors))) {
    // About the flag, not a place in the program.
    llvm::errs() << "error: " << describePipelineError(message) << "\n";
    return failure();
  }
  return runPipeline(
      module,
      [&](OpPassManager &pm) {
        (void)parsePassPipeline(pipeline, pm, llvm::nulls());
      },
      options.printIRAfterAll, timing);
}

} // namespace gpu_runner
