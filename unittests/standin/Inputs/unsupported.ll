; What the stand-in does not implement: a cluster's shared memory (mapa),
; inline PTX it does not know, and a function from outside the module.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @unsupported(ptr addrspace(3) %p, ptr addrspace(1) %out) {
  %q = call ptr addrspace(3) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %p, i32 1)
  %v = call i32 asm "ld.global.nc.u32 $0, [$1];", "=r,l"(ptr addrspace(1) %out)
  call void @helper(i32 %v)
  ret void
}

declare ptr addrspace(3) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
declare void @helper(i32)
