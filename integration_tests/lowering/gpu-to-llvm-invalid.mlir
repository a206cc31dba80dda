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
