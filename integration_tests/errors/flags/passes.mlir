// --passes: a pipeline that does not parse is an error before anything
// runs, in the words of MLIR's pipeline parser, with the flag named.
// RUN: %expect-exit-1 %gpu-runner --passes=no-such-pass %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %expect-exit-1 %gpu-runner '--passes=canonicalize{no-such-option=1}' %s 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: %expect-exit-1 %gpu-runner '--passes=func.func(canonicalize' %s 2>&1 | FileCheck %s --check-prefix=SYNTAX
// As with mlir-opt --pass-pipeline, a pass that runs on functions only is
// not nested for the user.
// RUN: %expect-exit-1 %gpu-runner --passes=lower-vector-mask %s 2>&1 | FileCheck %s --check-prefix=NEST
// RUN: %gpu-runner '--passes=func.func(lower-vector-mask)' %s

// UNKNOWN: error: --passes: 'no-such-pass' does not refer to a registered pass or pass pipeline
// OPTION: error: --passes: {{.*}}no-such-option
// SYNTAX: error: --passes: {{.*}}
// NEST: error: --passes: Can't add pass '{{.*}}' restricted to 'func.func' on a PassManager intended to run on 'builtin.module', did you intend to nest?

func.func @main() {
  return
}
