//===- KernelPrintf.cpp - Device printf, for the stand-in's kernels -------===//
//
// The two ways a kernel prints, into one formatter:
//
// - vprintf as CUDA defines it for device code (CUDA C++ Programming Guide,
//   "Formatted Output"): the format, and a buffer of the arguments, each
//   aligned to its size. The text goes to the block's output, which the
//   driver writes at CUDA's flush points.
// - The printf service of ROCm's hostcall (the device libraries' ockl,
//   services.cl, and the HIP runtime's listener that serves it): the kernel
//   sends a message in pieces of at most seven 64-bit words, each piece led
//   by a descriptor word (bit 0 begins a message, bit 1 ends it, bits 5-7
//   count the piece's words, bits 8-63 name the message, which the host
//   chose when it began). The message is a control word (bit 0: stderr,
//   else stdout), the format's bytes with their NUL, padded to a word, then
//   each argument: a word, or a %s string's bytes, padded alike. The host
//   answers the last piece with the count of bytes printed. The stand-in
//   serves it in place of ockl's __ockl_hostcall_internal, which would hand
//   the pieces to the listener through a buffer; the text goes to the
//   block's output or its error output.
//
//===----------------------------------------------------------------------===//

#include "standin/BlockThreads.h"
#include "standin/KernelRuntime.h"
#include "standin/RuntimeFunctions.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace gpu_runner {
namespace standin {
namespace {

/// Where a device printf's arguments come from.
class PrintfArguments {
public:
  virtual ~PrintfArguments() = default;
  /// The next argument, `bytes` wide once promoted; false if there is none.
  virtual bool next(unsigned bytes, uint64_t &value) = 0;
  /// The next argument, for a %s.
  virtual bool nextString(std::string &text) = 0;
};

/// `format` with its conversions applied to `arguments`, as the host's
/// printf would print them; `converted` counts the arguments used. A
/// conversion without an argument is printed as written.
std::string formatDevicePrintf(const std::string &format,
                               PrintfArguments &arguments, int32_t &converted) {
  std::string out;
  converted = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    size_t start = i++;
    if (i < format.size() && format[i] == '%') {
      out += '%';
      continue;
    }
    while (i < format.size() && std::strchr("-+ #0", format[i]))
      ++i;
    while (i < format.size() &&
           (std::isdigit(static_cast<unsigned char>(format[i])) ||
            format[i] == '.'))
      ++i;
    std::string length;
    while (i < format.size() && std::strchr("hljztL", format[i]))
      length += format[i++];
    if (i >= format.size())
      break;
    char conversion = format[i];
    std::string spec = format.substr(start, i - start + 1);
    // The length modifiers go: the value is read at its promoted size and
    // printed with one of the host's.
    std::string bare;
    for (char c : spec)
      if (!std::strchr("hljztL", c))
        bare += c;
    uint64_t value = 0;
    char piece[512];
    piece[0] = 0;
    bool wide = length == "l" || length == "ll" || length == "j" ||
                length == "z" || length == "t";
    switch (conversion) {
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o':
    case 'c': {
      if (!arguments.next(wide ? 8 : 4, value)) {
        out += spec;
        continue;
      }
      // C11 7.21.6.1p7: with h or hh, the promoted int is converted to a
      // short or a char, signed or unsigned as the conversion says, before
      // it is printed.
      if (length == "h")
        value = conversion == 'd' || conversion == 'i'
                    ? uint64_t(int64_t(int16_t(value)))
                    : uint64_t(uint16_t(value));
      else if (length == "hh")
        value = conversion == 'd' || conversion == 'i'
                    ? uint64_t(int64_t(int8_t(value)))
                    : uint64_t(uint8_t(value));
      std::string hostSpec = bare.substr(0, bare.size() - 1) +
                             (conversion == 'c' ? "" : "ll") + conversion;
      if (conversion == 'c')
        std::snprintf(piece, sizeof(piece), hostSpec.c_str(),
                      static_cast<int>(value));
      else if (conversion == 'd' || conversion == 'i')
        std::snprintf(
            piece, sizeof(piece), hostSpec.c_str(),
            wide ? static_cast<long long>(value)
                 : static_cast<long long>(static_cast<int32_t>(value)));
      else
        std::snprintf(piece, sizeof(piece), hostSpec.c_str(),
                      wide ? static_cast<unsigned long long>(value)
                           : static_cast<unsigned long long>(
                                 static_cast<uint32_t>(value)));
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      if (!arguments.next(8, value)) {
        out += spec;
        continue;
      }
      double number;
      std::memcpy(&number, &value, sizeof(number));
      std::snprintf(piece, sizeof(piece), bare.c_str(), number);
      break;
    }
    case 'p': {
      if (!arguments.next(8, value)) {
        out += spec;
        continue;
      }
      std::snprintf(piece, sizeof(piece), bare.c_str(),
                    reinterpret_cast<void *>(value));
      break;
    }
    case 's': {
      std::string string;
      if (!arguments.nextString(string)) {
        out += spec;
        continue;
      }
      std::snprintf(piece, sizeof(piece), bare.c_str(), string.c_str());
      break;
    }
    default:
      // No argument: printed as written.
      out += spec;
      continue;
    }
    out += piece;
    ++converted;
  }
  return out;
}

/// vprintf's buffer: each argument aligned to its size, a %s's a pointer
/// to the string. What the kernel may not read fails it.
class VprintfArguments : public PrintfArguments {
public:
  VprintfArguments(ThreadContext *context, uintptr_t buffer)
      : context(context), buffer(buffer) {}

