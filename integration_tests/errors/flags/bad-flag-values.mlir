// Flags with values that make no sense are errors before anything runs.
// RUN: %expect-exit-1 %gpu-runner %s --timeout=abc 2>&1 | FileCheck %s --check-prefix=WORD
// RUN: %expect-exit-1 %gpu-runner %s --timeout=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: %expect-exit-1 %gpu-runner %s --timeout=99999999999 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: %expect-exit-1 %gpu-runner %s -O5 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: %expect-exit-1 %gpu-runner %s --entry-point-result= 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: %expect-exit-1 %gpu-runner %s %s 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: %expect-exit-1 %gpu-runner %s --dump-object-file --object-filename=%t.missing-dir/out.o 2>&1 | FileCheck %s --check-prefix=OBJECT
// The object goes to stdout only when the program does not run, to print
// there too: the two would be mixed.
// RUN: %expect-exit-1 %gpu-runner %s --dump-object-file --object-filename=- 2>&1 | FileCheck %s --check-prefix=OBJECT-STDOUT
// RUN: %gpu-runner %s --compile-only --dump-object-file --object-filename=- | od -c | head -n 1 | FileCheck %s --check-prefix=OBJECT-ELF
// Benchmark counts go from 0 to 1000000 (docs/timing.md); 4294967295 runs
// used to wrap the count of runs around to none, and crash.
// RUN: %expect-exit-1 %gpu-runner %s --benchmark-repetitions=4294967295 2>&1 | FileCheck %s --check-prefix=REPS
// RUN: %expect-exit-1 %gpu-runner %s --benchmark-repetitions=1 --benchmark-warmup=4294967295 2>&1 | FileCheck %s --check-prefix=WARMUP
// RUN: %expect-exit-1 %gpu-runner %s --benchmark-repetitions=1000001 2>&1 | FileCheck %s --check-prefix=REPS-OVER
// RUN: %expect-exit-1 %gpu-runner %s --benchmark-repetitions=4294967296 2>&1 | FileCheck %s --check-prefix=REPS-HUGE
// RUN: %expect-exit-1 %gpu-runner %s --device=2147483648 2>&1 | FileCheck %s --check-prefix=DEVICE-HUGE
// RUN: %expect-exit-1 %gpu-runner %s --device=-2147483648 2>&1 | FileCheck %s --check-prefix=DEVICE-NEGATIVE
// RUN: %expect-exit-1 %gpu-runner %s --timeout=4294967296 2>&1 | FileCheck %s --check-prefix=TIMEOUT-HUGE
// Numbers that do not parse, and empty values, which are not 0.
// RUN: %expect-exit-1 %gpu-runner %s --atol=abc 2>&1 | FileCheck %s --check-prefix=ATOL-WORD
// RUN: %expect-exit-1 %gpu-runner %s --rtol=1e-5x 2>&1 | FileCheck %s --check-prefix=RTOL-TAIL
// RUN: %expect-exit-1 %gpu-runner %s --atol= 2>&1 | FileCheck %s --check-prefix=ATOL-EMPTY
// RUN: %expect-exit-1 %gpu-runner %s --timeout= 2>&1 | FileCheck %s --check-prefix=TIMEOUT-EMPTY
// RUN: %expect-exit-1 %gpu-runner %s --max-input-size=1.5 2>&1 | FileCheck %s --check-prefix=MAX-INPUT
// RUN: %expect-exit-1 %gpu-runner %s --device= 2>&1 | FileCheck %s --check-prefix=DEVICE-EMPTY
// The most of each is fine.
// RUN: %gpu-runner %s --benchmark-repetitions=1000000 --benchmark-warmup=1000000 2>&1 | FileCheck %s --check-prefix=BENCH
// A library named without a '/' is looked for on the library path, not in
// the current folder: the error says so, and names the one here.
// RUN: rm -rf %t.here && mkdir -p %t.here && touch %t.here/libmine.so
// RUN: cd %t.here && %expect-exit-1 %gpu-runner %s --shared-libs=libmine.so 2>&1 | FileCheck %s --check-prefix=BARE-HERE
// RUN: cd %t.here && %expect-exit-1 %gpu-runner %s --shared-libs=libnowhere.so 2>&1 | FileCheck %s --check-prefix=BARE

// WORD: error: --timeout: 'abc' is not a whole number from 0 to 4294967295
// NEGATIVE: error: --timeout: '-1' is not a whole number from 0 to 4294967295
// HUGE: error: --timeout: '99999999999' is not a whole number from 0 to 4294967295
// OPT: Unknown command line argument '-O5'.
// RESULT: error: --entry-point-result= is not one of void, i32, i64, f32
// TWO: Too many positional arguments specified!
// OBJECT: cannot write the object file '{{.*}}missing-dir/out.o': No such file or directory
// OBJECT-STDOUT: error: --object-filename=- writes the object to stdout, where the program prints too: add --compile-only, or name a file
// OBJECT-ELF: 0000000 177   E   L   F
// REPS: error: --benchmark-repetitions=4294967295 is out of range: give 0 to 1000000 runs
// WARMUP: error: --benchmark-warmup=4294967295 is out of range: give 0 to 1000000 runs
// REPS-OVER: error: --benchmark-repetitions=1000001 is out of range: give 0 to 1000000 runs
// REPS-HUGE: error: --benchmark-repetitions: '4294967296' is not a whole number from 0 to 4294967295
// DEVICE-HUGE: error: --device: '2147483648' is not a whole number from -2147483648 to 2147483647
// DEVICE-NEGATIVE: error: --device=-2147483648 is negative; devices are numbered from 0
// TIMEOUT-HUGE: error: --timeout: '4294967296' is not a whole number from 0 to 4294967295
// ATOL-WORD: error: --atol: 'abc' is not a number
// ATOL-WORD-NOT: for the
// RTOL-TAIL: error: --rtol: '1e-5x' is not a number
// ATOL-EMPTY: error: --atol: the value is empty; give a number
// TIMEOUT-EMPTY: error: --timeout: the value is empty; give a whole number from 0 to 4294967295
// MAX-INPUT: error: --max-input-size: '1.5' is not a whole number from 0 to 4294967295
// DEVICE-EMPTY: error: --device: the value is empty; give a whole number from -2147483648 to 2147483647
// BENCH: warm-up runs: 1000000 (not timed)
// BENCH-NEXT: timed runs: 1000000
// BARE-HERE: error: --shared-libs: cannot load 'libmine.so': {{.*}}; a name without a '/' is searched for on the library path (LD_LIBRARY_PATH, the system's folders), not in the current folder: name the one here './libmine.so'
// BARE: error: --shared-libs: cannot load 'libnowhere.so': {{.*}}; a name without a '/' is searched for on the library path (LD_LIBRARY_PATH, the system's folders), not in the current folder{{$}}

func.func @main() {
  return
}
