// LLVM's own options reach LLVM, as mlir-runner passes them on: a 2x2
// matrix product of the same two vectors reads them as columns by default
// and as rows with -matrix-default-layout=row-major (LLVM LangRef,
// llvm.matrix.multiply: "column-major layout" unless the option says
// otherwise). Such an option changes what is compiled, so the run with it
// must not reuse what the run without it left in the compile cache.
// RUN: rm -rf %t
// RUN: %gpu-runner --cache-dir=%t %s | FileCheck %s --check-prefix=COLUMNS
// RUN: %gpu-runner --cache-dir=%t -matrix-default-layout=row-major %s | FileCheck %s --check-prefix=ROWS
// RUN: %gpu-runner --cache-dir=%t -matrix-default-layout=row-major --timing %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING

// A = [1 3; 2 4], B = [5 7; 6 8]: A x B = [23 31; 34 46], by columns.
// COLUMNS: ( 23, 34, 31, 46 )
// A = [1 2; 3 4], B = [5 6; 7 8]: A x B = [19 22; 43 50], by rows.
// ROWS: ( 19, 22, 43, 50 )
// TIMING: LLVM's -matrix-default-layout compiles afresh

func.func @main() {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %b = arith.constant dense<[5.0, 6.0, 7.0, 8.0]> : vector<4xf32>
  %c = llvm.intr.matrix.multiply %a, %b
      {lhs_rows = 2 : i32, lhs_columns = 2 : i32, rhs_columns = 2 : i32}
      : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  vector.print %c : vector<4xf32>
  return
}
