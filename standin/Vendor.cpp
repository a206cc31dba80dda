//===- Vendor.cpp - What differs between the vendors, and what does not ---===//

#include "standin/Vendor.h"

#include <dlfcn.h>

#include <cctype>
#include <cstring>

namespace gpu_runner {
namespace standin {

Vendor::Vendor(const char *name, const char *entryPrefix,
               const char *errorPrefix, void *anchor,
               std::vector<ErrorName> errors)
    : name(name), entryPrefix(entryPrefix), errorPrefix(errorPrefix),
      anchor(anchor), errors(std::move(errors)),
      descriptionsMutex(new std::mutex()),
      descriptions(new std::map<int, std::string>()) {}

const char *Vendor::getErrorName(int code) const {
  for (const ErrorName &error : errors)
    if (error.code == code)
      return error.name;
  return nullptr;
}

bool Vendor::getCodeByName(const std::string &name, int &code) const {
  for (const ErrorName &error : errors)
    if (name == error.name) {
      code = error.code;
      return true;
    }
  return false;
}

bool Vendor::isEntryPoint(const std::string &name) const {
  Dl_info info;
  if (name.compare(0, std::strlen(entryPrefix), entryPrefix) != 0 ||
      !dladdr(anchor, &info))
    return false;
  void *self = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  bool found = self && dlsym(self, name.c_str());
  if (self)
    dlclose(self);
  return found;
}

const char *Vendor::describeByName(int code) const {
  const char *full = getErrorName(code);
  if (!full || std::strncmp(full, errorPrefix, std::strlen(errorPrefix)) != 0)
    return nullptr;
  std::lock_guard<std::mutex> lock(*descriptionsMutex);
  auto it = descriptions->find(code);
  if (it != descriptions->end())
    return it->second.c_str();
  // Words end at an underscore, and before an upper-case letter that starts
  // a word of its own: PEER_ACCESS, PeerAccess, ECCNotCorrectable.
  std::string text;
  const char *word = full + std::strlen(errorPrefix);
  for (const char *c = word; *c; ++c) {
    bool upper = std::isupper(static_cast<unsigned char>(*c));
    bool startsWord =
        c != word && upper &&
        (std::islower(static_cast<unsigned char>(c[-1])) ||
         (c[1] && std::islower(static_cast<unsigned char>(c[1])) &&
          std::isupper(static_cast<unsigned char>(c[-1]))));
    if (*c == '_' || startsWord) {
      if (!text.empty() && text.back() != ' ')
        text += ' ';
      if (*c == '_')
        continue;
    }
    text += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
  }
  return descriptions->emplace(code, text).first->second.c_str();
}

} // namespace standin
} // namespace gpu_runner
