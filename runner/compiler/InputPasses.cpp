//===- InputPasses.cpp - The passes before the lowering -------------------===//
//
// A RUN line `mlir-opt -some-pass X | mlir-runner` becomes
// `gpu-runner --passes=some-pass X`: the passes run on the parsed program
// before anything of gpu-runner's own. Any pass MLIR registers may be
// named, so with --passes the program may use any dialect MLIR has, as long
// as the passes leave what the lowering takes.
//
// Then what such RUN lines ask of mlir-opt for every program of a kind is
// done without being asked: a transform script is interpreted and erased,
// and code on tensors is bufferized.
//
//===----------------------------------------------------------------------===//

#include "runner/compiler/CompilerSteps.h"

#include "lowering/Pipeline.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// Every pass MLIR has, for --passes and for transform scripts that run
/// passes by name (transform.apply_registered_pass).
void registerEveryPass() {
  static std::once_flag registered;
  std::call_once(registered, [] { registerAllPasses(); });
}

bool isTensor(Type type) { return isa<TensorType>(type); }

/// Whether a value of the program, or a function's argument or result, is
/// a tensor.
bool hasTensors(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor))
      return WalkResult::interrupt();
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      if (llvm::any_of(function.getArgumentTypes(), isTensor) ||
          llvm::any_of(function.getResultTypes(), isTensor))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Whether the program holds a transform script's entry point.
bool hasTransformScript(ModuleOp module) {
  WalkResult result = module.walk([](transform::NamedSequenceOp sequence) {
    return sequence.getSymName() ==
                   transform::TransformDialect::kTransformEntryPointSymbolName
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Erases the transform dialect's ops and attributes, once applied: the
/// script is not part of the program that runs. A nested module it leaves
/// empty is dropped later (dropNestedModules).
void eraseTransformScripts(ModuleOp module) {
  SmallVector<Operation *> scripts;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa_and_nonnull<transform::TransformDialect>(op->getDialect()))
      return WalkResult::advance();
    scripts.push_back(op);
    return WalkResult::skip();
  });
  for (Operation *op : scripts)
    op->erase();
  module.walk([](ModuleOp nested) {
    nested->removeAttr(transform::TransformDialect::kWithNamedSequenceAttrName);
  });
}

/// Whether `op` allocates memory that outlives its scope, or frees memory.
bool allocatesOrFrees(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](MemoryEffects::EffectInstance &instance) {
    if (isa<MemoryEffects::Free>(instance.getEffect()))
      return true;
    return isa<MemoryEffects::Allocate>(instance.getEffect()) &&
           !isa<SideEffects::AutomaticAllocationScopeResource>(
               instance.getResource());
  });
}

/// Marks, or unmarks, the program's own allocations and deallocations
/// (memref.alloc and memref.dealloc, gpu.alloc and gpu.dealloc) as managed
/// by the program: the deallocation of bufferization's buffers leaves them
/// alone, rather than refusing the program or freeing device memory.
void markProgramDeallocations(ModuleOp module, bool mark) {
  StringRef name = bufferization::BufferizationDialect::kManualDeallocation;
  module.walk([&](Operation *op) {
    if (!mark)
      op->removeAttr(name);
    else if (allocatesOrFrees(op))
      op->setAttr(name, UnitAttr::get(op->getContext()));
  });
}

/// Bufferizes `module`, as `mlir-opt -one-shot-bufferize=
/// "bufferize-function-boundaries function-boundary-type-conversion=
/// identity-layout-map allow-return-allocs-from-loops"
/// -buffer-deallocation-pipeline` does: functions take
/// and return memrefs of the identity layout, which --input and --output
/// read and write. What bufferization allocates is freed; the program's own
/// allocations stay as written.
LogicalResult bufferize(ModuleOp module, const CompileOptions &options,
                        TimingScope &timing) {
  bufferization::OneShotBufferizePassOptions oneShot;
  oneShot.bufferizeFunctionBoundaries = true;
  // A loop may carry a tensor that each iteration makes anew; the
  // ownership-based deallocation frees each but the last.
  oneShot.allowReturnAllocsFromLoops = true;
  oneShot.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  markProgramDeallocations(module, /*mark=*/true);
  // Bufferization's errors say what failed, not that gpu-runner was
  // bufferizing, which the program did not ask for.
  ScopedDiagnosticHandler notes(module.getContext(), [](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    if (diag.str() == "op was not bufferized")
      diag.attachNote()
          << "gpu-runner bufferizes a program's tensors, and this op has no "
             "bufferization: write it on memrefs, or with linalg ops "
             "(--passes='func.func(convert-elementwise-to-linalg)' makes "
             "linalg ops of arith and math ops on tensors)";
    else
      diag.attachNote() << "while gpu-runner bufferized the program's "
                           "tensors (one-shot bufferization)";
    return failure(); // Printed by the handlers before this one.
  });
  LogicalResult result = runPipeline(
      module,
      [&](OpPassManager &pm) {
        pm.addPass(bufferization::createOneShotBufferizePass(oneShot));
        bufferization::buildBufferDeallocationPipeline(pm);
        pm.addPass(createConvertBufferizationToMemRefPass());
      },
      options.printIRAfterAll, timing);
  markProgramDeallocations(module, /*mark=*/false);
  return result;
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
  registerEveryPass();
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

LogicalResult runDefaultInputPasses(ModuleOp module,
                                    const CompileOptions &options,
                                    TimingScope &timing) {
  if (hasTransformScript(module)) {
    options.setActivity("applying the transform script");
    TimingScope scriptTiming = timing.nest("Transform script");
    registerEveryPass();
    if (failed(runPipeline(
            module,
            [](OpPassManager &pm) {
              pm.addPass(transform::createInterpreterPass());
            },
            options.printIRAfterAll, scriptTiming)))
      return failure();
    eraseTransformScripts(module);
  }
  if (hasTensors(module)) {
    options.setActivity("bufferizing the program");
    TimingScope bufferizeTiming = timing.nest("Bufferization");
    if (failed(bufferize(module, options, bufferizeTiming)))
      return failure();
  }
  return success();
}

} // namespace gpu_runner
