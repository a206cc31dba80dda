// A .npy header that names a key twice is refused, naming the key: the
// shapes (2,) and (3,) are not read as 2x3, nor is either one picked.
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-shape.npy '<f4' 6 1,2,3,4,5,6 --header "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (3,), }"
// RUN: %expect-exit-1 %gpu-runner %s --input=@%t-shape.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t-order.npy '<f4' 2 1,2 --header "{'descr': '<f4', 'fortran_order': False, 'fortran_order': True, 'shape': (2,), }"
// RUN: %expect-exit-1 %gpu-runner %s --input=@%t-order.npy 2>&1 | FileCheck %s --check-prefix=ORDER

// SHAPE: error: {{.*}}-shape.npy: not a NumPy file: the header has the key 'shape' twice
// SHAPE-NOT: result
// ORDER: error: {{.*}}-order.npy: not a NumPy file: the header has the key 'fortran_order' twice

func.func @main(%v: memref<?xf32>) -> memref<?xf32> {
  return %v : memref<?xf32>
}
