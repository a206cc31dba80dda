// A free enqueued on a stream counts from the moment it is enqueued: a copy
// enqueued after it is a use after free, every time, whatever the stream
// has run so far.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %host = memref.alloc() : memref<8xf32>
  %dev = gpu.alloc () : memref<8xf32>
  %t0 = gpu.wait async
  %t1 = gpu.dealloc async [%t0] %dev : memref<8xf32>
  // CHECK: async-use-after-free.mlir:[[# @LINE + 1]]:9: error: gpu.memcpy: {{.*}}use after free
  %t2 = gpu.memcpy async [%t1] %host, %dev : memref<8xf32>, memref<8xf32>
  gpu.wait [%t2]
  return
}
