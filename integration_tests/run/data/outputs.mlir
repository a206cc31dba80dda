// --output writes each result where it says: a NumPy file, raw bytes, or
// stdout (-); the files read back as the values they hold.
// RUN: rm -rf %t && mkdir %t
// RUN: %gpu-runner %s --input=3xi32=1,2,3 --input=2.5 --output=@%t/a.npy --output=- --output=@%t/c.bin > %t/stdout
// RUN: FileCheck %s --check-prefix=STDOUT < %t/stdout
// RUN: %gpu-runner %s -e echo_i32 --input=@%t/a.npy | FileCheck %s --check-prefix=NPY
// RUN: %gpu-runner %s -e echo_f64 --input=2x2xf64=@%t/c.bin | FileCheck %s --check-prefix=RAW
// The NumPy file's header, as NumPy reads it, and its data at 128 bytes.
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); print(len(d), d[:8] == b'\x93NUMPY\x01\x00', d[10:128].decode().rstrip())" %t/a.npy | FileCheck %s --check-prefix=HEADER
// An --output that cannot be written is an error.
// RUN: %expect-exit-1 %gpu-runner %s --input=3xi32=1,2,3 --input=2.5 --output=@%t/no/such/dir/a.npy --output=- --output=- 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: %expect-exit-1 %gpu-runner %s --input=3xi32=1,2,3 --input=2.5 --output=a.npy --output=- --output=- 2>&1 | FileCheck %s --check-prefix=FORM

// STDOUT:      result[1]: f32
// STDOUT-NEXT: 2.5
// STDOUT-NOT: {{.}}
// NPY:      result[0]: memref<?xi32>
// NPY-NEXT: [2,  3,  4]
// RAW:      result[0]: memref<2x2xf64>
// RAW-NEXT: [0,   1],
// RAW-NEXT: [2,   3]]
// HEADER: 140 True {'descr': '<i4', 'fortran_order': False, 'shape': (3,), }
// UNWRITABLE: error: --output=@{{.*}}no/such/dir/a.npy: cannot write it: No such file or directory
// FORM: error: --output=a.npy: give @FILE.npy, @FILE (raw bytes) or - (print it)

func.func @main(%v: memref<?xi32>, %x: f32) -> (memref<?xi32>, f32, memref<2x2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %n = memref.dim %v, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %v[%i] : memref<?xi32>
    %b = arith.addi %a, %one : i32
    memref.store %b, %v[%i] : memref<?xi32>
  }
  %m = memref.alloc() : memref<2x2xf64>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %k = arith.muli %i, %c2 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i64
      %f = arith.sitofp %li : i64 to f64
      memref.store %f, %m[%i, %j] : memref<2x2xf64>
    }
  }
  return %v, %x, %m : memref<?xi32>, f32, memref<2x2xf64>
}

func.func @echo_i32(%v: memref<?xi32>) -> memref<?xi32> {
  return %v : memref<?xi32>
}

func.func @echo_f64(%v: memref<2x2xf64>) -> memref<2x2xf64> {
  return %v : memref<2x2xf64>
}
