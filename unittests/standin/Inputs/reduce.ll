; A block sum through shared memory with barriers, after an early exit:
; threads at or past `n` return at once, and the barriers wait for the
; others only (CUDA C++ Programming Guide, Independent Thread Scheduling).
; Thread t of block b adds in[b * ntid + t]; thread 0 writes the block's sum
; to out[b]. The partial sums go through a static shared array; the
; dynamic shared array (extern) receives each thread's value, read back by
; its neighbour, to check both parts of shared memory.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@partial = internal addrspace(3) global [1024 x i32] undef, align 4
@dynamic = external addrspace(3) global [0 x i32], align 16

define ptx_kernel void @reduce(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %neighbours, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %live = icmp ult i32 %t, %n
  br i1 %live, label %work, label %exit

work:
  %base = mul i32 %b, %nt
  %gi = add i32 %base, %t
  %gi64 = zext i32 %gi to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %gi64
  %v = load i32, ptr addrspace(1) %pin, align 4
  %t64 = zext i32 %t to i64
  %ps = getelementptr inbounds [1024 x i32], ptr addrspace(3) @partial, i64 0, i64 %t64
  store i32 %v, ptr addrspace(3) %ps, align 4
  %pd = getelementptr inbounds i32, ptr addrspace(3) @dynamic, i64 %t64
  store i32 %v, ptr addrspace(3) %pd, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ; the neighbour's value, through the dynamic array
  %t1 = add i32 %t, 1
  %wrap = icmp eq i32 %t1, %n
  %nb = select i1 %wrap, i32 0, i32 %t1
  %nb64 = zext i32 %nb to i64
  %pnb = getelementptr inbounds i32, ptr addrspace(3) @dynamic, i64 %nb64
  %vn = load i32, ptr addrspace(3) %pnb, align 4
  %pout = getelementptr inbounds i32, ptr addrspace(1) %neighbours, i64 %gi64
  store i32 %vn, ptr addrspace(1) %pout, align 4
  %first = icmp eq i32 %t, 0
  br i1 %first, label %sum, label %wait

sum:
  br label %loop

loop:
  %i = phi i32 [ 0, %sum ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %sum ], [ %acc1, %loop ]
  %i64 = zext i32 %i to i64
  %pi = getelementptr inbounds [1024 x i32], ptr addrspace(3) @partial, i64 0, i64 %i64
  %x = load i32, ptr addrspace(3) %pi, align 4
  %acc1 = add i32 %acc, %x
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, %n
  br i1 %done, label %store, label %loop

store:
  %b64 = zext i32 %b to i64
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %b64
  store i32 %acc1, ptr addrspace(1) %po, align 4
  br label %wait

wait:
  ; a second barrier, which the returned threads do not reach either
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
