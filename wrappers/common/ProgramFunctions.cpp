//===- ProgramFunctions.cpp - Where the program's compiled functions are --===//

#include "wrappers/common/ProgramFunctions.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

namespace gpu_runner {

namespace {

/// One published table: sorted by begin, never changed once published.
struct FunctionTable {
  std::vector<ProgramFunction> functions;
};

std::mutex tableMutex;
/// The latest table.
std::atomic<const FunctionTable *> published{nullptr};
/// Tables that were replaced, kept until clearProgramFunctions: a signal
/// handler may still be reading one.
std::vector<std::unique_ptr<FunctionTable>> retired;

} // namespace

void addProgramFunctions(std::vector<ProgramFunction> functions) {
  std::lock_guard<std::mutex> lock(tableMutex);
  auto *table = new FunctionTable();
  if (const FunctionTable *previous = published.load())
    table->functions = previous->functions;
  for (ProgramFunction &function : functions)
    table->functions.push_back(std::move(function));
  std::sort(table->functions.begin(), table->functions.end(),
            [](const ProgramFunction &a, const ProgramFunction &b) {
              return a.begin < b.begin;
            });
  if (const FunctionTable *previous = published.exchange(table))
    retired.emplace_back(const_cast<FunctionTable *>(previous));
}

void clearProgramFunctions() {
  std::lock_guard<std::mutex> lock(tableMutex);
  delete published.exchange(nullptr);
  retired.clear();
}

const char *findProgramFunction(uintptr_t address) {
  const FunctionTable *table = published.load();
  if (!table)
    return nullptr;
  const std::vector<ProgramFunction> &functions = table->functions;
  // The last function that begins at or before `address`.
  size_t low = 0, high = functions.size();
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (functions[middle].begin <= address)
      low = middle + 1;
    else
      high = middle;
  }
  if (low == 0 || address >= functions[low - 1].end)
    return nullptr;
  return functions[low - 1].name.c_str();
}

} // namespace gpu_runner
