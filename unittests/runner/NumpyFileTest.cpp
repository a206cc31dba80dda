//===- NumpyFileTest.cpp - NumPy's .npy files read and written ------------===//

#include "runner/NumpyFile.h"

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

/// A NumPy file of format 1.0 with `header` and `data`, as NumPy lays it
/// out (no padding: the reader does not need it).
std::string makeNpy(llvm::StringRef header, llvm::StringRef data) {
  std::string file("\x93NUMPY\x01\x00", 8);
  file += char(header.size() & 0xff);
  file += char(header.size() >> 8);
  file += header;
  file += data;
  return file;
}

std::string npyError(llvm::StringRef bytes) {
  llvm::Expected<DataValue> value = parseNpy("a.npy", bytes);
  REQUIRE(!value);
  return llvm::toString(value.takeError());
}

} // namespace

TEST_CASE("NumPy files round-trip", "[numpy]") {
  DataValue value = parse("2x3xi16=1,-2,3,-4,5,-6");
  std::string file = writeNpy(value);
  CHECK(file.size() == 128 + 12);
  CHECK(llvm::StringRef(file).starts_with("\x93NUMPY\x01\x00"));
  CHECK(file.substr(10, 118).find("{'descr': '<i2', 'fortran_order': False, "
                                  "'shape': (2, 3), }") == 0);
  CHECK(file[127] == '\n');
  llvm::Expected<DataValue> back = parseNpy("t.npy", file);
  REQUIRE(static_cast<bool>(back));
  CHECK(back->type == ElementType::I16);
  CHECK(back->shaped);
  CHECK(back->shape == value.shape);
  CHECK(std::memcmp(back->data.data(), value.data.data(), 12) == 0);

  std::string oneD = writeNpy(parse("3xf32=1"));
  CHECK(oneD.find("'shape': (3,), }") != std::string::npos);
  std::string zeroD = writeNpy(parse("f64=1"));
  CHECK(zeroD.find("'shape': (), }") != std::string::npos);
  // Index is written as the 64-bit integer it is.
  CHECK(writeNpy(parse("1xindex=1")).find("'<i8'") != std::string::npos);
}

TEST_CASE("NumPy's dtypes and what they become", "[numpy]") {
  llvm::Expected<DataValue> bytes = parseNpy(
      "u.npy",
      makeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }",
              "\xff\x01"));
  REQUIRE(static_cast<bool>(bytes));
  CHECK(bytes->type == ElementType::I8);
  CHECK(int8_t(bytes->data.data()[0]) == -1);
  // Format 2.0 has a 4-byte header length.
  std::string header = "{'descr': '<f4', 'fortran_order': False, "
                       "'shape': (), }";
  std::string v2("\x93NUMPY\x02\x00", 8);
  v2 += char(header.size());
  v2 += std::string(3, '\0');
  v2 += header;
  v2 += std::string("\x00\x00\x80\x3f", 4);
  llvm::Expected<DataValue> one = parseNpy("v2.npy", v2);
  REQUIRE(static_cast<bool>(one));
  CHECK(one->type == ElementType::F32);
  CHECK(one->shape.empty());
  CHECK(readFloat(ElementType::F32, one->data.data()) == 1.0);
}

TEST_CASE("Malformed NumPy files are errors", "[numpy]") {
  std::string file = writeNpy(parse("2x3xi16=1"));
  CHECK(npyError(llvm::StringRef(file).drop_back(2)) ==
        "a.npy: header says 2x3 i16 (12 bytes of data) but the file has 10");
  CHECK(npyError("PK\x03\x04") ==
        "a.npy: not a NumPy file: it does not start with NumPy's magic string");
  CHECK(npyError(llvm::StringRef("\x93NUMPY\x01", 7)) ==
        "a.npy: not a NumPy file: it ends inside its header");
  CHECK(npyError(makeNpy("{'descr': '>f4', 'fortran_order': False, "
                         "'shape': (1,), }",
                         "abcd")) ==
        "a.npy: the data is big-endian ('>f4'); save it little-endian, as "
        "array.astype('<f4')");
  CHECK(npyError(makeNpy("{'descr': '<c8', 'fortran_order': False, "
                         "'shape': (1,), }",
                         "abcdefgh")) ==
        "a.npy: the dtype '<c8' is none of those gpu-runner reads: bool, "
        "int8 to int64, uint8 to uint64, float16, float32, float64");
  CHECK(npyError(makeNpy("{'descr': '<f4', 'fortran_order': True, "
                         "'shape': (1,), }",
                         "abcd")) ==
        "a.npy: the data is in Fortran order; save it in C order, as "
        "numpy.ascontiguousarray(array)");
  CHECK(npyError(makeNpy("{'descr': '|b1', 'fortran_order': False, "
                         "'shape': (2,), }",
                         llvm::StringRef("\x01\x02", 2))) ==
        "a.npy: element 1 of the bool data is 2, neither 0 nor 1");
  CHECK(npyError(makeNpy("{'descr': '<f4', 'shape': (1,), }", "abcd")) ==
        "a.npy: not a NumPy file: the header lacks 'fortran_order'");
  CHECK(npyError(makeNpy("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (1,), 'extra': 1}",
                         "abcd")) ==
        "a.npy: not a NumPy file: the header has a key 'extra' that NumPy "
        "does not write");
  // A repeated key is refused, not merged or overridden.
  CHECK(npyError(makeNpy("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (2,), 'shape': (3,), }",
                         std::string(24, '\0'))) ==
        "a.npy: not a NumPy file: the header has the key 'shape' twice");
  CHECK(npyError(makeNpy("{'descr': '<f4', 'descr': '<i4', "
                         "'fortran_order': False, 'shape': (1,), }",
                         "abcd")) ==
        "a.npy: not a NumPy file: the header has the key 'descr' twice");
  CHECK(npyError(makeNpy("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (68719476736, 2), }",
                         "")) ==
        "a.npy: the shape 68719476736x2 is larger than the 64 GiB a value "
        "may have");
}
