// The compile cache: a second run of the same program loads it from the
// cache (--timing shows no parsing, lowering or code generation), a changed
// program or flag compiles again, and a damaged entry is reported,
// recompiled and replaced, never loaded.
//
// Not where every run has --no-barrier-splitting: that a change of the flag
// compiles again is one of the checks.
// UNSUPPORTED: kernel-threads-fibers
//
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/program.mlir
//
// First run: a miss, compiled and stored; second run: a hit.
// RUN: %gpu-runner --cache-dir=%t/cache --timing %t/program.mlir > %t/out1 2> %t/err1
// RUN: FileCheck %s --check-prefix=OUT42 < %t/out1
// RUN: FileCheck %s --check-prefix=MISS < %t/err1
// RUN: %gpu-runner --cache-dir=%t/cache --timing %t/program.mlir > %t/out2 2> %t/err2
// RUN: FileCheck %s --check-prefix=OUT42 < %t/out2
// RUN: FileCheck %s --check-prefix=HIT < %t/err2
//
// A changed program misses, and runs as changed.
// RUN: sed -i 's/42 : i64/43 : i64/' %t/program.mlir
// RUN: %gpu-runner --cache-dir=%t/cache --timing %t/program.mlir > %t/out3 2> %t/err3
// RUN: FileCheck %s --check-prefix=OUT43 < %t/out3
// RUN: FileCheck %s --check-prefix=MISS < %t/err3
//
// A changed flag misses; the same flag again hits.
// RUN: %gpu-runner --cache-dir=%t/cache --timing -O0 %t/program.mlir 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: %gpu-runner --cache-dir=%t/cache --timing -O0 %t/program.mlir 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: %gpu-runner --cache-dir=%t/cache --timing -e other %t/program.mlir 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: %gpu-runner --cache-dir=%t/cache --timing --no-barrier-splitting %t/program.mlir 2>&1 | FileCheck %s --check-prefix=MISS
// Flags that only matter when the program runs hit.
// RUN: %gpu-runner --cache-dir=%t/cache --timing --timeout=60 %t/program.mlir 2>&1 | FileCheck %s --check-prefix=HIT
//
// A truncated entry, then one with a byte changed: each is reported,
// recompiled and replaced; the run after that hits.
// RUN: rm -rf %t/damaged && %gpu-runner --cache-dir=%t/damaged %t/program.mlir
// RUN: %python -c "import glob, os; f = glob.glob('%t/damaged/llvmcache-*')[0]; os.truncate(f, os.path.getsize(f) // 2)"
// RUN: %gpu-runner --cache-dir=%t/damaged --timing %t/program.mlir > %t/out4 2> %t/err4
// RUN: FileCheck %s --check-prefix=OUT43 < %t/out4
// RUN: FileCheck %s --check-prefixes=DAMAGED,TRUNCATED < %t/err4
// RUN: %gpu-runner --cache-dir=%t/damaged --timing %t/program.mlir 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: %python -c "import glob; f = glob.glob('%t/damaged/llvmcache-*')[0]; b = bytearray(open(f, 'rb').read()); b[len(b) * 3 // 4] ^= 1; open(f, 'wb').write(b)"
// RUN: %gpu-runner --cache-dir=%t/damaged --timing %t/program.mlir > %t/out5 2> %t/err5
// RUN: FileCheck %s --check-prefix=OUT43 < %t/out5
// RUN: FileCheck %s --check-prefixes=DAMAGED,CHECKSUM < %t/err5
// RUN: %gpu-runner --cache-dir=%t/damaged --timing %t/program.mlir 2>&1 | FileCheck %s --check-prefix=HIT
//
// --no-cache neither looks nor stores.
// RUN: %gpu-runner --no-cache --timing %t/program.mlir 2>&1 | FileCheck %s --check-prefix=OFF
// Flags whose output comes from compiling compile afresh.
// RUN: %gpu-runner --cache-dir=%t/cache --timing --print-ir-after-lowering %t/program.mlir 2>&1 | FileCheck %s --check-prefix=AFRESH
//
// The folder stays under --cache-max-size: at one byte, every entry is
// evicted once stored, and the runs still work.
// RUN: %gpu-runner --cache-dir=%t/small --cache-max-size=1 %t/program.mlir | FileCheck %s --check-prefix=OUT43
// RUN: %gpu-runner --cache-dir=%t/small --cache-max-size=1 -O1 %t/program.mlir | FileCheck %s --check-prefix=OUT43
// RUN: %python -c "import glob; print('entries:', len(glob.glob('%t/small/llvmcache-*')))" | FileCheck %s --check-prefix=EMPTY
//
// Programs from standard input are cached by their text.
// RUN: cat %t/program.mlir | %gpu-runner --cache-dir=%t/stdin - | FileCheck %s --check-prefix=OUT43
// RUN: cat %t/program.mlir | %gpu-runner --cache-dir=%t/stdin --timing - 2>&1 | FileCheck %s --check-prefix=HIT
//
// Runs at once on an empty folder all succeed, and leave a good entry.
// RUN: %python %S/../../Inputs/run-concurrently.py 6 %gpu-runner --cache-dir=%t/concurrent %t/program.mlir | FileCheck %s --check-prefix=OUT43
// RUN: %gpu-runner --cache-dir=%t/concurrent --timing %t/program.mlir 2>&1 | FileCheck %s --check-prefix=HIT
//
// The default folder is $GPU_RUNNER_CACHE_DIR.
// RUN: env GPU_RUNNER_CACHE_DIR=%t/from-env %gpu-runner %t/program.mlir | FileCheck %s --check-prefix=OUT43
// RUN: env GPU_RUNNER_CACHE_DIR=%t/from-env %gpu-runner --timing %t/program.mlir 2>&1 | FileCheck %s --check-prefix=HIT

