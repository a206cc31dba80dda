//===- PrintfFormat.cpp - The formats gpu.printf takes --------------------===//
//
// The rules, from the CUDA Programming Guide's "Formatted Output" (flags
// `# 0 + -` and space, a width, a precision of digits, the sizes h, l and
// ll, the conversions `cdiouxXpeEfgGaAs`, at most 32 arguments) and from C's
// printf for which argument each conversion takes. CUDA's printf accepts any
// combination of these and prints garbage for a wrong one, so everything
// outside them is refused here, each with what to write instead.
//
//===----------------------------------------------------------------------===//

#include "lowering/checks/PrintfFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace llvm;

namespace gpu_runner {
namespace {

/// Reads the digits at `pos`, saturating at UINT32_MAX; nullopt if there
/// are none.
std::optional<uint64_t> parseNumber(StringRef format, size_t &pos) {
  if (pos >= format.size() || !isDigit(format[pos]))
    return std::nullopt;
  uint64_t value = 0;
  for (; pos < format.size() && isDigit(format[pos]); ++pos)
    value = std::min<uint64_t>(value * 10 + (format[pos] - '0'),
                               std::numeric_limits<uint32_t>::max());
  return value;
}

PrintfLength parseLength(StringRef format, size_t &pos) {
  StringRef rest = format.substr(pos);
  static const std::pair<StringRef, PrintfLength> kLengths[] = {
      // Two-character modifiers first.
      {"hh", PrintfLength::hh}, {"ll", PrintfLength::ll},
      {"h", PrintfLength::h},   {"l", PrintfLength::l},
      {"j", PrintfLength::j},   {"z", PrintfLength::z},
      {"t", PrintfLength::t},   {"L", PrintfLength::L},
  };
  for (const auto &[name, length] : kLengths)
    if (rest.starts_with(name)) {
      pos += name.size();
      return length;
    }
  return PrintfLength::None;
}

PrintfConversion parseConversion(StringRef format, size_t &pos) {
  PrintfConversion conversion;
  conversion.offset = pos++;
  // An argument number is digits followed by '$'; other digits are the
  // width.
  size_t afterPercent = pos;
  if (parseNumber(format, pos) && pos < format.size() && format[pos] == '$') {
    conversion.positional = true;
    ++pos;
  } else {
    pos = afterPercent;
  }
  while (pos < format.size() && StringRef("-+ #0'I").contains(format[pos]))
    conversion.flags.push_back(format[pos++]);
  if (pos < format.size() && format[pos] == '*') {
    conversion.widthFromArgument = true;
    ++pos;
    parseNumber(format, pos); // "*2$": the width's argument number
    if (pos < format.size() && format[pos] == '$')
      ++pos;
  } else {
    conversion.width = parseNumber(format, pos);
  }
  if (pos < format.size() && format[pos] == '.') {
    ++pos;
    if (pos < format.size() && format[pos] == '*') {
      conversion.precisionFromArgument = true;
      ++pos;
      parseNumber(format, pos);
      if (pos < format.size() && format[pos] == '$')
        ++pos;
    } else {
      conversion.precision = parseNumber(format, pos).value_or(0);
    }
  }
  conversion.length = parseLength(format, pos);
  if (pos < format.size())
    conversion.conversion = format[pos++];
  conversion.text = format.slice(conversion.offset, pos).str();
  return conversion;
}

/// What a conversion character prints, as far as its argument goes.
enum class ConversionClass { Integer, Character, Float, Other };

ConversionClass classify(char conversion) {
  if (StringRef("diouxX").contains(conversion))
    return ConversionClass::Integer;
  if (conversion == 'c')
    return ConversionClass::Character;
  if (StringRef("eEfgGaA").contains(conversion))
    return ConversionClass::Float;
  return ConversionClass::Other;
}

/// Builds the message about one conversion: "conversion 2 '%ld' at offset
/// 6 of the format: ...".
class ConversionMessage {
public:
  ConversionMessage(const PrintfConversion &conversion, size_t number) {
    raw_string_ostream os(text);
    os << "conversion " << number << " '";
    printEscapedString(conversion.text, os);
    os << "' at offset " << conversion.offset << " of the format: ";
  }

