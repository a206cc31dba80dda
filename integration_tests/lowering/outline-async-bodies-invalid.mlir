// RUN: %gpu-runner-opt --gpu-runner-outline-async-bodies --split-input-file --verify-diagnostics %s

// An await inside an scf.if of a body would have to suspend the coroutine
// from inside the branch, which is blocks by then.
func.func @await_in_if(%c: i1, %a: !async.token) {
  %t = async.execute {
    // expected-error @below {{'scf.if' cannot be lowered inside an 'async.execute' body: it holds 'async.await', and async ops there must stand at the body's top level; move it out of the 'scf.if'}}
    scf.if %c {
      // expected-note @below {{the 'async.await' is here}}
      async.await %a : !async.token
    }
    async.yield
  }
  return
}

// -----

// So would a nested async.execute inside a loop of a body.
func.func @execute_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = async.execute {
    // expected-error @below {{'scf.for' cannot be lowered inside an 'async.execute' body: it holds 'async.execute'}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @below {{the 'async.execute' is here}}
      %inner = async.execute {
        async.yield
      }
    }
    async.yield
  }
  return
}

// -----

// An op with regions that makes async values.
func.func @if_of_tokens(%c: i1, %a: !async.token, %b: !async.token) {
  %t = async.execute {
    // expected-error @below {{'scf.if' cannot be lowered inside an 'async.execute' body: an op with regions there may not take or make async values; keep the async values at the body's top level}}
    %chosen = scf.if %c -> !async.token {
      scf.yield %a : !async.token
    } else {
      scf.yield %b : !async.token
    }
    async.await %chosen : !async.token
    async.yield
  }
  return
}

// -----

// Stack memory allocated in a branch and yielded out of it must live as
// long as the body, not as long as a function the body calls.
func.func @alloca_escapes(%c: i1, %m: memref<4xi32>) {
  %t = async.execute {
    // expected-error @below {{'scf.if' cannot be lowered inside an 'async.execute' body: its results may be the stack memory that its 'memref.alloca' allocates, which must live as long as the body; allocate it at the body's top level}}
    %chosen = scf.if %c -> memref<4xi32> {
      // expected-note @below {{the 'memref.alloca' is here}}
      %a = memref.alloca() : memref<4xi32>
      scf.yield %a : memref<4xi32>
    } else {
      scf.yield %m : memref<4xi32>
    }
    %c0 = arith.constant 0 : index
    %v = memref.load %chosen[%c0] : memref<4xi32>
    async.yield
  }
  return
}

// -----

// An allocation in a scope of its own ends there, and may be outlined.
func.func @alloca_in_scope(%c: i1) {
  %t = async.execute {
    memref.alloca_scope {
      %a = memref.alloca() : memref<4xi32>
    }
    async.yield
  }
  return
}
