//===- StreamHazards.cpp - racecheck of the host code against the streams -===//

#include "wrappers/host/StreamHazards.h"

#include <algorithm>

namespace gpu_runner {

void StreamHazards::noteAccess(void *stream, const void *begin, uint64_t bytes,
                               bool write, const char *loc) {
  if (!enabled || bytes == 0)
    return;
  auto first = reinterpret_cast<uintptr_t>(begin);
  std::lock_guard<std::mutex> lock(mutex);
  if (accesses.size() == kMaxAccesses)
    accesses.pop_front();
  accesses.push_back(Access{first, first + bytes, write, loc, {stream}});
  pending = accesses.size();
}

void StreamHazards::cover(void *from, void *to) {
  if (!enabled || !to || from == to)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  for (Access &access : accesses) {
    bool covered =
        !from || std::find(access.handles.begin(), access.handles.end(),
                           from) != access.handles.end();
    if (covered && std::find(access.handles.begin(), access.handles.end(),
                             to) == access.handles.end())
      access.handles.push_back(to);
  }
}

void StreamHazards::observe(void *handle) {
  if (!enabled)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  if (!handle) {
    accesses.clear();
    pending = 0;
    return;
  }
  accesses.erase(std::remove_if(accesses.begin(), accesses.end(),
                                [&](const Access &access) {
                                  return std::find(access.handles.begin(),
                                                   access.handles.end(),
                                                   handle) !=
                                         access.handles.end();
                                }),
                 accesses.end());
  pending = accesses.size();
}

const char *StreamHazards::findHazard(const void *address, bool write) const {
  if (pending.load(std::memory_order_relaxed) == 0)
    return nullptr;
  auto where = reinterpret_cast<uintptr_t>(address);
  std::lock_guard<std::mutex> lock(mutex);
  for (const Access &access : accesses)
    if (where >= access.begin && where < access.end && (write || access.write))
      return access.loc;
  return nullptr;
}

void StreamHazards::reset(bool enable) {
  std::lock_guard<std::mutex> lock(mutex);
  enabled = enable;
  accesses.clear();
  pending = 0;
}

} // namespace gpu_runner
