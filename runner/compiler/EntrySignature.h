//===- EntrySignature.h - The entry point's parameters and results --------===//
//
// What the runner needs to know of the entry point's MLIR signature to pass
// it --input values and read its results: the compiler reads it from the
// program before lowering, and the compile cache keeps it with the program,
// so that a program found in the cache is called without parsing it again.
// No MLIR type appears here: a type is its element type, its shape and the
// text MLIR prints for it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_COMPILER_ENTRYSIGNATURE_H
#define GPU_RUNNER_RUNNER_COMPILER_ENTRYSIGNATURE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpu_runner {

/// The element types values can have: those of MLIR scalars that NumPy has
/// too (index is 64 bits wide, as the lowering makes it).
enum class ElementType { I1, I8, I16, I32, I64, Index, F16, F32, F64 };

inline const char *getElementTypeName(ElementType type) {
  switch (type) {
  case ElementType::I1:
    return "i1";
  case ElementType::I8:
    return "i8";
  case ElementType::I16:
    return "i16";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  case ElementType::Index:
    return "index";
  case ElementType::F16:
    return "f16";
  case ElementType::F32:
    return "f32";
  case ElementType::F64:
    return "f64";
  }
  return "?";
}

inline std::optional<ElementType> parseElementType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ElementType>>(name)
      .Case("i1", ElementType::I1)
      .Case("i8", ElementType::I8)
      .Case("i16", ElementType::I16)
      .Case("i32", ElementType::I32)
      .Case("i64", ElementType::I64)
      .Case("index", ElementType::Index)
      .Case("f16", ElementType::F16)
      .Case("f32", ElementType::F32)
      .Case("f64", ElementType::F64)
      .Default(std::nullopt);
}

/// Bytes per element in memory (an i1 takes a byte).
inline unsigned getElementSize(ElementType type) {
  switch (type) {
  case ElementType::I1:
  case ElementType::I8:
    return 1;
  case ElementType::I16:
  case ElementType::F16:
    return 2;
  case ElementType::I32:
  case ElementType::F32:
    return 4;
  case ElementType::I64:
  case ElementType::Index:
  case ElementType::F64:
    return 8;
  }
  return 1;
}

inline bool isFloatType(ElementType type) {
  return type == ElementType::F16 || type == ElementType::F32 ||
         type == ElementType::F64;
}

/// A dynamic dimension of a memref's shape.
inline constexpr int64_t kDynamicSize = INT64_MIN;

/// A parameter's or a result's type.
struct EntryType {
  /// As MLIR prints it: "memref<4x?xf32>", "i32".
  std::string text;
  ElementType element = ElementType::I32;
  /// A memref (of `shape`, kDynamicSize where dynamic), else a scalar.
  bool isMemRef = false;
  std::vector<int64_t> shape;
};

/// The entry point as --input, --output and --expected-output see it. A
/// program compiled with one has a function kPackedEntryName that calls the
/// entry point with arguments and results passed through pointers.
struct EntrySignature {
  /// The entry point's name, and its location as "file:line:col" (empty
  /// where it has none), for messages.
  std::string name;
  std::string location;
  std::vector<EntryType> params;
  std::vector<EntryType> results;
  /// For --launch: the results are the memref parameters, copied back.
  bool resultsAreMemRefParams = false;
};

/// The function that calls the entry point with every argument and result
/// passed through a pointer: `void (void **slots)`, where slots[i] points
/// to parameter i (a scalar, or a memref descriptor: allocated and aligned
/// pointers, offset, sizes and strides, 8 bytes each) and
/// slots[params + j] to where result j is written, in the same forms.
inline constexpr llvm::StringLiteral kPackedEntryName =
    "__gpu_runner_packed_entry";

/// The host function --launch generates to run one kernel.
inline constexpr llvm::StringLiteral kLaunchEntryName = "__gpu_runner_launch";

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_COMPILER_ENTRYSIGNATURE_H
