//===- RunTiming.cpp - The phases of a run, for --timing ------------------===//

#include "runner/RunTiming.h"

#include "runner/ProgramOutput.h"

#include "llvm/Support/raw_ostream.h"

namespace gpu_runner {

RunTiming::~RunTiming() {
  if (!report)
    return;
  if (printed) {
    flushProgramOutput();
    llvm::errs() << "compile cache: " << cacheStatus << "\n";
  }
  report->print();
}

} // namespace gpu_runner
