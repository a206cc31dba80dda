// --perf-jitdump writes each function of the program, as the JIT links it,
// to a perf jitdump file (jit-<pid>.dump, in a folder of its own under
// $JITDUMPDIR/.debug/jit), from which `perf inject --jit` names the samples
// taken in the program's code: each function's name and code, the host
// kernel's included, and with -g the lines of this file its code comes
// from. The file is checked here, not perf's report: perf may not sample
// where the tests run.
// -g is in the compile cache's key (a program compiled without debug info
// is not reused for it; --perf-jitdump alone keeps only frame pointers),
// and a program loaded from the cache is written too. Nothing is linked
// with --compile-only, so --perf-jitdump is refused with it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env JITDUMPDIR=%t/plain %gpu-runner --perf-jitdump --cache-dir=%t/cache --timing %s > %t/plain.out 2> %t/plain.err
// RUN: FileCheck %s --check-prefix=OUT < %t/plain.out
// RUN: FileCheck %s --check-prefix=MISS < %t/plain.err
// RUN: %python %S/../Inputs/read-jitdump.py %t/plain | FileCheck %s --check-prefix=PLAIN
// RUN: %gpu-runner -g --cache-dir=%t/cache --timing %s > %t/g.out 2> %t/g.err
// RUN: FileCheck %s --check-prefix=MISS < %t/g.err
// RUN: env JITDUMPDIR=%t/lines %gpu-runner -g --perf-jitdump --cache-dir=%t/cache --timing %s > %t/lines.out 2> %t/lines.err
// RUN: FileCheck %s --check-prefix=OUT < %t/lines.out
// RUN: FileCheck %s --check-prefix=HIT < %t/lines.err
// RUN: %python %S/../Inputs/read-jitdump.py %t/lines | FileCheck %s --check-prefix=LINES
// RUN: %expect-exit-1 %gpu-runner --perf-jitdump --compile-only %s 2>&1 | FileCheck %s --check-prefix=COMPILE-ONLY

// OUT: [2000,  8.17837,  4.78221,  3.57762]

// MISS: compile cache: miss, stored as
// HIT: compile cache: hit,

// PLAIN: load __gpu_runner_main_kernel_main_kernel {{[1-9][0-9]*}}
// PLAIN-NOT: lines
// PLAIN: load main {{[1-9][0-9]*}}
// PLAIN-NOT: lines
// PLAIN: close

// COMPILE-ONLY: error: --perf-jitdump records the program's code as it is linked to run, and --compile-only runs nothing: drop one

func.func private @printMemrefF32(memref<*xf32>)

// Each thread sums 1 / (1 + k * i) for k below 2000, i its global id: work
// for perf to sample (--benchmark-repetitions runs it again and again).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %n = arith.constant 16384 : index
  %steps = arith.constant 2000 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %d = gpu.alloc (%n) : memref<?xf32>
  %blocks = arith.ceildivui %n, %c256 : index
  // The kernel's code comes from its lines (the division in its loop
  // among them), and the block and entry functions' from the launch.
  // LINES: load __gpu_runner_main_kernel_main_kernel {{[1-9][0-9]*}}
  // LINES: lines __gpu_runner_main_kernel_main_kernel {{.*}}perf-jitdump.mlir:[[# @LINE + 7]]
  // LINES: lines __gpu_runner_main_kernel_main_kernel {{.*}}perf-jitdump.mlir:[[# @LINE + 15]]
  // LINES: load __gpu_runner_main_kernel_main_kernel_block {{[1-9][0-9]*}}
  // LINES: lines __gpu_runner_main_kernel_main_kernel_block {{.*}}perf-jitdump.mlir:[[# @LINE + 2]]
  // LINES: load __gpu_runner_main_kernel_main_kernel_entry {{[1-9][0-9]*}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %i = gpu.global_id x
    %ii = arith.index_cast %i : index to i32
    %x = arith.sitofp %ii : i32 to f32
    %sum = scf.for %k = %c0 to %steps step %c1
        iter_args(%acc = %zero) -> f32 {
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %t = arith.mulf %kf, %x : f32
      %den = arith.addf %t, %one : f32
      %q = arith.divf %one, %den : f32
      %next = arith.addf %acc, %q : f32
      scf.yield %next : f32
    }
    memref.store %sum, %d[%i] : memref<?xf32>
    gpu.terminator
  }
  %h = memref.alloc (%n) : memref<?xf32>
  gpu.memcpy %h, %d : memref<?xf32>, memref<?xf32>
  %first = memref.subview %h[0] [4] [1]
      : memref<?xf32> to memref<4xf32, strided<[1]>>
  %u = memref.cast %first : memref<4xf32, strided<[1]>> to memref<*xf32>
  // LINES: load main {{[1-9][0-9]*}}
  // LINES: lines main {{.*}}perf-jitdump.mlir:[[# @LINE + 1]]
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  gpu.dealloc %d : memref<?xf32>
  memref.dealloc %h : memref<?xf32>
  return
}
// LINES: close
