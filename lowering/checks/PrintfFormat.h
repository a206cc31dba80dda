//===- PrintfFormat.h - The formats gpu.printf takes ----------------------===//
//
// gpu.printf hands its format and arguments to a C printf: libc's on the
// host, CUDA's vprintf, HIP's hostcall printf. None of them checks one
// against the other: a conversion without an argument reads stray memory,
// `%n` writes to it, `%s` of an integer faults, a width of a billion prints
// a gigabyte. This parses a format as C's printf reads it and checks it
// against what every backend prints the same way: the flags, widths,
// precisions, sizes and conversions of the CUDA Programming Guide's
// "Format specifiers", each conversion matched with its argument by C's
// rules (after the default argument promotions). No MLIR here: the lowering
// describes each argument's type with a PrintfArgument.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_CHECKS_PRINTFFORMAT_H
#define GPU_RUNNER_LOWERING_CHECKS_PRINTFFORMAT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpu_runner {

/// The most arguments a gpu.printf takes besides its format: CUDA's printf
/// ignores those beyond 32 and prints their conversions as written.
constexpr size_t kMaxPrintfArguments = 32;

/// The largest width or precision a conversion may have: a documented limit
/// of gpu-runner, so that one line cannot print gigabytes.
constexpr uint64_t kMaxPrintfFieldWidth = 1024;

/// C's length modifiers ("sizes" in CUDA's guide).
enum class PrintfLength { None, hh, h, l, ll, j, z, t, L };

/// The modifier as written ("" for None).
llvm::StringRef getPrintfLengthName(PrintfLength length);

/// One conversion specification, `%[n$][flags][width][.precision][size]C`,
/// as C's printf reads it.
struct PrintfConversion {
  /// Where its '%' is in the format, counting bytes from 0.
  size_t offset = 0;
  /// The specification as written, '%' to conversion character.
  std::string text;
  /// An argument number (`%2$d`): C's POSIX extension.
  bool positional = false;
  /// The flag characters as written (`-+ #0`, and glibc's `'` and `I`).
  std::string flags;
  /// The width and precision written as numbers (saturating at UINT32_MAX);
  /// the precision of a lone '.' is 0.
  std::optional<uint64_t> width;
  std::optional<uint64_t> precision;
  /// A `*` in place of the width or precision: taken from an argument.
  bool widthFromArgument = false;
  bool precisionFromArgument = false;
  PrintfLength length = PrintfLength::None;
  /// The conversion character ('d', '%', ...); '\0' where the format ends
  /// before one.
  char conversion = '\0';
};

/// Every conversion specification of `format`, `%%` included, in order.
/// Never fails: checkPrintfFormat says what is wrong with them.
std::vector<PrintfConversion> parsePrintfFormat(llvm::StringRef format);

/// How the lowering describes the type of one gpu.printf argument.
struct PrintfArgument {
  enum class Kind {
    /// A signless integer of `bits` bits.
    Integer,
    /// index: 64 bits on every backend.
    Index,
    /// f16, bf16, f32 or f64, promoted to double.
    Float,
    /// Any other type; no printf can print it.
    Other,
  };
  Kind kind = Kind::Other;
  unsigned bits = 0;
  /// The type as the program wrote it, for messages ("i64", "f32").
  std::string typeName;
};

/// Why `format` cannot be printed with `arguments` the same way on every
/// backend, naming the conversion, its offset and the argument's type;
/// success when it can. Integers of at most 32 bits are printed as an int (the
/// lowering sign-extends them, i1 is 0 or 1), i64 and index as a long, and
/// floats as a double.
llvm::Error checkPrintfFormat(llvm::StringRef format,
                              llvm::ArrayRef<PrintfArgument> arguments);

} // namespace gpu_runner

#endif // GPU_RUNNER_LOWERING_CHECKS_PRINTFFORMAT_H
