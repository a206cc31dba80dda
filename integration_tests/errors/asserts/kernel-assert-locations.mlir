// The line of a failed assertion in a kernel names the file, line and
// function that its location gives, as upstream's NVVM lowering chooses the
// arguments of __assertfail: a call site is followed to its callee; a name
// location names the function, and its child the file and line. That holds
// in a gpu.launch body and in a function a kernel calls, whose thread ends
// there (nothing after the call runs for it).
// RUN: %expect-exit-1 %gpu-runner %s -e callsite 2>&1 | FileCheck %s --check-prefix=CALLSITE
// RUN: %expect-exit-1 %gpu-runner %s -e named 2>&1 | FileCheck %s --check-prefix=NAMED

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @check(%x: index, %y: index) {
      %c1 = arith.constant 1 : index
      %xb = arith.cmpi eq, %x, %c1 : index
      %yb = arith.cmpi eq, %y, %c1 : index
      %both = arith.andi %xb, %yb : i1
      %true = arith.constant true
      %ok = arith.xori %both, %true : i1
      cf.assert %ok, "not the middle" loc("check_thread"("device.cu":3:1))
      return
    }

    gpu.func @named() kernel {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      func.call @check(%x, %y) : (index, index) -> ()
      gpu.printf "passed %ld %ld\n", %x, %y : index, index
      gpu.return
    }
  }

  // Block 1 fails in its thread 1; block 0 passes, silently.
  // CALLSITE:      {{^}}callee_file.cc:7: callee_func_name: block: [1,0,0], thread: [1,0,0] Assertion `x must be 0` failed.
  // CALLSITE-NEXT: kernel-assert-locations.mlir:[[# @LINE + 5]]:5: error: gpu.launch_func: kernel 'callsite_kernel' failed in block (1, 0, 0): 1 thread failed an assertion (printed above)
  // CALLSITE-NOT: {{.}}
  func.func @callsite() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
        threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
      %sum = arith.muli %bx, %tx : index
      %c0 = arith.constant 0 : index
      %ok = arith.cmpi eq, %sum, %c0 : index
      cf.assert %ok, "x must be 0" loc(callsite(callsite("callee_func_name"("callee_file.cc":7:9) at "caller.cc":10:3) at "main.cc":20:5))
      gpu.terminator
    }
    return
  }

  // A block of 3 x 2 threads; thread (1, 1, 0) fails inside @check.
  // NAMED:      passed 0 0
  // NAMED-NEXT: passed 1 0
  // NAMED-NEXT: passed 2 0
  // NAMED-NEXT: passed 0 1
  // NAMED-NEXT: passed 2 1
  // NAMED-NEXT: {{^}}device.cu:3: check_thread: block: [0,0,0], thread: [1,1,0] Assertion `not the middle` failed.
  // NAMED-NEXT: kernel-assert-locations.mlir:[[# @LINE + 6]]:5: error: gpu.launch_func: kernel 'named' failed in block (0, 0, 0): 1 thread failed an assertion (printed above)
  // NAMED-NOT: {{.}}
  func.func @named() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    gpu.launch_func @kernels::@named blocks in (%c1, %c1, %c1) threads in (%c3, %c2, %c1)
    return
  }
}
