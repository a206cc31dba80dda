//===- DataValue.h - Values of --input and --expected-output --------------===//
//
// The data a run passes to its entry point and gets back, without MLIR, and
// the grammar --input and --expected-output write it in (close to
// iree-run-module's: `42`, `i64=42`, `2x3xf32=1,2,3,4,5,6`, `1024xf32=0`,
// `@a.npy`, `2x3xf32=@a.bin`). NumPy files (NumpyFile.h), printing
// (DataPrinter.h) and comparing (DataComparison.h) work on these values.
// docs/data.md describes the grammar.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_DATAVALUE_H
#define GPU_RUNNER_RUNNER_DATAVALUE_H

#include "runner/compiler/EntrySignature.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpu_runner {

/// Bytes aligned for any element type and vector loads (64 bytes, a cache
/// line), as memref.alloc aligns what a program allocates.
class AlignedBuffer {
public:
  AlignedBuffer() = default;
  /// `size` zeroed bytes; false when they cannot be had.
  bool allocate(uint64_t size);
  char *data() const { return storage.get(); }
  uint64_t size() const { return bytes; }

private:
  struct Free {
    void operator()(char *p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> storage;
  uint64_t bytes = 0;
};

/// A value: an untyped scalar (`42`, typed only when it meets the
/// parameter it is for), or elements of a type in C order, little-endian.
struct DataValue {
  /// None for an untyped scalar, whose text is `literal`.
  std::optional<ElementType> type;
  std::string literal;
  /// Whether the value has a shape (`4xf32=...`, a .npy file), or is a
  /// scalar (`i64=42`, `42`); a shape may be empty (a 0-d array).
  bool shaped = false;
  std::vector<int64_t> shape;
  AlignedBuffer data;

  uint64_t getNumElements() const;
  /// "3x5xf32", "i64", "the scalar 42": what the value is, for messages.
  std::string describe() const;
};

/// The most bytes a value read from a file may hold, and the most elements
/// a value given in text may have (a splat of a large shape included).
inline constexpr uint64_t kMaxValueBytes = uint64_t(1) << 36;

/// Parses `text` in the value grammar; files named with `@` are read,
/// unless `readFiles` is false (a fuzzer's). Errors say where: "column 9:
/// 'x' is not an f32 value". A value of more than `maxBytes` is an error,
/// and one read from a file of more than `maxFileBytes` (--max-input-size).
/// A file is read no further than its value needs, and may be a pipe, a
/// FIFO or a device.
llvm::Expected<DataValue>
parseDataValue(llvm::StringRef text, uint64_t maxBytes = kMaxValueBytes,
               bool readFiles = true, uint64_t maxFileBytes = kMaxValueBytes);

/// "the 64 GiB a value may have", or for a file under a smaller limit,
/// "the 1 GiB --max-input-size allows a data file".
std::string describeSizeLimit(uint64_t maxBytes, bool forFile);

/// Converts an untyped scalar's text to one element of `type` at `out`.
llvm::Error convertLiteral(llvm::StringRef literal, ElementType type,
                           char *out);

/// An element read as a double (floats, and integers for messages), or as
/// an integer (sign-extended; an i1 is 0 or 1).
double readFloat(ElementType type, const char *element);
int64_t readInteger(ElementType type, const char *element);

/// The product of `shape`, or nothing when a size is negative or the
/// product passes `limit`.
std::optional<uint64_t> countElements(llvm::ArrayRef<int64_t> shape,
                                      uint64_t limit);

/// "4x?x2", empty for an empty shape (kDynamicSize as ?).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// "4x?xf32", "f32" for an empty shape: a shape and element type as the
/// value grammar writes them.
std::string formatShapedType(llvm::ArrayRef<int64_t> shape, ElementType type);

/// "64 GiB" for a whole number of GiB, else "N bytes".
std::string formatBytes(uint64_t bytes);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_DATAVALUE_H
