// Kernels that fault on the CUDA stand-in, each failing as on a GPU, with
// the sticky error the CUDA driver API documents, reported by the runner at
// the launch, exit status 1:
// - a kernel given host memory: an illegal address
//   (CUDA_ERROR_ILLEGAL_ADDRESS);
// - a device assert: CUDA's device-assert line on stderr, then
//   CUDA_ERROR_ASSERT (a module whose cubin calls __assertfail, an undefined
//   function symbol of the cubin, not a kernel);
// - a trap: CUDA_ERROR_LAUNCH_FAILED;
// - a shuffle that reads a lane that has exited, which the PTX ISA leaves
//   undefined ("results are undefined if a thread sources a register from an
//   inactive thread"): reported, CUDA_ERROR_LAUNCH_FAILED.
// REQUIRES: cuda-standin-lib, ptxas
// RUN: %expect-exit-1 %gpu-runner-cuda-standin --no-cache -e hostMemory %s 2>&1 | FileCheck %s --check-prefix=HOST --implicit-check-not=error:
// RUN: %expect-exit-1 %gpu-runner-cuda-standin --no-cache -e assertion %s 2>&1 | FileCheck %s --check-prefix=ASSERT --implicit-check-not=error:
// RUN: %expect-exit-1 %gpu-runner-cuda-standin --no-cache -e trap %s 2>&1 | FileCheck %s --check-prefix=TRAP --implicit-check-not=error:
// RUN: %expect-exit-1 %gpu-runner-cuda-standin --no-cache -e exitedLane %s 2>&1 | FileCheck %s --check-prefix=EXITED --implicit-check-not=error:

// HOST: kernel 'store', block (0, 0, 0), thread (0, 0, 0): a write of 4 bytes at 0x{{[0-9a-f]+}} (host, through a pointer) at a store of 4 bytes in 'store': an illegal address
// HOST: [[@LINE+54]]:5: error: gpu.launch_func: kernel 'store' failed: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered

// ASSERT: [[FILE:.*]]:[[@LINE+22]]: (unknown): block: [0,0,0], thread: [2,0,0] Assertion `thread 2 is not welcome` failed.
// ASSERT: [[@LINE+61]]:5: error: gpu.launch_func: kernel 'check' failed: CUDA_ERROR_ASSERT: device-side assert triggered

// TRAP: kernel 'trap', block (0, 0, 0), thread (0, 0, 0) executed trap
// TRAP: [[@LINE+68]]:5: error: gpu.launch_func: kernel 'trap' failed: CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure

// EXITED: lane 0 (thread (0, 0, 0)) of kernel 'exited', block (0, 0, 0) reads lane 1 with shfl.sync at shfl.sync.bfly in 'exited', which has exited: the value it reads is undefined on a GPU
// EXITED: [[@LINE+75]]:5: error: gpu.launch_func: kernel 'exited' failed: CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @store(%out: memref<4xi32>) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      memref.store %v, %out[%tid] : memref<4xi32>
      gpu.return
    }

    gpu.func @check(%out: memref<4xi32>) kernel {
      %tid = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %ok = arith.cmpi ne, %tid, %c2 : index
      cf.assert %ok, "thread 2 is not welcome"
      gpu.return
    }

    gpu.func @trap(%out: memref<4xi32>) kernel {
      "llvm.intr.trap"() : () -> ()
      gpu.return
    }

    gpu.func @exited(%out: memref<4xi32>) kernel {
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      %c1 = arith.constant 1 : index
      %leaves = arith.cmpi eq, %tid, %c1 : index
      cf.cond_br %leaves, ^done, ^shuffle
    ^shuffle:
      %one = arith.constant 1 : i32
      %width = arith.constant 4 : i32
      %s, %valid = gpu.shuffle xor %v, %one, %width : i32
      memref.store %s, %out[%tid] : memref<4xi32>
      gpu.return
    ^done:
      gpu.return
    }
  }

  func.func @hostMemory() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %host = memref.alloc() : memref<4xi32>
    gpu.launch_func @kernels::@store blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%host : memref<4xi32>)
    memref.dealloc %host : memref<4xi32>
    return
  }

  func.func @assertion() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xi32>
    gpu.launch_func @kernels::@check blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%d : memref<4xi32>)
    gpu.dealloc %d : memref<4xi32>
    return
  }

  func.func @trap() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xi32>
    gpu.launch_func @kernels::@trap blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%d : memref<4xi32>)
    gpu.dealloc %d : memref<4xi32>
    return
  }

  func.func @exitedLane() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xi32>
    gpu.launch_func @kernels::@exited blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%d : memref<4xi32>)
    gpu.dealloc %d : memref<4xi32>
    return
  }
}
