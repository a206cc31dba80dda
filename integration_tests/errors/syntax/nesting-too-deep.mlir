// Text nested deeper than gpu-runner's limit, 1000 levels, is an error at
// the bracket that goes too deep, with a note where the nesting starts; it
// never overflows the parser's stack. Nesting up to the limit runs.
//
// RUN: %python -c "print('func.func @main() {\n' + 'scf.execute_region {\n' * 5000 + 'scf.yield\n}\n' * 5000 + 'return\n}')" > %t.regions.mlir
// RUN: %expect-exit-1 %gpu-runner %t.regions.mlir 2>&1 | FileCheck %s --check-prefix=REGIONS
// REGIONS: regions.mlir:1001:20: error: nested more than 1000 levels deep: gpu-runner reads brackets, braces, parentheses and angle brackets nested up to 1000 levels
// REGIONS: regions.mlir:1:19: note: the nesting starts here
//
// RUN: %python -c "print('module attributes {test.deep = ' + '[' * 10000 + ']' * 10000 + '} {}')" > %t.array.mlir
// RUN: %expect-exit-1 %gpu-runner %t.array.mlir 2>&1 | FileCheck %s --check-prefix=ARRAY
// ARRAY: array.mlir:1:1031: error: nested more than 1000 levels deep
// ARRAY: array.mlir:1:19: note: the nesting starts here
//
// RUN: %python -c "print('func.func private @f(' + 'tuple<' * 100000 + 'i32' + '>' * 100000 + ')')" > %t.tuple.mlir
// RUN: %expect-exit-1 %gpu-runner %t.tuple.mlir 2>&1 | FileCheck %s --check-prefix=TUPLE
// TUPLE: tuple.mlir:1:6021: error: nested more than 1000 levels deep
// TUPLE: tuple.mlir:1:21: note: the nesting starts here
//
// Brackets in strings and comments, and the `>` of `->` and `>=`, do not
// count: 2000 `[` in a string and a comment, 2000 arrows and 2000 `>=`.
// RUN: %python -c "print('// ' + '[' * 2000 + '\nfunc.func @main() attributes {s = \"' + '[' * 2000 + '\", t = [' + '() -> (), ' * 2000 + '() -> ()], u = [' + 'affine_set<(d0) : (d0 >= 0)>, ' * 2000 + 'affine_set<(d0) : (d0 >= 0)>]} {\nreturn\n}')" > %t.ignored.mlir
// RUN: %gpu-runner %t.ignored.mlir 2>&1 | count 0
//
// 999 nested regions (the function's body is the first level) run.
// RUN: %python -c "print('func.func private @printI64(i64)\nfunc.func @main() {\n' + 'scf.execute_region {\n' * 998 + '%%c = arith.constant 42 : i64\nfunc.call @printI64(%%c) : (i64) -> ()\n' + 'scf.yield\n}\n' * 998 + 'return\n}')" > %t.deepest.mlir
// RUN: %gpu-runner %t.deepest.mlir 2>&1 | FileCheck %s --check-prefix=DEEPEST
// DEEPEST: {{^}}42{{$}}
