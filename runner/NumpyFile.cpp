//===- NumpyFile.cpp - NumPy's .npy files read and written ----------------===//

#include "runner/NumpyFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstring>
#include <optional>
#include <vector>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace gpu_runner {

namespace {

Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

constexpr StringRef kNpyMagic("\x93NUMPY", 6);

struct NpyType {
  const char *descr;
  ElementType type;
};

/// What NumPy's dtypes become: the unsigned ones are signless integers.
constexpr NpyType kNpyReadTypes[] = {
    {"|b1", ElementType::I1},  {"|i1", ElementType::I8},
    {"|u1", ElementType::I8},  {"<i2", ElementType::I16},
    {"<u2", ElementType::I16}, {"<i4", ElementType::I32},
    {"<u4", ElementType::I32}, {"<i8", ElementType::I64},
    {"<u8", ElementType::I64}, {"<f2", ElementType::F16},
    {"<f4", ElementType::F32}, {"<f8", ElementType::F64},
};

const char *getNpyDescr(ElementType type) {
  switch (type) {
  case ElementType::I1:
    return "|b1";
  case ElementType::I8:
    return "|i1";
  case ElementType::I16:
    return "<i2";
  case ElementType::I32:
    return "<i4";
  case ElementType::I64:
  case ElementType::Index:
    return "<i8";
  case ElementType::F16:
    return "<f2";
  case ElementType::F32:
    return "<f4";
  case ElementType::F64:
    return "<f8";
  }
  return "";
}

/// A reader of the header's Python dict literal, as NumPy writes it:
/// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : text(text) {}

  Error parse(std::string &descr, bool &fortranOrder,
              std::vector<int64_t> &shape) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    if (!consume('{'))
      return fail("the header is not a dict");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (Error error = parseString(key))
        return error;
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after '" + key + "'");
      skipSpace();
      // Python keeps the last of a repeated key, which no writer means;
      // refuse it rather than guess.
      if ((key == "descr" && haveDescr) ||
          (key == "fortran_order" && haveOrder) ||
          (key == "shape" && haveShape))
        return fail("the header has the key '" + key + "' twice");
      if (key == "descr") {
        if (Error error = parseString(descr))
          return error;
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (text.consume_front("True"))
          fortranOrder = true;
        else if (text.consume_front("False"))
          fortranOrder = false;
        else
          return fail("fortran_order is neither True nor False");
        haveOrder = true;
      } else if (key == "shape") {
        if (Error error = parseShape(shape))
          return error;
        haveShape = true;
      } else {
        return fail("the header has a key '" + key +
                    "' that NumPy does not write");
      }
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume('}'))
        break;
      return fail("expected ',' or '}' in the header");
    }
    skipSpace();
    if (!text.empty())
      return fail("the header goes on after its dict");
    if (!haveDescr || !haveOrder || !haveShape)
      return fail("the header lacks '" +
                  Twine(!haveDescr   ? "descr"
                        : !haveOrder ? "fortran_order"
                                     : "shape") +
                  "'");
    return Error::success();
  }

private:
  Error fail(const Twine &message) { return makeError(message); }

  void skipSpace() { text = text.ltrim(" \t\n"); }

  bool consume(char c) { return text.consume_front(StringRef(&c, 1)); }

  Error parseString(std::string &out) {
    if (text.empty() || (text[0] != '\'' && text[0] != '"'))
      return fail("expected a quoted string in the header");
    char quote = text[0];
    size_t end = text.find(quote, 1);
    if (end == StringRef::npos)
      return fail("a string in the header does not end");
    out = text.slice(1, end).str();
    text = text.drop_front(end + 1);
    return Error::success();
  }

  Error parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return fail("the shape is not a tuple");
    while (true) {
      skipSpace();
      if (consume(')'))
        return Error::success();
      size_t digits = 0;
      uint64_t size = 0;
      while (digits < text.size() && llvm::isDigit(text[digits])) {
        size = size * 10 + unsigned(text[digits] - '0');
        if (size > kMaxValueBytes)
          return fail("a dimension of the shape is too large");
        ++digits;
      }
      if (digits == 0)
        return fail("the shape holds something other than sizes");
      text = text.drop_front(digits);
      shape.push_back(int64_t(size));
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume(')'))
        return Error::success();
      return fail("expected ',' or ')' in the shape");
    }
  }

  StringRef text;
};

} // namespace

Expected<uint64_t> getNpyDataStart(StringRef name, StringRef prelude,
                                   uint64_t maxBytes) {
  auto malformed = [&](const Twine &why) {
    return makeError(name + ": not a NumPy file: " + why);
  };
  if (!prelude.starts_with(kNpyMagic))
    return malformed("it does not start with NumPy's magic string");
  if (prelude.size() < 10)
    return malformed("it ends inside its header");
  unsigned major = uint8_t(prelude[6]);
  uint64_t headerSize, dataStart;
  if (major == 1) {
    headerSize = uint8_t(prelude[8]) | uint64_t(uint8_t(prelude[9])) << 8;
    dataStart = 10 + headerSize;
  } else if (major == 2 || major == 3) {
    if (prelude.size() < 12)
      return malformed("it ends inside its header");
    headerSize = 0;
    for (int i = 0; i < 4; ++i)
      headerSize |= uint64_t(uint8_t(prelude[8 + i])) << (8 * i);
    dataStart = 12 + headerSize;
  } else {
    return malformed("format version " + Twine(major) +
                     " (NumPy writes 1, 2 and 3)");
  }
  if (headerSize > maxBytes)
    return malformed("its header says it is " + Twine(headerSize) +
                     " bytes long, more than " +
                     describeSizeLimit(maxBytes, /*forFile=*/true));
  return dataStart;
}

