//===- KernelRuntime.cpp - A launch run on the CPU ------------------------===//
//
// See KernelRuntime.h: the runtime functions rewritten kernels call (memory
// checks, barriers and warp-collective instructions through BlockThreads,
// printf, assert, trap, timers, arithmetic in the PTX rounding modes, wmma),
// and the pool of worker threads that runs a grid's blocks.
//
// This file is compiled with -frounding-math: the rounded arithmetic below
// changes the rounding mode around single operations.
//
//===----------------------------------------------------------------------===//

#include "standin/KernelRuntime.h"

#include "standin/BlockThreads.h"
#include "standin/Driver.h"

#include <algorithm>
#include <cfenv>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <thread>

namespace gpu_runner {
namespace standin {

//===----------------------------------------------------------------------===//
// GridRun
//===----------------------------------------------------------------------===//

void GridRun::fail(Error failure, const std::string &text) {
  std::lock_guard<std::mutex> lock(mutex);
  if (failed.load(std::memory_order_relaxed))
    return;
  // A failure outranks the assertions before it: the launch reports it.
  error = failure;
  report = text;
  failed.store(true, std::memory_order_relaxed);
  stopped.store(true, std::memory_order_relaxed);
}

void GridRun::failAssertions(uint64_t block, std::string lines) {
  std::lock_guard<std::mutex> lock(mutex);
  assertions[block] = std::move(lines);
  if (error == Error::Success)
    error = Error::Assert;
  stopped.store(true, std::memory_order_relaxed);
}

void GridRun::addOutput(uint64_t block, std::string text) {
  std::lock_guard<std::mutex> lock(mutex);
  output[block] = std::move(text);
}

namespace {

BlockThreads &blockOf(ThreadContext *context) { return *context->slot->block; }

/// "kernel 'k', block (1, 0, 0), thread (3, 0, 0)": from the registers, which
/// hold the running thread also when one fiber runs them all.
std::string describeThread(ThreadContext *context) {
  const uint32_t *r = context->registers;
  return blockOf(context).where() + ", thread (" + std::to_string(r[kTidX]) +
         ", " + std::to_string(r[kTidY]) + ", " + std::to_string(r[kTidZ]) +
         ")";
}

[[noreturn]] void failThread(ThreadContext *context, Error error,
                             const std::string &report) {
  context->grid->fail(error, report);
  blockOf(context).abandonThread(*context->slot);
}

/// Stops the thread if its grid failed meanwhile.
void checkGrid(ThreadContext *context) {
  if (context->grid->failed.load(std::memory_order_relaxed))
    blockOf(context).abandonThread(*context->slot);
}

/// Where `address` lies among what a kernel may reach: the stand-in's
/// pointer to it and the bytes readable from there. Null when it is none of
/// them (or, for a write, read-only).
char *resolve(ThreadContext *context, uintptr_t address, uint32_t space,
              bool write, uint64_t &available) {
  const GridRun &grid = *context->grid;
  const KernelProgram &program = *grid.program;
  bool global = space == kAccessGeneric || space == kAccessGlobal ||
                space == kAccessConst;
  auto inside = [&](uintptr_t begin, uint64_t size) {
    if (address < begin || address - begin >= size)
      return false;
    available = size - (address - begin);
    return true;
  };
  if (global) {
    const ArenaView &arena = program.getArena();
    if (inside(arena.base, arena.size))
      return reinterpret_cast<char *>(address + arena.delta);
    if (inside(grid.memory.managedBase, grid.memory.managedSize))
      return reinterpret_cast<char *>(address);
    const auto &ranges = grid.memory.registrations;
    auto it =
        std::upper_bound(ranges.begin(), ranges.end(), address,
                         [](uintptr_t a, const ReachableMemory::Range &r) {
                           return a < r.begin;
                         });
    if (it != ranges.begin()) {
      --it;
      if (inside(it->begin, it->bytes))
        return write && it->readOnly ? nullptr
                                     : reinterpret_cast<char *>(address);
    }
    for (const GlobalRange &range : program.getGlobals())
      if (inside(range.begin, range.bytes))
        return write && range.constant ? nullptr
                                       : reinterpret_cast<char *>(address);
  }
  if (space == kAccessGeneric || space == kAccessShared)
    if (inside(reinterpret_cast<uintptr_t>(context->shared),
               context->sharedBytes))
      return reinterpret_cast<char *>(address);
  if (space == kAccessGeneric || space == kAccessLocal)
    if (inside(context->stackLow, context->stackHigh - context->stackLow))
      return reinterpret_cast<char *>(address);
  return nullptr;
}

const char *describeSpace(uint32_t space) {
  switch (space) {
  case kAccessGlobal:
    return "global ";
  case kAccessShared:
    return "shared ";
  case kAccessConst:
    return "constant ";
  case kAccessLocal:
    return "local ";
  default:
    return "";
  }
}

std::string hexAddress(uintptr_t address) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIxPTR, address);
  return text;
}

/// A NUL-terminated string the kernel passes (printf's format, assert's
/// texts), read where the kernel may read it; false if it may not.
bool readString(ThreadContext *context, uintptr_t address, std::string &text) {
  uint64_t available = 0;
  char *at = resolve(context, address, kAccessGeneric, false, available);
  if (!at)
    return false;
  size_t length = strnlen(at, available);
  if (length == available)
    return false;
  text.assign(at, length);
  return true;
}

//===----------------------------------------------------------------------===//
// The runtime functions.
//===----------------------------------------------------------------------===//

char *rtAccess(ThreadContext *context, uintptr_t address, uint64_t bytes,
               uint32_t flags, uint32_t site) {
  checkGrid(context);
  uint32_t space = flags & kAccessSpaceMask;
  bool write = flags & kAccessWrite;
  uint64_t alignment = uint64_t(1) << ((flags >> kAccessAlignShift) & 15);
  if (bytes == 0)
    return reinterpret_cast<char *>(address);
  std::string what = std::string(write ? "a write of " : "a read of ") +
                     std::to_string(bytes) + " bytes at " + hexAddress(address);
  // The IR's alignment is a promise the code generated for the GPU relies
  // on; an access that breaks it faults there (CUDA_ERROR_MISALIGNED_ADDRESS).
  if (address % alignment != 0)
    failThread(context, Error::MisalignedAddress,
               describeThread(context) + ": " + what +
                   ", which the IR says is " + std::to_string(alignment) +
                   "-byte aligned, at " +
                   context->grid->program->describeSite(site) +
                   ": a misaligned address");
  uint64_t available = 0;
  char *at = resolve(context, address, space, write, available);
  if (at && bytes <= available)
    return at;
  std::string where =
      Driver::get().describePointer(reinterpret_cast<const void *>(address));
  failThread(context, Error::IllegalAddress,
             describeThread(context) + ": " + what + " (" + where +
                 ", through a " + describeSpace(space) + "pointer) at " +
                 context->grid->program->describeSite(site) +
                 ": an illegal address. A kernel reaches device memory (its "
                 "device's, managed and registered), the module's globals, its "
                 "block's shared memory and its own stack, and nothing else");
}

uint32_t rtBarrier(ThreadContext *context, uint32_t id, uint32_t count,
                   uint32_t flags, uint32_t predicate, uint32_t site) {
  checkGrid(context);
  return blockOf(context).barrier(*context->slot, id, count, flags, predicate,
                                  site);
}

uint64_t rtShfl(ThreadContext *context, uint32_t mode, uint32_t a, uint32_t b,
                uint32_t c, uint32_t mask, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.a = a;
  slot.b = b;
  slot.c = c;
  return blockOf(context).warpOp(slot, WarpOpKind::Shfl, mode, mask, site);
}

uint32_t rtVote(ThreadContext *context, uint32_t mode, uint32_t predicate,
                uint32_t mask, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.a = predicate != 0;
  return static_cast<uint32_t>(
      blockOf(context).warpOp(slot, WarpOpKind::Vote, mode, mask, site));
}

uint64_t rtMatch(ThreadContext *context, uint32_t all, uint64_t value,
                 uint32_t wide, uint32_t mask, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.a = value;
  return blockOf(context).warpOp(slot, WarpOpKind::Match,
                                 (all ? 1 : 0) | (wide ? 2 : 0), mask, site);
}

uint32_t rtRedux(ThreadContext *context, uint32_t op, uint32_t value,
                 uint32_t mask, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.a = value;
  return static_cast<uint32_t>(
      blockOf(context).warpOp(slot, WarpOpKind::Redux, op, mask, site));
}

void rtWarpSync(ThreadContext *context, uint32_t mask, uint32_t site) {
  checkGrid(context);
  blockOf(context).warpOp(*context->slot, WarpOpKind::WarpSync, 0, mask, site);
}

uint32_t rtActiveMask(ThreadContext *context, uint32_t site) {
  checkGrid(context);
  return blockOf(context).activeMask(*context->slot, site);
}

void rtExit(ThreadContext *context, uint32_t) {
  blockOf(context).exitThread(*context->slot);
}

void rtTrap(ThreadContext *context, uint32_t site) {
  // PTX ISA, trap: "Abort execution and generate an interrupt to the host
  // CPU"; the launch fails with CUDA_ERROR_LAUNCH_FAILED.
  failThread(context, Error::LaunchFailed,
             describeThread(context) + " executed trap at " +
                 context->grid->program->describeSite(site));
}

void rtAssertFail(ThreadContext *context, uintptr_t message, uintptr_t file,
                  uint32_t line, uintptr_t function, uint64_t) {
  std::string messageText, fileText, functionText;
  if (!readString(context, message, messageText))
    messageText = "(unreadable)";
  if (!readString(context, file, fileText))
    fileText = "(unreadable)";
  if (!readString(context, function, functionText))
    functionText = "(unreadable)";
  const uint32_t *r = context->registers;
  char ids[160];
  std::snprintf(ids, sizeof(ids), "block: [%u,%u,%u], thread: [%u,%u,%u]",
                r[kCtaidX], r[kCtaidY], r[kCtaidZ], r[kTidX], r[kTidY],
                r[kTidZ]);
  // CUDA's device-side assert prints, for each failing thread,
  // "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion
  // `MESSAGE` failed." on stderr, then the kernel traps and the context is
  // left with CUDA_ERROR_ASSERT.
  std::string text = fileText + ":" + std::to_string(line) + ": " +
                     functionText + ": " + ids + " Assertion `" + messageText +
                     "` failed.\n";
  blockOf(context).failAssertion(*context->slot, text);
}

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

uint64_t rtClock(ThreadContext *) {
  // %clock64 counts the SM's cycles; the device's clock rate is 1.98 GHz
  // (CU_DEVICE_ATTRIBUTE_CLOCK_RATE).
  uint64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
  return ns * 198 / 100;
}

uint64_t rtGlobalTimer(ThreadContext *) {
  // PTX ISA, %globaltimer: "A predefined, 64-bit global nanosecond timer."
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void rtNanosleep(ThreadContext *context, uint32_t) {
  // PTX ISA, nanosleep: the thread sleeps "for a duration approximately
  // close to" the time given, from 0 to twice it: here it lets the block's
  // other threads run first, which a loop that waits for them needs.
  checkGrid(context);
  blockOf(context).yield(*context->slot);
}

int toFenvMode(uint32_t mode) {
  switch (mode) {
  case kRoundRz:
    return FE_TOWARDZERO;
  case kRoundRm:
    return FE_DOWNWARD;
  case kRoundRp:
    return FE_UPWARD;
  default:
    return FE_TONEAREST;
  }
}

/// Runs `compute` in the rounding mode of a PTX modifier (PTX ISA,
/// "Rounding Modifiers": .rn nearest even, .rz towards zero, .rm towards
/// minus infinity, .rp towards plus infinity).
/// Calls `compute` out of line: the compiler may move arithmetic across
/// fesetround (-frounding-math does not stop it), but not into a call.
template <typename Compute>
__attribute__((noinline)) auto computeOutOfLine(Compute compute) {
  return compute();
}

template <typename Compute> auto inMode(uint32_t mode, Compute compute) {
  int saved = std::fegetround();
  std::fesetround(toFenvMode(mode));
  auto result = computeOutOfLine(compute);
  std::fesetround(saved);
  return result;
}

float rtRoundF32(uint32_t op, uint32_t mode, float a, float b, float c) {
  return inMode(mode, [&]() -> float {
    volatile float x = a, y = b, z = c;
    switch (op) {
    case kRoundedAdd:
      return x + y;
    case kRoundedMul:
      return x * y;
    case kRoundedDiv:
      return x / y;
    case kRoundedFma:
      return std::fma(x, y, z);
    case kRoundedSqrt:
      return std::sqrt(x);
    default:
      return 1.0f / x;
    }
  });
}

double rtRoundF64(uint32_t op, uint32_t mode, double a, double b, double c) {
  return inMode(mode, [&]() -> double {
    volatile double x = a, y = b, z = c;
    switch (op) {
    case kRoundedAdd:
      return x + y;
    case kRoundedMul:
      return x * y;
    case kRoundedDiv:
      return x / y;
    case kRoundedFma:
      return std::fma(x, y, z);
    case kRoundedSqrt:
      return std::sqrt(x);
    default:
      return 1.0 / x;
    }
  });
}

float rtD2F(uint32_t mode, double value) {
  return inMode(mode, [&]() -> float {
    volatile double x = value;
    return static_cast<float>(x);
  });
}

float rtIToF32(uint32_t isUnsigned, uint32_t mode, uint64_t value) {
  return inMode(mode, [&]() -> float {
    volatile uint64_t x = value;
    return isUnsigned ? static_cast<float>(x)
                      : static_cast<float>(static_cast<int64_t>(x));
  });
}

double rtIToF64(uint32_t isUnsigned, uint32_t mode, uint64_t value) {
  return inMode(mode, [&]() -> double {
    volatile uint64_t x = value;
    return isUnsigned ? static_cast<double>(x)
                      : static_cast<double>(static_cast<int64_t>(x));
  });
}

void rtWmmaMma(ThreadContext *context, const WmmaDescriptor *descriptor,
               void *a, void *b, void *c, void *d, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.wmma = descriptor;
  slot.fragments[0] = a;
  slot.fragments[1] = b;
  slot.fragments[2] = c;
  slot.fragments[3] = d;
  uint32_t shape = descriptor->m | (descriptor->n << 6) | (descriptor->k << 12);
  blockOf(context).warpOp(slot, WarpOpKind::Wmma, shape, 0xffffffffu, site);
}

//===----------------------------------------------------------------------===//
// wmma
//===----------------------------------------------------------------------===//

float halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits >> 15) << 31;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  uint32_t out;
  if (exponent == 0x1f) {
    out = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      out = sign;
    } else {
      // Subnormal: normalize.
      int shift = 0;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        ++shift;
      }
      mantissa &= 0x3ff;
      out = sign | (uint32_t(127 - 15 + 1 - shift) << 23) | (mantissa << 13);
    }
  } else {
    out = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &out, sizeof(value));
  return value;
}

