//===- BackendKind.h - The backends, by name ------------------------------===//
//
// Which backend a binary runs programs on: all that the lowering knows of a
// backend, without the runtime's interface (Backend.h).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_BACKENDKIND_H
#define GPU_RUNNER_WRAPPERS_BACKENDKIND_H

namespace gpu_runner {

enum class Backend { Host, Cuda, Hip };

/// The name of `backend` as the user sees it, and `--version` prints it:
/// "host", "cuda", "hip".
inline const char *getBackendName(Backend backend) {
  switch (backend) {
  case Backend::Host:
    return "host";
  case Backend::Cuda:
    return "cuda";
  case Backend::Hip:
    return "hip";
  }
  return "unknown";
}

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_BACKENDKIND_H
