//===- DataComparisonTest.cpp - Results compared with expected values -----===//

#include "runner/DataComparison.h"

#include <catch2/catch.hpp>

using namespace gpu_runner;

namespace {

DataValue parse(llvm::StringRef text) {
  llvm::Expected<DataValue> value = parseDataValue(text);
  if (!value)
    FAIL(llvm::toString(value.takeError()));
  return std::move(*value);
}

Comparison compare(llvm::StringRef got, llvm::StringRef want,
                   const Tolerance &tolerance = Tolerance()) {
  llvm::Expected<Comparison> comparison =
      compareData(parse(got), parse(want), tolerance);
  if (!comparison)
    FAIL(llvm::toString(comparison.takeError()));
  return std::move(*comparison);
}

} // namespace

TEST_CASE("Floats within a tolerance", "[compare]") {
  Tolerance tolerance;
  CHECK(compare("3xf32=1,2,nan", "3xf32=1,2.00001,nan").mismatches ==
        1); // NaN is not NaN without nanEqual
  tolerance.nanEqual = true;
  Comparison same = compare("3xf32=1,2,nan", "3xf32=1,2.00001,nan", tolerance);
  CHECK(same.elements == 3);
  CHECK(same.mismatches == 0);
  Comparison off = compare("3xf32=1,2,nan", "3xf32=1,2.1,nan", tolerance);
  CHECK(off.mismatches == 1);
  REQUIRE(off.firstMismatches.size() == 1);
  CHECK(off.firstMismatches[0].rfind("[1]: got 2, expected 2.1", 0) == 0);
  // The relative part scales with the expected value.
  tolerance.atol = 0;
  tolerance.rtol = 0.01;
  CHECK(compare("f64=101", "f64=100", tolerance).mismatches == 0);
  CHECK(compare("f64=1.5", "f64=1", tolerance).mismatches == 1);
  // The same infinity is equal, whatever the tolerance.
  CHECK(compare("2xf32=inf,-inf", "2xf32=inf,-inf").mismatches == 0);
  // Any other value, or the other infinity, is not, whatever the tolerance.
  CHECK(compare("2xf32=1,inf", "2xf32=inf,1").mismatches == 2);
  CHECK(compare("2xf32=-inf,inf", "2xf32=inf,-inf").mismatches == 2);
  CHECK(compare("f64=1e308", "f64=inf").mismatches == 1);
  tolerance.atol = 1e300;
  tolerance.rtol = 1;
  CHECK(compare("f32=-inf", "f32=inf", tolerance).mismatches == 1);
  CHECK(compare("f32=0", "f32=inf", tolerance).mismatches == 1);
}

TEST_CASE("Integers exactly", "[compare]") {
  Comparison extremes =
      compare("1xi64=9223372036854775807", "1xi64=-9223372036854775808");
  REQUIRE(extremes.firstMismatches.size() == 1);
  CHECK(extremes.firstMismatches[0] ==
        "[0]: got 9223372036854775807, expected -9223372036854775808 "
        "(difference 1.84467e+19)");
  Comparison scalar = compare("i32=7", "i32=8");
  REQUIRE(scalar.firstMismatches.size() == 1);
  CHECK(scalar.firstMismatches[0] == "got 7, expected 8 (difference -1)");
  // Index and i64 are the same integers.
  CHECK(compare("2xindex=5", "2xi64=5").mismatches == 0);
}

TEST_CASE("Mismatches listed, up to a limit", "[compare]") {
  Comparison many = compare("2x6xi8=0", "2x6xi8=1");
  CHECK(many.elements == 12);
  CHECK(many.mismatches == 12);
  REQUIRE(many.firstMismatches.size() == kMismatchesListed);
  CHECK(many.firstMismatches[7] == "[1, 1]: got 0, expected 1 (difference -1)");
}

TEST_CASE("Shapes and types must agree", "[compare]") {
  CHECK(compare("3xf32=1", "1x3xf32=1").shapeMismatch ==
        "expected 1x3xf32, got 3xf32");
  CHECK(compare("3xf32=1", "3xf64=1").shapeMismatch ==
        "expected 3xf64, got 3xf32");
  CHECK(compare("i32=1", "3xi32=1").shapeMismatch ==
        "expected 3xi32, got the scalar i32=1");
  CHECK(compare("3xi32=1", "7").shapeMismatch ==
        "expected the scalar 7, got 3xi32");
}

TEST_CASE("An untyped expected scalar takes the result's type", "[compare]") {
  CHECK(compare("i16=7", "7").mismatches == 0);
  CHECK(compare("f32=0.5", "0.5").mismatches == 0);
  llvm::Expected<Comparison> bad =
      compareData(parse("i16=7"), parse("1.5"), Tolerance());
  REQUIRE(!bad);
  CHECK(llvm::toString(bad.takeError()) == "'1.5' is not an integer (i16)");
}
