//===- DriverLibrary.h - A vendor's library, loaded at run time -----------===//
//
// The GPU binaries do not link against libcuda or libamdhip64: a binary that
// did would not start on a machine without the vendor's driver, where it
// should still print its version, its help, compile kernels
// (--compile-only) and say clearly why it cannot run a program. Instead the
// library is opened with dlopen on first use, and every entry point the
// backend calls is looked up once into a table.
//
// A table entry is required (the backend cannot start without it) or
// optional (only some programs need it: the op that does says what is
// missing, and every other program runs).
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_GPU_DRIVERLIBRARY_H
#define GPU_RUNNER_WRAPPERS_GPU_DRIVERLIBRARY_H

#include "wrappers/common/RuntimeError.h"

#include <string>
#include <vector>

namespace gpu_runner {

/// One entry point of a vendor's table: its exported name, where its
/// address goes, and whether the backend can do without it.
struct DriverEntryPoint {
  const char *name;
  void **address;
  bool optional;
};

/// How to find a vendor's library, and how errors name it.
struct DriverLibrary {
  /// The environment variable that names another library to open
  /// (GPU_RUNNER_CUDA_DRIVER).
  const char *variable;
  /// What is tried without it, in order ("libcuda.so.1").
  std::vector<const char *> names;
  /// "the NVIDIA driver", "the HIP runtime".
  const char *what;
  /// How messages name the default library: "libcuda.so.1", "libamdhip64".
  const char *shortName;
  /// "gpu-runner-cuda runs programs only where the driver is".
  const char *whereItRuns;
  /// Said after an entry point that is missing: "; gpu-runner-cuda needs a
  /// driver for CUDA 12.8 or newer".
  const char *versionNeeded;
  /// Entry points that every version of the library has ("cuInit",
  /// "cuDriverGetVersion"): a library with none of them is another library
  /// altogether, not an old one.
  std::vector<const char *> identifyingNames;
  /// What such a library is, for "libm.so.6 is not a CUDA driver".
  const char *kind;
};

/// Opens `library` and looks up `entries` into their addresses. Fails with
/// a sentence that names what is missing: the library, or a required entry
/// point; or that the library is not one of its kind. A missing optional
/// entry point leaves its address null. A library named by the variable
/// with no slash that is a file in the current folder is opened there, as
/// ./NAME (dlopen would look for NAME on the library path only).
Status loadDriverLibrary(const DriverLibrary &library,
                         const std::vector<DriverEntryPoint> &entries);

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_GPU_DRIVERLIBRARY_H
