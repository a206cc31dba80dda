//===- DriverLibrary.cpp - A vendor's library, loaded at run time ---------===//

#include "wrappers/gpu/DriverLibrary.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>

namespace gpu_runner {

namespace {

/// What dlopen is given for the library `name` that the variable names.
std::string getPathToOpen(const std::string &name) {
  if (name.find('/') == std::string::npos && access(name.c_str(), F_OK) == 0)
    return "./" + name;
  return name;
}

/// "cuInit nor cuDriverGetVersion".
std::string joinWithNor(const std::vector<const char *> &names) {
  std::string joined;
  for (const char *name : names)
    joined += (joined.empty() ? "" : " nor ") + std::string(name);
  return joined;
}

} // namespace

Status loadDriverLibrary(const DriverLibrary &library,
                         const std::vector<DriverEntryPoint> &entries) {
  const char *chosen = std::getenv(library.variable);
  std::vector<std::string> names(library.names.begin(), library.names.end());
  if (chosen && *chosen)
    names = {getPathToOpen(chosen)};
  void *handle = nullptr;
  std::string opened, reasons;
  for (const std::string &name : names) {
    handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      opened = name;
      break;
    }
    const char *reason = dlerror();
    reasons += std::string(reasons.empty() ? "" : "; ") +
               (reason ? reason : name.c_str());
  }
  if (!handle && chosen && *chosen)
    return Status::error(std::string(library.variable) + "=" + chosen +
                         " could not be loaded (" + reasons + ")");
  if (!handle)
    return Status::error(
        std::string(library.what) + " is not installed: " + library.shortName +
        " could not be loaded (" + reasons + "); " + library.whereItRuns +
        ", and gpu-runner-host runs them on the CPU");
  // The library stays open for the life of the process.
  bool identified = false;
  for (const char *name : library.identifyingNames)
    identified |= dlsym(handle, name) != nullptr;
  if (!identified) {
    std::string what = chosen && *chosen
                           ? std::string(library.variable) + "=" + chosen
                           : opened;
    return Status::error(what + " is not " + library.kind +
                         ": it provides neither " +
                         joinWithNor(library.identifyingNames));
  }
  for (const DriverEntryPoint &entry : entries) {
    *entry.address = dlsym(handle, entry.name);
    if (!*entry.address && !entry.optional)
      return Status::error(std::string(library.what) +
                           " is too old: " + opened + " does not provide " +
                           entry.name + library.versionNeeded);
  }
  return Status();
}

} // namespace gpu_runner
