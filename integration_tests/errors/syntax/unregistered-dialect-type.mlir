// RUN: %expect-exit-1 %gpu-runner %s 2>&1 | FileCheck %s

// CHECK: unregistered-dialect-type.mlir:[[# @LINE + 1]]:43: error: `!"shape"<"shape">` type created with unregistered dialect: gpu-runner accepts ops and types of the dialects affine,
func.func private @takes_shape(%s: !shape.shape)

func.func @main() {
  return
}
