// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm --split-input-file --verify-diagnostics %s

func.func @i1_memset(%m: memref<8xi1>, %v: i1) {
  // expected-error @below {{'gpu.memset' cannot be lowered: elements of type 'i1' are not supported; gpu.memset takes 8, 16, 32 or 64-bit integers, floats or index}}
  gpu.memset %m, %v : memref<8xi1>, i1
  return
}

// -----

func.func @wide_memset(%m: memref<8xi128>, %v: i128) {
  // expected-error @below {{elements of type 'i128' are not supported}}
  gpu.memset %m, %v : memref<8xi128>, i128
  return
}

// -----

func.func @strided_alloc() {
  // expected-error @below {{'gpu.alloc' cannot be lowered: only memrefs with the identity layout can be allocated}}
  %m = gpu.alloc () : memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @non_strided_copy(%dst: memref<4x4xf32>, %src: memref<4x4xf32, affine_map<(d0, d1) -> (d0 mod 2, d1)>>) {
  // expected-error @below {{'gpu.memcpy' cannot be lowered: the source has the layout affine_map<(d0, d1) -> (d0 mod 2, d1)>, which is not strided}}
  gpu.memcpy %dst, %src : memref<4x4xf32>, memref<4x4xf32, affine_map<(d0, d1) -> (d0 mod 2, d1)>>
  return
}

// -----

func.func @device_op_in_host_code() -> index {
  // expected-error @below {{'gpu.thread_id' cannot be lowered: this op runs only inside kernels: put it in the body of a gpu.launch, or in a gpu.func kernel that gpu.launch_func launches}}
  %0 = gpu.thread_id x
  return %0 : index
}

// -----

#mod2 = affine_map<(d0) -> (d0 mod 2)>
func.func @non_strided_copy_destination(%dst: memref<4xf32, #mod2>, %src: memref<4xf32>) {
  // expected-error @below {{'gpu.memcpy' cannot be lowered: the destination has the layout affine_map<(d0) -> (d0 mod 2)>, which is not strided}}
  gpu.memcpy %dst, %src : memref<4xf32, #mod2>, memref<4xf32>
  return
}

// -----

#mod2 = affine_map<(d0) -> (d0 mod 2)>
func.func @non_strided_memset(%m: memref<4xf32, #mod2>, %v: f32) {
  // expected-error @below {{'gpu.memset' cannot be lowered: the destination has the layout affine_map<(d0) -> (d0 mod 2)>, which is not strided}}
  gpu.memset %m, %v : memref<4xf32, #mod2>, f32
  return
}

// -----

#mod2 = affine_map<(d0) -> (d0 mod 2)>
func.func @non_strided_dealloc(%m: memref<4xf32, #mod2>) {
  // expected-error @below {{'gpu.dealloc' cannot be lowered: the memref has the layout affine_map<(d0) -> (d0 mod 2)>, which is not strided}}
  gpu.dealloc %m : memref<4xf32, #mod2>
  return
}

// -----

// A kernel that neither gpu-runner-host-kernels nor a GPU target compiled.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @launch_uncompiled() {
    %c1 = arith.constant 1 : index
    // expected-error @below {{'gpu.launch_func' cannot be lowered: the kernel was not compiled for this backend}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// The pass lowers launches of outlined kernels; the pipelines outline
// gpu.launch bodies before it runs.
func.func @launch_not_outlined() {
  %c1 = arith.constant 1 : index
  // expected-error @below {{'gpu.launch' cannot be lowered: its body is lowered once outlined into a kernel (--gpu-kernel-outlining), as the pipelines do}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @host_op_without_lowering(%f: f16) {
  // expected-error @below {{'gpu.subgroup_mma_constant_matrix' cannot be lowered: this op is not supported in host code; host code may use gpu.alloc, gpu.dealloc, gpu.memcpy, gpu.memset, gpu.wait, gpu.launch, gpu.launch_func, gpu.host_register, gpu.host_unregister and gpu.set_default_device}}
  %m = gpu.subgroup_mma_constant_matrix %f : !gpu.mma_matrix<16x16xf16, "COp">
  return
}
