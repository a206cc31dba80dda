//===- DataValueTest.cpp - The value grammar of --input -------------------===//

#include "runner/DataValue.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

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

/// A file of `bytes` in the temporary folder, removed when this goes.
class TemporaryFile {
public:
  TemporaryFile(llvm::StringRef suffix, llvm::StringRef bytes) {
    int fd;
    REQUIRE(
        !llvm::sys::fs::createTemporaryFile("data-value", suffix, fd, path));
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
  }
  ~TemporaryFile() { llvm::sys::fs::remove(path); }
  std::string getPath() const { return std::string(path); }

private:
  llvm::SmallString<128> path;
};

} // namespace

TEST_CASE("Scalars stay untyped until typed", "[data]") {
  DataValue value = parse("-1.5");
  CHECK(!value.type);
  CHECK(value.literal == "-1.5");
  CHECK(value.describe() == "the scalar -1.5");
  char bytes[8];
  REQUIRE(!convertLiteral("-1.5", ElementType::F32, bytes));
  CHECK(readFloat(ElementType::F32, bytes) == -1.5);
  llvm::Error error = convertLiteral("-1.5", ElementType::I32, bytes);
  CHECK(llvm::toString(std::move(error)) == "'-1.5' is not an integer (i32)");
  CHECK(parse("i64=42").describe() == "the scalar i64=42");
  CHECK(parseError("x") == "column 1: 'x' is not a number; a shaped value is "
                           "written SHAPExTYPE=VALUES, as in 4xf32=1,2,3,4");
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

TEST_CASE("Floats round to their type", "[data]") {
  DataValue half = parse("f16=0.5");
  CHECK(readFloat(ElementType::F16, half.data.data()) == 0.5);
  CHECK(parseError("f16=70000") == "column 5: '70000' is out of range for f16");
  CHECK(parseError("f32=1e99") == "column 5: '1e99' is out of range for f32");
  DataValue infinity = parse("f32=-inf");
  CHECK(readFloat(ElementType::F32, infinity.data.data()) < -1e300);
  CHECK(parseError("f64=1e") == "column 5: '1e' is not an f64 value");
}

TEST_CASE("Shapes, splats and their errors", "[data]") {
  DataValue value = parse("2x3xf32=1,2,3,4,5,6");
  CHECK(value.shaped);
  CHECK(value.shape == std::vector<int64_t>{2, 3});
  CHECK(value.getNumElements() == 6);
  CHECK(value.describe() == "2x3xf32");
  CHECK(readFloat(ElementType::F32, value.data.data() + 5 * 4) == 6);
  DataValue splat = parse("2x2xindex=7");
  for (int i = 0; i < 4; ++i)
    CHECK(readInteger(ElementType::Index, splat.data.data() + i * 8) == 7);
  CHECK(parse("0x4xf32=0").getNumElements() == 0);
  // Sizes whose product does not fit, next to a 0 (found by fuzzing).
  CHECK(parse("0x68719476736x68719476736xi8=0").getNumElements() == 0);
  CHECK(parseError("2x3xf32=1,2,3") ==
        "column 9: 2x3xf32 takes 6 values (or one, for all of them), but 3 "
        "were given");
  CHECK(parseError("3xf32=1, 2,q") == "column 12: 'q' is not an f32 value");
  CHECK(parseError("3xf32=1,,2") == "column 9: a value is missing");
  CHECK(parseError("i32=1,2") ==
        "column 7: a scalar takes one value, but 2 were given; a shaped "
        "value is written SHAPExTYPE=VALUES, as in 4xf32=1,2,3,4");
  CHECK(parseError("1000000x1000000x1000000xf32=0")
            .find("is larger than the 64 GiB a value may have") !=
        std::string::npos);
  CHECK(parseError("2y3xf32=1") == "column 2: expected 'x' after the "
                                   "dimension 2");
  CHECK(parseError("2xf31=1") == "column 3: 'f31' is not an element type (i1, "
                                 "i8, i16, i32, i64, index, f16, f32, f64)");
  CHECK(parseError("") == "column 1: the value is empty");
}

TEST_CASE("Values from files", "[data]") {
  TemporaryFile raw("bin", llvm::StringRef("\x01\x00\x02\x00", 4));
  DataValue value = parse("2xi16=@" + raw.getPath());
  CHECK(readInteger(ElementType::I16, value.data.data() + 2) == 2);
  CHECK(parseError("3xi16=@" + raw.getPath()) ==
        raw.getPath() + ": 3xi16 is 6 bytes, but the file has 4");
  CHECK(parseError("@" + raw.getPath()) ==
        "column 2: '" + raw.getPath() +
            "' is not a .npy file; give raw bytes with their shape and type, "
            "as in 4xf32=@" +
            raw.getPath());
  CHECK(parseError("@") == "column 2: a file name must follow '@'");
  CHECK(parseError("2xi16=@") == "column 8: a file name must follow '@'");
  llvm::Expected<DataValue> unread =
      parseDataValue("2xi16=@" + raw.getPath(), kMaxValueBytes,
                     /*readFiles=*/false);
  REQUIRE(!unread);
  CHECK(llvm::toString(unread.takeError()) ==
        "column 7: files are not read here");
}

TEST_CASE("Shapes and sizes as messages write them", "[data]") {
  CHECK(formatShape({4, kDynamicSize, 2}) == "4x?x2");
  CHECK(formatShapedType({}, ElementType::F32) == "f32");
  CHECK(formatShapedType({3}, ElementType::Index) == "3xindex");
  CHECK(formatBytes(uint64_t(1) << 36) == "64 GiB");
  CHECK(formatBytes(100) == "100 bytes");
  CHECK(countElements({3, 4}, 12) == uint64_t(12));
  CHECK(!countElements({3, 4}, 11));
  CHECK(!countElements({-1}, 100));
}
