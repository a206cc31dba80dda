//===- RuntimeError.cpp - Errors of the wrapper libraries -----------------===//
//
// Formatting and reporting of runtime diagnostics; see RuntimeError.h.
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/RuntimeError.h"

#include "wrappers/common/CheckReports.h"
#include "wrappers/common/FatalReport.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>

namespace gpu_runner {

namespace {

/// A loc split at its first '@': op names never contain one, file names may.
struct SplitLoc {
  std::string op;
  std::string location; // empty when the op has no location
};

SplitLoc splitLoc(const char *loc) {
  SplitLoc split;
  if (!loc)
    return split;
  const char *at = std::strchr(loc, '@');
  if (!at) {
    split.op = loc;
    return split;
  }
  split.op.assign(loc, at);
  split.location = at + 1;
  return split;
}

/// Serializes diagnostics so that two threads failing at once do not
/// interleave their lines.
std::mutex &diagnosticMutex() {
  static std::mutex mutex;
  return mutex;
}

} // namespace

void printDiagnosticLine(const std::string &line) {
  std::lock_guard<std::mutex> lock(diagnosticMutex());
  // Whatever the program printed so far comes first, as it was written first;
  // std::cout has its own buffer once a program turns off sync_with_stdio.
  std::cout.flush();
  std::fflush(stdout);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

void printDiagnosticAt(const char *loc, const char *severity,
                       const std::string &message) {
  printDiagnosticLine(formatDiagnostic(loc, severity, message) + '\n');
}

std::string formatDiagnostic(const char *loc, const char *severity,
                             const std::string &message) {
  SplitLoc split = splitLoc(loc);
  std::string text;
  if (!split.location.empty())
    text += split.location + ": ";
  text += severity;
  text += ": ";
  if (!split.op.empty())
    text += split.op + ": ";
  text += message;
  return text;
}

std::string describeOp(const char *loc) {
  SplitLoc split = splitLoc(loc);
  if (split.op.empty())
    return split.location.empty() ? "an unknown op"
                                  : "the op at " + split.location;
  if (split.location.empty())
    return split.op;
  return split.op + " at " + split.location;
}

std::string opName(const char *loc) { return splitLoc(loc).op; }

std::string formatPointer(const void *pointer) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "0x%" PRIxPTR,
                reinterpret_cast<uintptr_t>(pointer));
  return buffer;
}

std::string describeUnregisteredPointer(const void *pointer) {
  return formatPointer(pointer) +
         " is not in host memory that gpu.host_register registered: only "
         "such memory has a device address";
}

void reportFatalError(const char *loc, const std::string &message) {
  reportFatalError(loc, message, std::string());
}

void reportFatalError(const char *loc, const std::string &message,
                      const std::string &printedFirst) {
  reportFatalDiagnostic(loc, "error", message, printedFirst);
}

void reportFatalDiagnostic(const char *loc, const char *severity,
                           const std::string &message,
                           const std::string &printedFirst) {
  // Only the first error of the process is printed (FatalReport.h).
  if (beginFatalReport() == FatalReportClaim::OtherThread)
    waitForFatalReport();
  std::string line = formatDiagnostic(loc, severity, message);
  line += '\n';
  line += takeFatalCheckSummary(loc);
  setFatalReportMessage(line.data(), line.size());
  {
    // Whatever the program printed so far comes first, as it was written
    // first; std::cout has its own buffer once a program turns off
    // sync_with_stdio. A lock held by another thread is not waited for.
    std::lock_guard<std::mutex> lock(diagnosticMutex());
    if (ftrylockfile(stdout) == 0) {
      std::cout.flush();
      std::fflush(stdout);
      funlockfile(stdout);
    }
    writeToStderr(printedFirst.data(), printedFirst.size());
    printFatalReportMessage();
  }
  // Flushes every stdio stream, including ones the program opened; the
  // report's deadline ends the process if one of them hangs.
  std::fflush(nullptr);
  finishFatalReport();
}

void reportWarning(const char *loc, const std::string &message) {
  printDiagnosticAt(loc, "warning", message);
}

std::string describeBadAllocation(int64_t rank, const int64_t *sizes,
                                  int64_t elementSizeBytes) {
  std::string shape;
  int64_t negative = -1;
  bool empty = false;
  int64_t bytes = elementSizeBytes;
  bool overflows = false;
  for (int64_t d = 0; d < rank; ++d) {
    shape += (d ? " x " : "") + std::to_string(sizes[d]);
    if (sizes[d] < 0 && negative < 0)
      negative = d;
    empty = empty || sizes[d] == 0;
    overflows = overflows || __builtin_mul_overflow(bytes, sizes[d], &bytes);
  }
  std::string message = "cannot allocate " + shape + " elements of " +
                        byteCount(elementSizeBytes) + ": ";
  if (negative >= 0)
    return message + "size " + std::to_string(sizes[negative]) +
           " (dimension " + std::to_string(negative) + ") is negative";
  if (overflows && !empty)
    return message + "that is more bytes than an index can count (" +
           std::to_string(INT64_MAX) + ")";
  return message + "a size is negative, or the bytes are more than an index "
                   "can count";
}

void LeakTally::add(const std::string &loc, uint64_t bytes) {
  auto [it, inserted] = indexOfLoc.try_emplace(loc, ops.size());
  if (inserted)
    ops.push_back(PerOp{loc, 0, 0});
  PerOp &op = ops[it->second];
  ++op.count;
  op.bytes += bytes;
}

std::vector<LeakTally::Line> LeakTally::lines() const {
  std::vector<Line> lines;
  for (const PerOp &op : ops) {
    if (op.count == 1)
      lines.push_back(Line{op.loc, std::to_string(op.bytes) +
                                       " bytes of device memory allocated here "
                                       "were never freed"});
    else
      lines.push_back(Line{op.loc, std::to_string(op.count) +
                                       " allocations made here (" +
                                       std::to_string(op.bytes) +
                                       " bytes of device memory in all) were "
                                       "never freed"});
  }
  return lines;
}

std::string byteCount(uint64_t bytes) {
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

} // namespace gpu_runner