uint16_t floatToHalf(float value) {
  // Round to nearest even, as cvt.rn.f16.f32.
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t exponent = (bits >> 23) & 0xff;
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff)
    return static_cast<uint16_t>(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 0x1f)
    return static_cast<uint16_t>(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10)
      return static_cast<uint16_t>(sign);
    mantissa |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, up to infinity: as it should
  return static_cast<uint16_t>(sign | half);
}

float bf16ToFloat(uint16_t bits) {
  uint32_t out = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &out, sizeof(value));
  return value;
}

unsigned wmmaBytes(uint32_t type) {
  switch (type) {
  case kWmmaF16:
  case kWmmaBF16:
    return 2;
  case kWmmaS8:
  case kWmmaU8:
    return 1;
  case kWmmaF64:
    return 8;
  default:
    return 4;
  }
}

double readElement(const void *fragment, uint32_t type, uint32_t index) {
  const char *at =
      static_cast<const char *>(fragment) + uint64_t(index) * wmmaBytes(type);
  switch (type) {
  case kWmmaF16: {
    uint16_t bits;
    std::memcpy(&bits, at, 2);
    return halfToFloat(bits);
  }
  case kWmmaBF16: {
    uint16_t bits;
    std::memcpy(&bits, at, 2);
    return bf16ToFloat(bits);
  }
  case kWmmaS8:
    return static_cast<int8_t>(*at);
  case kWmmaU8:
    return static_cast<uint8_t>(*at);
  case kWmmaS32: {
    int32_t value;
    std::memcpy(&value, at, 4);
    return value;
  }
  case kWmmaF64: {
    double value;
    std::memcpy(&value, at, 8);
    return value;
  }
  case kWmmaTF32: {
    // PTX ISA, wmma with .tf32: the low 13 bits of the mantissa are
    // ignored.
    uint32_t bits;
    std::memcpy(&bits, at, 4);
    bits &= 0xffffe000u;
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }
  default: {
    float value;
    std::memcpy(&value, at, 4);
    return value;
  }
  }
}

