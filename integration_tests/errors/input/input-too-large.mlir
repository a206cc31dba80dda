// The input is read up to --max-input-size MiB (default 1024): a larger
// file is refused before it is read, and a pipe or a device that goes on
// past the limit, such as /dev/zero, or stdin, is refused once it does.
//
// RUN: %python -c "print('func.func @main() { return }\n// ' + 'x' * (2 << 20))" > %t.large.mlir
// RUN: %expect-exit-1 %gpu-runner %t.large.mlir --max-input-size=1 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: error: the input '{{.*}}large.mlir' is larger than 1 MiB, the most --max-input-size=1 allows
//
// RUN: %expect-exit-1 %gpu-runner /dev/zero --max-input-size=1 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: error: the input '/dev/zero' goes on past 1 MiB, the most --max-input-size=1 allows
//
// RUN: %expect-exit-1 %gpu-runner - --max-input-size=1 < %t.large.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: error: the input '-' goes on past 1 MiB, the most --max-input-size=1 allows
//
// Under the limit, and with no limit, the same file runs, from a file and
// from stdin.
// RUN: %gpu-runner %t.large.mlir --max-input-size=3 2>&1 | count 0
// RUN: %gpu-runner %t.large.mlir --max-input-size=0 2>&1 | count 0
// RUN: %gpu-runner - --max-input-size=3 < %t.large.mlir 2>&1 | count 0
