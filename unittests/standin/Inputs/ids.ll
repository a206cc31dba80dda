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

; Thread 0 writes the registers of the launch (PTX ISA, "Special
; Registers"): out = {%dynamic_smem_size, %total_smem_size,
; %aggr_smem_size, %is_explicit_cluster, %gridid, %warpsize}. @tile gives
; the kernel 16 bytes of static shared memory.
@tile = internal addrspace(3) global [4 x i32] undef, align 16

define ptx_kernel void @registers(ptr addrspace(1) %out) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %tx, ptr addrspace(3) @tile, align 16
  %first = icmp eq i32 %tx, 0
  br i1 %first, label %write, label %done

write:
  %dynamic = call i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
  %total = call i32 @llvm.nvvm.read.ptx.sreg.total_smem_size()
  %aggr = call i32 @llvm.nvvm.read.ptx.sreg.aggr_smem_size()
  %explicit = call i1 @llvm.nvvm.is_explicit_cluster()
  %explicit32 = zext i1 %explicit to i32
  %grid = call i32 @llvm.nvvm.read.ptx.sreg.gridid()
  %warp = call i32 @llvm.nvvm.read.ptx.sreg.warpsize()
  store i32 %dynamic, ptr addrspace(1) %out, align 4
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 1
  store i32 %total, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 2
  store i32 %aggr, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 3
  store i32 %explicit32, ptr addrspace(1) %p3, align 4
  %p4 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 4
  store i32 %grid, ptr addrspace(1) %p4, align 4
  %p5 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 5
  store i32 %warp, ptr addrspace(1) %p5, align 4
  br label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
declare i32 @llvm.nvvm.read.ptx.sreg.total_smem_size()
declare i32 @llvm.nvvm.read.ptx.sreg.aggr_smem_size()
declare i1 @llvm.nvvm.is_explicit_cluster()
declare i32 @llvm.nvvm.read.ptx.sreg.gridid()
declare i32 @llvm.nvvm.read.ptx.sreg.warpsize()
