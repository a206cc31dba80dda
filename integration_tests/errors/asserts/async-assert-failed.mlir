// A failed cf.assert inside an async.execute body ends the program as one
// outside does (assert-failed.mlir): an error at the op with its
// message, status 1. Upstream's coroutine lowering would instead put the
// region's token in the error state, and the await would report only
// "Awaited async operand is in error state"; the body's ops run in a
// function the coroutine calls (gpu-runner-outline-async-bodies), where the
// assertion is an ordinary one.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %t = async.execute {
    scf.for %i = %c0 to %c4 step %c1 {
      %count = arith.index_cast %i : index to i32
      %positive = arith.cmpi sgt, %count, %zero : i32
      // CHECK: async-assert-failed.mlir:[[# @LINE + 1]]:7: error: cf.assert: the count must be positive
      cf.assert %positive, "the count must be positive"
    }
    async.yield
  }
  async.await %t : !async.token
  return
}
