//===- CheckReports.cpp - What --check finds, reported and counted --------===//

#include "wrappers/common/CheckReports.h"

#include "wrappers/common/RuntimeError.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <set>
#include <tuple>

namespace gpu_runner {

namespace {

/// The index of `check` in kAllChecks.
size_t indexOf(Check check) {
  for (size_t index = 0; index < kAllChecks.size(); ++index)
    if (kAllChecks[index] == check)
      return index;
  return 0;
}

struct CheckState {
  std::atomic<uint8_t> enabled{0};
  std::atomic<uint64_t> counts[kAllChecks.size()] = {};
  std::mutex mutex;
  /// The findings printed so far: check, loc, key.
  std::set<std::tuple<Check, std::string, std::string>> printed;
};

/// Never destroyed: threads of the program may report while the process
/// exits.
CheckState &state() {
  static CheckState *instance = new CheckState();
  return *instance;
}

std::string formatSummary() {
  CheckState &checks = state();
  uint64_t total = 0;
  std::string perCheck;
  for (Check check : kAllChecks) {
    uint64_t count = checks.counts[indexOf(check)].load();
    if (count == 0)
      continue;
    total += count;
    perCheck += (perCheck.empty() ? "" : ", ") +
                std::string(getCheckName(check)) + " " + std::to_string(count);
  }
  std::string line = "--check=" + CheckSet(checks.enabled.load()).str() + ": ";
  if (total == 0)
    return line + "no errors\n";
  return line + std::to_string(total) + (total == 1 ? " error" : " errors") +
         " (" + perCheck + ")\n";
}

std::string severityOf(Check check) {
  return std::string("error: ") + getCheckName(check);
}

} // namespace

void setEnabledChecks(CheckSet checks) {
  CheckState &current = state();
  current.enabled = checks.getBits();
  for (auto &count : current.counts)
    count = 0;
  std::lock_guard<std::mutex> lock(current.mutex);
  current.printed.clear();
}

CheckSet getEnabledChecks() { return CheckSet(state().enabled.load()); }

bool isCheckEnabled(Check check) {
  return (state().enabled.load(std::memory_order_relaxed) &
          static_cast<uint8_t>(check)) != 0;
}

void reportCheckError(Check check, const char *loc, const std::string &message,
                      const std::string &key) {
  CheckState &checks = state();
  {
    std::lock_guard<std::mutex> lock(checks.mutex);
    if (!checks.printed
             .emplace(check, loc ? loc : "", key.empty() ? message : key)
             .second)
      return;
  }
  checks.counts[indexOf(check)] += 1;
  printDiagnosticAt(loc, severityOf(check).c_str(), message);
}

void reportFatalCheckError(Check check, const char *loc,
                           const std::string &message) {
  state().counts[indexOf(check)] += 1;
  reportFatalDiagnostic(loc, severityOf(check).c_str(), message);
}

std::string takeFatalCheckSummary(const char *loc) {
  CheckState &checks = state();
  if (checks.enabled.load() == 0)
    return std::string();
  std::string op = opName(loc);
  for (Check check : kAllChecks) {
    std::string prefix = std::string(getCheckName(check)) + ": ";
    if (op.compare(0, prefix.size(), prefix) == 0)
      checks.counts[indexOf(check)] += 1;
  }
  return formatSummary();
}

uint64_t finishChecks() {
  CheckState &checks = state();
  if (checks.enabled.load() == 0)
    return 0;
  std::string summary = formatSummary();
  printDiagnosticLine(summary);
  uint64_t total = 0;
  for (auto &count : checks.counts)
    total += count.load();
  return total;
}

} // namespace gpu_runner
