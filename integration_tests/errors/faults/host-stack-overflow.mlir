// Host code that recurses without end overflows the thread's stack: the
// error says so instead of "invalid memory access", and names the function.
// (Each frame's buffer is handed to the next call, so the recursion cannot
// become a loop.)
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @deepen(%previous: memref<256xi64>) -> i64 {
  %buffer = memref.alloca() : memref<256xi64>
  %c0 = arith.constant 0 : index
  %v = memref.load %previous[%c0] : memref<256xi64>
  %one = arith.constant 1 : i64
  %next = arith.addi %v, %one : i64
  memref.store %next, %buffer[%c0] : memref<256xi64>
  %r = func.call @deepen(%buffer) : (memref<256xi64>) -> i64
  %w = memref.load %buffer[%c0] : memref<256xi64>
  %s = arith.addi %r, %w : i64
  return %s : i64
}

func.func @main() {
  %first = memref.alloca() : memref<256xi64>
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  memref.store %zero, %first[%c0] : memref<256xi64>
  %r = func.call @deepen(%first) : (memref<256xi64>) -> i64
  return
}

// CHECK: error: stack overflow in the program's host code (outside any kernel), in @deepen: too deep a recursion, or too large a memref.alloca