  ConversionMessage &operator<<(StringRef value) {
    text += value.str();
    return *this;
  }
  ConversionMessage &operator<<(const char *value) {
    text += value;
    return *this;
  }
  ConversionMessage &operator<<(const std::string &value) {
    text += value;
    return *this;
  }
  ConversionMessage &operator<<(char value) {
    text.push_back(value);
    return *this;
  }
  ConversionMessage &operator<<(uint64_t value) {
    text += std::to_string(value);
    return *this;
  }

  operator std::string() const { return text; }

private:
  std::string text;
};

/// `conversion` written with `length` as its size (and `character` as its
/// conversion character, if not 0), for a suggestion.
std::string withLength(const PrintfConversion &conversion, PrintfLength length,
                       char character = '\0') {
  std::string text = "%" + conversion.flags;
  if (conversion.width)
    text += std::to_string(*conversion.width);
  if (conversion.precision)
    text += "." + std::to_string(*conversion.precision);
  text += getPrintfLengthName(length).str();
  text.push_back(character ? character : conversion.conversion);
  return text;
}

/// Why the size of `conversion` is one CUDA's printf does not take with its
/// conversion character, or "".
std::string checkLength(const PrintfConversion &conversion, size_t number) {
  PrintfLength length = conversion.length;
  StringRef name = getPrintfLengthName(length);
  switch (classify(conversion.conversion)) {
  case ConversionClass::Integer:
    if (length == PrintfLength::None || length == PrintfLength::h ||
        length == PrintfLength::l || length == PrintfLength::ll)
      return "";
    if (length == PrintfLength::L)
      break;
    return ConversionMessage(conversion, number)
           << "the size '" << name
           << "' is C's, but CUDA's printf takes only the sizes h, l and ll; "
              "write '"
           << withLength(conversion, length == PrintfLength::hh
                                         ? PrintfLength::None
                                         : PrintfLength::l)
           << "'"
           << (length == PrintfLength::hh
                   ? " (an integer of at most 32 bits is printed as an int)"
                   : " for a 64-bit integer (i64 or index)");
  case ConversionClass::Character:
    if (length == PrintfLength::None)
      return "";
    return ConversionMessage(conversion, number)
           << "'%c' takes no size (a wide character cannot be printed); write "
              "'"
           << withLength(conversion, PrintfLength::None) << "'";
  case ConversionClass::Float:
    // C99 gives 'l' no effect on a float conversion.
    if (length == PrintfLength::None || length == PrintfLength::l)
      return "";
    if (length == PrintfLength::L)
      return ConversionMessage(conversion, number)
             << "the size 'L' is for a long double, which gpu.printf cannot "
                "pass; write '"
             << withLength(conversion, PrintfLength::None)
             << "' (floats are printed as a double)";
    break;
  case ConversionClass::Other:
    return "";
  }
  return ConversionMessage(conversion, number)
         << "the size '" << name << "' does not apply to '"
         << conversion.conversion << "'; write '"
         << withLength(conversion, PrintfLength::None) << "'";
}

/// Why `conversion` is not one every backend prints the same way, whatever
/// its argument, or "".
std::string checkSpecification(const PrintfConversion &conversion,
                               size_t number) {
  if (conversion.conversion == '\0')
    return ConversionMessage(conversion, number)
           << "the format ends before the conversion character; write '%%' "
              "for a percent sign";
  if (conversion.conversion == '%') {
    if (conversion.text == "%%")
      return "";
    return ConversionMessage(conversion, number)
           << "a percent sign is written '%%', with no flags, width, "
              "precision or size";
  }
  if (conversion.positional)
    return ConversionMessage(conversion, number)
           << "argument numbers ('$') are not supported; gpu.printf takes "
              "its arguments in order";
  for (char flag : conversion.flags)
    if (flag == '\'' || flag == 'I')
      return ConversionMessage(conversion, number)
             << "the flag '" << flag
             << "' is glibc's, not one of CUDA's printf (- + space # 0)";
  if (conversion.widthFromArgument || conversion.precisionFromArgument)
    return ConversionMessage(conversion, number)
           << "a " << (conversion.widthFromArgument ? "width" : "precision")
           << " taken from an argument ('*') is not supported; write it into "
              "the format (at most "
           << kMaxPrintfFieldWidth << ")";
  if (conversion.width.value_or(0) > kMaxPrintfFieldWidth)
    return ConversionMessage(conversion, number)
           << "the width " << *conversion.width << " is more than "
           << kMaxPrintfFieldWidth << ", the most gpu.printf takes";
  if (conversion.precision.value_or(0) > kMaxPrintfFieldWidth)
    return ConversionMessage(conversion, number)
           << "the precision " << *conversion.precision << " is more than "
           << kMaxPrintfFieldWidth << ", the most gpu.printf takes";
  switch (conversion.conversion) {
  case 'n':
    return ConversionMessage(conversion, number)
           << "'%n' writes the number of characters printed so far to "
              "memory; gpu.printf does not take it";
  case 's':
    return ConversionMessage(conversion, number)
           << "'%s' prints a string, and gpu.printf cannot pass one (its "
              "arguments are integers, index and floats); write the text "
              "into the format";
  case 'p':
    return ConversionMessage(conversion, number)
           << "'%p' prints a pointer, and gpu.printf cannot pass one (its "
              "arguments are integers, index and floats); print an address "
              "held in an i64 or index with '%lx'";
  case 'F':
    return ConversionMessage(conversion, number)
           << "'%F' is C's, but not a conversion of CUDA's printf; write "
              "'%f'";
  default:
    break;
  }
  if (classify(conversion.conversion) == ConversionClass::Other) {
    std::string message = ConversionMessage(conversion, number);
    raw_string_ostream os(message);
    os << "'";
    printEscapedString(StringRef(&conversion.conversion, 1), os);
    os << "' is not a conversion of CUDA's printf (d i o u x X c e E f g G a "
          "A, and %% for a percent sign)";
    return message;
  }
  return checkLength(conversion, number);
}

/// Why no printf can print an argument of this type, or "".
std::string checkPassable(const PrintfArgument &argument, size_t number) {
  bool passable = argument.kind == PrintfArgument::Kind::Index ||
                  argument.kind == PrintfArgument::Kind::Float ||
                  (argument.kind == PrintfArgument::Kind::Integer &&
                   (argument.bits <= 32 || argument.bits == 64));
  if (passable)
    return "";
  return "argument " + std::to_string(number) + " has type " +
         argument.typeName +
         ", which gpu.printf cannot pass; it passes signless integers of at "
         "most 32 bits (as an int), i64 and index (as a long), and f16, "
         "bf16, f32 and f64 (as a double)";
}

/// Why `argument` does not match `conversion`, or "".
std::string checkArgument(const PrintfConversion &conversion, size_t number,
                          const PrintfArgument &argument,
                          size_t argumentNumber) {
  if (std::string reason = checkPassable(argument, argumentNumber);
      !reason.empty())
    return reason;
  bool isFloat = argument.kind == PrintfArgument::Kind::Float;
  bool isLong = !isFloat && (argument.kind == PrintfArgument::Kind::Index ||
                             argument.bits == 64);
  auto mismatch = [&]() {
    return ConversionMessage(conversion, number)
           << "argument " << argumentNumber << " has type " << argument.typeName
           << ", but ";
  };
  switch (classify(conversion.conversion)) {
  case ConversionClass::Float:
    if (isFloat)
      return "";
    return mismatch() << "'%" << conversion.conversion
                      << "' takes a float (f16, bf16, f32 or f64, printed as "
                         "a double); write '"
                      << withLength(
                             conversion,
                             isLong ? PrintfLength::l : PrintfLength::None, 'd')
                      << "' for an integer";
  case ConversionClass::Character:
    if (!isFloat && !isLong)
      return "";
    return mismatch() << "'%c' takes an integer of at most 32 bits (an int)";
  case ConversionClass::Integer: {
    if (isFloat)
      return mismatch() << "'%" << conversion.conversion
                        << "' takes an integer; write '%f', '%e', '%g' or "
                           "'%a' for a float";
    bool wantsLong = conversion.length == PrintfLength::l ||
                     conversion.length == PrintfLength::ll;
    if (wantsLong == isLong)
      return "";
    if (isLong)
      return mismatch() << "'" << conversion.text
                        << "' takes an int (an integer of at most 32 bits); "
                           "write '"
                        << withLength(conversion, PrintfLength::l)
                        << "' for i64 and index";
    return mismatch() << "'" << conversion.text
                      << "' takes a 64-bit integer (i64 or index); write '"
                      << withLength(conversion, PrintfLength::None)
                      << "' for an integer of at most 32 bits";
  }
  case ConversionClass::Other:
    break;
  }
  return "";
}

} // namespace

StringRef getPrintfLengthName(PrintfLength length) {
  switch (length) {
  case PrintfLength::None:
    return "";
  case PrintfLength::hh:
    return "hh";
  case PrintfLength::h:
    return "h";
  case PrintfLength::l:
    return "l";
  case PrintfLength::ll:
    return "ll";
  case PrintfLength::j:
    return "j";
  case PrintfLength::z:
    return "z";
  case PrintfLength::t:
    return "t";
  case PrintfLength::L:
    return "L";
  }
  return "";
}

std::vector<PrintfConversion> parsePrintfFormat(StringRef format) {
  std::vector<PrintfConversion> conversions;
  size_t pos = 0;
  while ((pos = format.find('%', pos)) != StringRef::npos)
    conversions.push_back(parseConversion(format, pos));
  return conversions;
}

namespace {

/// Why `format` cannot be printed with `arguments` (checkPrintfFormat), or
/// "".
std::string findFormatProblem(StringRef format,
                              ArrayRef<PrintfArgument> arguments) {
  if (size_t nul = format.find('\0'); nul != StringRef::npos)
    return "the format holds a NUL character at offset " + std::to_string(nul) +
           ", where printf would stop reading it";
  if (arguments.size() > kMaxPrintfArguments)
    return std::to_string(arguments.size()) +
           " arguments are passed, but CUDA's printf takes at most " +
           std::to_string(kMaxPrintfArguments) + " besides the format";

  std::vector<PrintfConversion> conversions = parsePrintfFormat(format);
  size_t taking = llvm::count_if(conversions, [](const PrintfConversion &c) {
    return c.conversion != '%';
  });
  size_t next = 0;
  for (auto [index, conversion] : llvm::enumerate(conversions)) {
    size_t number = index + 1;
    if (std::string reason = checkSpecification(conversion, number);
        !reason.empty())
      return reason;
    if (conversion.conversion == '%')
      continue;
    if (next == arguments.size())
      return ConversionMessage(conversion, number)
             << "it has no argument: the format has " << taking
             << " conversions that take one, but " << arguments.size()
             << (arguments.size() == 1 ? " argument is" : " arguments are")
             << " passed";
    if (std::string reason =
            checkArgument(conversion, number, arguments[next], next + 1);
        !reason.empty())
      return reason;
    ++next;
  }
  if (next < arguments.size()) {
    if (std::string reason = checkPassable(arguments[next], next + 1);
        !reason.empty())
      return reason;
    return std::to_string(arguments.size()) +
           (arguments.size() == 1 ? " argument is" : " arguments are") +
           " passed, but the format has " + std::to_string(taking) +
           (taking == 1 ? " conversion that takes one"
                        : " conversions that "
                          "take one");
  }
  return "";
}

} // namespace

llvm::Error checkPrintfFormat(StringRef format,
                              ArrayRef<PrintfArgument> arguments) {
  std::string problem = findFormatProblem(format, arguments);
  if (problem.empty())
    return llvm::Error::success();
  return llvm::createStringError(problem);
}

} // namespace gpu_runner
