//===- Vendor.h - What differs between the vendors, and what does not -----===//
//
// Each front end (CudaDriver.cpp, HipRuntime.cpp) describes its API to the
// shared core with one Vendor: how its errors map from the core's, its
// table of error names (generated from its header), the prefix of its
// entry points, and the few behaviours where the APIs differ.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_VENDOR_H
#define GPU_RUNNER_STANDIN_VENDOR_H

#include "standin/Error.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace gpu_runner {
namespace standin {

/// An error code and its name, as the vendor's header spells it.
struct ErrorName {
  int code;
  const char *name;
};

class Vendor {
public:
  /// `name` is how messages name the library ("CUDA driver"); entry points
  /// start with `entryPrefix` ("cu"), error names with `errorPrefix`
  /// ("CUDA_ERROR_"); `anchor` is one of the library's entry points, by
  /// which it finds itself.
  Vendor(const char *name, const char *entryPrefix, const char *errorPrefix,
         void *anchor, std::vector<ErrorName> errors);
  virtual ~Vendor() = default;

  const char *getName() const { return name; }
  /// The vendor's code for one of the core's errors.
  virtual int getCode(Error error) const = 0;
  /// An error after which every call on the context fails with it.
  virtual bool isSticky(int code) const = 0;
  /// CUDA: every call but a few fails before cuInit. HIP starts itself.
  virtual bool needsInit() const = 0;
  /// HIP: a thread starts on device 0. CUDA: with no current context.
  virtual bool hasImplicitDevice() const = 0;
  /// Reads the vendor's own settings from the environment, when the
  /// Driver is made; one it cannot use ends the process (failSetting).
  virtual void configure() const {}

  /// "CUDA_ERROR_INVALID_VALUE", or null for a code the API does not have;
  /// the first name of a code that has two.
  const char *getErrorName(int code) const;
  bool getCodeByName(const std::string &name, int &code) const;
  /// Whether the library exports `name`: what dlsym finds in it.
  bool isEntryPoint(const std::string &name) const;
  /// A description made of the error's name, for codes whose text the
  /// front end does not know: CUDA_ERROR_PEER_ACCESS_UNSUPPORTED and
  /// hipErrorPeerAccessUnsupported are "peer access unsupported".
  const char *describeByName(int code) const;

private:
  const char *name;
  const char *entryPrefix;
  const char *errorPrefix;
  void *anchor;
  std::vector<ErrorName> errors;
  // Made once and kept: a description lives as long as the process.
  std::mutex *descriptionsMutex;
  std::map<int, std::string> *descriptions;
};

/// The library's vendor; each front end defines it. Never destroyed:
/// programs may call in, and the leak report runs, while the process exits.
const Vendor &getVendor();

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_VENDOR_H
