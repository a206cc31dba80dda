//===- DataPrinterTest.cpp - Results printed as printMemref prints them ---===//

#include "runner/DataPrinter.h"

#include <catch2/catch.hpp>

using namespace gpu_runner;

namespace {

DataValue parse(llvm::StringRef text) {
  llvm::Expected<DataValue> value = parseDataValue(text);
  if (!value)
    FAIL(llvm::toString(value.takeError()));
  return std::move(*value);
}

std::string print(const DataValue &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printData(os, value);
  return text;
}

} // namespace

TEST_CASE("Data printed in printMemref's layout", "[print]") {
  CHECK(print(parse("2x3xf32=1,2,3,4,5,6")) ==
        "[[1,   2,   3], \n [4,   5,   6]]\n");
  CHECK(print(parse("2x2xindex=7")) == "[[7,   7], \n [7,   7]]\n");
  CHECK(print(parse("1xf64=0.25")) == "[0.25]\n");
  CHECK(print(parse("3xi8=-1,0,1")) == "[-1,  0,  1]\n");
  CHECK(print(parse("2x1x2xi32=1,2,3,4")) == "[[[1,    2]], \n [[3,    4]]]\n");
}

TEST_CASE("Scalars and empty shapes", "[print]") {
  CHECK(print(parse("i32=-5")) == "-5\n");
  CHECK(print(parse("f16=0.5")) == "0.5\n");
  CHECK(print(parse("0x4xf32=0")) == "[]\n");
  // Sizes whose product does not fit, next to a 0 (found by fuzzing).
  CHECK(print(parse("0x68719476736x68719476736xi8=0")) == "[]\n");
  CHECK(print(parse("2x0x68719476736x68719476736xi8=0")) == "[[], \n []]\n");
}

TEST_CASE("Elements as printData prints them", "[print]") {
  DataValue floats = parse("3xf32=1e20,nan,-inf");
  CHECK(formatElement(ElementType::F32, floats.data.data()) == "1e+20");
  CHECK(formatElement(ElementType::F32, floats.data.data() + 4) == "nan");
  CHECK(formatElement(ElementType::F32, floats.data.data() + 8) == "-inf");
  DataValue flags = parse("2xi1=true,0");
  CHECK(formatElement(ElementType::I1, flags.data.data()) == "1");
  CHECK(formatElement(ElementType::I1, flags.data.data() + 1) == "0");
  DataValue wide = parse("i64=-9223372036854775808");
  CHECK(formatElement(ElementType::I64, wide.data.data()) ==
        "-9223372036854775808");
}
