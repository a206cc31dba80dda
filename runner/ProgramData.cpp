//===- ProgramData.cpp - Values for --input, --output, --expected-output --===//

#include "runner/ProgramData.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace gpu_runner {

namespace {

Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

Error atColumn(size_t column, const Twine &message) {
  return makeError("column " + Twine(column) + ": " + message);
}

/// Adds "column N: " to an error that has no column yet.
Error addColumn(size_t column, Error error) {
  return atColumn(column, llvm::toString(std::move(error)));
}

/// The product of `shape`, or nothing when it passes `limit`.
std::optional<uint64_t> countElements(ArrayRef<int64_t> shape, uint64_t limit) {
  uint64_t count = 1;
  for (int64_t size : shape) {
    if (size < 0)
      return std::nullopt;
    if (size != 0 && count > limit / uint64_t(size))
      return std::nullopt;
    count *= uint64_t(size);
  }
  return count;
}

bool isIntegerText(StringRef text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+'))
    text = text.drop_front();
  return !text.empty() && llvm::all_of(text, llvm::isDigit);
}

bool isFloatText(StringRef text) {
  if (!text.empty() && (text[0] == '-' || text[0] == '+'))
    text = text.drop_front();
  std::string lower = text.lower();
  if (lower == "nan" || lower == "inf" || lower == "infinity")
    return true;
  size_t i = 0, n = text.size(), digits = 0;
  for (; i < n && llvm::isDigit(text[i]); ++i)
    ++digits;
  if (i < n && text[i] == '.')
    for (++i; i < n && llvm::isDigit(text[i]); ++i)
      ++digits;
  if (digits == 0)
    return false;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '-' || text[i] == '+'))
      ++i;
    size_t exponent = 0;
    for (; i < n && llvm::isDigit(text[i]); ++i)
      ++exponent;
    if (exponent == 0)
      return false;
  }
  return i == n;
}

/// Whether a value that is not a number names a file, so that the error can
/// suggest the '@' that reads one: a NumPy or raw file by its extension, or
/// any file that exists where files are read.
bool looksLikeFileName(StringRef text, bool readFiles) {
  if (text.ends_with(".npy") || text.ends_with(".bin"))
    return true;
  return readFiles && llvm::sys::fs::is_regular_file(text);
}

Error notAValue(StringRef literal, ElementType type) {
  return makeError("'" + literal + "' is not an " + getElementTypeName(type) +
                   " value");
}

/// Parses an integer of `type` (signless: either the signed or the unsigned
/// range of its width) and stores its low bits at `out`.
Error convertInteger(StringRef literal, ElementType type, char *out) {
  unsigned width = type == ElementType::Index ? 64 : getElementSize(type) * 8;
  if (type == ElementType::I1)
    width = 1;
  uint64_t bits;
  if (literal == "true" || literal == "false") {
    if (type != ElementType::I1)
      return notAValue(literal, type);
    bits = literal == "true";
  } else {
    if (!isIntegerText(literal)) {
      if (isFloatText(literal))
        return makeError("'" + literal + "' is not an integer (" +
                         getElementTypeName(type) + ")");
      return notAValue(literal, type);
    }
    StringRef digits = literal;
    bool negative = digits.consume_front("-");
    digits.consume_front("+");
    // Up to 2^64 fits in 128 bits with room to spare for one more digit.
    unsigned __int128 magnitude = 0;
    const unsigned __int128 cap = (unsigned __int128)1 << 65;
    for (char c : digits) {
      magnitude = magnitude * 10 + unsigned(c - '0');
      if (magnitude > cap)
        break;
    }
    unsigned __int128 maxUnsigned = ((unsigned __int128)1 << width) - 1;
    unsigned __int128 maxNegative =
        width == 1 ? 0 : (unsigned __int128)1 << (width - 1);
    if ((negative && magnitude > maxNegative) ||
        (!negative && magnitude > maxUnsigned))
      return makeError("'" + literal + "' is out of range for " +
                       getElementTypeName(type));
    bits = uint64_t(magnitude);
    if (negative)
      bits = uint64_t(0) - bits;
  }
  // Little-endian: the element is the low bytes.
  std::memcpy(out, &bits, getElementSize(type));
  return Error::success();
}

