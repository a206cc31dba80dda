//===- PrintfFormatTest.cpp - The formats gpu.printf takes ----------------===//
//
// The parser reads a format as C's printf does; the checker keeps to what
// CUDA's printf documents and matches each conversion with its argument by
// C's rules, and its messages name the conversion, its offset and the
// argument's type.
//
//===----------------------------------------------------------------------===//

#include "lowering/checks/PrintfFormat.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gpu_runner;

namespace {

PrintfArgument integer(unsigned bits) {
  return {PrintfArgument::Kind::Integer, bits, "i" + std::to_string(bits)};
}
PrintfArgument index() { return {PrintfArgument::Kind::Index, 64, "index"}; }
PrintfArgument f32() { return {PrintfArgument::Kind::Float, 32, "f32"}; }
PrintfArgument f64() { return {PrintfArgument::Kind::Float, 64, "f64"}; }
PrintfArgument other(const char *name) {
  return {PrintfArgument::Kind::Other, 0, name};
}

std::string check(const std::string &format,
                  std::vector<PrintfArgument> arguments = {}) {
  llvm::Error error = checkPrintfFormat(format, arguments);
  return error ? llvm::toString(std::move(error)) : "";
}

} // namespace

TEST_CASE("a conversion is read field by field", "[printf]") {
  std::vector<PrintfConversion> conversions =
      parsePrintfFormat("x=%-+08.3lld%%y");
  REQUIRE(conversions.size() == 2);
  const PrintfConversion &first = conversions[0];
  CHECK(first.offset == 2);
  CHECK(first.text == "%-+08.3lld");
  CHECK(first.flags == "-+0");
  CHECK(first.width == 8u);
  CHECK(first.precision == 3u);
  CHECK(first.length == PrintfLength::ll);
  CHECK(first.conversion == 'd');
  CHECK_FALSE(first.positional);
  CHECK(conversions[1].text == "%%");
  CHECK(conversions[1].offset == 12);
}

TEST_CASE("every size is read, two-letter ones first", "[printf]") {
  const std::pair<const char *, PrintfLength> cases[] = {
      {"%hhd", PrintfLength::hh}, {"%hd", PrintfLength::h},
      {"%ld", PrintfLength::l},   {"%lld", PrintfLength::ll},
      {"%jd", PrintfLength::j},   {"%zd", PrintfLength::z},
      {"%td", PrintfLength::t},   {"%Lf", PrintfLength::L},
      {"%d", PrintfLength::None}};
  for (const auto &[format, length] : cases) {
    INFO(format);
    std::vector<PrintfConversion> conversions = parsePrintfFormat(format);
    REQUIRE(conversions.size() == 1);
    CHECK(conversions[0].length == length);
    CHECK(conversions[0].text == format);
  }
}

TEST_CASE("stars, argument numbers and a lone '.' are read", "[printf]") {
  PrintfConversion star = parsePrintfFormat("%*.*d")[0];
  CHECK(star.widthFromArgument);
  CHECK(star.precisionFromArgument);
  CHECK_FALSE(star.width);

  PrintfConversion numbered = parsePrintfFormat("%2$5d")[0];
  CHECK(numbered.positional);
  CHECK(numbered.width == 5u);

  PrintfConversion dot = parsePrintfFormat("%.f")[0];
  CHECK(dot.precision == 0u);
  CHECK(dot.conversion == 'f');

  // Digits without '$' are the width, not an argument number.
  PrintfConversion width = parsePrintfFormat("%12d")[0];
  CHECK_FALSE(width.positional);
  CHECK(width.width == 12u);
}

TEST_CASE("huge numbers saturate instead of overflowing", "[printf]") {
  PrintfConversion conversion =
      parsePrintfFormat("%99999999999999999999999999d")[0];
  CHECK(conversion.width == 4294967295u);
  CHECK(conversion.conversion == 'd');
}

TEST_CASE("a format that ends inside a conversion is read to its end",
          "[printf]") {
  std::vector<PrintfConversion> conversions = parsePrintfFormat("ab%-5");
  REQUIRE(conversions.size() == 1);
  CHECK(conversions[0].conversion == '\0');
  CHECK(conversions[0].text == "%-5");
}

