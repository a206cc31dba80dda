// RUN: %gpu-runner %s | FileCheck %s --check-prefixes=F16,F32
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s --check-prefixes=F16,F32
// RUN: %gpu-runner --check-bounds %s | FileCheck %s --check-prefixes=F16,F32
// Upstream has no ROCDL lowering of the mma ops (hip/mma-refused.mlir).
// UNSUPPORTED: hip, hip-standin

// Warp matrix multiply-accumulate in f16, with f16 and with f32
// accumulators: D = A * B + C with A 16x32, B 32x32 and C 16x32, by a block
// of two subgroups. Subgroup w computes the 16x16 tile of D at columns
// [16w, 16w + 16) in two steps of k, the accumulator carried through the
// loop, with the m16n16k16 operation NVIDIA GPUs have. Every lane of a
// subgroup takes part in every op, as a GPU requires. The data are small
// integers, so that both accumulators hold the exact products, which the
// CHECK lines give (computed apart, as a plain matrix product):
// A[i][k] = (i + 2k) mod 5 - 2, B[k][j] = (3k + j) mod 7 - 3,
// C[i][j] = (2i + 3j) mod 11 - 5.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul_f16(%a: memref<16x32xf16>, %b: memref<32x32xf16>,
                         %c: memref<16x32xf16>, %d: memref<16x32xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %w = gpu.subgroup_id : index
      %col = arith.muli %w, %c16 : index
      %init = gpu.subgroup_mma_load_matrix %c[%c0, %col] {leadDimension = 32 : index} : memref<16x32xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %sum = scf.for %k = %c0 to %c32 step %c16 iter_args(%acc = %init) -> (!gpu.mma_matrix<16x16xf16, "COp">) {
        %ma = gpu.subgroup_mma_load_matrix %a[%c0, %k] {leadDimension = 32 : index} : memref<16x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %mb = gpu.subgroup_mma_load_matrix %b[%k, %col] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %next = gpu.subgroup_mma_compute %ma, %mb, %acc : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf16, "COp">
      }
      gpu.subgroup_mma_store_matrix %sum, %d[%c0, %col] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x32xf16>
      gpu.return
    }

    // The f32 kernel multiplies in a function it calls, which takes and
    // returns matrices.
    func.func @multiply_accumulate(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">,
                                   %c: !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp"> {
      %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      return %d : !gpu.mma_matrix<16x16xf32, "COp">
    }

    gpu.func @matmul_f32(%a: memref<16x32xf16>, %b: memref<32x32xf16>,
                         %c: memref<16x32xf32>, %d: memref<16x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %w = gpu.subgroup_id : index
      %col = arith.muli %w, %c16 : index
      %init = gpu.subgroup_mma_load_matrix %c[%c0, %col] {leadDimension = 32 : index} : memref<16x32xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %sum = scf.for %k = %c0 to %c32 step %c16 iter_args(%acc = %init) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %ma = gpu.subgroup_mma_load_matrix %a[%c0, %k] {leadDimension = 32 : index} : memref<16x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %mb = gpu.subgroup_mma_load_matrix %b[%k, %col] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %next = func.call @multiply_accumulate(%ma, %mb, %acc) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %next : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %sum, %d[%c0, %col] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x32xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  // m[i][j] = (p * i + q * j) mod r - s
  func.func @fill(%m: memref<?x?xf32>, %p: index, %q: index, %r: index, %s: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %m, %c0 : memref<?x?xf32>
    %cols = memref.dim %m, %c1 : memref<?x?xf32>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %pi = arith.muli %p, %i : index
        %qj = arith.muli %q, %j : index
        %sum = arith.addi %pi, %qj : index
        %mod = arith.remui %sum, %r : index
        %v = arith.subi %mod, %s : index
        %vi = arith.index_cast %v : index to i32
        %vf = arith.sitofp %vi : i32 to f32
        memref.store %vf, %m[%i, %j] : memref<?x?xf32>
      }
    }
    return
  }

  func.func @to_f16(%from: memref<?x?xf32>, %to: memref<?x?xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %from, %c0 : memref<?x?xf32>
    %cols = memref.dim %from, %c1 : memref<?x?xf32>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %v = memref.load %from[%i, %j] : memref<?x?xf32>
        %h = arith.truncf %v : f32 to f16
        memref.store %h, %to[%i, %j] : memref<?x?xf16>
      }
    }
    return
  }

  func.func @to_f32(%from: memref<?x?xf16>, %to: memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = memref.dim %from, %c0 : memref<?x?xf16>
    %cols = memref.dim %from, %c1 : memref<?x?xf16>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %h = memref.load %from[%i, %j] : memref<?x?xf16>
        %v = arith.extf %h : f16 to f32
        memref.store %v, %to[%i, %j] : memref<?x?xf32>
      }
    }
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %c64 = arith.constant 64 : index

    %fa = memref.alloc() : memref<16x32xf32>
    %fb = memref.alloc() : memref<32x32xf32>
    %fc = memref.alloc() : memref<16x32xf32>
    %fa_ = memref.cast %fa : memref<16x32xf32> to memref<?x?xf32>
    %fb_ = memref.cast %fb : memref<32x32xf32> to memref<?x?xf32>
    %fc_ = memref.cast %fc : memref<16x32xf32> to memref<?x?xf32>
    call @fill(%fa_, %c1, %c2, %c5, %c2) : (memref<?x?xf32>, index, index, index, index) -> ()
    call @fill(%fb_, %c3, %c1, %c7, %c3) : (memref<?x?xf32>, index, index, index, index) -> ()
    call @fill(%fc_, %c2, %c3, %c11, %c5) : (memref<?x?xf32>, index, index, index, index) -> ()
    %ha = memref.alloc() : memref<16x32xf16>
    %hb = memref.alloc() : memref<32x32xf16>
    %hc = memref.alloc() : memref<16x32xf16>
    %ha_ = memref.cast %ha : memref<16x32xf16> to memref<?x?xf16>
    %hb_ = memref.cast %hb : memref<32x32xf16> to memref<?x?xf16>
    %hc_ = memref.cast %hc : memref<16x32xf16> to memref<?x?xf16>
    call @to_f16(%fa_, %ha_) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
    call @to_f16(%fb_, %hb_) : (memref<?x?xf32>, memref<?x?xf16>) -> ()
    call @to_f16(%fc_, %hc_) : (memref<?x?xf32>, memref<?x?xf16>) -> ()

    %a = gpu.alloc () : memref<16x32xf16>
    %b = gpu.alloc () : memref<32x32xf16>
    %c16 = gpu.alloc () : memref<16x32xf16>
    %d16 = gpu.alloc () : memref<16x32xf16>
    %c32 = gpu.alloc () : memref<16x32xf32>
    %d32 = gpu.alloc () : memref<16x32xf32>
    gpu.memcpy %a, %ha : memref<16x32xf16>, memref<16x32xf16>
    gpu.memcpy %b, %hb : memref<32x32xf16>, memref<32x32xf16>
    gpu.memcpy %c16, %hc : memref<16x32xf16>, memref<16x32xf16>
    gpu.memcpy %c32, %fc : memref<16x32xf32>, memref<16x32xf32>
    gpu.launch_func @kernels::@matmul_f16 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<16x32xf16>, %b : memref<32x32xf16>, %c16 : memref<16x32xf16>, %d16 : memref<16x32xf16>)
    gpu.launch_func @kernels::@matmul_f32 blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<16x32xf16>, %b : memref<32x32xf16>, %c32 : memref<16x32xf32>, %d32 : memref<16x32xf32>)

    %hd16 = memref.alloc() : memref<16x32xf16>
    gpu.memcpy %hd16, %d16 : memref<16x32xf16>, memref<16x32xf16>
    %pd16 = memref.alloc() : memref<16x32xf32>
    %hd16_ = memref.cast %hd16 : memref<16x32xf16> to memref<?x?xf16>
    %pd16_ = memref.cast %pd16 : memref<16x32xf32> to memref<?x?xf32>
    call @to_f32(%hd16_, %pd16_) : (memref<?x?xf16>, memref<?x?xf32>) -> ()
    // F16:      {{\[}}[-12, -11, 4, 12, 2, 3, -3, -2, -12, 3, 11, 1, 2, -4, -3, -13, 2, 10, 11, 1, -5, -4, -14, 1, 9, 10, 0, -6, -5, -4, 0, 8],
    // F16-NEXT:  [-1, 2, -9, -3, 0, 3, 6, -2, 1, -10, 7, -1, 2, 5, -3, 0, -11, 6, -2, 1, 4, 7, -1, -12, 5, -3, 0, 3, 6, -2, -13, 4],
    // F16-NEXT:  [5, 10, 8, -12, -7, -2, -1, 4, 9, 7, -13, -8, -3, 9, 3, 8, 6, -14, -9, -4, 8, 2, 7, 5, -4, -10, -5, 7, 1, 6, 4, -5],
    // F16-NEXT:  [6, 8, -1, -6, -4, -2, 3, 5, 7, -2, -7, -5, -3, 2, 4, 6, 8, -8, -6, -4, 1, 3, 5, 7, -9, -7, -5, 11, 2, 4, 6, -10],
    // F16-NEXT:  [-3, -10, 1, 5, 9, 2, -8, -4, 0, 0, 4, 8, 1, -9, -5, -1, -1, 3, 7, 11, -10, -6, -2, -2, 2, 6, 10, -11, -7, -3, 8, 1],
    // F16-NEXT:  [-2, -12, 3, 11, 1, 2, -4, -3, -13, 2, 10, 11, 1, -5, -4, -14, 1, 9, 10, 0, -6, -5, -4, 0, 8, 9, -1, -7, -6, -5, -1, 7],
    // F16-NEXT:  [-2, 1, -10, 7, -1, 2, 5, -3, 0, -11, 6, -2, 1, 4, 7, -1, -12, 5, -3, 0, 3, 6, -2, -13, 4, 7, -1, 2, 5, -3, -14, 3],
    // F16-NEXT:  [4, 9, 7, -13, -8, -3, 9, 3, 8, 6, -14, -9, -4, 8, 2, 7, 5, -4, -10, -5, 7, 1, 6, 4, -5, -11, -6, 6, 11, 5, 3, -6],
    // F16-NEXT:  [5, 7, -2, -7, -5, -3, 2, 4, 6, 8, -8, -6, -4, 1, 3, 5, 7, -9, -7, -5, 11, 2, 4, 6, -10, -8, -6, 10, 1, 3, 5, 0],
    // F16-NEXT:  [-4, 0, 0, 4, 8, 1, -9, -5, -1, -1, 3, 7, 11, -10, -6, -2, -2, 2, 6, 10, -11, -7, -3, 8, 1, 5, 9, -12, -8, -4, 7, 0],
    // F16-NEXT:  [-3, -13, 2, 10, 11, 1, -5, -4, -14, 1, 9, 10, 0, -6, -5, -4, 0, 8, 9, -1, -7, -6, -5, -1, 7, 8, 9, -8, -7, -6, -2, 6],
    // F16-NEXT:  [-3, 0, -11, 6, -2, 1, 4, 7, -1, -12, 5, -3, 0, 3, 6, -2, -13, 4, 7, -1, 2, 5, -3, -14, 3, 6, -2, 1, 4, 7, -15, 2],
    // F16-NEXT:  [3, 8, 6, -14, -9, -4, 8, 2, 7, 5, -4, -10, -5, 7, 1, 6, 4, -5, -11, -6, 6, 11, 5, 3, -6, -12, -7, 5, 10, 4, 2, -7],
    // F16-NEXT:  [4, 6, 8, -8, -6, -4, 1, 3, 5, 7, -9, -7, -5, 11, 2, 4, 6, -10, -8, -6, 10, 1, 3, 5, 0, -9, -7, 9, 0, 2, 4, -1],
    // F16-NEXT:  [-5, -1, -1, 3, 7, 11, -10, -6, -2, -2, 2, 6, 10, -11, -7, -3, 8, 1, 5, 9, -12, -8, -4, 7, 0, 4, 8, -2, -9, -5, 6, -1],
    // F16-NEXT:  [-4, -14, 1, 9, 10, 0, -6, -5, -4, 0, 8, 9, -1, -7, -6, -5, -1, 7, 8, 9, -8, -7, -6, -2, 6, 7, 8, -9, -8, -7, 8, 5]]
    %u16 = memref.cast %pd16 : memref<16x32xf32> to memref<*xf32>
    call @printMemrefF32(%u16) : (memref<*xf32>) -> ()

    %hd32 = memref.alloc() : memref<16x32xf32>
    gpu.memcpy %hd32, %d32 : memref<16x32xf32>, memref<16x32xf32>
    // F32:      {{\[}}[-12, -11, 4, 12, 2, 3, -3, -2, -12, 3, 11, 1, 2, -4, -3, -13, 2, 10, 11, 1, -5, -4, -14, 1, 9, 10, 0, -6, -5, -4, 0, 8],
    // F32-NEXT:  [-1, 2, -9, -3, 0, 3, 6, -2, 1, -10, 7, -1, 2, 5, -3, 0, -11, 6, -2, 1, 4, 7, -1, -12, 5, -3, 0, 3, 6, -2, -13, 4],
    // F32-NEXT:  [5, 10, 8, -12, -7, -2, -1, 4, 9, 7, -13, -8, -3, 9, 3, 8, 6, -14, -9, -4, 8, 2, 7, 5, -4, -10, -5, 7, 1, 6, 4, -5],
    // F32-NEXT:  [6, 8, -1, -6, -4, -2, 3, 5, 7, -2, -7, -5, -3, 2, 4, 6, 8, -8, -6, -4, 1, 3, 5, 7, -9, -7, -5, 11, 2, 4, 6, -10],
    // F32-NEXT:  [-3, -10, 1, 5, 9, 2, -8, -4, 0, 0, 4, 8, 1, -9, -5, -1, -1, 3, 7, 11, -10, -6, -2, -2, 2, 6, 10, -11, -7, -3, 8, 1],
    // F32-NEXT:  [-2, -12, 3, 11, 1, 2, -4, -3, -13, 2, 10, 11, 1, -5, -4, -14, 1, 9, 10, 0, -6, -5, -4, 0, 8, 9, -1, -7, -6, -5, -1, 7],
    // F32-NEXT:  [-2, 1, -10, 7, -1, 2, 5, -3, 0, -11, 6, -2, 1, 4, 7, -1, -12, 5, -3, 0, 3, 6, -2, -13, 4, 7, -1, 2, 5, -3, -14, 3],
    // F32-NEXT:  [4, 9, 7, -13, -8, -3, 9, 3, 8, 6, -14, -9, -4, 8, 2, 7, 5, -4, -10, -5, 7, 1, 6, 4, -5, -11, -6, 6, 11, 5, 3, -6],
    // F32-NEXT:  [5, 7, -2, -7, -5, -3, 2, 4, 6, 8, -8, -6, -4, 1, 3, 5, 7, -9, -7, -5, 11, 2, 4, 6, -10, -8, -6, 10, 1, 3, 5, 0],
    // F32-NEXT:  [-4, 0, 0, 4, 8, 1, -9, -5, -1, -1, 3, 7, 11, -10, -6, -2, -2, 2, 6, 10, -11, -7, -3, 8, 1, 5, 9, -12, -8, -4, 7, 0],
    // F32-NEXT:  [-3, -13, 2, 10, 11, 1, -5, -4, -14, 1, 9, 10, 0, -6, -5, -4, 0, 8, 9, -1, -7, -6, -5, -1, 7, 8, 9, -8, -7, -6, -2, 6],
    // F32-NEXT:  [-3, 0, -11, 6, -2, 1, 4, 7, -1, -12, 5, -3, 0, 3, 6, -2, -13, 4, 7, -1, 2, 5, -3, -14, 3, 6, -2, 1, 4, 7, -15, 2],
    // F32-NEXT:  [3, 8, 6, -14, -9, -4, 8, 2, 7, 5, -4, -10, -5, 7, 1, 6, 4, -5, -11, -6, 6, 11, 5, 3, -6, -12, -7, 5, 10, 4, 2, -7],
    // F32-NEXT:  [4, 6, 8, -8, -6, -4, 1, 3, 5, 7, -9, -7, -5, 11, 2, 4, 6, -10, -8, -6, 10, 1, 3, 5, 0, -9, -7, 9, 0, 2, 4, -1],
    // F32-NEXT:  [-5, -1, -1, 3, 7, 11, -10, -6, -2, -2, 2, 6, 10, -11, -7, -3, 8, 1, 5, 9, -12, -8, -4, 7, 0, 4, 8, -2, -9, -5, 6, -1],
    // F32-NEXT:  [-4, -14, 1, 9, 10, 0, -6, -5, -4, 0, 8, 9, -1, -7, -6, -5, -1, 7, 8, 9, -8, -7, -6, -2, 6, 7, 8, -9, -8, -7, 8, 5]]
    %u32 = memref.cast %hd32 : memref<16x32xf32> to memref<*xf32>
    call @printMemrefF32(%u32) : (memref<*xf32>) -> ()

    gpu.dealloc %a : memref<16x32xf16>
    gpu.dealloc %b : memref<32x32xf16>
    gpu.dealloc %c16 : memref<16x32xf16>
    gpu.dealloc %d16 : memref<16x32xf16>
    gpu.dealloc %c32 : memref<16x32xf32>
    gpu.dealloc %d32 : memref<16x32xf32>
    return
  }
}