  bool next(unsigned bytes, uint64_t &value) override {
    offset = (offset + bytes - 1) / bytes * bytes;
    uint64_t available = 0;
    char *at =
        resolve(context, buffer + offset, kAccessGeneric, false, available);
    if (!at || available < bytes)
      failThread(context, Error::IllegalAddress,
                 describeThread(context) + ": printf's argument buffer at " +
                     hexAddress(buffer) + " has no " + std::to_string(bytes) +
                     " bytes at offset " + std::to_string(offset) +
                     " the kernel may read: an illegal address");
    value = 0;
    std::memcpy(&value, at, bytes);
    offset += bytes;
    return true;
  }

  bool nextString(std::string &text) override {
    uint64_t pointer = 0;
    next(8, pointer);
    if (!readString(context, static_cast<uintptr_t>(pointer), text))
      text = "(null)";
    return true;
  }

private:
  ThreadContext *context;
  uintptr_t buffer;
  uint64_t offset = 0;
};

/// A hostcall printf message's arguments: a word each, a %s's bytes in
/// the words themselves, NUL-terminated and padded to a word.
class HostcallArguments : public PrintfArguments {
public:
  HostcallArguments(const char *bytes, size_t size)
      : bytes(bytes), size(size) {}

  bool next(unsigned, uint64_t &value) override {
    if (offset + 8 > size)
      return false;
    std::memcpy(&value, bytes + offset, 8);
    offset += 8;
    return true;
  }

  bool nextString(std::string &text) override {
    if (offset >= size)
      return false;
    const char *at = bytes + offset;
    size_t length = strnlen(at, size - offset);
    text.assign(at, length);
    offset += (length + 8) / 8 * 8;
    return true;
  }

private:
  const char *bytes;
  size_t size;
  size_t offset = 0;
};

/// The descriptor word of a hostcall message's piece (ockl, services.cl).
constexpr uint64_t kMessageBegin = 1;
constexpr uint64_t kMessageEnd = 2;
constexpr unsigned kMessageLengthShift = 5;
constexpr unsigned kMessageIdShift = 8;

} // namespace

int32_t rtVprintf(ThreadContext *context, uintptr_t format,
                  uintptr_t arguments) {
  checkGrid(context);
  std::string text;
  if (!readString(context, format, text))
    failThread(context, Error::IllegalAddress,
               describeThread(context) + ": printf's format at " +
                   hexAddress(format) +
                   " is not a string the kernel may read: an illegal address");
  // CUDA C++ Programming Guide, "Formatted Output": the arguments follow
  // the format in a buffer, each aligned to its size; float is promoted to
  // double and types narrower than int to int, as for a C variadic call.
  // vprintf returns the number of arguments it printed.
  VprintfArguments buffer(context, arguments);
  int32_t count = 0;
  blockOf(context).output += formatDevicePrintf(text, buffer, count);
  return count;
}

uint64_t rtHostcallPrintf(ThreadContext *context, uint64_t descriptor,
                          uint64_t w1, uint64_t w2, uint64_t w3, uint64_t w4,
                          uint64_t w5, uint64_t w6, uint64_t w7) {
  checkGrid(context);
  BlockThreads &block = blockOf(context);
  auto fail = [&](const std::string &why) {
    failThread(context, Error::LaunchFailed,
               describeThread(context) + ": hostcall printf " + why);
  };
  uint64_t id = descriptor >> kMessageIdShift;
  if (descriptor & kMessageBegin) {
    id = block.nextMessageId++;
    descriptor =
        (descriptor & ~kMessageBegin & ((uint64_t(1) << kMessageIdShift) - 1)) |
        (id << kMessageIdShift);
    block.messages[id].clear();
  }
  auto message = block.messages.find(id);
  if (message == block.messages.end())
    fail("continues message " + std::to_string(id) + ", which is not open");
  unsigned length = (descriptor >> kMessageLengthShift) & 7;
  const uint64_t words[] = {w1, w2, w3, w4, w5, w6, w7};
  message->second.insert(message->second.end(), words, words + length);
  if (!(descriptor & kMessageEnd))
    return descriptor;

  std::vector<uint64_t> data = std::move(message->second);
  block.messages.erase(message);
  if (data.empty() || data[0] > 1)
    fail("message " + std::to_string(id) +
         " does not begin with a stream (0 stdout, 1 stderr)");
  const char *bytes = reinterpret_cast<const char *>(data.data() + 1);
  size_t size = (data.size() - 1) * 8;
  size_t formatLength = strnlen(bytes, size);
  if (formatLength == size)
    fail("message " + std::to_string(id) + " has no NUL-terminated format");
  std::string format(bytes, formatLength);
  size_t argumentsAt = (formatLength + 8) / 8 * 8;
  HostcallArguments arguments(bytes + argumentsAt, size - argumentsAt);
  int32_t converted = 0;
  std::string text = formatDevicePrintf(format, arguments, converted);
  (data[0] == 1 ? block.errorOutput : block.output) += text;
  // The host answers with what its printf returned: the bytes printed.
  return text.size();
}

} // namespace standin
} // namespace gpu_runner
