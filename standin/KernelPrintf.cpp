//===- KernelPrintf.cpp - Device printf, for the stand-in's kernels -------===//
//
// vprintf as CUDA defines it for device code (CUDA C++ Programming Guide,
// "Formatted Output"): the format, and a buffer of the arguments, each
// aligned to its size; the text goes to the block's output, which the
// driver writes at CUDA's flush points.
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

/// Reads an argument of `bytes` from vprintf's buffer at `offset`, aligned
/// to its size as the buffer lays it out.
bool readArgument(ThreadContext *context, uintptr_t buffer, uint64_t &offset,
                  unsigned bytes, uint64_t &value) {
  offset = (offset + bytes - 1) / bytes * bytes;
  uint64_t available = 0;
  char *at =
      resolve(context, buffer + offset, kAccessGeneric, false, available);
  if (!at || available < bytes)
    return false;
  value = 0;
  std::memcpy(&value, at, bytes);
  offset += bytes;
  return true;
}

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
  std::string out;
  uint64_t offset = 0;
  int32_t count = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    size_t start = i++;
    if (i < text.size() && text[i] == '%') {
      out += '%';
      continue;
    }
    while (i < text.size() && std::strchr("-+ #0", text[i]))
      ++i;
    while (
        i < text.size() &&
        (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
      ++i;
    std::string length;
    while (i < text.size() && std::strchr("hljztL", text[i]))
      length += text[i++];
    if (i >= text.size())
      break;
    char conversion = text[i];
    std::string spec = text.substr(start, i - start + 1);
    // The length modifiers go: the value is read at its promoted size and
    // printed with one of the host's.
    std::string bare;
    for (char c : spec)
      if (!std::strchr("hljztL", c))
        bare += c;
    uint64_t value = 0;
    auto read = [&](unsigned bytes) {
      if (!readArgument(context, arguments, offset, bytes, value))
        failThread(context, Error::IllegalAddress,
                   describeThread(context) + ": printf's argument buffer at " +
                       hexAddress(arguments) + " has no " +
                       std::to_string(bytes) + " bytes at offset " +
                       std::to_string(offset) +
                       " the kernel may read: an illegal address");
    };
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
      read(wide ? 8 : 4);
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
      read(8);
      double number;
      std::memcpy(&number, &value, sizeof(number));
      std::snprintf(piece, sizeof(piece), bare.c_str(), number);
      break;
    }
    case 'p': {
      read(8);
      std::snprintf(piece, sizeof(piece), bare.c_str(),
                    reinterpret_cast<void *>(value));
      break;
    }
    case 's': {
      read(8);
      std::string string;
      if (!readString(context, static_cast<uintptr_t>(value), string))
        string = "(null)";
      std::snprintf(piece, sizeof(piece), bare.c_str(), string.c_str());
      break;
    }
    default:
      // No argument: printed as written.
      out += spec;
      continue;
    }
    out += piece;
    ++count;
  }
  blockOf(context).output += out;
  return count;
}

} // namespace standin
} // namespace gpu_runner
