//===- DataPrinter.h - Results printed as printMemref prints them ---------===//
//
// How a run prints its results without --output: the layout MLIR's
// printMemref* functions use for a memref's data (mlir/ExecutionEngine/
// RunnerUtils.h), so that output checked against mlir-runner's reads the
// same. Messages print elements the same way.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_DATAPRINTER_H
#define GPU_RUNNER_RUNNER_DATAPRINTER_H

#include "runner/DataValue.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace gpu_runner {

/// Prints `value`'s elements as printMemref* prints a memref's data
/// (brackets, commas, a line for each outer index; floats as C++ streams
/// print them), then a newline. `value` is typed.
void printData(llvm::raw_ostream &os, const DataValue &value);

/// One element as printData prints it.
std::string formatElement(ElementType type, const char *element);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_DATAPRINTER_H
