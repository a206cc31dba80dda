// racecheck: ops on two streams that touch the same memory, one of them
// writing, with no token or wait ordering them. On a GPU, work on different
// streams may run concurrently and in any order (CUDA programming guide,
// "Asynchronous Concurrent Execution", streams): which memset wins below is
// a matter of timing. Each finding is at the later op and names the earlier;
// the program goes on. Ops ordered by a token, by a wait of the host, or
// that only read, or that touch disjoint bytes (halves, interleaved
// columns), are no hazard: the last five parts report nothing.
// RUN: %expect-exit-1 %gpu-runner %s --check=racecheck 2>&1 | FileCheck %s
// RUN: %expect-exit-1 %gpu-runner %s --check=racecheck 2>&1 | FileCheck %s --check-prefix=ONLY

// CHECK: racecheck-two-streams.mlir:[[# @LINE + 30]]:9: error: racecheck: gpu.memset: it writes memory that gpu.memset at {{.*}}racecheck-two-streams.mlir:[[# @LINE + 29]]:9 writes on another stream, and no token or wait orders the two: on a GPU, streams run at once and in any order (make one op depend on the other's token, or wait for it first)
// CHECK: racecheck-two-streams.mlir:[[# @LINE + 36]]:9: error: racecheck: gpu.memcpy: it reads memory that gpu.memset at {{.*}}racecheck-two-streams.mlir:[[# @LINE + 35]]:9 writes on another stream
// CHECK: 2
// CHECK: --check=racecheck: 2 errors (racecheck 2)

// ONLY-COUNT-2: error: racecheck
// ONLY-NOT: error:

func.func private @printI64(i64)
func.func private @printNewline()

func.func @print(%m: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<8xi32>
  %w = arith.extsi %v : i32 to i64
  call @printI64(%w) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %buffer = gpu.alloc () : memref<8xi32>
  %host = memref.alloc() : memref<8xi32>

  // Two memsets of one buffer, on two streams.
  %a0 = gpu.wait async
  %b0 = gpu.wait async
  %a1 = gpu.memset async [%a0] %buffer, %one : memref<8xi32>, i32
  %b1 = gpu.memset async [%b0] %buffer, %two : memref<8xi32>, i32
  gpu.wait [%a1, %b1]

  // A copy that reads what a memset on another stream writes.
  %a2 = gpu.wait async
  %b2 = gpu.wait async
  %a3 = gpu.memset async [%a2] %buffer, %one : memref<8xi32>, i32
  %b3 = gpu.memcpy async [%b2] %host, %buffer : memref<8xi32>, memref<8xi32>
  gpu.wait [%a3, %b3]

  // Ordered by a token: the second stream is made from the first's.
  %a4 = gpu.wait async
  %a5 = gpu.memset async [%a4] %buffer, %one : memref<8xi32>, i32
  %b4 = gpu.wait async [%a5]
  %b5 = gpu.memset async [%b4] %buffer, %two : memref<8xi32>, i32
  %b6 = gpu.memcpy async [%b5] %host, %buffer : memref<8xi32>, memref<8xi32>
  gpu.wait [%b6]
  call @print(%host) : (memref<8xi32>) -> ()

  // Ordered by the host: it waited for the first before the second.
  %a7 = gpu.wait async
  %b7 = gpu.wait async
  %a8 = gpu.memset async [%a7] %buffer, %one : memref<8xi32>, i32
  gpu.wait [%a8]
  %b8 = gpu.memset async [%b7] %buffer, %two : memref<8xi32>, i32
  gpu.wait [%b8]

  // Two copies that only read the buffer.
  %other = memref.alloc() : memref<8xi32>
  %a9 = gpu.wait async
  %b9 = gpu.wait async
  %a10 = gpu.memcpy async [%a9] %host, %buffer : memref<8xi32>, memref<8xi32>
  %b10 = gpu.memcpy async [%b9] %other, %buffer : memref<8xi32>, memref<8xi32>
  gpu.wait [%a10, %b10]

  // The two halves of the buffer, one per stream.
  %low = memref.subview %buffer[0] [4] [1]
      : memref<8xi32> to memref<4xi32, strided<[1]>>
  %high = memref.subview %buffer[4] [4] [1]
      : memref<8xi32> to memref<4xi32, strided<[1], offset: 4>>
  %a11 = gpu.wait async
  %b11 = gpu.wait async
  %a12 = gpu.memset async [%a11] %low, %one
      : memref<4xi32, strided<[1]>>, i32
  %b12 = gpu.memset async [%b11] %high, %two
      : memref<4xi32, strided<[1], offset: 4>>, i32
  gpu.wait [%a12, %b12]

  // The interleaved columns of a 4x2 buffer, one per stream: their bytes
  // alternate, and none is touched by both.
  %grid = gpu.alloc () : memref<4x2xi32>
  %left = memref.subview %grid[0, 0] [4, 1] [1, 1]
      : memref<4x2xi32> to memref<4xi32, strided<[2]>>
  %right = memref.subview %grid[0, 1] [4, 1] [1, 1]
      : memref<4x2xi32> to memref<4xi32, strided<[2], offset: 1>>
  %a13 = gpu.wait async
  %b13 = gpu.wait async
  %a14 = gpu.memset async [%a13] %left, %one
      : memref<4xi32, strided<[2]>>, i32
  %b14 = gpu.memset async [%b13] %right, %two
      : memref<4xi32, strided<[2], offset: 1>>, i32
  gpu.wait [%a14, %b14]

  gpu.dealloc %grid : memref<4x2xi32>
  memref.dealloc %other : memref<8xi32>
  memref.dealloc %host : memref<8xi32>
  gpu.dealloc %buffer : memref<8xi32>
  return
}
