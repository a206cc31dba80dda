// --split-input-file: each part is compiled and run on its own, in order,
// with a marker line between the parts' outputs (in the CHECK lines below
// as a pattern, which the input's own markers would otherwise cut). Each part has its own @main
// and its own declarations, which in one module would clash. The locations
// compiled into a part's runtime calls are its lines in this file.
// RUN: %gpu-runner --split-input-file %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %gpu-runner --split-input-file - < %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %gpu-runner --split-input-file --print-ir-after-lowering %s 2>&1 >/dev/null | FileCheck %s --check-prefix=IR

//      CHECK:[0,  -1,  -2]
// CHECK-NEXT:{{//}} -----
// CHECK-NEXT:7
// CHECK-NEXT:{{//}} -----
// CHECK-NEXT:{{//}} -----
// CHECK-NEXT:42
//  CHECK-NOT:{{.}}

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i32
  %src = memref.alloc() : memref<3xi32>
  %dst = memref.alloc() : memref<3xi32>
  scf.for %i = %c0 to %c3 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.subi %zero, %ii : i32
    memref.store %v, %src[%i] : memref<3xi32>
  }
  %dev = gpu.alloc () : memref<3xi32>
  gpu.memcpy %dev, %src : memref<3xi32>, memref<3xi32>
  gpu.memcpy %dst, %dev : memref<3xi32>, memref<3xi32>
  gpu.dealloc %dev : memref<3xi32>
  %u = memref.cast %dst : memref<3xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %src : memref<3xi32>
  memref.dealloc %dst : memref<3xi32>
  return
}

// -----

// IR: llvm.mlir.global private constant {{.*}}("gpu.memset@{{.*}}split-input-file.mlir:[[# @LINE + 6]]:3\00")
func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %seven = arith.constant 7 : i32
  %dev = gpu.alloc host_shared () : memref<i32>
  gpu.memset %dev, %seven : memref<i32>, i32
  %v = memref.load %dev[] : memref<i32>
  %w = arith.extsi %v : i32 to i64
  call @printI64(%w) : (i64) -> ()
  call @printNewline() : () -> ()
  gpu.dealloc %dev : memref<i32>
  return
}

// -----

// A part that prints nothing still gets its separators.
func.func @main() {
  %t = gpu.wait async
  gpu.wait [%t]
  return
}

// -----

func.func private @printI64(i64)
func.func private @printNewline()
func.func @main() {
  %c = arith.constant 42 : i64
  call @printI64(%c) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
