// RUN: %gpu-runner %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}
// RUN: %gpu-runner --no-barrier-splitting %s | FileCheck %s --check-prefixes=CHECK,SUBGROUP%{subgroup}

// Subgroup ids of a block of 80 threads (the last subgroup is partial;
// subgroups of 32, or of 64 on HIP's gfx9, the lines of the other prefix), a
// device function called from a kernel, private memory, an early return,
// math ops, and kernel arguments of several kinds: a strided 2-D view, a
// 0-d memref, f64, i8 and index scalars.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @lane_code() -> i32 {
      %lane = gpu.lane_id
      %subgroup = gpu.subgroup_id : index
      %count = gpu.num_subgroups : index
      %size = gpu.subgroup_size : index
      %code = affine.apply affine_map<(l, s, c, z) -> (z * 100000 + c * 1000 + s * 100 + l)>(%lane, %subgroup, %count, %size)
      %code32 = arith.index_cast %code : index to i32
      return %code32 : i32
    }

    gpu.func @ids(%out: memref<80xi32>) kernel {
      %tid = gpu.thread_id x
      %code = func.call @lane_code() : () -> i32
      memref.store %code, %out[%tid] : memref<80xi32>
      gpu.return
    }

    gpu.func @arguments(%view: memref<2x3xf64, strided<[8, 2], offset: 1>>, %scalar: memref<f64>,
                        %scale: f64, %bias: i8, %limit: index)
        private(%tmp: memref<2xf64, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %row = gpu.thread_id y
      %col = gpu.thread_id x
      %linear = affine.apply affine_map<(r, c) -> (r * 3 + c)>(%row, %col)
      // Threads at or past the limit return at once.
      %past = arith.cmpi uge, %linear, %limit : index
      cf.cond_br %past, ^early, ^work
    ^early:
      gpu.return
    ^work:
      %v = memref.load %view[%row, %col] : memref<2x3xf64, strided<[8, 2], offset: 1>>
      %b = arith.sitofp %bias : i8 to f64
      %s = arith.mulf %v, %scale : f64
      memref.store %s, %tmp[%c0] : memref<2xf64, #gpu.address_space<private>>
      memref.store %b, %tmp[%c1] : memref<2xf64, #gpu.address_space<private>>
      %x = memref.load %tmp[%c0] : memref<2xf64, #gpu.address_space<private>>
      %y = memref.load %tmp[%c1] : memref<2xf64, #gpu.address_space<private>>
      %sum = arith.addf %x, %y : f64
      %root = math.sqrt %sum : f64
      memref.store %root, %view[%row, %col] : memref<2x3xf64, strided<[8, 2], offset: 1>>
      %first = arith.cmpi eq, %linear, %c0 : index
      scf.if %first {
        %e = math.exp %scale : f64
        memref.store %e, %scalar[] : memref<f64>
      }
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF64(memref<*xf64>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %c80 = arith.constant 80 : index
    %ids = gpu.alloc () : memref<80xi32>
    gpu.launch_func @kernels::@ids blocks in (%c1, %c1, %c1) threads in (%c80, %c1, %c1)
        args(%ids : memref<80xi32>)
    %h = memref.alloc() : memref<80xi32>
    gpu.memcpy %h, %ids : memref<80xi32>, memref<80xi32>
    // subgroup size 32, 3 subgroups; code = 32 * 100000 + 3 * 1000 + 100 s + l;
    // or 64, 2 subgroups: 64 * 100000 + 2 * 1000 + 100 s + l
    // SUBGROUP32: [3203000,  3203001,
    // SUBGROUP32-SAME: 3203031,  3203100,  3203101,
    // SUBGROUP32-SAME: 3203131,  3203200,
    // SUBGROUP32-SAME: 3203215]
    // SUBGROUP64: [6402000,  6402001,
    // SUBGROUP64-SAME: 6402063,  6402100,  6402101,
    // SUBGROUP64-SAME: 6402115]
    %u = memref.cast %h : memref<80xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()

    // A 2x3 view with strides [8, 2] at offset 1 of a 16-element buffer.
    %buffer = gpu.alloc () : memref<16xf64>
    %hb = memref.alloc() : memref<16xf64>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f64
      memref.store %f, %hb[%i] : memref<16xf64>
    }
    gpu.memcpy %buffer, %hb : memref<16xf64>, memref<16xf64>
    %view = memref.reinterpret_cast %buffer to offset: [1], sizes: [2, 3], strides: [8, 2]
        : memref<16xf64> to memref<2x3xf64, strided<[8, 2], offset: 1>>
    %scalar = gpu.alloc () : memref<f64>
    %scale = arith.constant 2.0 : f64
    %bias = arith.constant 7 : i8
    gpu.launch_func @kernels::@arguments blocks in (%c1, %c1, %c1) threads in (%c3, %c2, %c1)
        args(%view : memref<2x3xf64, strided<[8, 2], offset: 1>>, %scalar : memref<f64>,
             %scale : f64, %bias : i8, %c5 : index)
    gpu.memcpy %hb, %buffer : memref<16xf64>, memref<16xf64>
    // Elements 1, 3, 5, 9, 11 become sqrt(2 v + 7); 13 (linear id 5) and
    // every other element stay.
    // CHECK: [0,  3,  2,  3.60555,  4,  4.12311,  6,  7,  8,  5,  10,  5.38516,  12,  13,  14,  15]
    %ub = memref.cast %hb : memref<16xf64> to memref<*xf64>
    call @printMemrefF64(%ub) : (memref<*xf64>) -> ()
    %hs = memref.alloc() : memref<f64>
    gpu.memcpy %hs, %scalar : memref<f64>, memref<f64>
    // CHECK: [7.38906]
    %us = memref.cast %hs : memref<f64> to memref<*xf64>
    call @printMemrefF64(%us) : (memref<*xf64>) -> ()
    gpu.dealloc %ids : memref<80xi32>
    gpu.dealloc %buffer : memref<16xf64>
    gpu.dealloc %scalar : memref<f64>
    return
  }
}
