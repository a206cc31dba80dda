//===- ProgramFunctions.h - Where the program's compiled functions are ----===//
//
// The program's code is the JIT's: no loaded object covers it, so dladdr
// cannot name the function a fault is in. The JIT publishes here where each
// function it linked begins and ends, and a fault report looks the faulting
// address up, from a signal handler.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_COMMON_PROGRAMFUNCTIONS_H
#define GPU_RUNNER_WRAPPERS_COMMON_PROGRAMFUNCTIONS_H

#include <cstdint>
#include <string>
#include <vector>

namespace gpu_runner {

/// A function of the program's linked code: [begin, end) and its name.
struct ProgramFunction {
  uintptr_t begin = 0;
  uintptr_t end = 0;
  std::string name;
};

/// Adds `functions` to those fault reports can name. Not async-signal-safe:
/// called by the JIT as it links, before the code runs.
void addProgramFunctions(std::vector<ProgramFunction> functions);

/// Forgets every function added, once the code they describe is gone (the
/// JIT is destroyed): no fault report may be running then.
void clearProgramFunctions();

/// The name of the program's function whose code holds `address`, or null.
/// Async-signal-safe: a binary search of a table published before the code
/// it describes could run.
const char *findProgramFunction(uintptr_t address);

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_COMMON_PROGRAMFUNCTIONS_H