TEST_CASE("valid formats with every type pass", "[printf]") {
  CHECK(check("plain text\n") == "");
  CHECK(check("100%%\n") == "");
  CHECK(check("%d %i %o %u %x %X %c\n",
              {integer(32), integer(8), integer(16), integer(1), integer(32),
               integer(32), integer(8)}) == "");
  CHECK(check("%hd %hu\n", {integer(16), integer(32)}) == "");
  CHECK(check("%ld %lld %lu %llx\n",
              {integer(64), index(), index(), integer(64)}) == "");
  CHECK(check("%f %e %E %g %G %a %A %lf\n",
              {f32(), f64(), f32(), f32(), f64(), f32(), f64(), f64()}) == "");
  CHECK(check("%-+ #08.3f|%5d|%.0e", {f32(), integer(32), f64()}) == "");
  CHECK(check("%1024d %.1024f", {integer(32), f64()}) == "");
  CHECK(check("%f %g", {{PrintfArgument::Kind::Float, 16, "f16"},
                        {PrintfArgument::Kind::Float, 16, "bf16"}}) == "");
}

TEST_CASE("%n, %s and %p are refused", "[printf]") {
  CHECK(check("abcde%n\n", {integer(64)}) ==
        "conversion 1 '%n' at offset 5 of the format: '%n' writes the number "
        "of characters printed so far to memory; gpu.printf does not take "
        "it");
  CHECK(check("%s", {integer(32)}) ==
        "conversion 1 '%s' at offset 0 of the format: '%s' prints a string, "
        "and gpu.printf cannot pass one (its arguments are integers, index "
        "and floats); write the text into the format");
  CHECK(check("at %p\n", {index()}) ==
        "conversion 1 '%p' at offset 3 of the format: '%p' prints a pointer, "
        "and gpu.printf cannot pass one (its arguments are integers, index "
        "and floats); print an address held in an i64 or index with '%lx'");
}

TEST_CASE("conversions and arguments must agree in number", "[printf]") {
  CHECK(check("%x %x\n") ==
        "conversion 1 '%x' at offset 0 of the format: it has no argument: "
        "the format has 2 conversions that take one, but 0 arguments are "
        "passed");
  CHECK(check("%d %d", {integer(32)}) ==
        "conversion 2 '%d' at offset 3 of the format: it has no argument: "
        "the format has 2 conversions that take one, but 1 argument is "
        "passed");
  CHECK(check("%d%%\n", {integer(32), integer(32)}) ==
        "2 arguments are passed, but the format has 1 conversion that takes "
        "one");
  CHECK(check("no conversions", {f32()}) ==
        "1 argument is passed, but the format has 0 conversions that take "
        "one");
}

TEST_CASE("a conversion must match its argument's type", "[printf]") {
  CHECK(check("v=%5d\n", {integer(64)}) ==
        "conversion 1 '%5d' at offset 2 of the format: argument 1 has type "
        "i64, but '%5d' takes an int (an integer of at most 32 bits); write "
        "'%5ld' for i64 and index");
  CHECK(check("%d", {index()}) ==
        "conversion 1 '%d' at offset 0 of the format: argument 1 has type "
        "index, but '%d' takes an int (an integer of at most 32 bits); write "
        "'%ld' for i64 and index");
  CHECK(check("%lx", {integer(32)}) ==
        "conversion 1 '%lx' at offset 0 of the format: argument 1 has type "
        "i32, but '%lx' takes a 64-bit integer (i64 or index); write '%x' "
        "for an integer of at most 32 bits");
  CHECK(check("%d %f", {integer(32), integer(32)}) ==
        "conversion 2 '%f' at offset 3 of the format: argument 2 has type "
        "i32, but '%f' takes a float (f16, bf16, f32 or f64, printed as a "
        "double); write '%d' for an integer");
  CHECK(check("%.2e", {index()}) ==
        "conversion 1 '%.2e' at offset 0 of the format: argument 1 has type "
        "index, but '%e' takes a float (f16, bf16, f32 or f64, printed as a "
        "double); write '%.2ld' for an integer");
  CHECK(check("%u", {f32()}) ==
        "conversion 1 '%u' at offset 0 of the format: argument 1 has type "
        "f32, but '%u' takes an integer; write '%f', '%e', '%g' or '%a' for "
        "a float");
  CHECK(check("%c", {integer(64)}) ==
        "conversion 1 '%c' at offset 0 of the format: argument 1 has type "
        "i64, but '%c' takes an integer of at most 32 bits (an int)");
}

TEST_CASE("types no printf can print are refused", "[printf]") {
  CHECK(check("%ld", {integer(48)}) ==
        "argument 1 has type i48, which gpu.printf cannot pass; it passes "
        "signless integers of at most 32 bits (as an int), i64 and index (as "
        "a long), and f16, bf16, f32 and f64 (as a double)");
  CHECK(check("%d %f", {integer(32), other("f128")})
            .find("argument 2 has type f128, which gpu.printf cannot pass") ==
        0);
  CHECK(check("%lld", {integer(128)}).find("argument 1 has type i128") == 0);
  // Also when no conversion would take it.
  CHECK(check("", {other("si32")}).find("argument 1 has type si32") == 0);
}

