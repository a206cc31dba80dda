// racecheck: the host reads the destination of an asynchronous copy before
// any gpu.wait: on a GPU the copy may not have run yet, and here too the
// first line printed is 0 or 7 as the stream's worker is quick or not. The
// finding names the copy; the program goes on. Waiting for the token first,
// as the second half does, is no hazard, nor is a read after an op that
// waits for every stream (a synchronous gpu.memcpy).
// RUN: %expect-exit-1 %gpu-runner %s --check=racecheck 2>&1 | FileCheck %s

// CHECK: racecheck-stream.mlir:[[# @LINE + 21]]:12: error: racecheck: memref.load: host code reads memory that gpu.memcpy at {{.*}}racecheck-stream.mlir:[[# @LINE + 20]]:9 accesses on a stream, and nothing waited for it since: on a GPU the gpu.memcpy may not have run yet (a gpu.wait on its token would order the two)
// CHECK: --check=racecheck: 1 error (racecheck 1)

func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%v: i32) {
  %w = arith.extsi %v : i32 to i64
  call @printI64(%w) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7 : i32
  %device = gpu.alloc () : memref<4xi32>
  gpu.memset %device, %seven : memref<4xi32>, i32
  %host = memref.alloc() : memref<4xi32>
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %host, %device : memref<4xi32>, memref<4xi32>
  %early = memref.load %host[%c0] : memref<4xi32>
  call @print(%early) : (i32) -> ()
  gpu.wait [%t1]

  %t2 = gpu.wait async
  %t3 = gpu.memcpy async [%t2] %host, %device : memref<4xi32>, memref<4xi32>
  gpu.wait [%t3]
  %late = memref.load %host[%c0] : memref<4xi32>
  call @print(%late) : (i32) -> ()

  %t4 = gpu.wait async
  %t5 = gpu.memcpy async [%t4] %host, %device : memref<4xi32>, memref<4xi32>
  %other = memref.alloc() : memref<4xi32>
  gpu.memcpy %other, %device : memref<4xi32>, memref<4xi32>
  %after = memref.load %host[%c0] : memref<4xi32>
  call @print(%after) : (i32) -> ()
  gpu.wait [%t5]
  memref.dealloc %other : memref<4xi32>
  memref.dealloc %host : memref<4xi32>
  gpu.dealloc %device : memref<4xi32>
  return
}
