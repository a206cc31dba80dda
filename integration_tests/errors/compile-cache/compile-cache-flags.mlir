// The compile cache's flags: a --cache-dir that cannot be used is an error;
// a default folder that cannot be used is a warning, and the run goes on
// without the cache. A size too large for 64 bits is an error, not a small
// size.
// RUN: rm -rf %t && mkdir -p %t && touch %t/file
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=%t/file/cache 2>&1 | FileCheck %s --check-prefix=DIR
// A file that is not a folder is an error too, before anything is compiled
// (-e nope would be a compile error).
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=%t/file -e nope 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=/dev/null -e nope 2>&1 | FileCheck %s --check-prefix=DEVNULL
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=%t/cache --cache-max-size=lots 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=%t/cache --cache-max-size=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=%t/cache --cache-max-size=18014398509481985k 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: %expect-exit-1 %gpu-runner %s --no-cache --cache-dir=%t/cache 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: env GPU_RUNNER_CACHE_DIR=%t/file/cache %gpu-runner %s --timing 2>&1 | FileCheck %s --check-prefix=DEFAULT
// A program that does not compile is not stored, and --timing says so.
// RUN: %expect-exit-1 %gpu-runner %s --cache-dir=%t/failed --timing -e nope 2>&1 | FileCheck %s --check-prefix=FAILED
// RUN: %python -c "import glob; print('entries:', len(glob.glob('%t/failed/llvmcache-*')))" | FileCheck %s --check-prefix=NONE
// A dump of the object on a hit is the object that was compiled.
// RUN: %gpu-runner %s --cache-dir=%t/cache --dump-object-file --object-filename=%t/miss.o
// RUN: %gpu-runner %s --cache-dir=%t/cache --dump-object-file --object-filename=%t/hit.o
// RUN: cmp %t/miss.o %t/hit.o

// DIR: error: --cache-dir: cannot create the cache folder {{.*}}file/cache: Not a directory
// FILE: error: --cache-dir: the cache folder {{.*}}file is not a folder
// FILE-NOT: nope
// DEVNULL: error: --cache-dir: the cache folder /dev/null is not a folder
// DEVNULL-NOT: nope
// SIZE: error: --cache-max-size=lots is not a size: give bytes, or a number with a k, m or g suffix, such as 512m
// ZERO: error: --cache-max-size=0 is zero: use --no-cache to run without the cache
// HUGE: error: --cache-max-size=18014398509481985k is too large: a size is at most 2^64 - 1 bytes (16 EiB)
// BOTH: error: --no-cache runs without the cache: drop --cache-dir and --cache-max-size, or --no-cache
// DEFAULT: warning: no compile cache: cannot create the cache folder {{.*}}file/cache: Not a directory; set --cache-dir, or --no-cache to run without it
// DEFAULT: compile cache: off (cannot create the cache folder {{.*}}file/cache: Not a directory)
// DEFAULT: Run
// FAILED: error: entry point 'nope' not found; name it with -e
// FAILED: compile cache: miss, not stored: the program did not compile
// NONE: entries: 0

func.func @main() {
  return
}
