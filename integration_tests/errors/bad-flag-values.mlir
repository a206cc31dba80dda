// Flags with values that make no sense are errors before anything runs.
// RUN: %expect-exit-1 %gpu-runner %s --timeout=abc 2>&1 | FileCheck %s --check-prefix=WORD
// RUN: %expect-exit-1 %gpu-runner %s --timeout=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: %expect-exit-1 %gpu-runner %s --timeout=99999999999 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: %expect-exit-1 %gpu-runner %s -O5 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: %expect-exit-1 %gpu-runner %s --entry-point-result= 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: %expect-exit-1 %gpu-runner %s %s 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: %expect-exit-1 %gpu-runner %s --dump-object-file --object-filename=%t.missing-dir/out.o 2>&1 | FileCheck %s --check-prefix=OBJECT

// WORD: for the --timeout option: 'abc' value invalid for uint argument!
// NEGATIVE: for the --timeout option: '-1' value invalid for uint argument!
// HUGE: for the --timeout option: '99999999999' value invalid for uint argument!
// OPT: Unknown command line argument '-O5'.
// RESULT: error: --entry-point-result= is not one of void, i32, i64, f32
// TWO: Too many positional arguments specified!
// OBJECT: cannot write the object file '{{.*}}missing-dir/out.o': No such file or directory

func.func @main() {
  return
}
