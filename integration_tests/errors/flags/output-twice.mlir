// Two --output flags that name the same file, by whatever name, are
// refused: the second result would overwrite the first. A device such as
// /dev/null may take several.
// RUN: rm -rf %t && mkdir -p %t && ln -s a.npy %t/link.npy && touch %t/b.bin && ln %t/b.bin %t/hard.bin
// RUN: %expect-exit-1 %gpu-runner %s --input=1 --input=2 --output=@%t/a.npy --output=@%t/a.npy 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cd %t && %expect-exit-1 %gpu-runner %s --input=1 --input=2 --output=@a.npy --output=@./a.npy 2>&1 | FileCheck %s --check-prefix=DOT
// RUN: %expect-exit-1 %gpu-runner %s --input=1 --input=2 --output=@%t/link.npy --output=@%t/a.npy 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: %expect-exit-1 %gpu-runner %s --input=1 --input=2 --output=@%t/b.bin --output=@%t/hard.bin 2>&1 | FileCheck %s --check-prefix=HARD
// RUN: %gpu-runner %s --input=1 --input=2 --output=@/dev/null --output=@/dev/null
// RUN: %gpu-runner %s --input=1 --input=2 --output=@%t/a.npy --output=@%t/c.npy
// RUN: %gpu-runner %s --input=@%t/a.npy --input=@%t/c.npy | FileCheck %s --check-prefix=BOTH

// SAME: error: --output=@{{.*}}a.npy and --output=@{{.*}}a.npy name the same file: result[1] would overwrite result[0]; give each a file of its own
// DOT: error: --output=@a.npy and --output=@./a.npy name the same file
// LINK: error: --output=@{{.*}}link.npy and --output=@{{.*}}a.npy name the same file
// HARD: error: --output=@{{.*}}b.bin and --output=@{{.*}}hard.bin name the same file
// BOTH: result[0]: i32
// BOTH-NEXT: 1
// BOTH-NEXT: result[1]: i32
// BOTH-NEXT: 2

func.func @main(%x: i32, %y: i32) -> (i32, i32) {
  return %x, %y : i32, i32
}
