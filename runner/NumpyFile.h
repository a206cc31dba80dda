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
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace gpu_runner {

/// Reads the NumPy file `bytes`, named `name` in messages, whose data may
/// be `maxBytes` long at most.
llvm::Expected<DataValue> parseNpy(llvm::StringRef name, llvm::StringRef bytes,
                                   uint64_t maxBytes = kMaxValueBytes);

// A NumPy file read a piece at a time, as a pipe is: its first
// kNpyPreludeBytes, then up to where its data starts, then its data.

/// The most bytes getNpyDataStart needs of the file.
inline constexpr size_t kNpyPreludeBytes = 12;

/// Where the data of the NumPy file that starts with `prelude` (its first
/// kNpyPreludeBytes bytes, fewer when the file is shorter) starts: after
/// its magic string, version and header.
llvm::Expected<uint64_t> getNpyDataStart(llvm::StringRef name,
                                         llvm::StringRef prelude,
                                         uint64_t maxBytes = kMaxValueBytes);

/// The value whose file starts with `head`, all of it up to the data:
/// typed and shaped, its data allocated but not read.
llvm::Expected<DataValue> parseNpyHeader(llvm::StringRef name,
                                         llvm::StringRef head,
                                         uint64_t maxBytes = kMaxValueBytes);

/// "header says 2x3 f32 (24 bytes of data) but the file has `actual`".
llvm::Error describeNpySizeMismatch(llvm::StringRef name,
                                    const DataValue &value,
                                    const llvm::Twine &actual);

/// Checks the data read into `value`: each bool is 0 or 1.
llvm::Error checkNpyData(llvm::StringRef name, const DataValue &value);

/// The bytes of a NumPy file (format 1.0) holding `value`, which is typed.
std::string writeNpy(const DataValue &value);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_NUMPYFILE_H
