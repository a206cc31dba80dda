// What --split-input-file cannot do: write one object file or one folder of
// GPU binaries for all the parts (each part would overwrite the last one's),
// or cut MLIR bytecode, which has no lines.
// RUN: %expect-exit-1 %gpu-runner --split-input-file --dump-object-file --object-filename=%t.o %s 2>&1 | FileCheck %s --check-prefix=OBJECT
// RUN: %expect-exit-1 %gpu-runner --split-input-file --dump-gpu-binary=%t.dir %s 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: %gpu-runner-opt --emit-bytecode %s -o %t.mlirbc
// RUN: %expect-exit-1 %gpu-runner --split-input-file %t.mlirbc 2>&1 | FileCheck %s --check-prefix=BYTECODE
// A line that is almost a marker is warned about, as mlir-opt does, and
// does not cut the input.
// RUN: printf 'func.func @main() {\n  return\n}\n// ----\nfunc.func @main() {\n  return\n}\n' > %t.near.mlir
// RUN: %expect-exit-1 %gpu-runner --split-input-file %t.near.mlir 2>&1 | FileCheck %s --check-prefix=NEAR

// OBJECT: error: --dump-object-file writes one object file, and --split-input-file compiles each part of the input apart: dump the object of one program at a time
// BINARY: error: --dump-gpu-binary writes each gpu.module's binary by its name, which parts of a --split-input-file input may share: dump the binaries of one program at a time
// BYTECODE: error: --split-input-file cuts MLIR text at its '// -----' lines, and '{{.*}}.mlirbc' is MLIR bytecode
// NEAR: near.mlir:4:7: warning: near miss with file split marker
// NEAR: near.mlir:5:1: error: redefinition of symbol named 'main'

func.func @main() {
  return
}
