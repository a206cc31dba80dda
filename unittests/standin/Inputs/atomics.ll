; Atomics on global and shared memory, from every thread of the grid (its
; blocks run in parallel on the stand-in's workers). g is the thread's
; global linear id, v = g - 100. Words of `c` (all start at 0 but c[9],
; which starts at -1):
;   0 add 1, 1 fadd 0.5 (f32), 2 max v, 3 min v, 4 umax g, 5 add 2 by a
;   compare-and-swap loop, 6 uinc_wrap 9, 7 udec_wrap 9, 8 or 1 << (g % 32),
;   9 and ~(1 << (g % 32)), 10 xor g, 11 the scoped nvvm.atomic.add, 12-13
;   fadd 0.25 (f64), 14 xchg g (24 the sum of the old values it gave back),
;   15 umin g + 5 (starts at 0xffffffff), 16 + b: the count a block's shared
;   counter reached; the scoped nvvm.atomic forms: 25 exch g (26 the sum
;   of the old values), 27 add 2 by a cas loop, 28 add 0.5 (f32), 29 inc 9,
;   30 dec 9, 31 max v.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@counter = internal addrspace(3) global i32 undef, align 4

define ptx_kernel void @atomics(ptr addrspace(1) %c) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %first = icmp eq i32 %t, 0
  br i1 %first, label %init, label %start
init:
  store i32 0, ptr addrspace(3) @counter, align 4
  br label %start
start:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %g0 = mul i32 %b, %nt
  %g = add i32 %g0, %t
  %v = sub i32 %g, 100
  %a0 = atomicrmw add ptr addrspace(1) %c, i32 1 monotonic, align 4
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 1
  %a1 = atomicrmw fadd ptr addrspace(1) %p1, float 5.000000e-01 monotonic, align 4
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 2
  %a2 = atomicrmw max ptr addrspace(1) %p2, i32 %v monotonic, align 4
  %p3 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 3
  %a3 = atomicrmw min ptr addrspace(1) %p3, i32 %v monotonic, align 4
  %p4 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 4
  %a4 = atomicrmw umax ptr addrspace(1) %p4, i32 %g monotonic, align 4
  %p5 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 5
  %old0 = load atomic i32, ptr addrspace(1) %p5 monotonic, align 4
  br label %cas
cas:
  %old = phi i32 [ %old0, %start ], [ %seen, %cas ]
  %new = add i32 %old, 2
  %pair = cmpxchg ptr addrspace(1) %p5, i32 %old, i32 %new seq_cst seq_cst, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %after, label %cas
after:
  %p6 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 6
  %a6 = atomicrmw uinc_wrap ptr addrspace(1) %p6, i32 9 monotonic, align 4
  %p7 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 7
  %a7 = atomicrmw udec_wrap ptr addrspace(1) %p7, i32 9 monotonic, align 4
  %bitn = and i32 %g, 31
  %bit = shl i32 1, %bitn
  %p8 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 8
  %a8 = atomicrmw or ptr addrspace(1) %p8, i32 %bit monotonic, align 4
  %nbit = xor i32 %bit, -1
  %p9 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 9
  %a9 = atomicrmw and ptr addrspace(1) %p9, i32 %nbit monotonic, align 4
  %p10 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 10
  %a10 = atomicrmw xor ptr addrspace(1) %p10, i32 %g monotonic, align 4
  %p11 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 11
  %gp11 = addrspacecast ptr addrspace(1) %p11 to ptr
  %a11 = call i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr %gp11, i32 3)
  %p12 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 12
  %a12 = atomicrmw fadd ptr addrspace(1) %p12, double 2.500000e-01 monotonic, align 8
  %p14 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 14
  %a14 = atomicrmw xchg ptr addrspace(1) %p14, i32 %g monotonic, align 4
  %p24 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 24
  %a24 = atomicrmw add ptr addrspace(1) %p24, i32 %a14 monotonic, align 4
  %p15 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 15
  %g5 = add i32 %g, 5
  %a15 = atomicrmw umin ptr addrspace(1) %p15, i32 %g5 monotonic, align 4
  %p25 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 25
  %gp25 = addrspacecast ptr addrspace(1) %p25 to ptr
  %a25 = call i32 @llvm.nvvm.atomic.exch.gen.i.sys.i32.p0(ptr %gp25, i32 %g)
  %p26 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 26
  %a26 = atomicrmw add ptr addrspace(1) %p26, i32 %a25 monotonic, align 4
  %p27 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 27
  %gp27 = addrspacecast ptr addrspace(1) %p27 to ptr
  %sold0 = load atomic i32, ptr %gp27 monotonic, align 4
  br label %scas
scas:
  %sold = phi i32 [ %sold0, %after ], [ %sseen, %scas ]
  %snew = add i32 %sold, 2
  %sseen = call i32 @llvm.nvvm.atomic.cas.gen.i.cta.i32.p0(ptr %gp27, i32 %sold, i32 %snew)
  %sok = icmp eq i32 %sseen, %sold
  br i1 %sok, label %scoped, label %scas
scoped:
  %p28 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 28
  %gp28 = addrspacecast ptr addrspace(1) %p28 to ptr
  %a28 = call float @llvm.nvvm.atomic.add.gen.f.cta.f32.p0(ptr %gp28, float 5.000000e-01)
  %p29 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 29
  %gp29 = addrspacecast ptr addrspace(1) %p29 to ptr
  %a29 = call i32 @llvm.nvvm.atomic.inc.gen.i.cta.i32.p0(ptr %gp29, i32 9)
  %p30 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 30
  %gp30 = addrspacecast ptr addrspace(1) %p30 to ptr
  %a30 = call i32 @llvm.nvvm.atomic.dec.gen.i.cta.i32.p0(ptr %gp30, i32 9)
  %p31 = getelementptr inbounds i32, ptr addrspace(1) %c, i64 31
  %gp31 = addrspacecast ptr addrspace(1) %p31 to ptr
  %a31 = call i32 @llvm.nvvm.atomic.max.gen.i.sys.i32.p0(ptr %gp31, i32 %v)
  %s = atomicrmw add ptr addrspace(3) @counter, i32 1 monotonic, align 4
  fence syncscope("block") acq_rel
  call void @llvm.nvvm.membar.gl()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %first, label %report, label %done
report:
  %total = load i32, ptr addrspace(3) @counter, align 4
  %slot = add i32 %b, 16
  %slot64 = zext i32 %slot to i64
  %ps = getelementptr inbounds i32, ptr addrspace(1) %c, i64 %slot64
  store i32 %total, ptr addrspace(1) %ps, align 4
  br label %done
done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.membar.gl()
declare i32 @llvm.nvvm.atomic.add.gen.i.cta.i32.p0(ptr, i32)
declare i32 @llvm.nvvm.atomic.exch.gen.i.sys.i32.p0(ptr, i32)
declare i32 @llvm.nvvm.atomic.cas.gen.i.cta.i32.p0(ptr, i32, i32)
declare float @llvm.nvvm.atomic.add.gen.f.cta.f32.p0(ptr, float)
declare i32 @llvm.nvvm.atomic.inc.gen.i.cta.i32.p0(ptr, i32)
declare i32 @llvm.nvvm.atomic.dec.gen.i.cta.i32.p0(ptr, i32)
declare i32 @llvm.nvvm.atomic.max.gen.i.sys.i32.p0(ptr, i32)
