//===- CheckReports.h - What --check finds, reported and counted ----------===//
//
// The runtime's side of --check (docs/checks.md): which checks the run asks
// for, and their findings. Each finding is an error at the op it concerns,
// named for its check:
//
//   k.mlir:19:7: error: memcheck: memref.store: misaligned store in ...
//
// A finding after which a GPU would have stopped the program (an illegal
// address) ends the run as any runtime error does; the others are printed
// and counted once each, and the program goes on. The run ends with a summary
// line on stderr, after the last finding or with the error that ends it:
//
//   checks (memcheck, leakcheck): 2 errors (memcheck 1, leakcheck 1)
//
// and exit status 1 when there was any.
//
// Code that the lowering adds to the program reports through the runtime's
// ordinary errors (a failed cf.assert of the host code): its op name, in the
// loc string, then starts with the check's name and ": " ("memcheck:
// memref.load"), which counts it as that check's finding.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_COMMON_CHECKREPORTS_H
#define GPU_RUNNER_WRAPPERS_COMMON_CHECKREPORTS_H

#include "wrappers/CheckKinds.h"

#include <cstdint>
#include <string>

namespace gpu_runner {

/// Sets the checks of the run (initializeBackend) and forgets any findings.
void setEnabledChecks(CheckSet checks);

/// The checks of the run; empty without --check.
CheckSet getEnabledChecks();

/// Whether `check` is on: a cheap read, for the runtime's hot paths.
bool isCheckEnabled(Check check);

/// Prints a finding of `check` at the op at `loc`, and counts it, unless it
/// was found before; the program goes on. Findings at one op with the same
/// `key` (by default the message) are the same finding: a hazard between
/// two ops is reported once, for the first pair of threads that shows it.
void reportCheckError(Check check, const char *loc, const std::string &message,
                      const std::string &key = {});

/// Reports a finding of `check` at `loc` that ends the run, with the
/// summary, exit status 1.
[[noreturn]] void reportFatalCheckError(Check check, const char *loc,
                                        const std::string &message);

/// The check that an op name in a loc string starts with ("memcheck:
/// memref.load"), if any: the fatal error being reported is its finding.
/// Counts it and returns the summary line to print after it, with its
/// newline; an empty string without checks.
std::string takeFatalCheckSummary(const char *loc);

/// At the end of a run: prints the summary line on stderr when checks are
/// on, and returns how many findings there were.
uint64_t finishChecks();

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_COMMON_CHECKREPORTS_H
