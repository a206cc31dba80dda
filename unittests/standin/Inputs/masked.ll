; Masked loads, stores, gathers and scatters (LLVM LangRef, "Masked Vector
; Load and Store Intrinsics", "Masked Vector Gather and Scatter
; Intrinsics"): a lane whose mask bit is off is not accessed, and a load's
; lane then takes the passthru value. The mask is the low four bits of
; %bits, lane i bit i.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; out[0..3]: in[0..3] where the mask is on, untouched where it is off (the
; load's passthru, -1, is never stored). out[4..7]: a gather of in[0],
; *host, in[2], *host, with passthru 7; the host lanes must be off.
define ptx_kernel void @masked(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr %host, i32 %bits) {
  %low = trunc i32 %bits to i4
  %mask = bitcast i4 %low to <4 x i1>
  %v = call <4 x i32> @llvm.masked.load.v4i32.p1(ptr addrspace(1) align 4 %in, <4 x i1> %mask, <4 x i32> splat (i32 -1))
  call void @llvm.masked.store.v4i32.p1(<4 x i32> %v, ptr addrspace(1) align 4 %out, <4 x i1> %mask)
  %in0 = addrspacecast ptr addrspace(1) %in to ptr
  %in2 = getelementptr inbounds i32, ptr %in0, i64 2
  %p0 = insertelement <4 x ptr> poison, ptr %in0, i32 0
  %p1 = insertelement <4 x ptr> %p0, ptr %host, i32 1
  %p2 = insertelement <4 x ptr> %p1, ptr %in2, i32 2
  %ptrs = insertelement <4 x ptr> %p2, ptr %host, i32 3
  %g = call <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr> align 4 %ptrs, <4 x i1> %mask, <4 x i32> splat (i32 7))
  %out4 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 4
  store <4 x i32> %g, ptr addrspace(1) %out4, align 4
  ret void
}

; A scatter of 5 to *host, in lane 1, and to out[0], in lane 0.
define ptx_kernel void @scatter(ptr addrspace(1) %out, ptr %host, i32 %bits) {
  %low = trunc i32 %bits to i2
  %mask = bitcast i2 %low to <2 x i1>
  %out0 = addrspacecast ptr addrspace(1) %out to ptr
  %p0 = insertelement <2 x ptr> poison, ptr %out0, i32 0
  %ptrs = insertelement <2 x ptr> %p0, ptr %host, i32 1
  call void @llvm.masked.scatter.v2i32.v2p0(<2 x i32> splat (i32 5), <2 x ptr> align 4 %ptrs, <2 x i1> %mask)
  ret void
}
