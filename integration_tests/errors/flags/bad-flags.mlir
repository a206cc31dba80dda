// RUN: %expect-exit-1 %gpu-runner %s --no-such-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: %expect-exit-1 %gpu-runner %s --shared-libs=%t.missing.so 2>&1 | FileCheck %s --check-prefix=LIB

// FLAG: Unknown command line argument '--no-such-flag'
// LIB: error: --shared-libs: cannot load '{{.*}}missing.so'

func.func @main() {
  return
}