// OUT42: {{^42$}}
// OUT43: {{^43$}}

// MISS:     compile cache: miss, stored as {{.*}}llvmcache-{{[0-9a-f]+}}
// MISS:     Parse
// MISS:     Lowering
// MISS:     Translation to LLVM IR
// MISS:     LLVM optimization
// MISS:     LLVM code generation
// MISS:     Cache store
// MISS:     JIT link
// MISS:     Run

// HIT:      compile cache: hit, {{.*}}llvmcache-{{[0-9a-f]+}}
// HIT-NOT:  Parse
// HIT-NOT:  Lowering
// HIT-NOT:  code generation
// HIT:      Cache lookup
// HIT-NOT:  Parse
// HIT-NOT:  Lowering
// HIT-NOT:  code generation
// HIT:      JIT link
// HIT:      Run

// DAMAGED:   warning: the compile cache entry {{.*}}llvmcache-{{[0-9a-f]+}} is damaged
// TRUNCATED-SAME: (it is truncated): compiling the program again
// CHECKSUM-SAME:  (its checksum does not match its contents): compiling the program again
// DAMAGED:   compile cache: damaged entry replaced, stored as
// DAMAGED:   Parse
// DAMAGED:   LLVM code generation

// OFF:       compile cache: off (--no-cache)
// OFF:       Parse
// OFF-NOT:   Cache

// AFRESH:    compile cache: off (--print-ir-after-lowering compiles afresh)
// AFRESH-NOT: Cache

// EMPTY: entries: 0

func.func private @printI64(i64)
func.func private @printNewline()

func.func @main() {
  %c1 = arith.constant 1 : index
  %value = arith.constant 42 : i64
  %out = gpu.alloc host_shared () : memref<1xi64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    memref.store %value, %out[%c0] : memref<1xi64>
    gpu.terminator
  }
  %c0 = arith.constant 0 : index
  %result = memref.load %out[%c0] : memref<1xi64>
  call @printResult(%result) : (i64) -> ()
  gpu.dealloc %out : memref<1xi64>
  return
}

func.func @other() {
  %value = arith.constant 7 : i64
  call @printResult(%value) : (i64) -> ()
  return
}

func.func private @printResult(%value: i64) {
  call @printI64(%value) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
