// Every kind of error ends with exit status 1 exactly: not 0, not a crash.
// RUN: sh -c '%gpu-runner %s 2>/dev/null; test $? -eq 1'
// RUN: sh -c '%gpu-runner %s -e compile_error 2>/dev/null; test $? -eq 1'
// RUN: sh -c '%gpu-runner %s -e does_not_exist 2>/dev/null; test $? -eq 1'
// RUN: sh -c '%gpu-runner %s --entry-point-result=i32 2>/dev/null; test $? -eq 1'
// RUN: sh -c '%gpu-runner %S/../gpu-memory/double-free.mlir 2>/dev/null; test $? -eq 1'
// RUN: sh -c '%gpu-runner %S/../syntax/syntax-error.mlir 2>/dev/null; test $? -eq 1'

func.func @main() {
  %dev = gpu.alloc () : memref<4xf32>
  %host = memref.alloc() : memref<8xf32>
  %wide = memref.reinterpret_cast %dev to offset: [0], sizes: [8], strides: [1]
      : memref<4xf32> to memref<8xf32>
  gpu.memcpy %wide, %host : memref<8xf32>, memref<8xf32>
  return
}

func.func @compile_error(%m: memref<4xi1>, %v: i1) {
  gpu.memset %m, %v : memref<4xi1>, i1
  return
}
