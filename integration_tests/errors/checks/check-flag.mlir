// --check takes a comma-separated list of checks, or all, in one flag or
// several; anything else is an error before the program is read. A run
// under --check ends with the summary, here with no errors.
// RUN: %expect-exit-1 %gpu-runner %s --check=memcheck,bounds 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %expect-exit-1 %gpu-runner %s --check= 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: %expect-exit-1 %gpu-runner %s --check=memcheck, 2>&1 | FileCheck %s --check-prefix=EMPTY-NAME
// RUN: %gpu-runner %s --check=leakcheck --check=memcheck 2>&1 | FileCheck %s --check-prefix=SEVERAL
// RUN: %expect-exit-1 %gpu-runner %s --check=all 2>&1 | FileCheck %s --check-prefix=NOT-YET

// UNKNOWN: error: --check: 'bounds' is not a check; give a comma-separated list of memcheck, racecheck, initcheck, synccheck, leakcheck, or all
// EMPTY: error: --check: the list is empty; give a comma-separated list of
// EMPTY-NAME: error: --check: an empty name is not a check; give
// SEVERAL: 42
// SEVERAL-NEXT: --check=memcheck,leakcheck: no errors
// NOT-YET: error: --check=racecheck is not available yet: give memcheck or leakcheck

func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %v = arith.constant 42 : i64
  call @printI64(%v) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
