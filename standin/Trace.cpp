//===- Trace.cpp - The call trace and fault injection ---------------------===//

#include "standin/Trace.h"

#include <fcntl.h>
#include <unistd.h>

#include <sstream>

namespace gpu_runner {
namespace standin {

bool parseFaults(const std::string &text,
                 const std::function<bool(const std::string &)> &isEntry,
                 const std::function<bool(const std::string &, int &)> &codeOf,
                 std::vector<Fault> &faults, std::string &error) {
  faults.clear();
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty())
      continue;
    size_t first = item.find(':');
    size_t second =
        first == std::string::npos ? first : item.find(':', first + 1);
    if (second == std::string::npos) {
      error = "'" + item + "' is not ENTRY:N:ERROR";
      return false;
    }
    Fault fault;
    fault.entry = item.substr(0, first);
    std::string count = item.substr(first + 1, second - first - 1);
    std::string name = item.substr(second + 1);
    if (!isEntry(fault.entry)) {
      error = "'" + fault.entry +
              "' is not an entry point the library exports (versioned "
              "entry points carry their suffix: cuMemAlloc_v2)";
      return false;
    }
    if (count.empty() ||
        count.find_first_not_of("0123456789") != std::string::npos ||
        count.size() > 18 ||
        // Read once the text is known to be a number of 18 digits at most.
        // NOLINTNEXTLINE(bugprone-assignment-in-if-condition)
        (fault.call = std::stoull(count)) == 0) {
      error = "'" + count + "' in '" + item +
              "' is not a call number (1 is the first call)";
      return false;
    }
    if (!codeOf(name, fault.code) || fault.code == 0) {
      error = "'" + name + "' in '" + item + "' is not an error of this API";
      return false;
    }
    faults.push_back(fault);
  }
  return true;
}

bool CallLog::openTrace(const std::string &path) {
  fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
            0644);
  return fd >= 0;
}

int CallLog::countCall(const char *entry) {
  std::lock_guard<std::mutex> lock(mutex);
  uint64_t call = ++calls[entry];
  for (const Fault &fault : faults)
    if (fault.call == call && fault.entry == entry)
      return fault.code;
  return 0;
}

void CallLog::write(const std::string &line) {
  if (fd < 0)
    return;
  std::string text = line + "\n";
  std::lock_guard<std::mutex> lock(mutex);
  const char *data = text.data();
  size_t left = text.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written <= 0)
      return;
    data += written;
    left -= static_cast<size_t>(written);
  }
}

} // namespace standin
} // namespace gpu_runner
