// Sizes no device has room for, negative sizes, and sizes whose byte count
// does not fit in an index are errors at the op rather than a process that
// swaps or crashes, or an allocation smaller than the memref: 2^62 f32 are
// 2^64 bytes, which wrapped to a 0-byte allocation, and 2^32 x (2^32 + 1)
// f32 to 16 GiB.
// RUN: %expect-exit-1 %gpu-runner %s -e huge 2>&1 >%t.out | FileCheck %s --check-prefix=HUGE --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e negative 2>&1 >%t.out | FileCheck %s --check-prefix=NEGATIVE --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e overflow 2>&1 >%t.out | FileCheck %s --check-prefix=OVERFLOW --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e wrapping 2>&1 >%t.out | FileCheck %s --check-prefix=WRAPPING --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e async_overflow 2>&1 >%t.out | FileCheck %s --check-prefix=ASYNC --implicit-check-not=error:
// RUN: count 0 < %t.out
// RUN: %expect-exit-1 %gpu-runner %s -e in_async_region 2>&1 >%t.out | FileCheck %s --check-prefix=REGION --implicit-check-not=error:
// RUN: count 0 < %t.out

func.func @huge() {
  %n = arith.constant 1099511627776 : index
  // HUGE: alloc-size-invalid.mlir:[[# @LINE + 1]]:8: error: gpu.alloc: out of device memory: cannot allocate 1099511627776 bytes with 0 bytes already allocated
  %m = gpu.alloc (%n) : memref<?xi8>
  %z = arith.constant 0 : i8
  gpu.memset %m, %z : memref<?xi8>, i8
  return
}

func.func @negative() {
  %n = arith.constant -3 : index
  // NEGATIVE: alloc-size-invalid.mlir:[[# @LINE + 1]]:8: error: gpu.alloc: cannot allocate -3 elements of 4 bytes: size -3 (dimension 0) is negative
  %m = gpu.alloc (%n) : memref<?xf32>
  %z = arith.constant 0.0 : f32
  gpu.memset %m, %z : memref<?xf32>, f32
  return
}

func.func @overflow() {
  %n = arith.constant 4611686018427387904 : index
  // OVERFLOW: alloc-size-invalid.mlir:[[# @LINE + 1]]:8: error: gpu.alloc: cannot allocate 4611686018427387904 elements of 4 bytes: that is more bytes than an index can count (9223372036854775807)
  %m = gpu.alloc (%n) : memref<?xf32>
  %z = arith.constant 0.0 : f32
  gpu.memset %m, %z : memref<?xf32>, f32
  return
}

func.func @wrapping() {
  %a = arith.constant 4294967296 : index
  %b = arith.constant 4294967297 : index
  // WRAPPING: alloc-size-invalid.mlir:[[# @LINE + 1]]:8: error: gpu.alloc: cannot allocate 4294967296 x 4294967297 elements of 4 bytes: that is more bytes than an index can count (9223372036854775807)
  %m = gpu.alloc (%a, %b) : memref<?x?xf32>
  gpu.dealloc %m : memref<?x?xf32>
  return
}

func.func @async_overflow() {
  %n = arith.constant 4611686018427387904 : index
  %t0 = gpu.wait async
  // ASYNC: alloc-size-invalid.mlir:[[# @LINE + 1]]:13: error: gpu.alloc: cannot allocate 2 x 4611686018427387904 elements of 1 byte: that is more bytes than an index can count (9223372036854775807)
  %m, %t1 = gpu.alloc async [%t0] () : memref<2x4611686018427387904xi8>
  gpu.wait [%t1]
  return
}

// Inside an async.execute region, whose body must stay one block.
func.func @in_async_region() {
  %n = arith.constant -1 : index
  %token = async.execute {
    // REGION: alloc-size-invalid.mlir:[[# @LINE + 1]]:10: error: gpu.alloc: cannot allocate -1 x 2 elements of 8 bytes: size -1 (dimension 0) is negative
    %m = gpu.alloc (%n) : memref<?x2xf64>
    gpu.dealloc %m : memref<?x2xf64>
    async.yield
  }
  async.await %token : !async.token
  return
}
