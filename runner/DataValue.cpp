//===- DataValue.cpp - Values of --input and --expected-output ------------===//

#include "runner/DataValue.h"

#include "runner/DataPrinter.h"
#include "runner/NumpyFile.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>

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

/// A data file, read in order and no further than asked: a pipe, a FIFO or
/// a device (/dev/zero, which never ends) reads as a file does, as neither
/// its size nor seeking is needed.
class DataFile {
public:
  static Expected<std::unique_ptr<DataFile>> open(StringRef path) {
    Expected<llvm::sys::fs::file_t> file =
        llvm::sys::fs::openNativeFileForRead(path);
    if (!file)
      return makeError(path +
                       ": cannot read it: " + llvm::toString(file.takeError()));
    return std::unique_ptr<DataFile>(new DataFile(path, *file));
  }

  ~DataFile() { (void)llvm::sys::fs::closeFile(file); }
  DataFile(const DataFile &) = delete;
  DataFile &operator=(const DataFile &) = delete;

  /// Reads up to `size` bytes to `out`: fewer only where the file ends.
  Expected<uint64_t> read(char *out, uint64_t size) {
    uint64_t done = 0;
    while (done < size) {
      // readNativeFile reads at most 1 GiB at a time.
      size_t chunk = size_t(std::min<uint64_t>(size - done, 1u << 30));
      Expected<size_t> got = llvm::sys::fs::readNativeFile(
          file, llvm::MutableArrayRef<char>(out + done, chunk));
      if (!got)
        return makeError(
            path + ": cannot read it: " + llvm::toString(got.takeError()));
      if (*got == 0)
        break;
      done += *got;
    }
    return done;
  }

  /// "N" when the file is a regular one of N bytes past `start`, else
  /// `otherwise`: what the file has, for a message about a file longer
  /// than its value.
  std::string describeSize(uint64_t start, StringRef otherwise) const {
    llvm::sys::fs::file_status status;
    if (!llvm::sys::fs::status(file, status) &&
        status.type() == llvm::sys::fs::file_type::regular_file)
      return std::to_string(status.getSize() - start);
    return otherwise.str();
  }

  /// Whether the file goes on after what was read.
  Expected<bool> hasMore() {
    char byte;
    Expected<uint64_t> got = read(&byte, 1);
    if (!got)
      return got.takeError();
    return *got != 0;
  }

private:
  DataFile(StringRef path, llvm::sys::fs::file_t file)
      : path(path.str()), file(file) {}

  std::string path;
  llvm::sys::fs::file_t file;
};

} // namespace

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

