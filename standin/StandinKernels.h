/*===- StandinKernels.h - The entry point only the stand-ins export -------===*\
|*                                                                            *|
|* A driver stand-in runs a module's kernels on the CPU from the LLVM IR that *|
|* the NVVM (or ROCDL) target serialized into the module's image: the module  *|
|* its optimizer left, as LLVM bitcode. A GPU runtime that has that IR looks  *|
|* this entry point up among its optional ones after cuModuleLoadData or      *|
|* hipModuleLoadData and, where the library exports it (only the stand-ins    *|
|* do), gives it the module just loaded and the bitcode. A real driver has no *|
|* such symbol, so with one nothing changes.                                  *|
|*                                                                            *|
|* Plain C, so that the runtime can include it without the stand-in's code.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPU_RUNNER_STANDIN_STANDINKERNELS_H
#define GPU_RUNNER_STANDIN_STANDINKERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The exported name, for dlsym. */
#define GPU_RUNNER_STANDIN_MODULE_ATTACH_IR "gpuRunnerStandinModuleAttachIR"

/* Gives the stand-in the LLVM bitcode (`bytes` at `bitcode`) that became the
 * image of `module` (a CUmodule or hipModule_t the same library loaded). The
 * stand-in checks it against the image (the same kernels, with parameters of
 * the same sizes) and compiles it for the CPU, once; launches of the module's
 * kernels then run it. Returns the vendor's code (CUresult, hipError_t):
 * success; an invalid handle; an invalid image when the IR is not bitcode or
 * disagrees with the image; not supported when it uses what the stand-in
 * does not implement. `log` (`logBytes`, may be 0) receives why, NUL
 * terminated, as a JIT error log does. A module given no IR refuses
 * launches as before. */
int gpuRunnerStandinModuleAttachIR(void *module, const void *bitcode,
                                   size_t bytes, char *log, size_t logBytes);

/* A typedef, not `using`: this header is C too. */
/* NOLINTNEXTLINE(modernize-use-using) */
typedef int (*GpuRunnerStandinModuleAttachIRFn)(void *module,
                                                const void *bitcode,
                                                size_t bytes, char *log,
                                                size_t logBytes);

#ifdef __cplusplus
}
#endif

#endif /* GPU_RUNNER_STANDIN_STANDINKERNELS_H */