Expected<DataValue> parseNpyHeader(StringRef name, StringRef head,
                                   uint64_t maxBytes) {
  Expected<uint64_t> dataStart = getNpyDataStart(name, head, maxBytes);
  if (!dataStart)
    return dataStart.takeError();
  if (head.size() < *dataStart) {
    uint64_t headerSize = *dataStart - (uint8_t(head[6]) == 1 ? 10 : 12);
    return makeError(name + ": not a NumPy file: its header says it is " +
                     Twine(headerSize) +
                     " bytes long, but the file ends before");
  }
  std::string descr;
  bool fortranOrder = false;
  DataValue value;
  value.shaped = true;
  HeaderParser parser(head.slice(head[6] == 1 ? 10 : 12, *dataStart));
  if (Error error = parser.parse(descr, fortranOrder, value.shape))
    return makeError(name +
                     ": not a NumPy file: " + llvm::toString(std::move(error)));
  for (const NpyType &known : kNpyReadTypes)
    if (descr == known.descr)
      value.type = known.type;
  if (!value.type) {
    if (descr.size() == 3 && descr[0] == '>')
      return makeError(name + ": the data is big-endian ('" + descr +
                       "'); save it little-endian, as "
                       "array.astype('<" +
                       descr.substr(1) + "')");
    return makeError(name + ": the dtype '" + descr +
                     "' is none of those gpu-runner reads: bool, int8 to "
                     "int64, uint8 to uint64, float16, float32, float64");
  }
  if (fortranOrder)
    return makeError(name + ": the data is in Fortran order; save it in C "
                            "order, as numpy.ascontiguousarray(array)");
  unsigned elementSize = getElementSize(*value.type);
  std::optional<uint64_t> count =
      countElements(value.shape, maxBytes / elementSize);
  if (!count)
    return makeError(name + ": the shape " + formatShape(value.shape) +
                     " is larger than " +
                     describeSizeLimit(maxBytes, /*forFile=*/true));
  uint64_t dataBytes = *count * elementSize;
  if (!value.data.allocate(dataBytes))
    return makeError(name + ": cannot allocate " + Twine(dataBytes) + " bytes");
  return value;
}

Error describeNpySizeMismatch(StringRef name, const DataValue &value,
                              const Twine &actual) {
  std::string shapeText =
      value.shape.empty() ? std::string("a 0-d") : formatShape(value.shape);
  return makeError(name + ": header says " + shapeText + " " +
                   getElementTypeName(*value.type) + " (" +
                   Twine(value.data.size()) +
                   " bytes of data) but the file has " + actual);
}

Error checkNpyData(StringRef name, const DataValue &value) {
  // NumPy's booleans are bytes of 0 or 1; anything else is not a bool.
  if (*value.type == ElementType::I1)
    for (uint64_t i = 0; i < value.data.size(); ++i)
      if (uint8_t(value.data.data()[i]) > 1)
        return makeError(name + ": element " + Twine(i) +
                         " of the bool data is " +
                         Twine(unsigned(uint8_t(value.data.data()[i]))) +
                         ", neither 0 nor 1");
  return Error::success();
}

Expected<DataValue> parseNpy(StringRef name, StringRef bytes,
                             uint64_t maxBytes) {
  Expected<uint64_t> dataStart =
      getNpyDataStart(name, bytes.take_front(kNpyPreludeBytes), maxBytes);
  if (!dataStart)
    return dataStart.takeError();
  Expected<DataValue> value =
      parseNpyHeader(name, bytes.take_front(*dataStart), maxBytes);
  if (!value)
    return value.takeError();
  uint64_t dataBytes = value->data.size();
  uint64_t actual = bytes.size() - *dataStart;
  if (actual != dataBytes)
    return describeNpySizeMismatch(name, *value, Twine(actual));
  if (dataBytes)
    std::memcpy(value->data.data(), bytes.data() + *dataStart, dataBytes);
  if (Error error = checkNpyData(name, *value))
    return std::move(error);
  return value;
}

std::string writeNpy(const DataValue &value) {
  std::string header = std::string("{'descr': '") + getNpyDescr(*value.type) +
                       "', 'fortran_order': False, 'shape': (";
  for (auto [i, size] : llvm::enumerate(value.shape))
    header += (i ? ", " : "") + std::to_string(size);
  if (value.shape.size() == 1)
    header += ",";
  header += "), }";
  // The header ends with a newline, padded with spaces so that the data
  // starts at a multiple of 64 bytes.
  size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
  header.append(total - 10 - header.size() - 1, ' ');
  header += '\n';
  std::string file(kNpyMagic);
  file += char(1);
  file += char(0);
  file += char(header.size() & 0xff);
  file += char(header.size() >> 8);
  file += header;
  file.append(value.data.data(), value.data.size());
  return file;
}

} // namespace gpu_runner