Error convertFloat(StringRef literal, ElementType type, char *out) {
  if (!isFloatText(literal))
    return notAValue(literal, type);
  std::string text = literal.str();
  errno = 0;
  double value = std::strtod(text.c_str(), nullptr);
  auto outOfRange = [&] {
    return makeError("'" + literal + "' is out of range for " +
                     getElementTypeName(type));
  };
  bool infinite = std::isinf(value);
  bool infiniteText = StringRef(text).lower().find("inf") != std::string::npos;
  if (infinite && !infiniteText)
    return outOfRange();
  switch (type) {
  case ElementType::F64:
    std::memcpy(out, &value, 8);
    break;
  case ElementType::F32: {
    float single = static_cast<float>(value);
    if (std::isinf(single) && !infinite)
      return outOfRange();
    std::memcpy(out, &single, 4);
    break;
  }
  case ElementType::F16: {
    llvm::APFloat half(value);
    bool lost;
    half.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                 &lost);
    if (half.isInfinity() && !infinite)
      return outOfRange();
    uint16_t bits = uint16_t(half.bitcastToAPInt().getZExtValue());
    std::memcpy(out, &bits, 2);
    break;
  }
  default:
    llvm_unreachable("not a float type");
  }
  return Error::success();
}

Expected<std::unique_ptr<llvm::MemoryBuffer>> readFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return makeError(path + ": cannot read it: " + file.getError().message());
  return std::move(*file);
}

std::string formatBytes(uint64_t bytes) {
  if (bytes >= (uint64_t(1) << 30) && bytes % (uint64_t(1) << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  return std::to_string(bytes) + " bytes";
}

std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (i)
      text += "x";
    text += size == kDynamicSize ? "?" : std::to_string(size);
  }
  return text;
}

} // namespace

bool AlignedBuffer::allocate(uint64_t size) {
  // aligned_alloc wants a multiple of the alignment, and at least one.
  uint64_t rounded = (std::max<uint64_t>(size, 1) + 63) / 64 * 64;
  char *memory = static_cast<char *>(std::aligned_alloc(64, rounded));
  if (!memory)
    return false;
  std::memset(memory, 0, rounded);
  storage.reset(memory);
  bytes = size;
  return true;
}

uint64_t DataValue::getNumElements() const {
  return countElements(shape, UINT64_MAX).value_or(0);
}

std::string formatShapedType(ArrayRef<int64_t> shape, ElementType type) {
  std::string text = formatShape(shape);
  if (!text.empty())
    text += "x";
  return text + getElementTypeName(type);
}

std::string DataValue::describe() const {
  if (!type)
    return "the scalar " + literal;
  if (!shaped)
    return std::string("the scalar ") + getElementTypeName(*type) + "=" +
           formatElement(*type, data.data());
  if (shape.empty())
    return std::string("a 0-d array of ") + getElementTypeName(*type);
  return formatShapedType(shape, *type);
}

Error convertLiteral(StringRef literal, ElementType type, char *out) {
  if (isFloatType(type))
    return convertFloat(literal, type, out);
  return convertInteger(literal, type, out);
}

