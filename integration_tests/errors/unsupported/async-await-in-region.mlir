// An await inside a branch of an async.execute body is reported at the
// branch, with where the await is: the body becomes a coroutine of one
// block, and only its top level can suspend it.
// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

func.func @main() {
  %true = arith.constant true
  %a = async.execute {
    async.yield
  }
  %t = async.execute {
    // CHECK: async-await-in-region.mlir:[[# @LINE + 1]]:5: error: 'scf.if' cannot be lowered inside an 'async.execute' body: it holds 'async.await', and async ops there must stand at the body's top level; move it out of the 'scf.if'
    scf.if %true {
      // CHECK: async-await-in-region.mlir:[[# @LINE + 1]]:7: note: the 'async.await' is here
      async.await %a : !async.token
    }
    async.yield
  }
  async.await %t : !async.token
  return
}
