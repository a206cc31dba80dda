//===- OutlineAsyncBodies.cpp - Keep each async.execute body one block ----===//
//
// Upstream's async-to-async-runtime turns each async.execute body into a
// coroutine and takes a body of one block only; by the time it runs,
// scf-to-cf and gpu-runner-gpu-to-llvm have made blocks of every loop, `if`,
// assertion and atomic update in it. This pass moves what is not async out of
// each body first: the body is cut at the ops the coroutine must keep (async
// ops, which suspend it, and stack allocations, which must live as long as
// the body), and each run of other ops between those becomes a private
// function that the body calls. Such a function is ordinary host code and is
// lowered like any other; the ops keep their locations, so their errors are
// reported where they were written.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace gpu_runner {
#define GEN_PASS_DEF_OUTLINEASYNCBODIES
#include "lowering/Passes.h.inc"
} // namespace gpu_runner

using namespace mlir;

namespace gpu_runner {
namespace {

bool isAsyncType(Type type) {
  return isa<async::AsyncDialect>(type.getDialect());
}

/// An async op, or an op on async values: the coroutine must keep it, as a
/// function of the host code can neither await nor pass async values before
/// the async lowering.
bool isAsyncOp(Operation *op) {
  return isa_and_nonnull<async::AsyncDialect>(op->getDialect()) ||
         llvm::any_of(op->getOperandTypes(), isAsyncType) ||
         llvm::any_of(op->getResultTypes(), isAsyncType);
}

/// Stack memory lives until its allocation scope (here the body) ends; in
/// an outlined function it would end with the call.
bool isStackAllocation(Operation *op) {
  return isa<memref::AllocaOp, LLVM::AllocaOp>(op);
}

/// A constant is cloned into each function that uses it rather than passed.
bool isConstant(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() && op->getNumOperands() == 0 &&
         op->getNumRegions() == 0;
}

/// An op of the body that stays in it; each run of other ops is outlined.
bool staysInBody(Operation *op) {
  return isAsyncOp(op) || isStackAllocation(op) || isConstant(op) ||
         op->hasTrait<OpTrait::IsTerminator>();
}

/// Reports an op with regions in an execute body that cannot be outlined:
/// one holding async ops or values (an await there would have to suspend
/// the coroutine from inside a loop or branch, which becomes blocks before
/// the coroutine is made), or one whose results may be stack memory it
/// allocates.
LogicalResult checkRegionOp(Operation *op) {
  auto error = [&]() {
    return op->emitError() << "'" << op->getName()
                           << "' cannot be lowered inside an 'async.execute' "
                              "body: ";
  };
  if (isAsyncOp(op))
    return error() << "an op with regions there may not take or make async "
                      "values; keep the async values at the body's top level";
  Operation *asyncOp = nullptr, *allocation = nullptr;
  op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    if (nested == op)
      return WalkResult::advance();
    if (isAsyncOp(nested)) {
      asyncOp = nested;
      return WalkResult::interrupt();
    }
    // Allocations in a nested scope end there, wherever it is.
    if (nested->hasTrait<OpTrait::AutomaticAllocationScope>())
      return WalkResult::skip();
    if (!allocation && isStackAllocation(nested))
      allocation = nested;
    return WalkResult::advance();
  });
  if (asyncOp) {
    InFlightDiagnostic diagnostic =
        error() << "it holds '" << asyncOp->getName()
                << "', and async ops there must stand at the body's top "
                   "level; move it out of the '"
                << op->getName() << "'";
    diagnostic.attachNote(asyncOp->getLoc())
        << "the '" << asyncOp->getName() << "' is here";
    return diagnostic;
  }
  auto isMemory = [](Type type) {
    return isa<BaseMemRefType, LLVM::LLVMPointerType>(type);
  };
  if (allocation && llvm::any_of(op->getResultTypes(), isMemory)) {
    InFlightDiagnostic diagnostic =
        error() << "its results may be the stack memory that its '"
                << allocation->getName()
                << "' allocates, which must live as long as the body; "
                   "allocate it at the body's top level";
    diagnostic.attachNote(allocation->getLoc())
        << "the '" << allocation->getName() << "' is here";
    return diagnostic;
  }
  return success();
}

/// A run of ops to outline, and the op before which the call goes.
struct Run {
  SmallVector<Operation *> ops;
  Operation *end = nullptr;
};

/// Outlines the runs of one async.execute body into private functions
/// inserted before the top-level op that holds the execute.
class BodyOutliner {
public:
  BodyOutliner(async::ExecuteOp execute, SymbolTableCollection &symbolTables)
      : execute(execute), body(execute.getBodyRegion().front()),
        symbolTables(symbolTables) {}

