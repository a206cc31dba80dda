//===- KernelAbi.h - What a kernel run on the stand-in receives -----------===//
//
// The contract between the NVVM IR rewriter (KernelCompiler.cpp), which
// turns a module's kernels into host code, and the runtime that runs them
// (KernelRuntime.cpp, BlockThreads.cpp): every function of a rewritten
// module takes a ThreadContext first, reads its special registers and its
// block's shared memory from it, and calls the runtime functions below by
// name for what needs the other threads or the driver.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_KERNELABI_H
#define GPU_RUNNER_STANDIN_KERNELABI_H

#include <cstddef>
#include <cstdint>

namespace gpu_runner {
namespace standin {

/// The warp size of NVIDIA GPUs (PTX ISA, special register %warpsize). An
/// AMDGPU kernel's wave has 32 or 64 lanes (CompiledKernel::warpSize).
constexpr uint32_t kWarpSize = 32;

/// The special registers a thread reads (PTX ISA, "Special Registers"), as
/// indices into ThreadContext::registers.
enum SpecialRegister : uint32_t {
  kTidX,
  kTidY,
  kTidZ,
  kNtidX,
  kNtidY,
  kNtidZ,
  kCtaidX,
  kCtaidY,
  kCtaidZ,
  kNctaidX,
  kNctaidY,
  kNctaidZ,
  kLaneId,
  kWarpId,
  kNwarpId,
  kClusterCtaidX,
  kClusterCtaidY,
  kClusterCtaidZ,
  kClusterNctaidX,
  kClusterNctaidY,
  kClusterNctaidZ,
  kClusterIdX,
  kClusterIdY,
  kClusterIdZ,
  kNclusterIdX,
  kNclusterIdY,
  kNclusterIdZ,
  kClusterCtarank,
  kClusterNctarank,
  kIsExplicitCluster,
  kSmId,
  kNsmId,
  kDynamicSmemSize,
  kTotalSmemSize,
  /// %gridid: the launch's number, distinct for each grid of the process.
  kGridId,
  kSpecialRegisterCount,
};

class ThreadSlot;
struct GridRun;

/// A GPU thread's context: the first argument of every rewritten function.
/// The rewriter addresses its fields by index (ThreadContextField).
struct ThreadContext {
  uint32_t registers[kSpecialRegisterCount];
  /// The block's shared memory, static then dynamic.
  char *shared;
  uint64_t sharedBytes;
  /// The thread's private memory: the part of its stack below the kernel's
  /// entry.
  uintptr_t stackLow;
  uintptr_t stackHigh;
  ThreadSlot *slot;
  GridRun *grid;
};

/// The fields of ThreadContext, as the rewriter's struct type numbers them.
enum ThreadContextField : unsigned {
  kFieldRegisters,
  kFieldShared,
  kFieldSharedBytes,
  kFieldStackLow,
  kFieldStackHigh,
  kFieldSlot,
  kFieldGrid,
};

/// What a kernel's entry takes: the context and an array of pointers, one
/// per parameter, to its value (cuLaunchKernel's kernelParams, copied).
using KernelEntry = void (*)(ThreadContext *context, void **params);

/// `flags` of the access check: bits 0-2 the address space the IR names,
/// bit 3 a write, bits 4-7 log2 of the alignment the IR promises.
enum AccessFlags : uint32_t {
  kAccessGeneric = 0,
  kAccessGlobal = 1,
  kAccessShared = 3,
  kAccessConst = 4,
  kAccessLocal = 5,
  kAccessSpaceMask = 7,
  kAccessWrite = 8,
  kAccessAlignShift = 4,
};

/// The modes of shfl.sync (PTX ISA, shfl.sync: .up, .down, .bfly, .idx).
enum ShuffleMode : uint32_t { kShflUp, kShflDown, kShflBfly, kShflIdx };

/// vote.sync's modes (PTX ISA, vote.sync).
enum VoteMode : uint32_t { kVoteAll, kVoteAny, kVoteUni, kVoteBallot };

/// AMDGPU's cross-lane instructions, among the lanes of the wave that
/// execute them together (AMDGPUUsage; the CDNA ISA's DS_BPERMUTE_B32,
/// DS_SWIZZLE_B32, V_READLANE_B32, V_READFIRSTLANE_B32, and the ballot of
/// llvm.amdgcn).
enum WaveOp : uint32_t {
  kWaveBpermute,
  kWaveSwizzle,
  kWaveReadlane,
  kWaveFirstLane,
  kWaveBallot,
  /// A fence of wavefront scope: the lanes meet, as lanes in lockstep do.
  kWaveFence
};

/// barrier.cta's forms (PTX ISA, barrier): bits of `flags`.
enum BarrierFlags : uint32_t {
  kBarrierAligned = 1,
  /// barrier.cta.arrive: signals arrival without waiting.
  kBarrierArrive = 2,
  /// barrier.cta.red: the reduction in bits 2-3.
  kBarrierRedShift = 2,
  kBarrierRedNone = 0,
  kBarrierRedPopc = 1,
  kBarrierRedAnd = 2,
  kBarrierRedOr = 3,
};

/// redux.sync's operations (PTX ISA, redux.sync) on 32-bit integers.
enum ReduxOp : uint32_t {
  kReduxAdd,
  kReduxMin,
  kReduxMax,
  kReduxUmin,
  kReduxUmax,
  kReduxAnd,
  kReduxOr,
  kReduxXor,
};

/// The runtime functions rewritten code calls, by name. Their C++
/// definitions are in KernelRuntime.cpp; the signatures are in comments,
/// `site` numbering the module's call sites for messages.
#define GPU_RUNNER_STANDIN_RUNTIME_FUNCTIONS(X)                                \
  /* ptr (ctx, ptr address, i64 bytes, i32 flags, i32 site) */                 \
  X(access)                                                                    \
  /* i32 (ctx, i32 id, i32 count, i32 flags, i32 predicate, i32 site) */       \
  X(barrier)                                                                   \
  /* i64 (ctx, i32 mode, i32 a, i32 b, i32 c, i32 mask, i32 site) */           \
  X(shfl)                                                                      \
  /* i32 (ctx, i32 mode, i32 predicate, i32 mask, i32 site) */                 \
  X(vote)                                                                      \
  /* i64 (ctx, i32 all, i64 value, i32 wide, i32 mask, i32 site) */            \
  X(match)                                                                     \
  /* i32 (ctx, i32 op, i32 value, i32 mask, i32 site) */                       \
  X(redux)                                                                     \
  /* void (ctx, i32 mask, i32 site) */                                         \
  X(warpsync)                                                                  \
  /* i32 (ctx, i32 site) */                                                    \
  X(activemask)                                                                \
  /* i64 (ctx, i32 op, i64 value, i32 operand, i32 site): WaveOp */            \
  X(wave)                                                                      \
  /* void (ctx, i32 site): exit */                                             \
  X(exit)                                                                      \
  /* void (ctx, i32 site) */                                                   \
  X(trap)                                                                      \
  /* void (ctx, ptr message, ptr file, i32 line, ptr function, i64) */         \
  X(assertfail)                                                                \
  /* i32 (ctx, ptr format, ptr arguments) */                                   \
  X(vprintf)                                                                   \
  /* i64 (ctx, i64 descriptor, i64 w1, ..., i64 w7): ROCm hostcall printf */   \
  X(hostcall_printf)                                                           \
  /* i64 (ctx): %clock64 */                                                    \
  X(clock)                                                                     \
  /* i64 (ctx): %globaltimer */                                                \
  X(globaltimer)                                                               \
  /* void (ctx, i32 nanoseconds) */                                            \
  X(nanosleep)                                                                 \
  /* float (i32 op, i32 mode, float a, float b, float c) */                    \
  X(roundf32)                                                                  \
  /* double (i32 op, i32 mode, double a, double b, double c) */                \
  X(roundf64)                                                                  \
  /* float (i32 mode, double value): cvt.rX.f32.f64 */                         \
  X(d2f)                                                                       \
  /* float / double (i32 unsigned, i32 mode, i64 value): cvt.rX.fN.{s,u}64 */  \
  X(itof32)                                                                    \
  X(itof64)                                                                    \
  /* void (ctx, ptr descriptor, ptr a, ptr b, ptr c, ptr d, i32 site) */       \
  X(wmma_mma)

/// The symbol each runtime function has in rewritten code.
#define GPU_RUNNER_STANDIN_RUNTIME_PREFIX "__gpu_runner_standin_"

/// Operations of roundf32/roundf64, run in the rounding mode `mode`.
enum RoundedOp : uint32_t {
  kRoundedAdd,
  kRoundedMul,
  kRoundedDiv,
  kRoundedFma,
  kRoundedSqrt,
  kRoundedRcp,
};

/// PTX rounding modifiers (PTX ISA, "Rounding Modifiers").
enum RoundingMode : uint32_t { kRoundRn, kRoundRz, kRoundRm, kRoundRp };

/// How rewritten code describes a wmma.mma.sync to the runtime: the shape,
/// the element types and the fragments' element counts per lane.
struct WmmaDescriptor {
  uint32_t m, n, k;
  /// 0 f16, 1 f32, 2 s8, 3 u8, 4 s32, 5 bf16, 6 tf32, 7 f64.
  uint32_t aType, bType, cType, dType;
  /// Elements each lane holds of A, B, C and D.
  uint32_t aCount, bCount, cCount, dCount;
  /// mma's .satfinite (integer: clamp to s32).
  uint32_t saturate;
};

enum WmmaType : uint32_t {
  kWmmaF16,
  kWmmaF32,
  kWmmaS8,
  kWmmaU8,
  kWmmaS32,
  kWmmaBF16,
  kWmmaTF32,
  kWmmaF64,
};

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_KERNELABI_H
