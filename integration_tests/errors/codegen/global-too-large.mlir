// A global larger than 1 GiB is an error at the global, before LLVM tries
// to hold its initializer (4e9 f32 with a dense initializer ran out of
// memory in LLVM, with no location) or to lay it out (an uninitialized one
// at -O0 failed in the JIT, with no location). 1 GiB itself runs.
//
// RUN: sed 's/SIZE/4000000000/; s/INIT/dense<1.0>/' %s > %t.dense.mlir
// RUN: %expect-exit-1 %gpu-runner %t.dense.mlir 2>&1 | FileCheck %s --check-prefix=DENSE
// DENSE: dense.mlir:25:3: error: global 'big' is 16000000000 bytes ('!llvm.array<4000000000 x f32>'): gpu-runner compiles globals of up to 1073741824 bytes (1 GiB)
//
// RUN: sed 's/SIZE/4000000000/; s/INIT/uninitialized/' %s > %t.uninitialized.mlir
// RUN: %expect-exit-1 %gpu-runner -O0 %t.uninitialized.mlir 2>&1 | FileCheck %s --check-prefix=UNINITIALIZED
// UNINITIALIZED: uninitialized.mlir:25:3: error: global 'big' is 16000000000 bytes
//
// One element past 1 GiB, and 1 GiB, which runs.
// RUN: sed 's/SIZE/268435457/; s/INIT/uninitialized/' %s > %t.over.mlir
// RUN: %expect-exit-1 %gpu-runner -O0 %t.over.mlir 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: over.mlir:25:3: error: global 'big' is 1073741828 bytes
// RUN: sed 's/SIZE/268435456/; s/INIT/uninitialized/' %s > %t.limit.mlir
// RUN: %gpu-runner -O0 %t.limit.mlir 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: {{^}}2{{$}}

module {
  func.func private @printF32(f32)
  func.func private @printNewline()
  memref.global "private" @big : memref<SIZExf32> = INIT
  func.func @main() {
    %m = memref.get_global @big : memref<SIZExf32>
    %last = arith.constant 268435455 : index
    %two = arith.constant 2.0 : f32
    memref.store %two, %m[%last] : memref<SIZExf32>
    %v = memref.load %m[%last] : memref<SIZExf32>
    call @printF32(%v) : (f32) -> ()
    call @printNewline() : () -> ()
    return
  }
}
