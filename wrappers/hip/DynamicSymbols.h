//===- DynamicSymbols.h - The HIP runtime, loaded at run time -------------===//
//
// gpu-runner-hip does not link against libamdhip64: a binary that did would
// not start where ROCm is not installed, where it should still print its
// version, its help, compile kernels (--compile-only) and say clearly why it
// cannot run a program. Instead the library is opened with dlopen on first
// use (../gpu/DriverLibrary.h), and every entry point of DynamicSymbols.def
// is looked up once into one table.
//
// The table's members are named like the functions in hip_runtime_api.h and
// are called the same way (`symbols().hipMalloc(...)`). HipDriver
// (HipDriver.h) is the GpuDriver over the table.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_HIP_DYNAMICSYMBOLS_H
#define GPU_RUNNER_WRAPPERS_HIP_DYNAMICSYMBOLS_H

#include "standin/StandinKernels.h"
#include "wrappers/common/RuntimeError.h"

#include <hip/hip_runtime_api.h>

#include <string>

namespace gpu_runner {
namespace hip {

/// TYPE itself: a pointer to function type written out, such as
/// `hipError_t (*)(void **, size_t)`, cannot precede a member's name.
template <typename TYPE> using SymbolType = TYPE;

/// Pointers to the HIP runtime's entry points, once loaded: all non-null but
/// the optional ones the runtime lacks.
struct DynamicSymbols {
#define DRIVER_REQUIRED_SYMBOL(NAME) decltype(&::NAME) NAME = nullptr;
#define DRIVER_OPTIONAL_SYMBOL(NAME) decltype(&::NAME) NAME = nullptr;
#define DRIVER_REQUIRED_SYMBOL_TYPED(NAME, TYPE)                               \
  SymbolType<TYPE> NAME = nullptr;
#include "wrappers/hip/DynamicSymbols.def"
#undef DRIVER_REQUIRED_SYMBOL
#undef DRIVER_OPTIONAL_SYMBOL
#undef DRIVER_REQUIRED_SYMBOL_TYPED
};

/// The names of the library, in the order they are tried, unless
/// GPU_RUNNER_HIP_RUNTIME names another.
inline constexpr const char *kLibraryNames[] = {"libamdhip64.so.5",
                                                "libamdhip64.so"};

/// Opens the HIP runtime and calls hipInit, once per process; later calls
/// return the first call's outcome. Fails with a sentence that names what is
/// missing: no runtime library, one too old for a required entry point, or
/// hipInit's error (no device, ...).
Status loadDynamicSymbols();

/// The loaded table; only valid after loadDynamicSymbols succeeded.
const DynamicSymbols &symbols();

/// "hipErrorOutOfMemory: out of memory": an error's name and description,
/// as every HIP error message ends.
std::string describeError(hipError_t result);

} // namespace hip
} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_HIP_DYNAMICSYMBOLS_H
