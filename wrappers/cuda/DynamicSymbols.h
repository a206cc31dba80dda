//===- DynamicSymbols.h - The CUDA driver, loaded at run time -------------===//
//
// gpu-runner-cuda does not link against libcuda: a binary that did would not
// start on a machine without the NVIDIA driver, where it should still print
// its version, its help, compile kernels (--compile-only) and say clearly why
// it cannot run a program. Instead the driver library is opened with dlopen
// on first use (../gpu/DriverLibrary.h), and every entry point of
// DynamicSymbols.def is looked up once into one table.
//
// The table's members are named like the functions in cuda.h and are called
// the same way (`symbols().cuMemAlloc(...)`); cuda.h's macros map both to the
// versioned symbols (cuMemAlloc_v2, ...), so the exported name that is looked
// up is always the one the header's prototype describes. CudaDriver
// (CudaDriver.h) is the GpuDriver over the table.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_CUDA_DYNAMICSYMBOLS_H
#define GPU_RUNNER_WRAPPERS_CUDA_DYNAMICSYMBOLS_H

#include "standin/StandinKernels.h"
#include "wrappers/common/RuntimeError.h"

#include <cuda.h>

#include <string>

namespace gpu_runner {
namespace cuda {

/// TYPE itself: a pointer to function type written out, such as
/// `hipError_t (*)(void **, size_t)`, cannot precede a member's name.
template <typename TYPE> using SymbolType = TYPE;

/// Pointers to the driver's entry points, once loaded: all non-null but the
/// optional ones the driver lacks.
struct DynamicSymbols {
#define DRIVER_REQUIRED_SYMBOL(NAME) decltype(&::NAME) NAME = nullptr;
#define DRIVER_OPTIONAL_SYMBOL(NAME) decltype(&::NAME) NAME = nullptr;
#define DRIVER_REQUIRED_SYMBOL_TYPED(NAME, TYPE)                               \
  SymbolType<TYPE> NAME = nullptr;
#include "wrappers/cuda/DynamicSymbols.def"
#undef DRIVER_REQUIRED_SYMBOL
#undef DRIVER_OPTIONAL_SYMBOL
#undef DRIVER_REQUIRED_SYMBOL_TYPED
};

/// The names of the driver library, in the order they are tried, unless
/// GPU_RUNNER_CUDA_DRIVER names another.
inline constexpr const char *kLibraryNames[] = {"libcuda.so.1"};

/// Opens the driver and calls cuInit, once per process; later calls return
/// the first call's outcome. Fails with a sentence that names what is
/// missing: no driver library, a driver too old for a required entry point,
/// or cuInit's error (no device, ...).
Status loadDynamicSymbols();

/// The loaded table; only valid after loadDynamicSymbols succeeded.
const DynamicSymbols &symbols();

/// "CUDA_ERROR_OUT_OF_MEMORY: out of memory": a driver error's name and
/// description, as every CUDA error message ends.
std::string describeError(CUresult result);

/// Success, or an error whose message is "<what>: <describeError(result)>",
/// or just the description when `what` is empty.
Status check(CUresult result, const std::string &what = "");

} // namespace cuda
} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_CUDA_DYNAMICSYMBOLS_H
