// Math functions in a kernel, as MLIR's NVVM lowering maps them to
// libdevice: out[k * n + i] is function k of in[i], in the order of
// MathKernelsTest's table (the last two are atan2(x, 0.7) and pow(|x|, 1.3)).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @math_f32(%in: memref<?xf32>, %out: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %x = memref.load %in[%i] : memref<?xf32>
        %r0 = math.exp %x : f32
        %r1 = math.exp2 %x : f32
        %r2 = math.log %x : f32
        %r3 = math.log2 %x : f32
        %r4 = math.log10 %x : f32
        %r5 = math.sin %x : f32
        %r6 = math.cos %x : f32
        %r7 = math.tan %x : f32
        %r8 = math.tanh %x : f32
        %r9 = math.sqrt %x : f32
        %r10 = math.erf %x : f32
        %r11 = math.atan %x : f32
        %r12 = math.asin %x : f32
        %r13 = math.acos %x : f32
        %r14 = math.sinh %x : f32
        %r15 = math.cosh %x : f32
        %r16 = math.cbrt %x : f32
        %r17 = math.rsqrt %x : f32
        %r18 = math.expm1 %x : f32
        %r19 = math.log1p %x : f32
        %c07 = arith.constant 0.7 : f32
        %r20 = math.atan2 %x, %c07 : f32
        %ax = math.absf %x : f32
        %c13 = arith.constant 1.3 : f32
        %r21 = math.powf %ax, %c13 : f32
        %k0 = arith.constant 0 : index
        %o0a = arith.muli %k0, %n : index
        %o0 = arith.addi %o0a, %i : index
        memref.store %r0, %out[%o0] : memref<?xf32>
        %k1 = arith.constant 1 : index
        %o1a = arith.muli %k1, %n : index
        %o1 = arith.addi %o1a, %i : index
        memref.store %r1, %out[%o1] : memref<?xf32>
        %k2 = arith.constant 2 : index
        %o2a = arith.muli %k2, %n : index
        %o2 = arith.addi %o2a, %i : index
        memref.store %r2, %out[%o2] : memref<?xf32>
        %k3 = arith.constant 3 : index
        %o3a = arith.muli %k3, %n : index
        %o3 = arith.addi %o3a, %i : index
        memref.store %r3, %out[%o3] : memref<?xf32>
        %k4 = arith.constant 4 : index
        %o4a = arith.muli %k4, %n : index
        %o4 = arith.addi %o4a, %i : index
        memref.store %r4, %out[%o4] : memref<?xf32>
        %k5 = arith.constant 5 : index
        %o5a = arith.muli %k5, %n : index
        %o5 = arith.addi %o5a, %i : index
        memref.store %r5, %out[%o5] : memref<?xf32>
        %k6 = arith.constant 6 : index
        %o6a = arith.muli %k6, %n : index
        %o6 = arith.addi %o6a, %i : index
        memref.store %r6, %out[%o6] : memref<?xf32>
        %k7 = arith.constant 7 : index
        %o7a = arith.muli %k7, %n : index
        %o7 = arith.addi %o7a, %i : index
        memref.store %r7, %out[%o7] : memref<?xf32>
        %k8 = arith.constant 8 : index
        %o8a = arith.muli %k8, %n : index
        %o8 = arith.addi %o8a, %i : index
        memref.store %r8, %out[%o8] : memref<?xf32>
        %k9 = arith.constant 9 : index
        %o9a = arith.muli %k9, %n : index
        %o9 = arith.addi %o9a, %i : index
        memref.store %r9, %out[%o9] : memref<?xf32>
        %k10 = arith.constant 10 : index
        %o10a = arith.muli %k10, %n : index
        %o10 = arith.addi %o10a, %i : index
        memref.store %r10, %out[%o10] : memref<?xf32>
        %k11 = arith.constant 11 : index
        %o11a = arith.muli %k11, %n : index
        %o11 = arith.addi %o11a, %i : index
        memref.store %r11, %out[%o11] : memref<?xf32>
        %k12 = arith.constant 12 : index
        %o12a = arith.muli %k12, %n : index
        %o12 = arith.addi %o12a, %i : index
        memref.store %r12, %out[%o12] : memref<?xf32>
        %k13 = arith.constant 13 : index
        %o13a = arith.muli %k13, %n : index
        %o13 = arith.addi %o13a, %i : index
        memref.store %r13, %out[%o13] : memref<?xf32>
        %k14 = arith.constant 14 : index
        %o14a = arith.muli %k14, %n : index
        %o14 = arith.addi %o14a, %i : index
        memref.store %r14, %out[%o14] : memref<?xf32>
        %k15 = arith.constant 15 : index
        %o15a = arith.muli %k15, %n : index
        %o15 = arith.addi %o15a, %i : index
        memref.store %r15, %out[%o15] : memref<?xf32>
        %k16 = arith.constant 16 : index
        %o16a = arith.muli %k16, %n : index
        %o16 = arith.addi %o16a, %i : index
        memref.store %r16, %out[%o16] : memref<?xf32>
        %k17 = arith.constant 17 : index
        %o17a = arith.muli %k17, %n : index
        %o17 = arith.addi %o17a, %i : index
        memref.store %r17, %out[%o17] : memref<?xf32>
        %k18 = arith.constant 18 : index
        %o18a = arith.muli %k18, %n : index
        %o18 = arith.addi %o18a, %i : index
        memref.store %r18, %out[%o18] : memref<?xf32>
        %k19 = arith.constant 19 : index
        %o19a = arith.muli %k19, %n : index
        %o19 = arith.addi %o19a, %i : index
        memref.store %r19, %out[%o19] : memref<?xf32>
        %k20 = arith.constant 20 : index
        %o20a = arith.muli %k20, %n : index
        %o20 = arith.addi %o20a, %i : index
        memref.store %r20, %out[%o20] : memref<?xf32>
        %k21 = arith.constant 21 : index
        %o21a = arith.muli %k21, %n : index
        %o21 = arith.addi %o21a, %i : index
        memref.store %r21, %out[%o21] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @math_f64(%in: memref<?xf64>, %out: memref<?xf64>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %x = memref.load %in[%i] : memref<?xf64>
        %r0 = math.exp %x : f64
        %r1 = math.exp2 %x : f64
        %r2 = math.log %x : f64
        %r3 = math.log2 %x : f64
        %r4 = math.log10 %x : f64
        %r5 = math.sin %x : f64
        %r6 = math.cos %x : f64
        %r7 = math.tan %x : f64
        %r8 = math.tanh %x : f64
        %r9 = math.sqrt %x : f64
        %r10 = math.erf %x : f64
        %r11 = math.atan %x : f64
        %r12 = math.asin %x : f64
        %r13 = math.acos %x : f64
        %r14 = math.sinh %x : f64
        %r15 = math.cosh %x : f64
        %r16 = math.cbrt %x : f64
        %r17 = math.rsqrt %x : f64
        %r18 = math.expm1 %x : f64
        %r19 = math.log1p %x : f64
        %c07 = arith.constant 0.7 : f64
        %r20 = math.atan2 %x, %c07 : f64
        %ax = math.absf %x : f64
        %c13 = arith.constant 1.3 : f64
        %r21 = math.powf %ax, %c13 : f64
        %k0 = arith.constant 0 : index
        %o0a = arith.muli %k0, %n : index
        %o0 = arith.addi %o0a, %i : index
        memref.store %r0, %out[%o0] : memref<?xf64>
        %k1 = arith.constant 1 : index
        %o1a = arith.muli %k1, %n : index
        %o1 = arith.addi %o1a, %i : index
        memref.store %r1, %out[%o1] : memref<?xf64>
        %k2 = arith.constant 2 : index
        %o2a = arith.muli %k2, %n : index
        %o2 = arith.addi %o2a, %i : index
        memref.store %r2, %out[%o2] : memref<?xf64>
        %k3 = arith.constant 3 : index
        %o3a = arith.muli %k3, %n : index
        %o3 = arith.addi %o3a, %i : index
        memref.store %r3, %out[%o3] : memref<?xf64>
        %k4 = arith.constant 4 : index
        %o4a = arith.muli %k4, %n : index
        %o4 = arith.addi %o4a, %i : index
        memref.store %r4, %out[%o4] : memref<?xf64>
        %k5 = arith.constant 5 : index
        %o5a = arith.muli %k5, %n : index
        %o5 = arith.addi %o5a, %i : index
        memref.store %r5, %out[%o5] : memref<?xf64>
        %k6 = arith.constant 6 : index
        %o6a = arith.muli %k6, %n : index
        %o6 = arith.addi %o6a, %i : index
        memref.store %r6, %out[%o6] : memref<?xf64>
        %k7 = arith.constant 7 : index
        %o7a = arith.muli %k7, %n : index
        %o7 = arith.addi %o7a, %i : index
        memref.store %r7, %out[%o7] : memref<?xf64>
        %k8 = arith.constant 8 : index
        %o8a = arith.muli %k8, %n : index
        %o8 = arith.addi %o8a, %i : index
        memref.store %r8, %out[%o8] : memref<?xf64>
        %k9 = arith.constant 9 : index
        %o9a = arith.muli %k9, %n : index
        %o9 = arith.addi %o9a, %i : index
        memref.store %r9, %out[%o9] : memref<?xf64>
        %k10 = arith.constant 10 : index
        %o10a = arith.muli %k10, %n : index
        %o10 = arith.addi %o10a, %i : index
        memref.store %r10, %out[%o10] : memref<?xf64>
        %k11 = arith.constant 11 : index
        %o11a = arith.muli %k11, %n : index
        %o11 = arith.addi %o11a, %i : index
        memref.store %r11, %out[%o11] : memref<?xf64>
        %k12 = arith.constant 12 : index
        %o12a = arith.muli %k12, %n : index
        %o12 = arith.addi %o12a, %i : index
        memref.store %r12, %out[%o12] : memref<?xf64>
        %k13 = arith.constant 13 : index
        %o13a = arith.muli %k13, %n : index
        %o13 = arith.addi %o13a, %i : index
        memref.store %r13, %out[%o13] : memref<?xf64>
        %k14 = arith.constant 14 : index
        %o14a = arith.muli %k14, %n : index
        %o14 = arith.addi %o14a, %i : index
        memref.store %r14, %out[%o14] : memref<?xf64>
        %k15 = arith.constant 15 : index
        %o15a = arith.muli %k15, %n : index
        %o15 = arith.addi %o15a, %i : index
        memref.store %r15, %out[%o15] : memref<?xf64>
        %k16 = arith.constant 16 : index
        %o16a = arith.muli %k16, %n : index
        %o16 = arith.addi %o16a, %i : index
        memref.store %r16, %out[%o16] : memref<?xf64>
        %k17 = arith.constant 17 : index
        %o17a = arith.muli %k17, %n : index
        %o17 = arith.addi %o17a, %i : index
        memref.store %r17, %out[%o17] : memref<?xf64>
        %k18 = arith.constant 18 : index
        %o18a = arith.muli %k18, %n : index
        %o18 = arith.addi %o18a, %i : index
        memref.store %r18, %out[%o18] : memref<?xf64>
        %k19 = arith.constant 19 : index
        %o19a = arith.muli %k19, %n : index
        %o19 = arith.addi %o19a, %i : index
        memref.store %r19, %out[%o19] : memref<?xf64>
        %k20 = arith.constant 20 : index
        %o20a = arith.muli %k20, %n : index
        %o20 = arith.addi %o20a, %i : index
        memref.store %r20, %out[%o20] : memref<?xf64>
        %k21 = arith.constant 21 : index
        %o21a = arith.muli %k21, %n : index
        %o21 = arith.addi %o21a, %i : index
        memref.store %r21, %out[%o21] : memref<?xf64>
      }
      gpu.return
    }
  }
}
