; shfl.sync in each mode, with the operands b, c and the member mask taken
; from the parameters: lane l of the mask offers value[l] and writes what it
; receives, and the predicate, to out[l] and valid[l]. Lanes outside the
; mask do not take part. `mode` 0-3 is up, down, bfly, idx on i32; 4 is idx
; on f32 (the value's bits).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @shuffle(ptr addrspace(1) %value, ptr addrspace(1) %out, ptr addrspace(1) %valid, i32 %mode, i32 %b, i32 %c, i32 %mask) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %bit = lshr i32 %mask, %lane
  %member = and i32 %bit, 1
  %in = icmp ne i32 %member, 0
  br i1 %in, label %go, label %done

go:
  %t64 = zext i32 %t to i64
  %pv = getelementptr inbounds i32, ptr addrspace(1) %value, i64 %t64
  %v = load i32, ptr addrspace(1) %pv, align 4
  switch i32 %mode, label %idxf [ i32 0, label %up
                                  i32 1, label %down
                                  i32 2, label %bfly
                                  i32 3, label %idx ]
up:
  %ru = call { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %store
down:
  %rd = call { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %store
bfly:
  %rb = call { i32, i1 } @llvm.nvvm.shfl.sync.bfly.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %store
idx:
  %ri = call { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32 %mask, i32 %v, i32 %b, i32 %c)
  br label %store
idxf:
  %f = bitcast i32 %v to float
  %rf = call { float, i1 } @llvm.nvvm.shfl.sync.idx.f32p(i32 %mask, float %f, i32 %b, i32 %c)
  %rfv = extractvalue { float, i1 } %rf, 0
  %rfp = extractvalue { float, i1 } %rf, 1
  %rfi = bitcast float %rfv to i32
  %rf2 = insertvalue { i32, i1 } undef, i32 %rfi, 0
  %rf3 = insertvalue { i32, i1 } %rf2, i1 %rfp, 1
  br label %store

store:
  %r = phi { i32, i1 } [ %ru, %up ], [ %rd, %down ], [ %rb, %bfly ], [ %ri, %idx ], [ %rf3, %idxf ]
  %rv = extractvalue { i32, i1 } %r, 0
  %rp = extractvalue { i32, i1 } %r, 1
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 %rv, ptr addrspace(1) %po, align 4
  %rp32 = zext i1 %rp to i32
  %pp = getelementptr inbounds i32, ptr addrspace(1) %valid, i64 %t64
  store i32 %rp32, ptr addrspace(1) %pp, align 4
  br label %done

done:
  ret void
}

; Lanes 16-31 return; the others shuffle down by 16 with the full mask,
; reading lanes that have exited: undefined on a GPU.
define ptx_kernel void @exited(ptr addrspace(1) %out) {
entry:
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %low = icmp ult i32 %lane, 16
  br i1 %low, label %go, label %done
go:
  %r = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %lane, i32 16, i32 31)
  %l64 = zext i32 %lane to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %l64
  store i32 %r, ptr addrspace(1) %p, align 4
  br label %done
done:
  ret void
}

; Every lane shuffles with the mask 0xff, which names lanes 0-7 only.
define ptx_kernel void @outside(ptr addrspace(1) %out) {
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %r = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 255, i32 %lane, i32 1, i32 6175)
  %l64 = zext i32 %lane to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %l64
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.bfly.i32p(i32, i32, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32, i32, i32, i32)
declare { float, i1 } @llvm.nvvm.shfl.sync.idx.f32p(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
