; Each thread writes its ids: out[global linear id] =
; tid.x + 10 * tid.y + 100 * tid.z + 1000 * ctaid.x + 10000 * ctaid.y
; + 100000 * laneid-check, where the last is 1 when %laneid is the
; thread's linear id in its block modulo 32.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @ids(ptr addrspace(1) %out) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %tz = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %nz = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  ; linear id in block
  %t1 = mul i32 %tz, %ny
  %t2 = add i32 %t1, %ty
  %t3 = mul i32 %t2, %nx
  %lin = add i32 %t3, %tx
  %bsize0 = mul i32 %nx, %ny
  %bsize = mul i32 %bsize0, %nz
  %blin0 = mul i32 %by, %gx
  %blin = add i32 %blin0, %bx
  %g0 = mul i32 %blin, %bsize
  %g = add i32 %g0, %lin
  %mod = and i32 %lin, 31
  %laneok = icmp eq i32 %mod, %lane
  %lanebit = select i1 %laneok, i32 100000, i32 0
  %v0 = mul i32 %ty, 10
  %v1 = mul i32 %tz, 100
  %v2 = mul i32 %bx, 1000
  %v3 = mul i32 %by, 10000
  %s0 = add i32 %tx, %v0
  %s1 = add i32 %s0, %v1
  %s2 = add i32 %s1, %v2
  %s3 = add i32 %s2, %v3
  %s4 = add i32 %s3, %lanebit
  %idx = zext i32 %g to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %s4, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
