// --dump-gpu-binary is refused on the host backend, as --gpu-chip is: it
// has no GPU binary to write, and would otherwise leave the folder empty
// with exit status 0.
// RUN: rm -rf %t
// RUN: %expect-exit-1 %gpu-runner-host --dump-gpu-binary=%t %s 2>&1 | FileCheck %s
// RUN: not test -e %t

// CHECK: error: --dump-gpu-binary is for GPU backends; the host backend compiles kernels into the host program, with no GPU binary (--dump-object-file writes that program)
// CHECK-NOT: ran

func.func @main() {
  vector.print str "ran\n"
  return
}
