// RUN: %gpu-runner-opt --gpu-runner-gpu-to-llvm --split-input-file --verify-diagnostics %s

// The gpu dialect's sparse ops stand for calls into cuSPARSE (and
// cuSPARSELt for the 2:4 ones): each of the 21 is refused by name, with
// what to do instead, rather than as an op the lowering does not know.

func.func @create_dn_tensor(%dep: !gpu.async.token, %m: memref<?xf64>, %n: index) {
  // expected-error @below {{'gpu.create_dn_tensor' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %d, %t = gpu.create_dn_tensor async [%dep] %m, %n : index into memref<?xf64>
  return
}

// -----

func.func @destroy_dn_tensor(%dep: !gpu.async.token, %d: !gpu.sparse.dntensor_handle) {
  // expected-error @below {{'gpu.destroy_dn_tensor' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %t = gpu.destroy_dn_tensor async [%dep] %d
  return
}

// -----

func.func @create_coo(%dep: !gpu.async.token, %n: index, %i: memref<?xindex>, %v: memref<?xf64>) {
  // expected-error @below {{'gpu.create_coo' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %s, %t = gpu.create_coo async [%dep] %n, %n, %n, %i, %i, %v : memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}

// -----

func.func @create_coo_aos(%dep: !gpu.async.token, %n: index, %i: memref<?xindex>, %v: memref<?xf64>) {
  // expected-error @below {{'gpu.create_coo_aos' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %s, %t = gpu.create_coo_aos async [%dep] %n, %n, %n, %i, %v : memref<?xindex>, memref<?xf64>
  return
}

// -----

func.func @create_csr(%dep: !gpu.async.token, %n: index, %i: memref<?xindex>, %v: memref<?xf64>) {
  // expected-error @below {{'gpu.create_csr' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %s, %t = gpu.create_csr async [%dep] %n, %n, %n, %i, %i, %v : memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}

// -----

func.func @create_csc(%dep: !gpu.async.token, %n: index, %i: memref<?xindex>, %v: memref<?xf64>) {
  // expected-error @below {{'gpu.create_csc' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %s, %t = gpu.create_csc async [%dep] %n, %n, %n, %i, %i, %v : memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}

// -----

func.func @create_bsr(%dep: !gpu.async.token, %n: index, %i: memref<?xindex>, %v: memref<?xf64>) {
  // expected-error @below {{'gpu.create_bsr' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %s, %t = gpu.create_bsr async [%dep] %n, %n, %n, %n, %n, %i, %i, %v : memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}

// -----

func.func @create_2to4_spmat(%dep: !gpu.async.token, %n: index, %v: memref<?xf64>) {
  // expected-error @below {{'gpu.create_2to4_spmat' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %s, %t = gpu.create_2to4_spmat async [%dep] {PRUNE_AND_CHECK} %n, %n, %v : memref<?xf64>
  return
}

// -----

func.func @destroy_sp_mat(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle) {
  // expected-error @below {{'gpu.destroy_sp_mat' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %t = gpu.destroy_sp_mat async [%dep] %s
  return
}

// -----

func.func @spmv_buffer_size(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  // expected-error @below {{'gpu.spmv_buffer_size' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %b, %t = gpu.spmv_buffer_size async [%dep] %s, %d, %d into f64
  return
}

// -----

func.func @spmv(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle, %m: memref<?xf64>) {
  // expected-error @below {{'gpu.spmv' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %t = gpu.spmv async [%dep] %s, %d, %d, %m : memref<?xf64> into f64
  return
}

// -----

func.func @spmm_buffer_size(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  // expected-error @below {{'gpu.spmm_buffer_size' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %b, %t = gpu.spmm_buffer_size async [%dep] %s, %d, %d : index into f64
  return
}

// -----

func.func @spmm(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle, %m: memref<?xf64>) {
  // expected-error @below {{'gpu.spmm' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %t = gpu.spmm async [%dep] %s, %d, %d, %m : memref<?xf64> into f64
  return
}

// -----

func.func @sddmm_buffer_size(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle) {
  // expected-error @below {{'gpu.sddmm_buffer_size' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %b, %t = gpu.sddmm_buffer_size async [%dep] %d, %d, %s into f64
  return
}

// -----

func.func @sddmm(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle, %m: memref<?xf64>) {
  // expected-error @below {{'gpu.sddmm' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %t = gpu.sddmm async [%dep] %d, %d, %s, %m : memref<?xf64> into f64
  return
}

// -----

func.func @spgemm_create_descr(%dep: !gpu.async.token) {
  // expected-error @below {{'gpu.spgemm_create_descr' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %g, %t = gpu.spgemm_create_descr async [%dep]
  return
}

// -----

func.func @spgemm_destroy_descr(%dep: !gpu.async.token, %g: !gpu.sparse.spgemmop_handle) {
  // expected-error @below {{'gpu.spgemm_destroy_descr' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %t = gpu.spgemm_destroy_descr async [%dep] %g
  return
}

// -----

func.func @spgemm_work_estimation_or_compute(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle, %g: !gpu.sparse.spgemmop_handle, %n: index, %m: memref<0xi8>) {
  // expected-error @below {{'gpu.spgemm_work_estimation_or_compute' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %b, %t = gpu.spgemm_work_estimation_or_compute async [%dep] {COMPUTE} %s{NON_TRANSPOSE}, %s{NON_TRANSPOSE}, %s, %g, %n, %m : f64 into memref<0xi8>
  return
}

// -----

func.func @spgemm_copy(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle, %g: !gpu.sparse.spgemmop_handle) {
  // expected-error @below {{'gpu.spgemm_copy' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %t = gpu.spgemm_copy async [%dep] %s, %s, %s, %g : f64
  return
}

// -----

func.func @spmat_get_size(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle) {
  // expected-error @below {{'gpu.spmat_get_size' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %r, %c, %z, %t = gpu.spmat_get_size async [%dep] %s
  return
}

// -----

func.func @set_csr_pointers(%dep: !gpu.async.token, %s: !gpu.sparse.spmat_handle, %i: memref<?xindex>, %v: memref<?xf64>) {
  // expected-error @below {{'gpu.set_csr_pointers' cannot be lowered: it is one of the gpu dialect's sparse ops, which stand for calls into a vendor's sparse library (cuSPARSE, cuSPARSELt); no gpu-runner backend runs them. Write the sparse kernel with gpu.launch or gpu.launch_func instead}}
  %t = gpu.set_csr_pointers async [%dep] %s, %i, %i, %v : memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}
