// --dump-object-file never writes over the input, by whatever name it is
// reached (compared by device and inode, as compilers compare their output
// with their input), and the input is left as it was.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.mlir && ln %t/prog.mlir %t/hard.mlir && ln -s prog.mlir %t/prog.mlir.o
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir --dump-object-file --object-filename=%t/prog.mlir 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cd %t && %expect-exit-1 %gpu-runner prog.mlir --dump-object-file --object-filename=./prog.mlir 2>&1 | FileCheck %s --check-prefix=DOT
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir --dump-object-file --object-filename=%t/hard.mlir 2>&1 | FileCheck %s --check-prefix=HARD
// RUN: %expect-exit-1 %gpu-runner - --dump-object-file --object-filename=%t/prog.mlir < %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// The default name, <input>.o, here a link back to the input.
// RUN: %expect-exit-1 %gpu-runner %t/prog.mlir --dump-object-file 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: cmp %s %t/prog.mlir
// Another file is written as asked.
// RUN: rm %t/prog.mlir.o && %gpu-runner %t/prog.mlir --dump-object-file
// RUN: %python -c "print(open('%t/prog.mlir.o', 'rb').read(4))" | FileCheck %s --check-prefix=ELF

// SAME: error: --object-filename={{.*}}prog.mlir, which is the input file: writing the object would overwrite the program; choose another --object-filename
// DOT: error: --object-filename=./prog.mlir, which is the input file
// HARD: error: --object-filename={{.*}}hard.mlir, which is the input file
// STDIN: error: --object-filename={{.*}}prog.mlir, which is the input file
// DEFAULT: error: --dump-object-file writes to {{.*}}prog.mlir.o, which is the input file: writing the object would overwrite the program; choose another --object-filename
// ELF: b'\x7fELF'

func.func @main() {
  return
}
