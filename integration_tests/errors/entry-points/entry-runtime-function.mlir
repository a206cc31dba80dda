// -e naming a function the lowering declares (memref.alloc calls malloc)
// is not a declaration of the program: say that the entry point is not one
// of the program's functions.
// RUN: %expect-exit-1 %gpu-runner -e malloc %s 2>&1 | FileCheck %s

func.func @main() {
  %m = memref.alloc() : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}

// CHECK: error: entry point 'malloc' is not a function of the program (the runtime provides it); name one of the program's functions with -e