void writeElement(void *fragment, uint32_t type, uint32_t index, double value,
                  int64_t integer) {
  char *at = static_cast<char *>(fragment) + uint64_t(index) * wmmaBytes(type);
  switch (type) {
  case kWmmaF16: {
    uint16_t bits = floatToHalf(static_cast<float>(value));
    std::memcpy(at, &bits, 2);
    return;
  }
  case kWmmaS32: {
    int32_t narrow = static_cast<int32_t>(integer);
    std::memcpy(at, &narrow, 4);
    return;
  }
  case kWmmaF64:
    std::memcpy(at, &value, 8);
    return;
  default: {
    float narrow = static_cast<float>(value);
    std::memcpy(at, &narrow, 4);
    return;
  }
  }
}

} // namespace

void BlockThreads::yield(ThreadSlot &slot) {
  if (loopMode)
    return;
  runQueue.push_back(slot.linear);
  suspend(slot);
}

void runWmma(ThreadSlot *const lanes[kWarpSize]) {
  // Each lane holds `count` elements of a fragment; element e of lane l is
  // element (l * count + e) mod (rows * cols) of the matrix, in row-major
  // order, whatever layout the load read it in (the PTX ISA leaves the
  // distribution of a fragment over the lanes unspecified; loads, stores
  // and mma here agree on this one).
  const WmmaDescriptor &d = *lanes[0]->wmma;
  auto gather = [&](int which, uint32_t type, uint32_t count, uint32_t rows,
                    uint32_t cols, std::vector<double> &out) {
    uint32_t elements = rows * cols;
    out.assign(elements, 0.0);
    for (uint32_t lane = 0; lane < kWarpSize; ++lane)
      for (uint32_t e = 0; e < count; ++e)
        out[(lane * count + e) % elements] =
            readElement(lanes[lane]->fragments[which], type, e);
  };
  std::vector<double> a, b, c;
  gather(0, d.aType, d.aCount, d.m, d.k, a);
  gather(1, d.bType, d.bCount, d.k, d.n, b);
  gather(2, d.cType, d.cCount, d.m, d.n, c);
  bool integer = d.dType == kWmmaS32;
  std::vector<double> result(d.m * d.n);
  std::vector<int64_t> integers(d.m * d.n);
  for (uint32_t i = 0; i < d.m; ++i)
    for (uint32_t j = 0; j < d.n; ++j) {
      if (integer) {
        int64_t sum = static_cast<int64_t>(c[i * d.n + j]);
        for (uint32_t k = 0; k < d.k; ++k)
          sum += static_cast<int64_t>(a[i * d.k + k]) *
                 static_cast<int64_t>(b[k * d.n + j]);
        // Without .satfinite the sum wraps as 32-bit integers do; with it,
        // it is clamped to the s32 range.
        if (d.saturate)
          sum = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, sum));
        integers[i * d.n + j] =
            static_cast<int32_t>(static_cast<uint32_t>(sum));
        continue;
      }
      // Products of f16, bf16 and tf32 values are exact in double; the sum
      // is rounded once to the accumulator's type.
      double sum = c[i * d.n + j];
      for (uint32_t k = 0; k < d.k; ++k)
        sum += a[i * d.k + k] * b[k * d.n + j];
      result[i * d.n + j] = d.dType == kWmmaF64
                                ? sum
                                : static_cast<double>(static_cast<float>(sum));
    }
  uint32_t elements = d.m * d.n;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane)
    for (uint32_t e = 0; e < d.dCount; ++e) {
      uint32_t index = (lane * d.dCount + e) % elements;
      writeElement(lanes[lane]->fragments[3], d.dType, e, result[index],
                   integers[index]);
    }
}