std::string formatBytes(uint64_t bytes) {
  if (bytes >= (uint64_t(1) << 30) && bytes % (uint64_t(1) << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  return std::to_string(bytes) + " bytes";
}

std::string describeSizeLimit(uint64_t maxBytes, bool forFile) {
  if (!forFile || maxBytes >= kMaxValueBytes)
    return "the " + formatBytes(maxBytes) + " a value may have";
  std::string size = maxBytes % (uint64_t(1) << 20) == 0
                         ? std::to_string(maxBytes >> 20) + " MiB"
                         : formatBytes(maxBytes);
  return "the " + size + " --max-input-size allows a data file";
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

std::string formatShapedType(ArrayRef<int64_t> shape, ElementType type) {
  std::string text = formatShape(shape);
  if (!text.empty())
    text += "x";
  return text + getElementTypeName(type);
}

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

namespace {

/// `@FILE.npy`: the value is the NumPy file's.
Expected<DataValue> parseNpyValue(StringRef text, bool readFiles,
                                  uint64_t maxBytes) {
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
  Expected<std::unique_ptr<DataFile>> file = DataFile::open(path);
  if (!file)
    return file.takeError();
  // The magic string and the header's length, the header, then as much
  // data as the header says.
  std::string head(kNpyPreludeBytes, '\0');
  Expected<uint64_t> got = (*file)->read(head.data(), head.size());
  if (!got)
    return got.takeError();
  head.resize(*got);
  Expected<uint64_t> dataStart = getNpyDataStart(path, head, maxBytes);
  if (!dataStart)
    return dataStart.takeError();
  if (*dataStart > head.size()) {
    uint64_t have = head.size();
    head.resize(*dataStart);
    got = (*file)->read(head.data() + have, *dataStart - have);
    if (!got)
      return got.takeError();
    head.resize(have + *got);
  } else {
    head.resize(*dataStart);
  }
  Expected<DataValue> value = parseNpyHeader(path, head, maxBytes);
  if (!value)
    return value.takeError();
  uint64_t dataBytes = value->data.size();
  got = (*file)->read(value->data.data(), dataBytes);
  if (!got)
    return got.takeError();
  if (*got < dataBytes)
    return describeNpySizeMismatch(path, *value, Twine(*got));
  Expected<bool> more = (*file)->hasMore();
  if (!more)
    return more.takeError();
  if (*more)
    return describeNpySizeMismatch(
        path, *value,
        (*file)->describeSize(*dataStart, "more (it goes on past them)"));
  if (Error error = checkNpyData(path, *value))
    return std::move(error);
  return value;
}

/// `SHAPE x TYPE`, or `TYPE`, before the '=': sets `value`'s shape and
/// type, and allocates its elements. A dimension is digits followed by 'x'.
Error parseShapedType(StringRef head, uint64_t maxBytes, bool forFile,
                      DataValue &value) {
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
  value.type = type;
  unsigned elementSize = getElementSize(*type);
  std::optional<uint64_t> count =
      countElements(value.shape, maxBytes / elementSize);
  if (!count)
    return atColumn(1, formatShapedType(value.shape, *type) +
                           " is larger than " +
                           describeSizeLimit(maxBytes, forFile));
  uint64_t bytes = *count * elementSize;
  if (!value.data.allocate(bytes))
    return atColumn(1, "cannot allocate " + Twine(bytes) + " bytes for " +
                           formatShapedType(value.shape, *type));
  return Error::success();
}

/// `SHAPExTYPE=@FILE`: the raw bytes of `path`, exactly as many as the
/// value's; the file is read no further than one byte past them.
Error readRawBytes(StringRef path, DataValue &value) {
  Expected<std::unique_ptr<DataFile>> file = DataFile::open(path);
  if (!file)
    return file.takeError();
  uint64_t bytes = value.data.size();
  auto mismatch = [&](const Twine &actual) {
    return makeError(path + ": " + formatShapedType(value.shape, *value.type) +
                     " is " + Twine(bytes) + " bytes, but the file has " +
                     actual);
  };
  Expected<uint64_t> got = (*file)->read(value.data.data(), bytes);
  if (!got)
    return got.takeError();
  if (*got < bytes)
    return mismatch(Twine(*got));
  Expected<bool> more = (*file)->hasMore();
  if (!more)
    return more.takeError();
  if (*more)
    return mismatch((*file)->describeSize(0, "more (it goes on past them)"));
  return Error::success();
}

/// The values after the '=', separated by commas, which starts at column
/// `bodyColumn`: as many as elements, or one (a splat). `head` is the text
/// before the '=', for the hint of a file name given without its '@'.
Error parseElements(StringRef head, StringRef body, size_t bodyColumn,
                    bool readFiles, DataValue &value) {
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
  ElementType type = *value.type;
  unsigned elementSize = getElementSize(type);
  uint64_t count = value.data.size() / elementSize;
  if (!value.shaped && items.size() != 1)
    return atColumn(items[1].second,
                    Twine("a scalar takes one value, but ") +
                        Twine(items.size()) +
                        " were given; a shaped value is written "
                        "SHAPExTYPE=VALUES, as in 4xf32=1,2,3,4");
  if (items.size() != 1 && items.size() != count)
    return atColumn(bodyColumn, formatShapedType(value.shape, type) +
                                    " takes " + Twine(count) +
                                    " values (or one, for all of them), "
                                    "but " +
                                    Twine(items.size()) + " were given");
  for (auto [i, item] : llvm::enumerate(items)) {
    if (item.first.empty())
      return atColumn(item.second, "a value is missing");
    if (Error error = convertLiteral(item.first, type,
                                     value.data.data() + i * elementSize)) {
      if (items.size() == 1 && looksLikeFileName(item.first, readFiles)) {
        llvm::consumeError(std::move(error));
        return atColumn(item.second, "'" + item.first + "' is not an " +
                                         getElementTypeName(type) +
                                         " value; a file is read with '@', "
                                         "as in " +
                                         head + "=@" + item.first);
      }
      return addColumn(item.second, std::move(error));
    }
  }
  // A splat fills every element with the first.
  if (items.size() == 1)
    for (uint64_t i = 1; i < count; ++i)
      std::memcpy(value.data.data() + i * elementSize, value.data.data(),
                  elementSize);
  return Error::success();
}

} // namespace

Expected<DataValue> parseDataValue(StringRef text, uint64_t maxBytes,
                                   bool readFiles, uint64_t maxFileBytes) {
  uint64_t fileLimit = std::min(maxBytes, maxFileBytes);
  if (text.empty())
    return atColumn(1, "the value is empty");
  if (text.starts_with("@"))
    return parseNpyValue(text, readFiles, fileLimit);
  DataValue value;
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
  StringRef body = text.drop_front(equals + 1);
  // Raw bytes are refused past --max-input-size before they are allocated.
  bool fromFile = body.starts_with("@");
  if (Error error =
          parseShapedType(text.take_front(equals),
                          fromFile ? fileLimit : maxBytes, fromFile, value))
    return std::move(error);

  size_t bodyColumn = equals + 2;
  if (body.starts_with("@")) {
    StringRef path = body.drop_front();
    if (!readFiles)
      return atColumn(bodyColumn, "files are not read here");
    if (path.empty())
      return atColumn(bodyColumn + 1, "a file name must follow '@'");
    if (Error error = readRawBytes(path, value))
      return std::move(error);
    return value;
  }
  if (Error error = parseElements(text.take_front(equals), body, bodyColumn,
                                  readFiles, value))
    return std::move(error);
  return value;
}

} // namespace gpu_runner
