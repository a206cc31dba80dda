// Host code that reads device memory after freeing it faults in the
// program's own (JIT-compiled) code: an error with status 1, not a crash,
// naming the function it faulted in. At -O0 the function is not inlined.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --check-prefix=MAIN
// RUN: %expect-exit-1 %gpu-runner -e fault_in_helper -O0 %s 2>&1 | FileCheck %s --check-prefix=HELPER

func.func private @printF32(f32)

func.func @main() {
  %dev = gpu.alloc () : memref<16xf32>
  gpu.dealloc %dev : memref<16xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %dev[%c0] : memref<16xf32>
  call @printF32(%v) : (f32) -> ()
  return
}

func.func @read_first(%m: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<16xf32>
  return %v : f32
}

func.func @fault_in_helper() {
  %dev = gpu.alloc () : memref<16xf32>
  gpu.dealloc %dev : memref<16xf32>
  %v = call @read_first(%dev) : (memref<16xf32>) -> f32
  call @printF32(%v) : (f32) -> ()
  return
}

// MAIN: error: invalid memory access at 0x{{[0-9a-f]+}} in the program's host code (outside any kernel), in @main{{$}}
// HELPER: error: invalid memory access at 0x{{[0-9a-f]+}} in the program's host code (outside any kernel), in @read_first{{$}}
