//===- ProgramData.h - Values for --input, --output, --expected-output ----===//
//
// The data a run passes to its entry point and gets back, without MLIR: the
// value grammar of --input and --expected-output (close to iree-run-module's:
// `42`, `i64=42`, `2x3xf32=1,2,3,4,5,6`, `1024xf32=0`, `@a.npy`,
// `2x3xf32=@a.bin`), NumPy's .npy files read and written, results printed
// in the layout printMemref* uses for data, and results compared with
// expected values within a tolerance. docs/data.md describes the grammar.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_PROGRAMDATA_H
#define GPU_RUNNER_RUNNER_PROGRAMDATA_H

#include "runner/EntrySignature.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

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

/// "4x?xf32", "f32" for an empty shape: a shape and element type as the
/// value grammar writes them (kDynamicSize as ?).
std::string formatShapedType(llvm::ArrayRef<int64_t> shape, ElementType type);

/// The most bytes a value read from a file may hold, and the most elements
/// a value given in text may have (a splat of a large shape included).
inline constexpr uint64_t kMaxValueBytes = uint64_t(1) << 36;

/// Parses `text` in the value grammar; files named with `@` are read,
/// unless `readFiles` is false (a fuzzer's). Errors say where: "column 9:
/// 'x' is not an f32 value". A value of more than `maxBytes` is an error.
llvm::Expected<DataValue> parseDataValue(llvm::StringRef text,
                                         uint64_t maxBytes = kMaxValueBytes,
                                         bool readFiles = true);

/// Converts an untyped scalar's text to one element of `type` at `out`.
llvm::Error convertLiteral(llvm::StringRef literal, ElementType type,
                           char *out);

/// Reads the NumPy file `bytes`, named `name` in messages.
llvm::Expected<DataValue> parseNpy(llvm::StringRef name, llvm::StringRef bytes);

/// The bytes of a NumPy file (format 1.0) holding `value`.
std::string writeNpy(const DataValue &value);

/// Prints `value`'s elements as printMemref* prints a memref's data
/// (brackets, commas, a line for each outer index; floats as C++ streams
/// print them), then a newline.
void printData(llvm::raw_ostream &os, const DataValue &value);

/// One element as printData prints it.
std::string formatElement(ElementType type, const char *element);

/// An element read as a double (floats, and integers for messages), or as
/// an integer (sign-extended; an i1 is 0 or 1).
double readFloat(ElementType type, const char *element);
int64_t readInteger(ElementType type, const char *element);

struct Tolerance {
  double atol = 1e-8;
  double rtol = 1e-5;
  bool nanEqual = false;
};

/// How a result compared with its expected value.
struct Comparison {
  /// Empty when shape and type agree, else why they do not.
  std::string shapeMismatch;
  uint64_t elements = 0;
  uint64_t mismatches = 0;
  /// The first mismatches: "[1, 2]: got 5, expected 6 (difference 1)".
  std::vector<std::string> firstMismatches;
};

/// The most mismatching elements a comparison lists.
inline constexpr unsigned kMismatchesListed = 10;

/// Compares `got` with `want`: integers exactly; floats pass when
/// |got - want| <= atol + rtol * |want|, or when both are the same
/// infinity, or both NaN with nanEqual. An untyped scalar `want` is
/// converted to `got`'s type first (an error where it does not convert).
llvm::Expected<Comparison> compareData(const DataValue &got,
                                       const DataValue &want,
                                       const Tolerance &tolerance);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_PROGRAMDATA_H