  LogicalResult outline() {
    FailureOr<SmallVector<Run>> runs = findRuns();
    if (failed(runs))
      return failure();
    for (Run &run : *runs)
      outlineRun(run);
    // Constants the outlined runs took copies of.
    for (Operation &op : llvm::make_early_inc_range(body))
      if (isConstant(&op) && op.use_empty())
        op.erase();
    return success();
  }

private:
  /// The maximal runs of ops that do not stay in the body, checked.
  FailureOr<SmallVector<Run>> findRuns() {
    SmallVector<Run> runs;
    Run current;
    for (Operation &op : body) {
      bool isExecute = isa<async::ExecuteOp>(op);
      if (op.getNumRegions() && !isExecute && failed(checkRegionOp(&op)))
        return failure();
      // Constants stay, without ending a run.
      if (isConstant(&op))
        continue;
      if (!staysInBody(&op)) {
        current.ops.push_back(&op);
        continue;
      }
      if (!current.ops.empty()) {
        current.end = &op;
        runs.push_back(std::move(current));
        current = Run();
      }
    }
    return runs;
  }

  /// Whether `op`, in the body or nested in it, belongs to `run`.
  static bool isInRun(Block &body, const SmallPtrSetImpl<Operation *> &run,
                      Operation *op) {
    Operation *ancestor = body.findAncestorOpInBlock(*op);
    return ancestor && run.contains(ancestor);
  }

  void outlineRun(const Run &run) {
    SmallPtrSet<Operation *, 16> ops(run.ops.begin(), run.ops.end());
    auto inRun = [&](Operation *op) { return isInRun(body, ops, op); };

    // What the run uses from before it, and what it makes that is used
    // after it.
    llvm::SetVector<Value> inputs;
    llvm::SetVector<Operation *> constants;
    for (Operation *op : run.ops)
      op->walk([&](Operation *nested) {
        for (Value value : nested->getOperands()) {
          Operation *definition = value.getDefiningOp();
          if (inRun(definition ? definition
                               : value.getParentBlock()->getParentOp()))
            continue;
          if (definition && isConstant(definition))
            constants.insert(definition);
          else
            inputs.insert(value);
        }
      });
    SmallVector<Value> outputs;
    for (Operation *op : run.ops)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(),
                         [&](Operation *user) { return !inRun(user); }))
          outputs.push_back(result);

    Location loc = run.ops.front()->getLoc();
    func::FuncOp function = createFunction(loc, inputs.getArrayRef(), outputs);
    OpBuilder builder = OpBuilder::atBlockBegin(&function.front());
    auto inFunction = [&](OpOperand &use) {
      return function->isProperAncestor(use.getOwner());
    };
    for (Operation *constant : constants)
      constant->getResult(0).replaceUsesWithIf(
          builder.clone(*constant)->getResult(0),
          [&](OpOperand &use) { return inRun(use.getOwner()); });
    for (Operation *op : run.ops)
      op->moveBefore(&function.front(), function.front().end());
    for (auto [input, argument] :
         llvm::zip_equal(inputs, function.getArguments()))
      Value(input).replaceUsesWithIf(argument, inFunction);
    builder.setInsertionPointToEnd(&function.front());
    func::ReturnOp::create(builder, loc, outputs);

    builder.setInsertionPoint(run.end);
    auto call =
        func::CallOp::create(builder, loc, function, inputs.getArrayRef());
    for (auto [output, result] : llvm::zip_equal(outputs, call.getResults()))
      output.replaceUsesWithIf(
          result, [&](OpOperand &use) { return !inFunction(use); });
  }

  /// An empty private function for a run, named after the function that
  /// holds the execute.
  func::FuncOp createFunction(Location loc, ArrayRef<Value> inputs,
                              ArrayRef<Value> outputs) {
    Operation *tableOp = SymbolTable::getNearestSymbolTable(execute);
    SymbolTable &symbolTable = symbolTables.getSymbolTable(tableOp);
    Operation *topLevel =
        tableOp->getRegion(0).front().findAncestorOpInBlock(*execute);
    std::string name = "__gpu_runner_async_body";
    if (auto parent = execute->getParentOfType<FunctionOpInterface>())
      name = ("__gpu_runner_" + parent.getName() + "_async_body").str();

    auto type = FunctionType::get(execute.getContext(), ValueRange(inputs),
                                  ValueRange(outputs));
    auto function = func::FuncOp::create(loc, name, type);
    function.setPrivate();
    // Renamed with a suffix where the name is taken.
    symbolTable.insert(function, Block::iterator(topLevel));
    Block *entry = function.addEntryBlock();
    for (auto [argument, input] :
         llvm::zip_equal(entry->getArguments(), inputs))
      argument.setLoc(input.getLoc());
    return function;
  }

  async::ExecuteOp execute;
  Block &body;
  SymbolTableCollection &symbolTables;
};

class OutlineAsyncBodiesPass
    : public impl::OutlineAsyncBodiesBase<OutlineAsyncBodiesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    // Inner regions first: an execute nested in a body stays in it, its own
    // body already outlined.
    SmallVector<async::ExecuteOp> executes;
    getOperation()->walk(
        [&](async::ExecuteOp execute) { executes.push_back(execute); });
    SymbolTableCollection symbolTables;
    for (async::ExecuteOp execute : executes)
      if (!execute.getBodyRegion().empty() &&
          failed(BodyOutliner(execute, symbolTables).outline()))
        return signalPassFailure();
  }
};

} // namespace
} // namespace gpu_runner
