// Kernels are compiled apart from the host code, each gpu.module on a
// thread of its own: the host object refers to each code object by name,
// and the cache keeps the code objects with the object. A second run hits;
// another chip misses.
// REQUIRES: hip-runner
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpu-runner-hip --compile-only --gpu-chip=gfx90a --cache-dir=%t/cache --timing --dump-object-file --object-filename=%t/host.o %s 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: %gpu-runner-hip --compile-only --gpu-chip=gfx90a --cache-dir=%t/cache --timing %s 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: %gpu-runner-hip --compile-only --gpu-chip=gfx942 --cache-dir=%t/cache --timing %s 2>&1 | FileCheck %s --check-prefix=MISS
// The host object only names the code objects...
// RUN: llvm-nm %t/host.o | FileCheck %s --check-prefix=NM
// ...which the cache entry holds, as ld.lld linked them.
// RUN: %gpu-runner-hip --compile-only --gpu-chip=gfx90a --no-cache --dump-gpu-binary=%t/dump %s
// RUN: %python -c "import glob, sys; entries = [open(f, 'rb').read() for f in glob.glob('%t/cache/llvmcache-*')]; sys.exit(0 if all(any(open('%t/dump/' + m + '.hsaco', 'rb').read() in e for e in entries) for m in ('first', 'second')) else 1)"

// MISS: compile cache: miss, stored as
// MISS: GPU kernel compilation
// MISS: ModuleToBinaryWithIR
// MISS: LLVM code generation

// HIT: compile cache: hit,
// HIT-NOT: GPU kernel compilation
// HIT: JIT link

// NM-DAG: U __gpu_runner_binary_first
// NM-DAG: U __gpu_runner_binary_size_first
// NM-DAG: U __gpu_runner_binary_second
// NM-DAG: U __gpu_runner_binary_size_second

module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @double(%data: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %data[%i] : memref<64xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %data[%i] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @square(%data: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %data[%i] : memref<64xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %data[%i] : memref<64xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %data = gpu.alloc () : memref<64xf32>
    gpu.launch_func @first::@double blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%data : memref<64xf32>)
    gpu.launch_func @second::@square blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%data : memref<64xf32>)
    gpu.dealloc %data : memref<64xf32>
    return
  }
}
