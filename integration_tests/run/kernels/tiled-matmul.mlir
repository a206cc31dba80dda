// A tiled matrix product in workgroup memory, the classic kernel with
// barriers: each 4x4 block of threads loads a tile of A and of B, waits,
// accumulates, waits, and moves on, the sum carried per thread through the
// loop over tiles. Both ways of running it print the same.
// RUN: %gpu-runner %s | FileCheck %s
// RUN: %gpu-runner --check-bounds %s | FileCheck %s
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%a: memref<8x12xf32>, %b: memref<12x8xf32>, %c: memref<8x8xf32>)
        workgroup(%ta: memref<4x4xf32, #gpu.address_space<workgroup>>,
                  %tb: memref<4x4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c12 = arith.constant 12 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row = gpu.global_id y
      %col = gpu.global_id x
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k0 = %c0 to %c12 step %c4 iter_args(%acc = %zero) -> f32 {
        %ka = arith.addi %k0, %tx : index
        %va = memref.load %a[%row, %ka] : memref<8x12xf32>
        memref.store %va, %ta[%ty, %tx] : memref<4x4xf32, #gpu.address_space<workgroup>>
        %kb = arith.addi %k0, %ty : index
        %vb = memref.load %b[%kb, %col] : memref<12x8xf32>
        memref.store %vb, %tb[%ty, %tx] : memref<4x4xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %partial = scf.for %k = %c0 to %c4 step %c1 iter_args(%p = %acc) -> f32 {
          %x = memref.load %ta[%ty, %k] : memref<4x4xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tb[%k, %tx] : memref<4x4xf32, #gpu.address_space<workgroup>>
          %xy = arith.mulf %x, %y : f32
          %q = arith.addf %p, %xy : f32
          scf.yield %q : f32
        }
        gpu.barrier
        scf.yield %partial : f32
      }
      memref.store %sum, %c[%row, %col] : memref<8x8xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c12 = arith.constant 12 : index
    // a[i][k] = i + k, b[k][j] = k - j
    %ha = memref.alloc() : memref<8x12xf32>
    %hb = memref.alloc() : memref<12x8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %k = %c0 to %c12 step %c1 {
        %s = arith.addi %i, %k : index
        %si = arith.index_cast %s : index to i32
        %sf = arith.sitofp %si : i32 to f32
        memref.store %sf, %ha[%i, %k] : memref<8x12xf32>
        %d = arith.subi %k, %i : index
        %di = arith.index_cast %d : index to i32
        %df = arith.sitofp %di : i32 to f32
        memref.store %df, %hb[%k, %i] : memref<12x8xf32>
      }
    }
    %a = gpu.alloc () : memref<8x12xf32>
    %b = gpu.alloc () : memref<12x8xf32>
    %c = gpu.alloc () : memref<8x8xf32>
    gpu.memcpy %a, %ha : memref<8x12xf32>, memref<8x12xf32>
    gpu.memcpy %b, %hb : memref<12x8xf32>, memref<12x8xf32>
    gpu.launch_func @kernels::@matmul blocks in (%c2, %c2, %c1) threads in (%c4, %c4, %c1)
        args(%a : memref<8x12xf32>, %b : memref<12x8xf32>, %c : memref<8x8xf32>)
    %hc = memref.alloc() : memref<8x8xf32>
    gpu.memcpy %hc, %c : memref<8x8xf32>, memref<8x8xf32>
    // CHECK:      {{\[}}[506,   440,   374,   308,   242,   176,   110,   44],
    // CHECK-NEXT:  [572,   494,   416,   338,   260,   182,   104,   26],
    // CHECK-NEXT:  [638,   548,   458,   368,   278,   188,   98,   8],
    // CHECK-NEXT:  [704,   602,   500,   398,   296,   194,   92,   -10],
    // CHECK-NEXT:  [770,   656,   542,   428,   314,   200,   86,   -28],
    // CHECK-NEXT:  [836,   710,   584,   458,   332,   206,   80,   -46],
    // CHECK-NEXT:  [902,   764,   626,   488,   350,   212,   74,   -64],
    // CHECK-NEXT:  [968,   818,   668,   518,   368,   218,   68,   -82]]
    %u = memref.cast %hc : memref<8x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %a : memref<8x12xf32>
    gpu.dealloc %b : memref<12x8xf32>
    gpu.dealloc %c : memref<8x8xf32>
    return
  }
}
