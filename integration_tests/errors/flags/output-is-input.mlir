// --output never writes over the input, by whatever name it is reached
// (compared by device and inode, as --object-filename is), and the input is
// left as it was.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.mlir && ln %t/prog.mlir %t/hard.mlir && ln -s prog.mlir %t/link.mlir
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir --input=7 --output=@%t/prog.mlir 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cd %t && %expect-exit-1 %gpu-runner prog.mlir --input=7 --output=@./prog.mlir 2>&1 | FileCheck %s --check-prefix=DOT
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir --input=7 --output=@%t/link.mlir 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: %expect-exit-1 %gpu-runner %t/link.mlir --input=7 --output=@%t/hard.mlir 2>&1 | FileCheck %s --check-prefix=HARD
// RUN: %expect-exit-1 %gpu-runner - --input=7 --output=@%t/prog.mlir < %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: cmp %s %t/prog.mlir
// Another file is written as asked.
// RUN: %gpu-runner %t/prog.mlir --input=7 --output=@%t/seven.bin
// RUN: %python -c "print(open('%t/seven.bin', 'rb').read())" | FileCheck %s --check-prefix=RAW

// SAME: error: --output=@{{.*}}prog.mlir names the input file: writing result[0] would overwrite the program; choose another file
// DOT: error: --output=@./prog.mlir names the input file
// LINK: error: --output=@{{.*}}link.mlir names the input file
// HARD: error: --output=@{{.*}}hard.mlir names the input file
// STDIN: error: --output=@{{.*}}prog.mlir names the input file
// RAW: b'\x07\x00\x00\x00'

func.func @main(%x: i32) -> i32 {
  return %x : i32
}
