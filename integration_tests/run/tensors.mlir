// A program on tensors runs as it is, as `mlir-opt -one-shot-bufferize=
// "bufferize-function-boundaries" -buffer-deallocation-pipeline |
// mlir-runner` runs it: linalg, tensor and scf ops on tensors, functions
// that take and return tensors, and a tensor copied to the device and back.
// RUN: %gpu-runner %s | FileCheck %s

// What bufferization allocates is freed: each loop iteration frees the
// buffer of the iteration before; the program's own gpu.alloc, gpu.dealloc,
// memref.alloc and memref.dealloc are left as written.
// RUN: %gpu-runner %s --print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
// IR-LABEL: IR Dump After CheckIntegerWidths
// IR: scf.for
// IR: scf.if
// IR-NEXT: memref.dealloc
// IR: gpu.alloc () : memref<4xf32>
// IR: gpu.dealloc %{{.*}} : memref<4xf32>
// IR-NOT: manual_deallocation
// IR-LABEL: IR Dump After CheckPrintf

// The same with the passes given: the default finds no tensors left.
// RUN: %gpu-runner --passes='one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops},func.func(convert-linalg-to-loops)' %s | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// Takes and returns tensors: the function boundary is bufferized too.
func.func @scaled(%t: tensor<4xf32>, %factor: f32) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %scale = linalg.fill ins(%factor : f32) outs(%init : tensor<4xf32>)
      -> tensor<4xf32>
  %product = linalg.mul ins(%t, %scale : tensor<4xf32>, tensor<4xf32>)
      outs(%init : tensor<4xf32>) -> tensor<4xf32>
  return %product : tensor<4xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %start = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  // Three doublings through a loop-carried tensor.
  %result = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %start)
      -> tensor<4xf32> {
    %next = func.call @scaled(%t, %two)
        : (tensor<4xf32>, f32) -> tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  %inserted = tensor.insert %two into %result[%c0] : tensor<4xf32>
  %host = bufferization.to_buffer %inserted
      : tensor<4xf32> to memref<4xf32>
  %unranked = memref.cast %host : memref<4xf32> to memref<*xf32>
  // CHECK: [2,  16,  24,  32]
  call @printMemrefF32(%unranked) : (memref<*xf32>) -> ()

  // Through the device and back, with the program's own buffers.
  %device = gpu.alloc () : memref<4xf32>
  gpu.memcpy %device, %host : memref<4xf32>, memref<4xf32>
  %back = memref.alloc() : memref<4xf32>
  gpu.memcpy %back, %device : memref<4xf32>, memref<4xf32>
  gpu.dealloc %device : memref<4xf32>
  %back_unranked = memref.cast %back : memref<4xf32> to memref<*xf32>
  // CHECK: [2,  16,  24,  32]
  call @printMemrefF32(%back_unranked) : (memref<*xf32>) -> ()
  memref.dealloc %back : memref<4xf32>

  // A read of the tensor after the loop: extract sees the final values.
  %last = tensor.extract %result[%c3] : tensor<4xf32>
  // CHECK: 32
  vector.print %last : f32
  return
}
