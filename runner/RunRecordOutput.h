//===- RunRecordOutput.h - --trace's timeline and --print-statistics -----===//
//
// What the runner makes of the run's record (wrappers/RunRecord.h): the
// timeline --trace writes, in Chrome's trace event format, and the summary
// --print-statistics prints. Both come out at exit, and after a runtime
// error too: the fatal report's exit hook writes them.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_RUNRECORDOUTPUT_H
#define GPU_RUNNER_RUNNER_RUNRECORDOUTPUT_H

#include "runner/Options.h"
#include "runner/compiler/Compiler.h"
#include "wrappers/RunRecord.h"

#include "llvm/Support/Error.h"

#include <string>

namespace gpu_runner {

/// Starts the record when --trace or --print-statistics asks for it, and
/// makes a runtime error that ends the process write both first.
void startRunRecordIfAsked(const RunnerOptions &options);

/// Puts the runner's phases in the record.
PhaseListener &getRecordedPhaseListener();

/// --trace's file: the record as Chrome trace events (JSON).
std::string formatTrace(const RunRecordSnapshot &record,
                        llvm::StringRef program);

/// --print-statistics's text.
std::string formatStatistics(const RunRecordSnapshot &record);

/// At the end of the run: prints the statistics and writes the trace;
/// fails when the trace cannot be written.
llvm::Error finishRunRecord(const RunnerOptions &options);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_RUNRECORDOUTPUT_H
