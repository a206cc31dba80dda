// --check takes a comma-separated list of checks, or all, in one flag or
// several; anything else is an error before the program is read. A run
// under --check ends with the summary, here with no errors.
// RUN: %expect-exit-1 %gpu-runner %s --check=memcheck,bounds 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %expect-exit-1 %gpu-runner %s --check= 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: %expect-exit-1 %gpu-runner %s --check=memcheck, 2>&1 | FileCheck %s --check-prefix=EMPTY-NAME
// RUN: %gpu-runner %s --check=all 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: %gpu-runner %s --check=leakcheck --check=racecheck,memcheck 2>&1 | FileCheck %s --check-prefix=SEVERAL
// The checks that watch kernels run on the host backend; a GPU backend
// refuses them with what to do instead.
// RUN: %if cuda-runner %{ %expect-exit-1 %gpu-runner-cuda %s --check=memcheck,racecheck 2>&1 | FileCheck %s --check-prefix=GPU -DBACKEND=cuda %}
// RUN: %if hip-runner %{ %expect-exit-1 %gpu-runner-hip %s --check=initcheck 2>&1 | FileCheck %s --check-prefix=GPU-INIT -DBACKEND=hip %}

// UNKNOWN: error: --check: 'bounds' is not a check; give a comma-separated list of memcheck, racecheck, initcheck, synccheck, leakcheck, or all
// EMPTY: error: --check: the list is empty; give a comma-separated list of
// EMPTY-NAME: error: --check: an empty name is not a check; give
// ALL: 42
// ALL-NEXT: --check=memcheck,racecheck,initcheck,synccheck,leakcheck: no errors
// SEVERAL: 42
// SEVERAL-NEXT: --check=memcheck,racecheck,leakcheck: no errors
// GPU: error: --check=racecheck watches kernels as the host backend runs them; the [[BACKEND]] backend runs them on a GPU: run the program with gpu-runner-host (on a GPU, memcheck and leakcheck check the host code and the runtime's tables)
// GPU-INIT: error: --check=initcheck watches kernels as the host backend runs them; the [[BACKEND]] backend

func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %v = arith.constant 42 : i64
  call @printI64(%v) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
