; Kernels that print, assert, trap, exit, deadlock, or reach memory they
; may not.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@format = private unnamed_addr addrspace(4) constant [36 x i8] c"thread %d: %5.2f %lld %s %c%% [%x]\0A\00", align 1
@word = private unnamed_addr addrspace(1) constant [6 x i8] c"hello\00", align 1
@message = private unnamed_addr addrspace(1) constant [11 x i8] c"t % 2 == 0\00", align 1
@file = private unnamed_addr addrspace(1) constant [10 x i8] c"kernel.cu\00", align 1
@function = private unnamed_addr addrspace(1) constant [10 x i8] c"checkEven\00", align 1

; vprintf(format, arguments) with CUDA's argument buffer: each argument
; aligned to its size, float promoted to double.
define ptx_kernel void @print() {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %args = alloca { i32, double, i64, ptr, i32, i32 }, align 8
  store i32 %t, ptr %args, align 8
  %tf = sitofp i32 %t to double
  %half = fmul double %tf, 5.000000e-01
  %a1 = getelementptr inbounds i8, ptr %args, i64 8
  store double %half, ptr %a1, align 8
  %t64 = sext i32 %t to i64
  %big = mul i64 %t64, -10000000000
  %a2 = getelementptr inbounds i8, ptr %args, i64 16
  store i64 %big, ptr %a2, align 8
  %a3 = getelementptr inbounds i8, ptr %args, i64 24
  store ptr addrspacecast (ptr addrspace(1) @word to ptr), ptr %a3, align 8
  %c = add i32 %t, 65
  %a4 = getelementptr inbounds i8, ptr %args, i64 32
  store i32 %c, ptr %a4, align 8
  %a5 = getelementptr inbounds i8, ptr %args, i64 36
  store i32 255, ptr %a5, align 4
  %r = call i32 @vprintf(ptr addrspacecast (ptr addrspace(4) @format to ptr), ptr %args)
  ret void
}

; Odd threads of block 1 fail an assertion; the others go on to write.
define ptx_kernel void @assertEven(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %odd = and i32 %t, 1
  %isOdd = icmp ne i32 %odd, 0
  %inBlock1 = icmp eq i32 %b, 1
  %fails = and i1 %isOdd, %inBlock1
  br i1 %fails, label %fail, label %ok
fail:
  call void @__assertfail(ptr addrspacecast (ptr addrspace(1) @message to ptr), ptr addrspacecast (ptr addrspace(1) @file to ptr), i32 42, ptr addrspacecast (ptr addrspace(1) @function to ptr), i64 1)
  unreachable
ok:
  %t64 = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 1, ptr addrspace(1) %p, align 4
  ret void
}

; Thread 5 traps.
define ptx_kernel void @trapFive() {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %five = icmp eq i32 %t, 5
  br i1 %five, label %trap, label %done
trap:
  call void @llvm.trap()
  unreachable
done:
  ret void
}

; Stores where it is told to.
define ptx_kernel void @storeTo(ptr addrspace(1) %p, i32 %value) {
  store i32 %value, ptr addrspace(1) %p, align 4
  ret void
}

; Reads an i32 the IR says is 4-byte aligned, one byte past `p`.
define ptx_kernel void @misaligned(ptr addrspace(1) %p, ptr addrspace(1) %out) {
  %q = getelementptr inbounds i8, ptr addrspace(1) %p, i64 1
  %v = load i32, ptr addrspace(1) %q, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

@tile = internal addrspace(3) global [64 x i32] undef, align 4

; Writes tile[index] in shared memory.
define ptx_kernel void @sharedAt(i32 %index) {
  %i64 = sext i32 %index to i64
  %p = getelementptr i32, ptr addrspace(3) @tile, i64 %i64
  store i32 1, ptr addrspace(3) %p, align 4
  ret void
}

; Threads below 4 exit (nvvm.exit) before a barrier the others wait at;
; out[t] is 1 for the others.
define ptx_kernel void @exitEarly(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %low = icmp ult i32 %t, 4
  br i1 %low, label %leave, label %stay
leave:
  call void @llvm.nvvm.exit()
  br label %stay
stay:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t64 = zext i32 %t to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 1, ptr addrspace(1) %p, align 4
  ret void
}

; Thread 0 waits at barrier 1, the others at barrier 0: a deadlock.
define ptx_kernel void @deadlock() {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %zero = icmp eq i32 %t, 0
  %id = select i1 %zero, i32 1, i32 0
  call void @llvm.nvvm.barrier.cta.sync.all(i32 %id)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier.cta.sync.all(i32)
declare void @llvm.nvvm.exit()
declare void @llvm.trap()
declare i32 @vprintf(ptr, ptr)
declare void @__assertfail(ptr, ptr, i32, ptr, i64)
