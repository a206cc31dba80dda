// -g makes the program's host code, host kernels included, debuggable in
// gdb: breakpoints on a host function of the program and on a kernel, set
// before the program is compiled, resolve once the JIT registers its code,
// and each stops at a line of this file; the backtrace names the program's
// functions with their lines, from the kernel through the host backend's
// block and entry functions and its runtime to @main at the gpu.launch, and
// `next` steps to the kernel's next line. Without -g the JIT registers
// nothing, and no breakpoint is hit.
// REQUIRES: gdb
// LeakSanitizer cannot work under ptrace: in a sanitized build (scripts/test
// --sanitize) its check at exit is off for the runs under gdb.
// RUN: env ASAN_OPTIONS=detect_leaks=0 gdb -batch -nx -iex 'set debuginfod enabled off' \
// RUN:   -ex 'set breakpoint pending on' \
// RUN:   -ex 'break gdb-breakpoints.mlir:scale' \
// RUN:   -ex 'break __gpu_runner_main_kernel_main_kernel' \
// RUN:   -ex run -ex 'bt 2' -ex 'delete 1' -ex continue -ex bt -ex next \
// RUN:   --args %gpu-runner -O0 -g %s 2>&1 | FileCheck %s
// RUN: env ASAN_OPTIONS=detect_leaks=0 gdb -batch -nx -iex 'set debuginfod enabled off' \
// RUN:   -ex 'set breakpoint pending on' \
// RUN:   -ex 'break gdb-breakpoints.mlir:scale' \
// RUN:   -ex 'break __gpu_runner_main_kernel_main_kernel' -ex run \
// RUN:   --args %gpu-runner -O0 %s 2>&1 | FileCheck %s --check-prefix=NO-G

// The program runs to its end, past both functions, without stopping.
// NO-G-NOT: Breakpoint {{[0-9.]+}},
// NO-G: [11,  11,  11,  11]
// NO-G-NOT: Breakpoint {{[0-9.]+}},

func.func private @printMemrefF32(memref<*xf32>)

func.func @scale(%m: memref<4xf32>, %factor: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // The constants above are no code: the function starts at the loop.
  // CHECK: Breakpoint 1, scale () at {{.*}}gdb-breakpoints.mlir:[[# @LINE + 2]]
  // CHECK: #0 {{.*}}scale () at {{.*}}gdb-breakpoints.mlir:[[# @LINE + 1]]
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %m[%i] : memref<4xf32>
    %y = arith.mulf %x, %factor : f32
    memref.store %y, %m[%i] : memref<4xf32>
  }
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %ten = arith.constant 10.0 : f32
  %m = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%m : memref<4xf32>)
  // CHECK-NEXT: #1 {{.*}} in main () at {{.*}}gdb-breakpoints.mlir:[[# @LINE + 1]]
  call @scale(%m, %ten) : (memref<4xf32>, f32) -> ()
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %m : memref<4xf32>, memref<4xf32>
  // The kernel's load is folded into the add's instruction, so the kernel
  // starts at the add. Each thread runs it from the block function, at the
  // launch's line; `next` goes to the store.
  // CHECK: Breakpoint 2, __gpu_runner_main_kernel_main_kernel () at {{.*}}gdb-breakpoints.mlir:[[# @LINE + 11]]
  // CHECK: #0 {{.*}}__gpu_runner_main_kernel_main_kernel () at {{.*}}gdb-breakpoints.mlir:[[# @LINE + 10]]
  // CHECK-NEXT: #1 {{.*}} in __gpu_runner_main_kernel_main_kernel_block () at {{.*}}gdb-breakpoints.mlir:[[# @LINE + 6]]
  // CHECK-NEXT: #2 {{.*}} in __gpu_runner_main_kernel_main_kernel_entry () at {{.*}}gdb-breakpoints.mlir:[[# @LINE + 5]]
  // CHECK: in mgpuLaunchHostKernelAt ()
  // CHECK-NEXT: in main () at {{.*}}gdb-breakpoints.mlir:[[# @LINE + 3]]
  // CHECK-NOT: Breakpoint {{[0-9.]+}},
  // CHECK: [[# @LINE + 5]] memref.store %y
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %d[%tx] : memref<4xf32>
    %y = arith.addf %x, %one : f32
    memref.store %y, %d[%tx] : memref<4xf32>
    gpu.terminator
  }
  gpu.memcpy %m, %d : memref<4xf32>, memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  gpu.dealloc %d : memref<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}
