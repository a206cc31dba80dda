//===- ProgramHeap.h - The program's malloc and free, with redzones -------===//
//
// The JIT resolves the program's malloc, calloc, realloc, aligned_alloc,
// posix_memalign, memalign, malloc_usable_size and free (memref.alloc and
// memref.dealloc call them) here, not to the C library. The program's heap
// then lives in an address range of its own, apart from the runner's, so
// that a program that writes past a buffer can damage only its own memory,
// never the C library's heap that gpu-runner uses; and each block is
// followed by a redzone that free checks, so that the damage is reported at
// the free that sees it:
//
//   error: free: heap corruption: the program wrote past the end of the
//   64-byte block at 0x...: byte 0 past its end was changed; ...
//
// free also reports a double free, a pointer that malloc did not return,
// and device memory (gpu.alloc's: free it with gpu.dealloc). A pointer
// that the C library allocated (strdup, a library the program calls) is
// handed to the C library's free; a fault or an abort there is reported as
// heap corruption by the program (programHeapCall).
//
// Under AddressSanitizer the sanitizer's allocator does this job instead.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_WRAPPERS_COMMON_PROGRAMHEAP_H
#define GPU_RUNNER_WRAPPERS_COMMON_PROGRAMHEAP_H

#include "wrappers/Backend.h"

#include <vector>

namespace gpu_runner {

/// The functions above, by the names the program calls them by; empty
/// under AddressSanitizer.
std::vector<RuntimeSymbol> getProgramHeapSymbols();

/// Frees `pointer` as the program's free does, with errors reported at
/// `loc` (an `At` function's location: "memref.dealloc@file.mlir:3:3").
/// Under AddressSanitizer only the check for device memory is its own.
void freeProgramMemory(void *pointer, const char *loc);

/// Whether `pointer` lies in the program's heap's address range (any block,
/// live or freed); false under AddressSanitizer, whose heap is everyone's.
bool isInProgramHeap(const void *pointer);

/// The name of the C library allocator function that the calling thread
/// runs for the program ("free", ...), or null: for the fault handler, which
/// reports a fault or abort there as the program's heap corruption.
/// Async-signal-safe.
const char *programHeapCall();

} // namespace gpu_runner

#endif // GPU_RUNNER_WRAPPERS_COMMON_PROGRAMHEAP_H
