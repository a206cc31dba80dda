//===- ProgramDataTest.cpp - The value grammar, NumPy files, comparing ----===//

#include "runner/ProgramData.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace gpu_runner;

namespace {

DataValue parse(llvm::StringRef text) {
  llvm::Expected<DataValue> value = parseDataValue(text);
  if (!value)
    FAIL(llvm::toString(value.takeError()));
  return std::move(*value);
}

std::string parseError(llvm::StringRef text) {
  llvm::Expected<DataValue> value = parseDataValue(text);
  REQUIRE(!value);
  return llvm::toString(value.takeError());
}

std::string print(const DataValue &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printData(os, value);
  return text;
}

} // namespace

TEST_CASE("Scalars stay untyped until typed", "[data]") {
  DataValue value = parse("-1.5");
  CHECK(!value.type);
  CHECK(value.literal == "-1.5");
  char bytes[8];
  REQUIRE(!convertLiteral("-1.5", ElementType::F32, bytes));
  CHECK(readFloat(ElementType::F32, bytes) == -1.5);
  llvm::Error error = convertLiteral("-1.5", ElementType::I32, bytes);
  CHECK(llvm::toString(std::move(error)) == "'-1.5' is not an integer (i32)");
}

TEST_CASE("Integers are signless", "[data]") {
  DataValue value = parse("4xi8=-128,255,200,0");
  REQUIRE(value.type == ElementType::I8);
  CHECK(readInteger(ElementType::I8, value.data.data() + 1) == -1);
  CHECK(readInteger(ElementType::I8, value.data.data() + 2) == -56);
  CHECK(parseError("i8=256") == "column 4: '256' is out of range for i8");
  CHECK(parseError("i8=-129") == "column 4: '-129' is out of range for i8");
  DataValue big = parse("i64=18446744073709551615");
  CHECK(readInteger(ElementType::I64, big.data.data()) == -1);
  CHECK(parseError("i64=18446744073709551616") ==
        "column 5: '18446744073709551616' is out of range for i64");
  CHECK(parse("i1=true").data.data()[0] == 1);
  CHECK(parseError("i1=2") == "column 4: '2' is out of range for i1");
}

TEST_CASE("Shapes, splats and their errors", "[data]") {
  DataValue value = parse("2x3xf32=1,2,3,4,5,6");
  CHECK(value.shape == std::vector<int64_t>{2, 3});
  CHECK(print(value) == "[[1,   2,   3], \n [4,   5,   6]]\n");
  DataValue splat = parse("2x2xindex=7");
  CHECK(print(splat) == "[[7,   7], \n [7,   7]]\n");
  CHECK(print(parse("0x4xf32=0")) == "[]\n");
  // Sizes whose product does not fit, next to a 0 (found by fuzzing).
  CHECK(print(parse("0x68719476736x68719476736xi8=0")) == "[]\n");
  CHECK(print(parse("2x0x68719476736x68719476736xi8=0")) == "[[], \n []]\n");
  CHECK(print(parse("1xf64=0.25")) == "[0.25]\n");
  CHECK(parseError("2x3xf32=1,2,3") ==
        "column 9: 2x3xf32 takes 6 values (or one, for all of them), but 3 "
        "were given");
  CHECK(parseError("3xf32=1, 2,q") == "column 12: 'q' is not an f32 value");
  CHECK(parseError("3xf32=1,,2") == "column 9: a value is missing");
  CHECK(parseError("1000000x1000000x1000000xf32=0")
            .find("is larger than the 64 GiB a value may have") !=
        std::string::npos);
  CHECK(parseError("f16=70000") == "column 5: '70000' is out of range for f16");
  CHECK(parseError("") == "column 1: the value is empty");
}

TEST_CASE("NumPy files round-trip", "[data]") {
  DataValue value = parse("2x3xi16=1,-2,3,-4,5,-6");
  std::string file = writeNpy(value);
  CHECK(file.size() == 128 + 12);
  CHECK(llvm::StringRef(file).starts_with("\x93NUMPY\x01\x00"));
  CHECK(file.substr(10, 118).find("{'descr': '<i2', 'fortran_order': False, "
                                  "'shape': (2, 3), }") == 0);
  llvm::Expected<DataValue> back = parseNpy("t.npy", file);
  REQUIRE(static_cast<bool>(back));
  CHECK(back->type == ElementType::I16);
  CHECK(back->shape == value.shape);
  CHECK(std::memcmp(back->data.data(), value.data.data(), 12) == 0);

  llvm::Expected<DataValue> truncated =
      parseNpy("a.npy", llvm::StringRef(file).drop_back(2));
  REQUIRE(!truncated);
  CHECK(llvm::toString(truncated.takeError()) ==
        "a.npy: header says 2x3 i16 (12 bytes of data) but the file has 10");
  std::string oneD = writeNpy(parse("3xf32=1"));
  CHECK(oneD.find("'shape': (3,), }") != std::string::npos);
  std::string zeroD = writeNpy(parse("f64=1"));
  CHECK(zeroD.find("'shape': (), }") != std::string::npos);
}

TEST_CASE("Comparison within a tolerance", "[data]") {
  Tolerance tolerance;
  DataValue got = parse("3xf32=1,2,nan");
  llvm::Expected<Comparison> same =
      compareData(got, parse("3xf32=1,2.00001,nan"), tolerance);
  REQUIRE(static_cast<bool>(same));
  CHECK(same->mismatches == 1); // NaN is not NaN without nanEqual
  tolerance.nanEqual = true;
  same = compareData(got, parse("3xf32=1,2.00001,nan"), tolerance);
  REQUIRE(static_cast<bool>(same));
  CHECK(same->mismatches == 0);
  llvm::Expected<Comparison> off =
      compareData(got, parse("3xf32=1,2.1,nan"), tolerance);
  REQUIRE(static_cast<bool>(off));
  CHECK(off->mismatches == 1);
  REQUIRE(off->firstMismatches.size() == 1);
  CHECK(off->firstMismatches[0].rfind("[1]: got 2, expected 2.1", 0) == 0);
  llvm::Expected<Comparison> extremes =
      compareData(parse("1xi64=9223372036854775807"),
                  parse("1xi64=-9223372036854775808"), tolerance);
  REQUIRE(static_cast<bool>(extremes));
  REQUIRE(extremes->firstMismatches.size() == 1);
  CHECK(extremes->firstMismatches[0] ==
        "[0]: got 9223372036854775807, expected -9223372036854775808 "
        "(difference 1.84467e+19)");
  llvm::Expected<Comparison> shape =
      compareData(got, parse("1x3xf32=1"), tolerance);
  REQUIRE(static_cast<bool>(shape));
  CHECK(shape->shapeMismatch == "expected 1x3xf32, got 3xf32");
}
