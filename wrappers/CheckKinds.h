//===- CheckKinds.h - The checks of --check, by name
//-----------------------===//
//
// What `--check=LIST` turns on: the lowering adds the checks' code to the
// program, the runtime reports what they find. Plain C++, as BackendKind.h,
// so that the runner, the lowering and the wrappers share one list.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_CHECKKINDS_H
#define GPU_RUNNER_WRAPPERS_CHECKKINDS_H

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpu_runner {

/// One check, as compute-sanitizer names its tools.
enum class Check : uint8_t {
  Memcheck = 1 << 0,
  Racecheck = 1 << 1,
  Initcheck = 1 << 2,
  Synccheck = 1 << 3,
  Leakcheck = 1 << 4,
};

/// Every check, in the order reports and summaries list them.
inline constexpr std::array<Check, 5> kAllChecks = {
    Check::Memcheck, Check::Racecheck, Check::Initcheck, Check::Synccheck,
    Check::Leakcheck};

/// "memcheck", ...: the name in `--check=` and in each report.
inline const char *getCheckName(Check check) {
  switch (check) {
  case Check::Memcheck:
    return "memcheck";
  case Check::Racecheck:
    return "racecheck";
  case Check::Initcheck:
    return "initcheck";
  case Check::Synccheck:
    return "synccheck";
  case Check::Leakcheck:
    return "leakcheck";
  }
  return "unknown";
}

/// A set of checks; empty without --check.
class CheckSet {
public:
  constexpr CheckSet() = default;
  constexpr explicit CheckSet(uint8_t bits) : bits(bits) {}

  static constexpr CheckSet all() {
    uint8_t bits = 0;
    for (Check check : kAllChecks)
      bits |= static_cast<uint8_t>(check);
    return CheckSet(bits);
  }

  bool has(Check check) const {
    return (bits & static_cast<uint8_t>(check)) != 0;
  }
  void add(Check check) { bits |= static_cast<uint8_t>(check); }
  bool empty() const { return bits == 0; }
  uint8_t getBits() const { return bits; }
  bool operator==(CheckSet other) const { return bits == other.bits; }

  /// "memcheck,leakcheck", in kAllChecks' order; "none" when empty.
  std::string str() const {
    std::string text;
    for (Check check : kAllChecks)
      if (has(check))
        text += (text.empty() ? "" : ",") + std::string(getCheckName(check));
    return text.empty() ? "none" : text;
  }

  /// Adds the checks of a `--check` value: names separated by commas, or
  /// `all`. Returns an empty string, or what is wrong with `list`.
  std::string parse(std::string_view list) {
    if (list.empty())
      return "the list is empty; give " + describeNames();
    size_t begin = 0;
    while (begin <= list.size()) {
      size_t end = list.find(',', begin);
      if (end == std::string_view::npos)
        end = list.size();
      std::string_view name = list.substr(begin, end - begin);
      if (name == "all") {
        *this = all();
      } else {
        bool known = false;
        for (Check check : kAllChecks) {
          if (name == getCheckName(check)) {
            add(check);
            known = true;
          }
        }
        if (!known)
          return (name.empty() ? std::string("an empty name")
                               : "'" + std::string(name) + "'") +
                 " is not a check; give " + describeNames();
      }
      begin = end + 1;
    }
    return std::string();
  }

  /// "a comma-separated list of memcheck, ..., or all".
  static std::string describeNames() {
    std::string names;
    for (Check check : kAllChecks)
      names += std::string(getCheckName(check)) + ", ";
    return "a comma-separated list of " + names + "or all";
  }

private:
  uint8_t bits = 0;
};

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_CHECKKINDS_H