std::vector<RuntimeSymbol> getRuntimeSymbols() {
  return {
      {"access", reinterpret_cast<void *>(&rtAccess)},
      {"barrier", reinterpret_cast<void *>(&rtBarrier)},
      {"shfl", reinterpret_cast<void *>(&rtShfl)},
      {"vote", reinterpret_cast<void *>(&rtVote)},
      {"match", reinterpret_cast<void *>(&rtMatch)},
      {"redux", reinterpret_cast<void *>(&rtRedux)},
      {"warpsync", reinterpret_cast<void *>(&rtWarpSync)},
      {"activemask", reinterpret_cast<void *>(&rtActiveMask)},
      {"exit", reinterpret_cast<void *>(&rtExit)},
      {"trap", reinterpret_cast<void *>(&rtTrap)},
      {"assertfail", reinterpret_cast<void *>(&rtAssertFail)},
      {"vprintf", reinterpret_cast<void *>(&rtVprintf)},
      {"clock", reinterpret_cast<void *>(&rtClock)},
      {"globaltimer", reinterpret_cast<void *>(&rtGlobalTimer)},
      {"nanosleep", reinterpret_cast<void *>(&rtNanosleep)},
      {"roundf32", reinterpret_cast<void *>(&rtRoundF32)},
      {"roundf64", reinterpret_cast<void *>(&rtRoundF64)},
      {"d2f", reinterpret_cast<void *>(&rtD2F)},
      {"itof32", reinterpret_cast<void *>(&rtIToF32)},
      {"itof64", reinterpret_cast<void *>(&rtIToF64)},
      {"wmma_mma", reinterpret_cast<void *>(&rtWmmaMma)},
  };
}

