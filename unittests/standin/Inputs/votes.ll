; vote.sync, activemask, match.sync, redux.sync and bar.warp.sync. Thread t
; reads pred[t] and key[t] and writes eight words to out[8t...]:
;   0 vote.all, 1 vote.any, 2 vote.uni, 3 vote.ballot (full mask),
;   4 activemask inside `if (lane % 3 == 0)` (else -1),
;   5 match.any.b32 of key, 6 match.all.b32's mask of key,
;   7 redux.sync.add of key, plus 1000 when match.all's predicate is true.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @votes(ptr addrspace(1) %pred, ptr addrspace(1) %key, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %t64 = zext i32 %t to i64
  %pp = getelementptr inbounds i32, ptr addrspace(1) %pred, i64 %t64
  %pv = load i32, ptr addrspace(1) %pp, align 4
  %p = icmp ne i32 %pv, 0
  %pk = getelementptr inbounds i32, ptr addrspace(1) %key, i64 %t64
  %k = load i32, ptr addrspace(1) %pk, align 4
  %base = mul i64 %t64, 8
  %all = call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %p)
  %any = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %p)
  %uni = call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 %p)
  %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %p)
  %all32 = zext i1 %all to i32
  %any32 = zext i1 %any to i32
  %uni32 = zext i1 %uni to i32
  %o0 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %base
  store i32 %all32, ptr addrspace(1) %o0, align 4
  %o1 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 1
  store i32 %any32, ptr addrspace(1) %o1, align 4
  %o2 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 2
  store i32 %uni32, ptr addrspace(1) %o2, align 4
  %o3 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 3
  store i32 %ballot, ptr addrspace(1) %o3, align 4
  %o4 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 4
  %m3 = urem i32 %lane, 3
  %third = icmp eq i32 %m3, 0
  br i1 %third, label %branch, label %other

branch:
  %active = call i32 @llvm.nvvm.activemask()
  store i32 %active, ptr addrspace(1) %o4, align 4
  br label %join

other:
  store i32 -1, ptr addrspace(1) %o4, align 4
  br label %join

join:
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %any2 = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %k)
  %o5 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 5
  store i32 %any2, ptr addrspace(1) %o5, align 4
  %allm = call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %k)
  %allmask = extractvalue { i32, i1 } %allm, 0
  %allp = extractvalue { i32, i1 } %allm, 1
  %o6 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 6
  store i32 %allmask, ptr addrspace(1) %o6, align 4
  %sum = call i32 @llvm.nvvm.redux.sync.add(i32 %k, i32 -1)
  %allp32 = zext i1 %allp to i32
  %flag = mul i32 %allp32, 1000
  %w7 = add i32 %sum, %flag
  %o7 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 7
  store i32 %w7, ptr addrspace(1) %o7, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i1 @llvm.nvvm.vote.uni.sync(i32, i1)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.activemask()
declare void @llvm.nvvm.bar.warp.sync(i32)
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
declare { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32, i32)
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
