// A compiled program that cannot be stored in the compile cache (here a
// file size limit, as a full disk fails a write) is only warned about: the
// run goes on and the program runs, in the default folder and in one
// --cache-dir names, and the temporary file of the store is removed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sh -c 'ulimit -f 1; GPU_RUNNER_CACHE_DIR=%t/default exec %gpu-runner %s --timing' 2>&1 | FileCheck %s
// RUN: sh -c 'ulimit -f 1; exec %gpu-runner %s --cache-dir=%t/explicit --timing' 2>&1 | FileCheck %s
// RUN: %python -c "import os; print('left:', [n for d in ('default', 'explicit') for n in os.listdir(os.path.join('%t', d))])" | FileCheck %s --check-prefix=LEFT
// Without the limit, the next run stores it.
// RUN: %gpu-runner %s --cache-dir=%t/explicit --timing 2>&1 | FileCheck %s --check-prefix=STORED

// CHECK: warning: cannot store the compiled program in the compile cache: File too large
// CHECK: 42
// CHECK: compile cache: miss, not stored: File too large
// LEFT: left: []
// STORED: compile cache: miss, stored as {{.*}}explicit{{/|\\}}llvmcache-

func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c42 = arith.constant 42 : i64
  call @printI64(%c42) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