Expected<DataValue> parseDataValue(StringRef text, uint64_t maxBytes,
                                   bool readFiles) {
  DataValue value;
  if (text.empty())
    return atColumn(1, "the value is empty");
  if (text.starts_with("@")) {
    StringRef path = text.drop_front();
    if (path.empty())
      return atColumn(2, "a file name must follow '@'");
    if (!readFiles)
      return atColumn(1, "files are not read here");
    if (!path.ends_with(".npy"))
      return atColumn(2, "'" + path +
                             "' is not a .npy file; give raw bytes with "
                             "their shape and type, as in 4xf32=@" +
                             path);
    Expected<std::unique_ptr<llvm::MemoryBuffer>> file = readFile(path);
    if (!file)
      return file.takeError();
    return parseNpy(path, (*file)->getBuffer());
  }
  size_t equals = text.find('=');
  if (equals == StringRef::npos) {
    bool number = isIntegerText(text) || isFloatText(text) || text == "true" ||
                  text == "false";
    if (!number && text.ends_with(".npy"))
      return atColumn(1, "'" + text +
                             "' is not a number; a NumPy file is read with "
                             "'@', as in @" +
                             text);
    if (!number && looksLikeFileName(text, readFiles))
      return atColumn(1, "'" + text +
                             "' is not a number; a file of raw bytes is read "
                             "with '@' after its shape and type, as in "
                             "4xf32=@" +
                             text);
    if (!number)
      return atColumn(1, "'" + text +
                             "' is not a number; a shaped value is written "
                             "SHAPExTYPE=VALUES, as in 4xf32=1,2,3,4");
    value.literal = text.str();
    return value;
  }

  // SHAPE 'x' TYPE, or TYPE: a dimension is digits followed by 'x'.
  StringRef head = text.take_front(equals);
  size_t pos = 0;
  while (pos < head.size() && llvm::isDigit(head[pos])) {
    size_t start = pos;
    uint64_t size = 0;
    for (; pos < head.size() && llvm::isDigit(head[pos]); ++pos) {
      size = size * 10 + unsigned(head[pos] - '0');
      if (size > maxBytes)
        return atColumn(start + 1, "the dimension '" +
                                       head.substr(start, pos - start + 1) +
                                       "...' is too large");
    }
    if (pos == head.size() || head[pos] != 'x')
      return atColumn(pos + 1,
                      "expected 'x' after the dimension " + Twine(size));
    ++pos;
    value.shape.push_back(int64_t(size));
  }
  value.shaped = !value.shape.empty();
  StringRef typeName = head.drop_front(pos);
  std::optional<ElementType> type = parseElementType(typeName);
  if (!type)
    return atColumn(pos + 1,
                    "'" + typeName +
                        "' is not an element type (i1, i8, i16, i32, i64, "
                        "index, f16, f32, f64)");
  value.type = *type;
  unsigned elementSize = getElementSize(*type);
  std::optional<uint64_t> count =
      countElements(value.shape, maxBytes / elementSize);
  if (!count)
    return atColumn(1, formatShapedType(value.shape, *type) +
                           " is larger than the " + formatBytes(maxBytes) +
                           " a value may have");
  uint64_t bytes = *count * elementSize;
  if (!value.data.allocate(bytes))
    return atColumn(1, "cannot allocate " + Twine(bytes) + " bytes for " +
                           formatShapedType(value.shape, *type));

  StringRef body = text.drop_front(equals + 1);
  size_t bodyColumn = equals + 2;
  std::string typeText = formatShapedType(value.shape, *type);
  if (body.starts_with("@")) {
    StringRef path = body.drop_front();
    if (!readFiles)
      return atColumn(bodyColumn, "files are not read here");
    if (path.empty())
      return atColumn(bodyColumn + 1, "a file name must follow '@'");
    Expected<std::unique_ptr<llvm::MemoryBuffer>> file = readFile(path);
    if (!file)
      return file.takeError();
    StringRef contents = (*file)->getBuffer();
    if (contents.size() != bytes)
      return makeError(path + ": " + typeText + " is " + Twine(bytes) +
                       " bytes, but the file has " + Twine(contents.size()));
    if (bytes)
      std::memcpy(value.data.data(), contents.data(), bytes);
    return value;
  }

  // The values, separated by commas: as many as elements, or one (a splat).
  llvm::SmallVector<std::pair<StringRef, size_t>> items;
  size_t start = 0;
  while (true) {
    size_t comma = body.find(',', start);
    StringRef item = body.slice(start, comma);
    size_t column = bodyColumn + start;
    size_t leading = item.size() - item.ltrim(' ').size();
    items.push_back({item.trim(' '), column + leading});
    if (comma == StringRef::npos)
      break;
    start = comma + 1;
  }
  if (!value.shaped && items.size() != 1)
    return atColumn(items[1].second,
                    Twine("a scalar takes one value, but ") +
                        Twine(items.size()) +
                        " were given; a shaped value is written "
                        "SHAPExTYPE=VALUES, as in 4xf32=1,2,3,4");
  if (items.size() != 1 && items.size() != *count)
    return atColumn(bodyColumn, typeText + " takes " + Twine(*count) +
                                    " values (or one, for all of them), "
                                    "but " +
                                    Twine(items.size()) + " were given");
  for (auto [i, item] : llvm::enumerate(items)) {
    if (item.first.empty())
      return atColumn(item.second, "a value is missing");
    if (Error error = convertLiteral(item.first, *type,
                                     value.data.data() + i * elementSize)) {
      if (items.size() == 1 && looksLikeFileName(item.first, readFiles)) {
        llvm::consumeError(std::move(error));
        return atColumn(item.second,
                        "'" + item.first + "' is not an " +
                            getElementTypeName(*type) +
                            " value; a file is read with '@', as in " + head +
                            "=@" + item.first);
      }
      return addColumn(item.second, std::move(error));
    }
  }
  // A splat fills every element with the first.
  if (items.size() == 1)
    for (uint64_t i = 1; i < *count; ++i)
      std::memcpy(value.data.data() + i * elementSize, value.data.data(),
                  elementSize);
  return value;
}

