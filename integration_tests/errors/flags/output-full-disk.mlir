// --output writes each file whole or not at all: a write that fails part
// way (here a file size limit, as a full disk fails a write) is an error,
// and leaves the file written before as it was, with no temporary file
// beside it. A device is written in place.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gpu-runner %s --no-cache --input=1024xf32=1 --output=@%t/r.npy
// RUN: cp %t/r.npy %t.before.npy
// RUN: %expect-exit-1 sh -c 'ulimit -f 1; exec %gpu-runner %s --no-cache --input=1024xf32=2 --output=@%t/r.npy' 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: cmp %t/r.npy %t.before.npy
// RUN: %expect-exit-1 sh -c 'ulimit -f 1; exec %gpu-runner %s --no-cache --input=1024xf32=2 --output=@%t/new.bin' 2>&1 | FileCheck %s --check-prefix=NEW
// RUN: %python -c "import os; print('files:', sorted(os.listdir('%t')))" | FileCheck %s --check-prefix=LEFT
// RUN: %expect-exit-1 %gpu-runner %s --no-cache --input=1024xf32=2 --output=@/dev/full 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: test -c /dev/full
// The file written when nothing fails.
// RUN: %gpu-runner %s --no-cache --input=1024xf32=2 --output=@%t/r.npy
// RUN: %gpu-runner %s --no-cache --input=@%t/r.npy --expected-output=1024xf32=2

// LIMIT: error: --output=@{{.*}}r.npy: cannot write it: File too large
// NEW: error: --output=@{{.*}}new.bin: cannot write it: File too large
// LEFT: files: ['r.npy']
// DEVICE: error: --output=@/dev/full: cannot write it: No space left on device

func.func @main(%v: memref<1024xf32>) -> memref<1024xf32> {
  return %v : memref<1024xf32>
}
