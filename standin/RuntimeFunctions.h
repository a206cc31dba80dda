//===- RuntimeFunctions.h - What the kernels' runtime functions share -----===//
//
// The runtime functions rewritten kernels call (KernelAbi.h) live in
// KernelRuntime.cpp, KernelPrintf.cpp, KernelRounding.cpp and
// KernelWmma.cpp; this header is how they reach the running thread, the
// memory it may touch and each other, and how getRuntimeSymbols finds them.
// Only those files include it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_RUNTIMEFUNCTIONS_H
#define GPU_RUNNER_STANDIN_RUNTIMEFUNCTIONS_H

#include "standin/Error.h"
#include "standin/KernelAbi.h"

#include <cstdint>
#include <string>

namespace gpu_runner {
namespace standin {

class BlockThreads;

/// The block that runs the thread of `context`.
BlockThreads &blockOf(ThreadContext *context);
/// "kernel 'k', block (1, 0, 0), thread (3, 0, 0)": from the registers, which
/// hold the running thread also when one fiber runs them all.
std::string describeThread(ThreadContext *context);
/// Fails the grid with `error` and stops the thread for good.
[[noreturn]] void failThread(ThreadContext *context, Error error,
                             const std::string &report);
/// Stops the thread if its grid failed meanwhile.
void checkGrid(ThreadContext *context);
/// Where `address` lies among what a kernel may reach: the stand-in's
/// pointer to it and the bytes readable from there. Null when it is none of
/// them (or, for a write, read-only).
char *resolve(ThreadContext *context, uintptr_t address, uint32_t space,
              bool write, uint64_t &available);
std::string hexAddress(uintptr_t address);
/// A NUL-terminated string the kernel passes (printf's format, assert's
/// texts), read where the kernel may read it; false if it may not.
bool readString(ThreadContext *context, uintptr_t address, std::string &text);

/// vprintf, and the printf service of ROCm's hostcall: one piece of a
/// message, its descriptor and seven words (KernelPrintf.cpp).
int32_t rtVprintf(ThreadContext *context, uintptr_t format,
                  uintptr_t arguments);
uint64_t rtHostcallPrintf(ThreadContext *context, uint64_t descriptor,
                          uint64_t w1, uint64_t w2, uint64_t w3, uint64_t w4,
                          uint64_t w5, uint64_t w6, uint64_t w7);

/// Arithmetic in a PTX rounding mode (KernelRounding.cpp): `op` is a
/// RoundedOp, `mode` a RoundingMode (KernelAbi.h).
float rtRoundF32(uint32_t op, uint32_t mode, float a, float b, float c);
double rtRoundF64(uint32_t op, uint32_t mode, double a, double b, double c);
float rtD2F(uint32_t mode, double value);
float rtIToF32(uint32_t isUnsigned, uint32_t mode, uint64_t value);
double rtIToF64(uint32_t isUnsigned, uint32_t mode, uint64_t value);

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_RUNTIMEFUNCTIONS_H
