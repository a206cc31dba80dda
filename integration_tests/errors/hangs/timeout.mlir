// --timeout stops a program that does not end: host code that spins, and a
// kernel that spins. What the program printed before comes first.
// The --compile-only runs fill the compile cache first, so that the one
// second is spent running, not compiling, on a loaded machine.
// RUN: %gpu-runner %s --compile-only
// RUN: %gpu-runner %s -e kernel --compile-only
// RUN: %expect-exit-1 %gpu-runner %s --timeout=1 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: %expect-exit-1 %gpu-runner %s -e kernel --timeout=1 2>&1 | FileCheck %s --check-prefix=KERNEL
//
// A run that times out before the program starts says what it was doing:
// here, reading an input that does not end in time.
// RUN: %expect-exit-1 sh -c 'sleep 3 | %gpu-runner - --timeout=1' 2>&1 | FileCheck %s --check-prefix=READING
// READING: error: timed out after 1 s (--timeout=1) while reading the input{{$}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @spin(%flag: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i32
      scf.while : () -> () {
        %v = memref.atomic_rmw addi %zero, %flag[%c0] : (i32, memref<1xi32>) -> i32
        %go = arith.cmpi eq, %v, %zero : i32
        scf.condition(%go)
      } do {
        scf.yield
      }
      gpu.return
    }
  }

  func.func private @printI64(i64)
  func.func private @printNewline()

  // HOST: {{^}}42{{$}}
  // HOST-NEXT: error: timed out after 1 s (--timeout=1): the program was still running
  func.func @main() {
    %c42 = arith.constant 42 : i64
    call @printI64(%c42) : (i64) -> ()
    call @printNewline() : () -> ()
    %true = arith.constant true
    scf.while : () -> () {
      %v = llvm.inline_asm has_side_effects "", "=r" : () -> i32
      scf.condition(%true)
    } do {
      scf.yield
    }
    return
  }

  // KERNEL: error: timed out after 1 s (--timeout=1): the program was still running
  func.func @kernel() {
    %c1 = arith.constant 1 : index
    %flag = gpu.alloc () : memref<1xi32>
    %zero = arith.constant 0 : i32
    gpu.memset %flag, %zero : memref<1xi32>, i32
    gpu.launch_func @kernels::@spin blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%flag : memref<1xi32>)
    gpu.dealloc %flag : memref<1xi32>
    return
  }
}
