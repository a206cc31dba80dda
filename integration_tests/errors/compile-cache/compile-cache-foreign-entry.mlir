// An entry is bound to its key: another program's entry copied over it is
// reported and the program compiled again, never run in its place.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's/42 : i32/7 : i32/' %s > %t/other.mlir
// RUN: %gpu-runner %s --entry-point-result=i32 --cache-dir=%t/this | FileCheck %s --check-prefix=THIS
// RUN: %gpu-runner %t/other.mlir --entry-point-result=i32 --cache-dir=%t/other | FileCheck %s --check-prefix=OTHER
// RUN: %python -c "import glob, shutil; shutil.copyfile(glob.glob('%t/this/llvmcache-*')[0], glob.glob('%t/other/llvmcache-*')[0])"
// RUN: %gpu-runner %t/other.mlir --entry-point-result=i32 --cache-dir=%t/other 2> %t/err | FileCheck %s --check-prefix=OTHER
// RUN: FileCheck %s --check-prefix=FOREIGN < %t/err
// The entry stored in its place is the program's own.
// RUN: %gpu-runner %t/other.mlir --entry-point-result=i32 --cache-dir=%t/other --timing 2>&1 | FileCheck %s --check-prefixes=OTHER,HIT

// THIS: 42
// OTHER: 7
// FOREIGN: warning: the compile cache entry {{.*}}other{{/|\\}}llvmcache-{{[0-9a-f]+}} is damaged (it was stored under another key: it is another program's entry, copied or renamed): compiling the program again
// HIT: compile cache: hit

func.func @main() -> i32 {
  %answer = arith.constant 42 : i32
  return %answer : i32
}