//===----------------------------------------------------------------------===//
// The worker pool.
//===----------------------------------------------------------------------===//

namespace {

/// Threads that run blocks, shared by every launch of the process. Never
/// destroyed: streams may still launch while the process exits.
class WorkerPool {
public:
  static WorkerPool &get() {
    static WorkerPool *pool = new WorkerPool();
    return *pool;
  }

  void run(GridRun &grid) {
    std::unique_lock<std::mutex> lock(mutex);
    start();
    grids.push_back(&grid);
    busy[&grid] = 0;
    wake.notify_all();
    done.wait(lock, [&] {
      return busy[&grid] == 0 &&
             std::find(grids.begin(), grids.end(), &grid) == grids.end();
    });
    busy.erase(&grid);
  }

private:
  void start() {
    if (started)
      return;
    started = true;
    // One worker per core, at least two so that blocks run in parallel
    // even on one, at most eight.
    unsigned count =
        std::min(8u, std::max(2u, std::thread::hardware_concurrency()));
    for (unsigned i = 0; i < count; ++i)
      std::thread([this] { workerLoop(); }).detach();
  }

  void workerLoop() {
    BlockThreads blocks;
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      wake.wait(lock, [&] { return !grids.empty(); });
      GridRun *grid = grids.front();
      ++busy[grid];
      lock.unlock();
      uint64_t count = grid->blockCount();
      while (!grid->stopped.load(std::memory_order_relaxed)) {
        uint64_t index = grid->nextBlock.fetch_add(1);
        if (index >= count)
          break;
        blocks.run(*grid, index);
        if (!blocks.output.empty())
          grid->addOutput(index, std::move(blocks.output));
        if (!blocks.assertions.empty())
          grid->failAssertions(index, std::move(blocks.assertions));
      }
      lock.lock();
      // No block is left to hand out: later workers go to the next grid.
      auto it = std::find(grids.begin(), grids.end(), grid);
      if (it != grids.end())
        grids.erase(it);
      --busy[grid];
      done.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable wake, done;
  std::deque<GridRun *> grids;
  std::map<GridRun *, int> busy;
  bool started = false;
};

} // namespace

void runGrid(GridRun &grid) { WorkerPool::get().run(grid); }

} // namespace standin
} // namespace gpu_runner
