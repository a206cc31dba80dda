// --timeout covers reading the data files: a FIFO that no one writes, as
// raw bytes or as a .npy file, ends the run with the timeout's error,
// which names the file. `timeout 20` turns a hang into a failure.
// RUN: rm -f %t.fifo %t.fifo.npy && mkfifo %t.fifo %t.fifo.npy
// RUN: %expect-exit-1 timeout 20 %gpu-runner %s --input=3xf32=@%t.fifo --timeout=1 2>&1 | FileCheck %s --check-prefix=RAW -DFILE=%t.fifo
// RUN: %expect-exit-1 timeout 20 %gpu-runner %s --input=@%t.fifo.npy --timeout=1 2>&1 | FileCheck %s --check-prefix=NPY -DFILE=%t.fifo.npy
// RUN: %expect-exit-1 timeout 20 %gpu-runner %s --input=3xf32=1 --expected-output=@%t.fifo.npy --timeout=1 2>&1 | FileCheck %s --check-prefix=EXPECTED -DFILE=%t.fifo.npy
// A FIFO that is written is read as a file is.
// RUN: %python %S/../../run/data/Inputs/make-npy.py %t.npy '<f4' 3 1,2,3
// RUN: sh -c 'cat %t.npy > %t.fifo.npy & timeout 20 %gpu-runner %s --input=@%t.fifo.npy --timeout=10' | FileCheck %s --check-prefix=WRITTEN

// RAW: error: timed out after 1 s (--timeout=1) while reading data file '[[FILE]]'{{$}}
// NPY: error: timed out after 1 s (--timeout=1) while reading data file '[[FILE]]'{{$}}
// EXPECTED: error: timed out after 1 s (--timeout=1) while reading data file '[[FILE]]'{{$}}
// WRITTEN:      result[0]: memref<?xf32>
// WRITTEN-NEXT: [1,  2,  3]

func.func @main(%v: memref<?xf32>) -> memref<?xf32> {
  return %v : memref<?xf32>
}
