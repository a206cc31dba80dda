//===- NumpyFile.h - NumPy's .npy files read and written ------------------===//
//
// The values of --input, --expected-output and --output as NumPy files
// (format 1.0 written; 1.0, 2.0 and 3.0 read), in C order and little-endian,
// of the dtypes NumPy and MLIR share. docs/data.md lists them.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_NUMPYFILE_H
#define GPU_RUNNER_RUNNER_NUMPYFILE_H

#include "runner/DataValue.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace gpu_runner {

/// Reads the NumPy file `bytes`, named `name` in messages.
llvm::Expected<DataValue> parseNpy(llvm::StringRef name, llvm::StringRef bytes);

/// The bytes of a NumPy file (format 1.0) holding `value`, which is typed.
std::string writeNpy(const DataValue &value);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_NUMPYFILE_H
