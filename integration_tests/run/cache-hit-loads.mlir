// A program found in the compile cache runs without loading the compiler
// or libMLIR, which take longer to load than a small program takes to run;
// of MLIR's runtime libraries it loads only those whose functions it calls
// (here printMemrefF32, of the runner utilities, which need no libMLIR).
// REQUIRES: llvm-shared
// RUN: rm -rf %t && env LD_DEBUG=files %gpu-runner --cache-dir=%t %s 2> %t.miss | FileCheck %s
// RUN: FileCheck %s --check-prefix=MISS < %t.miss
// RUN: env LD_DEBUG=files %gpu-runner --cache-dir=%t %s 2> %t.hit | FileCheck %s
// RUN: FileCheck %s --check-prefix=HIT < %t.hit

// CHECK: [3, 4]

// MISS-DAG: file={{.*}}libGpuRunnerCompiler.so
// MISS-DAG: file=libMLIR.so
// MISS-DAG: file={{.*}}libmlir_runner_utils.so

// HIT-NOT: libGpuRunnerCompiler
// HIT-NOT: libMLIR.so
// HIT-NOT: libmlir_c_runner_utils
// HIT: file={{.*}}libmlir_runner_utils.so
// HIT-NOT: libGpuRunnerCompiler
// HIT-NOT: libMLIR.so
// HIT-NOT: libmlir_c_runner_utils

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3 : i32
  %four = arith.constant 4 : i32
  %values = memref.alloc() : memref<2xi32>
  memref.store %three, %values[%c0] : memref<2xi32>
  memref.store %four, %values[%c1] : memref<2xi32>
  %unranked = memref.cast %values : memref<2xi32> to memref<*xi32>
  call @printMemrefI32(%unranked) : (memref<*xi32>) -> ()
  memref.dealloc %values : memref<2xi32>
  return
}