//===----------------------------------------------------------------------===//
// NumPy files
//===----------------------------------------------------------------------===//

namespace {

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

Expected<DataValue> parseNpy(StringRef name, StringRef bytes) {
  auto malformed = [&](const Twine &why) {
    return makeError(name + ": not a NumPy file: " + why);
  };
  if (!bytes.starts_with(kNpyMagic))
    return malformed("it does not start with NumPy's magic string");
  if (bytes.size() < 10)
    return malformed("it ends inside its header");
  unsigned major = uint8_t(bytes[6]);
  uint64_t headerSize, dataStart;
  if (major == 1) {
    headerSize = uint8_t(bytes[8]) | uint64_t(uint8_t(bytes[9])) << 8;
    dataStart = 10 + headerSize;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return malformed("it ends inside its header");
    headerSize = 0;
    for (int i = 0; i < 4; ++i)
      headerSize |= uint64_t(uint8_t(bytes[8 + i])) << (8 * i);
    dataStart = 12 + headerSize;
  } else {
    return malformed("format version " + Twine(major) +
                     " (NumPy writes 1, 2 and 3)");
  }
  if (bytes.size() < dataStart)
    return malformed("its header says it is " + Twine(headerSize) +
                     " bytes long, but the file ends before");
  std::string descr;
  bool fortranOrder = false;
  DataValue value;
  value.shaped = true;
  HeaderParser parser(bytes.slice(dataStart - headerSize, dataStart));
  if (Error error = parser.parse(descr, fortranOrder, value.shape))
    return malformed(llvm::toString(std::move(error)));
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
      countElements(value.shape, kMaxValueBytes / elementSize);
  if (!count)
    return makeError(name + ": the shape " + formatShape(value.shape) +
                     " is larger than the " + formatBytes(kMaxValueBytes) +
                     " a value may have");
  uint64_t dataBytes = *count * elementSize;
  uint64_t actual = bytes.size() - dataStart;
  if (actual != dataBytes) {
    std::string shapeText =
        value.shape.empty() ? std::string("a 0-d") : formatShape(value.shape);
    return makeError(name + ": header says " + shapeText + " " +
                     getElementTypeName(*value.type) + " (" + Twine(dataBytes) +
                     " bytes of data) but the file has " + Twine(actual));
  }
  if (!value.data.allocate(dataBytes))
    return makeError(name + ": cannot allocate " + Twine(dataBytes) + " bytes");
  if (dataBytes)
    std::memcpy(value.data.data(), bytes.data() + dataStart, dataBytes);
  // NumPy's booleans are bytes of 0 or 1; anything else is not a bool.
  if (*value.type == ElementType::I1)
    for (uint64_t i = 0; i < dataBytes; ++i)
      if (uint8_t(value.data.data()[i]) > 1)
        return makeError(name + ": element " + Twine(i) +
                         " of the bool data is " +
                         Twine(unsigned(uint8_t(value.data.data()[i]))) +
                         ", neither 0 nor 1");
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

//===----------------------------------------------------------------------===//
// Printing and comparing
//===----------------------------------------------------------------------===//

double readFloat(ElementType type, const char *element) {
  switch (type) {
  case ElementType::F16: {
    uint16_t bits;
    std::memcpy(&bits, element, 2);
    llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
    bool lost;
    half.convert(llvm::APFloat::IEEEdouble(),
                 llvm::APFloat::rmNearestTiesToEven, &lost);
    return half.convertToDouble();
  }
  case ElementType::F32: {
    float value;
    std::memcpy(&value, element, 4);
    return value;
  }
  case ElementType::F64: {
    double value;
    std::memcpy(&value, element, 8);
    return value;
  }
  default:
    return double(readInteger(type, element));
  }
}

int64_t readInteger(ElementType type, const char *element) {
  switch (type) {
  case ElementType::I1:
    return uint8_t(*element) & 1;
  case ElementType::I8:
    return int8_t(*element);
  case ElementType::I16: {
    int16_t value;
    std::memcpy(&value, element, 2);
    return value;
  }
  case ElementType::I32: {
    int32_t value;
    std::memcpy(&value, element, 4);
    return value;
  }
  case ElementType::I64:
  case ElementType::Index: {
    int64_t value;
    std::memcpy(&value, element, 8);
    return value;
  }
  default:
    return int64_t(readFloat(type, element));
  }
}

std::string formatElement(ElementType type, const char *element) {
  char text[64];
  if (isFloatType(type)) {
    // As a C++ stream prints a float by default: %g, 6 digits.
    std::snprintf(text, sizeof(text), "%g", readFloat(type, element));
    return text;
  }
  return std::to_string(readInteger(type, element));
}

namespace {

/// printMemref's data printer (mlir/ExecutionEngine/RunnerUtils.h) over a
/// value in C order: `dims` is what is left of the shape.
class DataPrinter {
public:
  DataPrinter(llvm::raw_ostream &os, const DataValue &value)
      : os(os), value(value), rank(value.shape.size()),
        size(getElementSize(*value.type)) {
    // Unsigned: a shape with a size 0 may have other sizes whose product
    // does not fit, and its strides are never used.
    strides.resize(rank);
    uint64_t stride = 1;
    for (size_t i = rank; i-- > 0;) {
      strides[i] = int64_t(stride);
      stride *= uint64_t(value.shape[i]);
    }
  }

  void print() { print(rank, 0); }

private:
  void printSpace(size_t count) { os.indent(count); }

  void print(size_t dims, uint64_t offset) {
    if (dims == 0) {
      os << formatElement(*value.type, value.data.data() + offset * size);
      return;
    }
    size_t axis = rank - dims;
    int64_t count = value.shape[axis];
    if (count == 0) {
      os << "[]";
      return;
    }
    os << "[";
    print(dims - 1, offset);
    if (count == 1) {
      os << "]";
      return;
    }
    os << ", ";
    if (dims > 1)
      os << "\n";
    for (int64_t i = 1; i + 1 < count; ++i) {
      printSpace(axis + 1);
      print(dims - 1, offset + uint64_t(i) * uint64_t(strides[axis]));
      os << ", ";
      if (dims > 1)
        os << "\n";
    }
    printSpace(axis + 1);
    print(dims - 1, offset + uint64_t(count - 1) * uint64_t(strides[axis]));
    os << "]";
  }

  llvm::raw_ostream &os;
  const DataValue &value;
  size_t rank;
  unsigned size;
  std::vector<int64_t> strides;
};

std::string formatIndex(ArrayRef<int64_t> shape, uint64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    index[i] = shape[i] ? int64_t(flat % uint64_t(shape[i])) : 0;
    flat = shape[i] ? flat / uint64_t(shape[i]) : 0;
  }
  std::string text = "[";
  for (auto [i, value] : llvm::enumerate(index))
    text += (i ? ", " : "") + std::to_string(value);
  return text + "]";
}

bool sameType(ElementType a, ElementType b) {
  auto canonical = [](ElementType t) {
    return t == ElementType::Index ? ElementType::I64 : t;
  };
  return canonical(a) == canonical(b);
}

} // namespace

void printData(llvm::raw_ostream &os, const DataValue &value) {
  DataPrinter(os, value).print();
  os << "\n";
}

Expected<Comparison> compareData(const DataValue &got, const DataValue &want,
                                 const Tolerance &tolerance) {
  Comparison result;
  ElementType type = *got.type;
  unsigned size = getElementSize(type);
  DataValue converted;
  const DataValue *expected = &want;
  if (!want.type) {
    if (got.shaped && !got.shape.empty()) {
      result.shapeMismatch = "expected " + want.describe() + ", got " +
                             formatShapedType(got.shape, type);
      return result;
    }
    converted.type = type;
    if (!converted.data.allocate(size))
      return makeError("cannot allocate an element");
    if (Error error = convertLiteral(want.literal, type, converted.data.data()))
      return std::move(error);
    expected = &converted;
  } else if (!sameType(*want.type, type) || want.shape != got.shape) {
    result.shapeMismatch =
        "expected " + want.describe() + ", got " +
        (got.shaped ? formatShapedType(got.shape, type)
                    : std::string("the scalar ") + getElementTypeName(type) +
                          "=" + formatElement(type, got.data.data()));
    return result;
  }
  result.elements = got.getNumElements();
  for (uint64_t i = 0; i < result.elements; ++i) {
    const char *a = got.data.data() + i * size;
    const char *b = expected->data.data() + i * size;
    bool equal;
    std::string difference;
    if (isFloatType(type)) {
      double x = readFloat(type, a), y = readFloat(type, b);
      if (std::isnan(x) || std::isnan(y))
        equal = std::isnan(x) && std::isnan(y) && tolerance.nanEqual;
      else
        equal = x == y || std::fabs(x - y) <=
                              tolerance.atol + tolerance.rtol * std::fabs(y);
      char text[64];
      std::snprintf(text, sizeof(text), "%g", x - y);
      difference = text;
    } else {
      int64_t x = readInteger(type, a), y = readInteger(type, b);
      equal = x == y;
      __int128 wide = (__int128)x - y;
      char text[64];
      if (wide > INT64_MAX || wide < INT64_MIN)
        std::snprintf(text, sizeof(text), "%g", double(wide));
      else
        std::snprintf(text, sizeof(text), "%lld", (long long)wide);
      difference = text;
    }
    if (equal)
      continue;
    ++result.mismatches;
    if (result.firstMismatches.size() < kMismatchesListed)
      result.firstMismatches.push_back(
          (got.shape.empty() ? std::string()
                             : formatIndex(got.shape, i) + ": ") +
          "got " + formatElement(type, a) + ", expected " +
          formatElement(type, b) + " (difference " + difference + ")");
  }
  return result;
}

} // namespace gpu_runner
