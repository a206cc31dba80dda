//===- StreamHazards.cpp - racecheck of the streams' copies and memsets ---===//

#include "wrappers/host/StreamHazards.h"

#include <algorithm>
#include <iterator>

namespace gpu_runner {

namespace {

bool contains(const std::vector<void *> &handles, void *handle) {
  return std::find(handles.begin(), handles.end(), handle) != handles.end();
}

/// Whether two sorted, disjoint lists of runs share a byte.
bool overlap(const std::vector<StreamHazards::Range> &a,
             const std::vector<StreamHazards::Range> &b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (i->begin < j->end && j->begin < i->end)
      return true;
    if (i->end <= j->end)
      ++i;
    else
      ++j;
  }
  return false;
}

/// Whether the sorted, disjoint `runs` hold `where`.
bool holds(const std::vector<StreamHazards::Range> &runs, uintptr_t where) {
  auto after =
      std::upper_bound(runs.begin(), runs.end(), where,
                       [](uintptr_t address, const StreamHazards::Range &run) {
                         return address < run.begin;
                       });
  return after != runs.begin() && where < std::prev(after)->end;
}

} // namespace

StreamHazards::Conflict StreamHazards::noteAccess(void *stream,
                                                  std::vector<Range> runs,
                                                  bool write, const char *loc) {
  if (!enabled || runs.empty())
    return {};
  std::lock_guard<std::mutex> lock(mutex);
  Conflict conflict;
  for (const Access &access : accesses)
    if ((write || access.write) && !contains(access.handles, stream) &&
        overlap(access.runs, runs)) {
      conflict = Conflict{access.loc, access.write};
      break;
    }
  pendingRuns += runs.size();
  accesses.push_back(Access{std::move(runs), write, loc, {stream}});
  while (pendingRuns > kMaxPendingRuns && accesses.size() > 1) {
    pendingRuns -= accesses.front().runs.size();
    accesses.pop_front();
  }
  pending = accesses.size();
  return conflict;
}

StreamHazards::Conflict StreamHazards::noteAccess(void *stream,
                                                  const void *begin,
                                                  uint64_t bytes, bool write,
                                                  const char *loc) {
  if (!enabled || bytes == 0)
    return {};
  auto first = reinterpret_cast<uintptr_t>(begin);
  return noteAccess(stream, {Range{first, first + bytes}}, write, loc);
}

void StreamHazards::cover(void *from, void *to) {
  if (!enabled || !to || from == to)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  for (Access &access : accesses)
    if ((!from || contains(access.handles, from)) &&
        !contains(access.handles, to))
      access.handles.push_back(to);
}

void StreamHazards::observe(void *handle) {
  if (!enabled)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  if (!handle) {
    accesses.clear();
  } else {
    accesses.erase(std::remove_if(accesses.begin(), accesses.end(),
                                  [&](const Access &access) {
                                    return contains(access.handles, handle);
                                  }),
                   accesses.end());
  }
  pendingRuns = 0;
  for (const Access &access : accesses)
    pendingRuns += access.runs.size();
  pending = accesses.size();
}

const char *StreamHazards::findHazard(const void *address, bool write) const {
  if (pending.load(std::memory_order_relaxed) == 0)
    return nullptr;
  auto where = reinterpret_cast<uintptr_t>(address);
  std::lock_guard<std::mutex> lock(mutex);
  for (const Access &access : accesses)
    if ((write || access.write) && holds(access.runs, where))
      return access.loc;
  return nullptr;
}

void StreamHazards::reset(bool enable) {
  std::lock_guard<std::mutex> lock(mutex);
  enabled = enable;
  accesses.clear();
  pendingRuns = 0;
  pending = 0;
}

} // namespace gpu_runner