TEST_CASE("widths and precisions are capped and never taken from arguments",
          "[printf]") {
  CHECK(check("%999999999d\n", {integer(32)}) ==
        "conversion 1 '%999999999d' at offset 0 of the format: the width "
        "999999999 is more than 1024, the most gpu.printf takes");
  CHECK(check("%.1025f", {f32()}) ==
        "conversion 1 '%.1025f' at offset 0 of the format: the precision "
        "1025 is more than 1024, the most gpu.printf takes");
  CHECK(check("%*d", {integer(32), integer(32)}) ==
        "conversion 1 '%*d' at offset 0 of the format: a width taken from an "
        "argument ('*') is not supported; write it into the format (at most "
        "1024)");
  CHECK(
      check("%.*f", {integer(32), f32()})
          .find("a precision taken from an argument ('*') is not supported") !=
      std::string::npos);
}

TEST_CASE("sizes outside CUDA's h, l and ll are refused", "[printf]") {
  CHECK(check("%zu", {index()}) ==
        "conversion 1 '%zu' at offset 0 of the format: the size 'z' is C's, "
        "but CUDA's printf takes only the sizes h, l and ll; write '%lu' for "
        "a 64-bit integer (i64 or index)");
  CHECK(check("%jd", {integer(64)}).find("the size 'j' is C's") !=
        std::string::npos);
  CHECK(check("%td", {integer(64)}).find("the size 't' is C's") !=
        std::string::npos);
  CHECK(check("%hhx", {integer(8)}) ==
        "conversion 1 '%hhx' at offset 0 of the format: the size 'hh' is "
        "C's, but CUDA's printf takes only the sizes h, l and ll; write '%x' "
        "(an integer of at most 32 bits is printed as an int)");
  CHECK(check("%Lf", {f64()}) ==
        "conversion 1 '%Lf' at offset 0 of the format: the size 'L' is for a "
        "long double, which gpu.printf cannot pass; write '%f' (floats are "
        "printed as a double)");
  CHECK(check("%hf", {f32()}) ==
        "conversion 1 '%hf' at offset 0 of the format: the size 'h' does not "
        "apply to 'f'; write '%f'");
  CHECK(check("%Ld", {integer(64)}) ==
        "conversion 1 '%Ld' at offset 0 of the format: the size 'L' does not "
        "apply to 'd'; write '%d'");
  CHECK(check("%lc", {integer(32)}) ==
        "conversion 1 '%lc' at offset 0 of the format: '%c' takes no size (a "
        "wide character cannot be printed); write '%c'");
}

TEST_CASE("malformed conversions are refused", "[printf]") {
  CHECK(check("100%") ==
        "conversion 1 '%' at offset 3 of the format: the format ends before "
        "the conversion character; write '%%' for a percent sign");
  CHECK(check("%y", {integer(32)}) ==
        "conversion 1 '%y' at offset 0 of the format: 'y' is not a conversion "
        "of CUDA's printf (d i o u x X c e E f g G a A, and %% for a percent "
        "sign)");
  CHECK(check("%\n") ==
        "conversion 1 '%\\0A' at offset 0 of the format: '\\0A' is not a "
        "conversion of CUDA's printf (d i o u x X c e E f g G a A, and %% for "
        "a percent sign)");
  CHECK(check("%F", {f32()}) ==
        "conversion 1 '%F' at offset 0 of the format: '%F' is C's, but not a "
        "conversion of CUDA's printf; write '%f'");
  CHECK(check("%5%") ==
        "conversion 1 '%5%' at offset 0 of the format: a percent sign is "
        "written '%%', with no flags, width, precision or size");
  CHECK(check("%1$d", {integer(32)}) ==
        "conversion 1 '%1$d' at offset 0 of the format: argument numbers "
        "('$') are not supported; gpu.printf takes its arguments in order");
  CHECK(check("%'d", {integer(32)}) ==
        "conversion 1 '%'d' at offset 0 of the format: the flag ''' is "
        "glibc's, not one of CUDA's printf (- + space # 0)");
  CHECK(check(std::string("a\0%d", 4), {integer(32)}) ==
        "the format holds a NUL character at offset 1, where printf would "
        "stop reading it");
}

TEST_CASE("at most 32 arguments", "[printf]") {
  std::string format;
  for (int i = 0; i < 33; ++i)
    format += "%d ";
  std::vector<PrintfArgument> arguments(33, integer(32));
  CHECK(check(format, arguments) ==
        "33 arguments are passed, but CUDA's printf takes at most 32 besides "
        "the format");
  arguments.pop_back();
  format.resize(format.size() - 3);
  CHECK(check(format, arguments) == "");
}
