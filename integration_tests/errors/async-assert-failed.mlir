// A failed cf.assert inside an async.execute body ends the program as one
// outside does (errors/assert-failed.mlir): its message, then the error,
// status 1. Upstream's coroutine lowering would instead put the region's
// token in the error state, and the await would report only "Awaited async
// operand is in error state"; the body's ops run in a function the
// coroutine calls (gpu-runner-outline-async-bodies), where the assertion
// is an ordinary one.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

// CHECK: {{^}}the count must be positive
// CHECK-NEXT: error: the program aborted: a failed cf.assert (its message is printed above) or a call of abort()
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %t = async.execute {
    scf.for %i = %c0 to %c4 step %c1 {
      %count = arith.index_cast %i : index to i32
      %positive = arith.cmpi sgt, %count, %zero : i32
      cf.assert %positive, "the count must be positive"
    }
    async.yield
  }
  async.await %t : !async.token
  return
}
