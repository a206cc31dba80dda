//===- Passes.td - gpu-runner's passes ---------------------*- tablegen -*-===//
//
// The passes the runner's pipelines are made of, besides upstream ones.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_LOWERING_PASSES
#define GPU_RUNNER_LOWERING_PASSES

include "mlir/Pass/PassBase.td"

def GpuToLLVM : Pass<"gpu-runner-gpu-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower gpu runtime ops, and the host code around them, to "
                "the LLVM dialect and calls of the mgpu ABI";
  let description = [{
    Converts `gpu.memcpy`, `gpu.memset`, `gpu.alloc`, `gpu.dealloc`,
    `gpu.wait`, `gpu.host_register` and `gpu.host_unregister` in every form
    (synchronous; asynchronous with 0, 1 or N dependencies) into calls of the
    functions listed in `wrappers/MgpuAbi.def`, in the same dialect conversion
    that lowers `func`, `arith`, `cf`, `memref`, `index`, `math`, `vector`
    and `ub` to the LLVM dialect.

    An async token becomes the stream its op was enqueued on. Every call
    carries its op's name and source location as a constant string, so that a
    run-time error names the op and where it was written.

    Copies between memrefs that are both contiguous with static shapes become
    one contiguous copy; any other layout (offsets, strides, dynamic shapes)
    passes both memref descriptors to the runtime, which checks the shapes
    and copies without per-element calls.

    Example: an asynchronous copy on the stream of its dependency

    ```mlir
    %t1 = gpu.memcpy async [%t0] %dst, %src : memref<7xf32, 1>, memref<7xf32>
    ```

    becomes, with `%stream` the lowered `%t0`:

    ```mlir
    %n = llvm.mlir.constant(7 : index) : i64
    %null = llvm.mlir.zero : !llvm.ptr
    %end = llvm.getelementptr %null[%n] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %bytes = llvm.ptrtoint %end : !llvm.ptr to i64
    llvm.call @mgpuMemcpyAt(%dstPtr, %srcPtr, %bytes, %stream, %loc)
    ```

    A gpu op or form that cannot be lowered is an error at its location that
    says why; nothing is left behind silently.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LowerGpuReductions : Pass<"gpu-runner-lower-gpu-reductions",
                                "::mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrite gpu.all_reduce, gpu.subgroup_reduce and gpu.rotate "
                "into shuffles, barriers and workgroup memory";
  let description = [{
    Inside kernel modules: `gpu.subgroup_reduce` becomes an xor butterfly
    of `gpu.shuffle`s over each cluster, and `gpu.all_reduce` subgroup
    butterflies whose results the first subgroup combines through a
    workgroup buffer between two barriers; `gpu.global_id` becomes
    `block_id * block_dim + thread_id`. Both reductions are built of `scf`
    ops, so they may stand in `scf.if` and `scf.for` (uniform control
    flow), and both reduce over the lanes that exist: the last subgroup of
    a block whose size is not a multiple of the subgroup size is partial,
    and its missing lanes take no part.

    `gpu.rotate %v, offset, width` becomes an idx shuffle of `width` lanes:
    lane k below the width reads lane (k + offset) mod width and its `valid`
    is the shuffle's; the lanes at or past the width (poison and not valid
    in the dialect) keep their value and skip the shuffle, which on NVIDIA
    GPUs only the lanes of its member mask may execute. A value wider than
    one shuffle moves goes element by element. The shuffles name the rotate
    for the host runtime's errors (`gpu_runner.runtime_op_name`).

    What the verifier lets through but no target can do is an error at the
    op: a rotation wider than the subgroup, a `gpu.subgroup_broadcast` from
    a constant lane outside it, and a rotated or broadcast value that is not
    an integer, float or index of at most 64 bits or a vector of rank 1 of
    those. What is left for a backend to run is barriers, shuffles and
    `gpu.subgroup_broadcast`.

    With `sequential-lanes` (the host backend, whose threads run one after
    another), every shuffle stands where all the lanes of a subgroup reach
    it: a narrow rotation and a partial subgroup's last spreading shuffle are
    made by every lane, which then select their result, so that a kernel can
    run as loops over the lanes cut at its shuffles (BarrierSplitting.h).
    `gpu.all_reduce` there writes every thread's value to a workgroup
    buffer, and after a barrier the block's first thread combines them in
    thread order and writes the total, which every thread reads after a
    second barrier: one pass over the values rather than two butterflies.
  }];
  let options = [
    Option<"subgroupSize", "subgroup-size", "unsigned", /*default=*/"32",
           "The target's subgroup size: 32 on the host and NVIDIA GPUs, 64 on "
           "AMD's wave64 chips">,
    Option<"shuffleBitwidth", "shuffle-bitwidth", "unsigned",
           /*default=*/"64",
           "The widest value one gpu.shuffle moves on the target">,
    Option<"lowerSubgroupId", "lower-subgroup-id", "bool", /*default=*/"false",
           "Also rewrite gpu.subgroup_id, gpu.num_subgroups and "
           "gpu.subgroup_size from the thread ids and the subgroup size, for "
           "targets without instructions for them">,
    Option<"sequentialLanes", "sequential-lanes", "bool", /*default=*/"false",
           "The target runs a block's threads one after another (the host): "
           "put every shuffle where all the lanes of a subgroup reach it, so "
           "that the lanes can run as loops cut at the shuffles, and combine "
           "gpu.all_reduce's values in one pass over workgroup memory "
           "instead of with shuffles">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowerWarpExecute : Pass<"gpu-runner-lower-warp-execute",
                             "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.warp_execute_on_lane_0 to an scf.if on lane 0, "
                "with the values exchanged through workgroup memory";
  let description = [{
    Upstream's rewrite of vector distribution (`populateWarpExecuteOnLane0-
    OpToScfForPattern`) does the work: each lane stores its part of each
    operand, the lanes synchronize, lane 0 loads the whole values and runs
    the body, stores the results, the lanes synchronize again and each loads
    its part of each result (or all of a result whose type is the yielded
    one: a broadcast). This pass gives it its buffers and synchronization:

    - each buffer is a new workgroup attribution of the kernel with one slot
      per warp of the block (`thread linear id / warp size`), as many as the
      kernel's `known_block_size` has warps, or 1024 threads have;
    - a warp synchronizes with `nvvm.bar.warp.sync` over the lanes of its
      warp of 32 that exist (CUDA's `__syncwarp`; the host backend runs the
      same op as a meeting of the subgroup's lanes that can reach it), or,
      on AMD GPUs, whose wavefronts run in lockstep, with a fence of
      wavefront scope.

    An op with no operands but results also synchronizes before lane 0 runs
    its body, so that a run in a loop does not overwrite results the other
    lanes have not read. A `cf.assert` before the op checks that its lane id
    is below the warp size (gpu.lane_id is not, where subgroups are wider
    than the warp). Errors at the op: a warp size that does not divide
    the subgroup, an op inside another, an op outside a `gpu.func` kernel.
  }];
  let options = [
    Option<"subgroupSize", "subgroup-size", "int64_t", /*default=*/"32",
           "The target's subgroup size: 32 on the host and NVIDIA GPUs, 64 on "
           "AMD's wave64 chips">,
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "How a warp synchronizes: host, nvvm or rocdl">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowerFloatAtomics : Pass<"gpu-runner-lower-float-atomics"> {
  let summary = "Lower memref.generic_atomic_rmw on floats to a cmpxchg loop "
                "on the float's bits";
  let description = [{
    Upstream's memref lowering emits a cmpxchg on the float itself, which
    does not verify. In kernels compiled for a GPU target this pass runs
    before the target's conversion, which then converts the rest; the host
    lowering applies the same pattern inside gpu-runner-gpu-to-llvm.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def HostKernels : Pass<"gpu-runner-host-kernels", "::mlir::ModuleOp"> {
  let summary = "Compile every kernel into host functions the host backend "
                "runs over a grid";
  let description = [{
    Each function of each `gpu.module` is cloned into the host module under
    a unique name, with the GPU thread's context and ids as leading
    arguments:

    ```mlir
    func.func @__gpu_runner_<module>_<function>(
        %ctx: !llvm.ptr, %tx, %ty, %tz, %bx, %by, %bz, %bdx, %bdy, %bdz,
        %gdx, %gdy, %gdz : index, <workgroup attributions>, <arguments>)
    ```

    The id ops read those arguments; `gpu.barrier`, `gpu.shuffle` and
    `gpu.subgroup_broadcast` call the host runtime
    (`wrappers/HostKernelAbi.def`), which completes a broadcast among the
    lanes that reach it, its active lanes; `gpu.printf` calls `printf`;
    `cf.assert` calls `mgpuHostAssertFailAt` when its condition is false,
    with the file, line and function its location gives (as upstream's
    NVVM lowering passes them to `__assertfail`); workgroup attributions
    and `gpu.dynamic_shared_memory` are views of the block's workgroup
    memory, private attributions are stack memory. The `gpu.subgroup_mma_*`
    ops come first (HostMma.h): every `!gpu.mma_matrix` becomes its lane's
    slice, a vector, and `gpu.subgroup_mma_compute` gathers A and B from
    the subgroup's lanes through `mgpuHostSubgroupGatherAt`, where the
    lanes meet as at a shuffle.

    For each kernel two more functions are made: a block function and an
    entry that unpacks the launch's arguments from a struct and calls it.
    A kernel that reaches no barrier, shuffle, broadcast or mma compute gets
    a block function
    that loops over the block's threads, for the optimizer to vectorize. A
    kernel whose barriers every thread reaches together is cut at them into
    such loops (BarrierSplitting.h), unless it has a `cf.assert`: a thread
    that fails one ends there, like one that returns early. Any other runs
    each thread on a fiber, and its block function is called once per
    thread. The loops of a kernel with `cf.assert` start at the thread the
    context's `threadId` holds, so that the runtime can run the rest of the
    block after a thread that failed one
    (`gpu_runner.resumes_after_assertions`). The kernel is annotated with
    its entry (`gpu_runner.host_entry`), whether it uses fibers and its
    static workgroup memory, for the lowering of `gpu.launch_func`.
  }];
  let options = [
    Option<"splitBarriers", "split-barriers", "bool", /*default=*/"true",
           "Run kernels whose barriers every thread reaches together as "
           "loops over the threads between barriers, instead of on fibers">,
    Option<"subgroupVectors", "subgroup-vectors", "bool", /*default=*/"true",
           "Run those loops a subgroup at a time, each value a vector of its "
           "lanes' (SubgroupVectors.h), where the block's size in x is a "
           "multiple of the subgroup size and every op can">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def AsyncGpuRegions : Pass<"gpu-runner-async-gpu-regions",
                             "::mlir::ModuleOp"> {
  let summary = "Make the gpu ops of functions with async.execute regions "
                "asynchronous, as upstream's gpu-async-region does";
  let description = [{
    Runs upstream's `gpu-async-region` on the functions that contain
    `async.execute`, and on those only: it threads the gpu ops of each
    region on a token, passes tokens between regions through
    `async.yield` and `async.await`, and makes the regions wait for their
    own work. Functions without async regions keep the synchronous ops they
    were written with.
  }];
  let dependentDialects = [
    "::mlir::async::AsyncDialect",
    "::mlir::gpu::GPUDialect",
  ];
}

def SubgroupBroadcastToNVVM : Pass<"gpu-runner-subgroup-broadcast-to-nvvm",
                                    "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower gpu.subgroup_broadcast to shfl.sync among the active "
                "lanes of a warp";
  let description = [{
    Upstream's NVVM lowering has no pattern for `gpu.subgroup_broadcast`.
    This pass, run on CUDA kernel modules before it, makes each one a
    `nvvm.shfl.sync idx` whose member mask is `llvm.nvvm.activemask`
    (CUDA's `__activemask()`), from the op's lane (`specific_lane`) or from
    the lowest lane of the mask (`first_active_lane`, `__ffs(mask) - 1`), one
    per 32 bits of each element. The op may stand in divergent code, where a
    mask of the whole warp would make the shuffle wait for lanes that never
    come. A source lane that is not active gives an undefined value, as the
    dialect's poison allows.

    ```mlir
    %b = gpu.subgroup_broadcast %v, first_active_lane : f32
    // becomes
    %mask = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
    %first = "llvm.intr.cttz"(%mask) <{is_zero_poison = true}> : (i32) -> i32
    %bits = arith.bitcast %v : f32 to i32
    %s = nvvm.shfl.sync idx %mask, %bits, %first, %c31 : i32 -> i32
    %b = arith.bitcast %s : i32 to f32
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def RefuseTargetOps : Pass<"gpu-runner-refuse-target-ops",
                             "::mlir::gpu::GPUModuleOp"> {
  let summary = "Refuse, by name, the kernel ops a GPU target's lowering "
                "lacks";
  let description = [{
    Upstream's GPU lowerings leave an op they have no pattern for
    unconverted, and report it as an op that failed to legalize, or worse.
    The GPU pipelines run this pass first: the first op the target cannot
    take is an error that names it, says why and which backend runs it.

    - ROCDL (HIP): the gpu dialect's mma ops (`gpu.subgroup_mma_*`), which
      upstream lowers to NVVM only, and the thread block cluster ops
      (`gpu.cluster_id`, `gpu.cluster_dim`, `gpu.cluster_dim_blocks`,
      `gpu.cluster_block_id`), since HIP has no clusters. (`cf.assert`, for
      which upstream's ROCDL lowering makes invalid IR, a string global
      outside the kernel module, is lowered before it: DeviceAsserts.h.)
    - Both: arithmetic and conversions on f128, which neither GPU has, and
      on the float types LLVM has no type for (f8, f6, f4, tf32), which the
      host code computes on through the runtime (EmulateSmallFloats.cpp).
    - NVVM (CUDA): `gpu.subgroup_mma_extract_thread_local` and
      `insert_thread_local`, which upstream's NVVM lowering has no pattern
      for, and the element-wise mma ops other than `addf`, `mulf`, `divf`,
      `maxf` and `minf`, on which it stops the process (an unreachable).
  }];
  let options = [
    Option<"nvvm", "nvvm", "bool", /*default=*/"false",
           "Refuse what upstream's NVVM lowering lacks (CUDA); without it, "
           "what its ROCDL lowering lacks (HIP)">,
  ];
}

def TrapUnreachable : Pass<"gpu-runner-trap-unreachable",
                            "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make every llvm.unreachable of a kernel trap";
  let description = [{
    Reaching `llvm.unreachable` is undefined behaviour, and the GPU
    backends take it at its word: AMDGPU code falls through into whatever
    comes next, or the branch to it is folded away; NVPTX code ends the
    thread with `exit`, silently. A kernel that reaches one must fail its
    launch instead, as it does on the host backend. This pass puts
    `llvm.intr.trap` before each `llvm.unreachable` of a lowered kernel
    module (not one already after a trap): the branch to it stays a check,
    and reaching it aborts the kernel, which the runtime reports as a
    failed launch.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MergeAsyncOperands : Pass<"gpu-runner-merge-async-operands"> {
  let summary = "Pass each value to an async.execute once: merge repeated "
                "dependencies and body operands";
  let description = [{
    Upstream's `async-to-async-runtime` outlines each `async.execute` into a
    function with one parameter per distinct value, but finds the body's
    operands by their position among all the operands. A token repeated in
    the dependencies, or a value repeated among the body operands (both
    valid), shifts those positions: the body then reads another value, or
    the pass crashes. This pass keeps the first of each repeated operand,
    and makes the body arguments of the repeats uses of the first one's.
  }];
  let dependentDialects = ["::mlir::async::AsyncDialect"];
}

def OutlineAsyncBodies : Pass<"gpu-runner-outline-async-bodies",
                                "::mlir::ModuleOp"> {
  let summary = "Keep each async.execute body one block: outline what is not "
                "async into private functions the body calls";
  let description = [{
    Upstream's `async-to-async-runtime` makes each `async.execute` body a
    coroutine, and takes bodies of one block only; `scf-to-cf` and
    `gpu-runner-gpu-to-llvm`, which run before it, make blocks of loops,
    `if`s, `cf.assert` and atomic updates. This pass cuts each body at the
    ops the coroutine keeps (async ops and ops on async values, stack
    allocations, the terminator) and moves each run of ops between those
    cuts into a private `func.func`, called where the run was. Its
    parameters are the values the run uses from elsewhere (constants are
    cloned instead), its results those of the run's values used after it.
    Inner bodies are outlined first; a nested `async.execute` stays in its
    body.

    An op with regions in a body may not hold async ops or values (an
    await inside an `scf.if`, say), nor yield stack memory it allocates:
    either is an error at that op.

    Example:

    ```mlir
    %t = async.execute {
      scf.for %i = %c0 to %n step %c1 { memref.store %v, %m[%i] : memref<?xi32> }
      async.yield
    }
    ```

    becomes

    ```mlir
    func.func private @__gpu_runner_main_async_body(%v: i32,
                                                    %m: memref<?xi32>,
                                                    %n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 { memref.store %v, %m[%i] : memref<?xi32> }
      return
    }
    ...
    %t = async.execute {
      func.call @__gpu_runner_main_async_body(%v, %m, %n)
          : (i32, memref<?xi32>, index) -> ()
      async.yield
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def LowerVectorOps : Pass<"gpu-runner-lower-vector-ops"> {
  let summary = "Rewrite the vector ops that have no direct LLVM lowering "
                "into ones that do";
  let description = [{
    Upstream's vector lowering patterns, as `convert-vector-to-llvm` applies
    them before converting: contractions through outer products, transposes
    element by element, multi-reductions, shape casts, broadcasts, masks,
    interleaves, bit casts, strided slices, steps, gathers, scans, FMAs of
    rank above 1, and transfers of rank 1. It runs in the host pipeline and
    in every kernel pipeline; what is left converts to LLVM with the rest of
    the code (gpu-runner-gpu-to-llvm, or the NVVM and ROCDL lowerings).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def EmulateSmallFloats : Pass<"gpu-runner-emulate-small-floats",
                              "::mlir::ModuleOp"> {
  let summary = "Compute on the float types LLVM has none of through f32, "
                "and convert them with the runtime";
  let description = [{
    The f8, f6 and f4 types and tf32: an elementwise arith or math op on
    them becomes the same op on f32, its operands extended and its results
    truncated; then every arith.extf and arith.truncf from or to such a
    type becomes calls of the runtime's mgpuConvertFloat, which converts
    with LLVM's APFloat in the type's own rounding and range rules, and
    the truncf's rounding mode. One rounding of an f32 result to these
    types is the correctly rounded result of the operation, but for a fused
    multiply-add, which rounds in f32 first. See EmulateSmallFloats.cpp.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def LowerVectorMasks : Pass<"gpu-runner-lower-vector-masks"> {
  let summary = "Lower vector.mask around transfers and gathers into their "
                "masked forms";
  let description = [{
    What upstream's `lower-vector-mask` does on functions, on any op, so on
    kernels too: a `vector.mask` around a `vector.transfer_read`,
    `vector.transfer_write` or `vector.gather` becomes the op with its mask
    operand. It runs first in the host pipeline, before the checks that
    would put their own ops inside a `vector.mask`, which holds one op, and
    before `convert-vector-to-scf` in every pipeline, which does not take a
    masked transfer of rank 2 or more inside `vector.mask`. A mask around an
    op without side effects (a reduction, a contraction) is lowered with
    that op, by gpu-runner-lower-vector-ops or the conversion to LLVM.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def DumpGpuBinaries : Pass<"gpu-runner-dump-gpu-binaries",
                             "::mlir::ModuleOp"> {
  let summary = "Write the object of each gpu.binary to a file";
  let description = [{
    For looking at what the kernels compiled to: each `gpu.binary @name`
    is written to `<dir>/<name>.<format>`, with `fatbin`, `cubin`, `ptx`,
    `hsaco` or `ll` as the format says. The folder is created if needed.
  }];
  let options = [
    Option<"directory", "dir", "std::string", /*default=*/"\".\"",
           "The folder the files are written to">,
  ];
}

def CheckBounds : Pass<"gpu-runner-check-bounds", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Check the memref loads and stores of kernels at run time";
  let description = [{
    What memcheck, racecheck and initcheck (--check) add, before the
    kernels are compiled for the host:
    each memref.load, memref.store, memref.atomic_rmw,
    memref.generic_atomic_rmw and 1-D vector.load and vector.store in a
    function of the gpu.module is preceded by a call of
    mgpuHostCheckAccessAt with the element's address, size and required
    alignment, whether it stores, whether it is atomic and what memory the
    IR says the memref is a view of, the first index that lies outside the
    memref's shape (if any), the ids of the thread and block, and the op's
    location. The runtime makes the checks that are on (see
    wrappers/HostKernelAbi.def and docs/checks.md).
    A gpu.subgroup_mma_load_matrix or gpu.subgroup_mma_store_matrix is
    checked the same way for its first element, and for the bytes from its
    first element to its last (rows, or columns when transposed,
    leadDimension elements apart): each lane checks the whole matrix; a
    vector load or store for the bytes of all its elements.

    ```mlir
    %v = memref.load %m[%i] : memref<16xf32>
    // becomes
    %base, %offset, %size, %stride = memref.extract_strided_metadata %m
    ... the element's address, the first bad index, the ids ...
    func.call @mgpuHostCheckAccessAt(...)
    %v = memref.load %m[%i] : memref<16xf32>
    ```

    Memrefs whose layout is not strided, and vector loads and stores of
    more than one dimension, are not checked. A kernel with writes that
    cannot be followed so (vector.transfer_write, LLVM-dialect stores,
    calls of functions the module does not define, itself or in a function
    it calls) starts with a call of mgpuHostCheckUnseenWritesAt per memref
    argument, for initcheck.

    With `mark-barriers` (racecheck), each gpu.barrier is followed by a call
    of mgpuHostCheckBarrierAt with the thread's ids, so that the runtime
    knows each thread's barrier interval.
  }];
  let options = [
    Option<"markBarriers", "mark-barriers", "bool", /*default=*/"false",
           "Call mgpuHostCheckBarrierAt after each gpu.barrier">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def CheckHostAccesses : Pass<"gpu-runner-check-host-accesses",
                              "::mlir::ModuleOp"> {
  let summary = "Check that the host code touches no device memory";
  let description = [{
    What memcheck (--check=memcheck, --check-bounds), racecheck and
    initcheck add to the host code (every op outside a `gpu.module` and a `gpu.launch` body)
    on the host backend, where device memory is host memory that the host code could
    read without faulting, as it cannot on a GPU. Each op that reads or
    writes a ranked memref (by its memory effects: memref, affine, vector
    and linalg ops, `memref.copy`) and each call of a function the program
    only declares (`printMemrefF32`, ...) with memref operands is preceded,
    for each such memref, by a call of `mgpuHostCheckHostAccessAt` with the
    memref's aligned pointer, what the op does with it and the op's
    location. memcheck reports device memory that is not `host_shared`,
    freed or not, as an error at the op; racecheck, memory that an async
    copy or memset not waited for touches; initcheck counts the allocation
    that the host code writes, or hands to a function, as written. The ops of the gpu dialect are the
    runtime's, which takes device memory, and are left alone.

    ```mlir
    %v = memref.load %m[%i] : memref<16xf32>
    // becomes
    %p = memref.extract_aligned_pointer_as_index %m
    func.call @mgpuHostCheckHostAccessAt(%p, %c0_i32, %loc)
    %v = memref.load %m[%i] : memref<16xf32>
    ```

    An unranked memref is checked when it is a `memref.cast` of a ranked
    one; LLVM-dialect loads and stores are not checked.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def VerifyHostCode : Pass<"gpu-runner-verify-host-code", "::mlir::ModuleOp"> {
  let summary = "Check the memref ops of the host code at run time";
  let description = [{
    What --check-bounds adds to the host code (every op outside a
    `gpu.module` and a `gpu.launch` body) on every backend, first in the
    host pipeline: each op with upstream's runtime verification
    (`RuntimeVerifiableOpInterface`: the memref and linalg ops) gets its
    checks, and what MLIR 22 does not check gets ours:
    `memref.reinterpret_cast` (the elements its result reaches must be
    elements its source reaches, computed from both descriptors when it
    runs; a source of rank 0 or unranked, which is how a whole buffer is
    named, as the base buffer of `memref.extract_strided_metadata`, is not
    checked), `affine.load` and `affine.store` (the indices their maps
    give), `vector.load` and `vector.store` (every element of the vector,
    which covers the memref's trailing dimensions). Ops on tensors, which
    the runner reports anyway, and scalable vectors are left alone.

    Each check is a `cf.assert` at the op's location whose message is
    upstream's, named for the op it checks (`gpu_runner.runtime_op_name`),
    so that a failed one reads, on stderr, with exit status 1:

    ```
    f.mlir:12:8: error: memref.load: out-of-bounds access
    ```

    Example:

    ```mlir
    %v = memref.load %m[%i] : memref<?xf32>
    // becomes
    %dim = memref.dim %m, %c0 : memref<?xf32>
    ... %ok = 0 <= %i < %dim ...
    cf.assert %ok, "out-of-bounds access"
        {gpu_runner.runtime_op_name = "memref.load"}
    %v = memref.load %m[%i] : memref<?xf32>
    ```

    Masked, gathering and transfer ops of the vector dialect are not
    checked.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::index::IndexDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def CheckAllocSizes : Pass<"gpu-runner-check-alloc-sizes",
                            "::mlir::ModuleOp"> {
  let summary = "Check the sizes of memref.alloc, memref.alloca and "
                "gpu.alloc when they run";
  let description = [{
    The LLVM lowering multiplies a memref's sizes into a byte count without
    looking: a negative size asks for an enormous block, and a product that
    overflows asks for a small one that the program then writes past,
    silently (`gpu.alloc(2^62) : memref<?xf32>` would get 0 bytes). Before
    each `memref.alloc`, `memref.alloca` and `gpu.alloc` with dynamic sizes,
    or with a static shape of more bytes than an index can count, this pass
    adds a check that every size is at least 0 and that the byte count fits
    in an index (or that a size is 0), and passes the result with every
    size to a private helper, `__gpu_runner_check_alloc_sizes_<rank>`, that
    calls `mgpuAllocSizeErrorAt` only for a failed check (the branch is in
    the helper, which LLVM inlines, so that the allocation's own region
    keeps one block, as an `async.execute` region must). The runtime stops
    the program with an error at the op, on stderr, that gives the sizes:

    ```
    f.mlir:12:8: error: memref.alloc: cannot allocate 4611686018427387904
    elements of 4 bytes: that is more bytes than an index can count
    (9223372036854775807)
    ```

    Host code on every backend is checked, and the kernels of the host
    backend (host functions by then); kernels compiled for a GPU are not.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def CheckIntegerWidths : Pass<"gpu-runner-check-integer-widths",
                               "::mlir::ModuleOp"> {
  let summary = "Refuse integer types that LLVM cannot represent";
  let description = [{
    MLIR's integers have 0 to 16777215 bits, LLVM's 1 to 8388608: a program
    that uses `i0`, or an integer wider than LLVM's widest, would be
    translated into LLVM IR that LLVM's passes divide by zero on, or reject
    with a fatal error. The first step of every pipeline reports each op
    that makes, holds or names such a type (in its results, its regions'
    arguments or its attributes, alone or inside a vector, memref, tensor or
    function type) at the op.
  }];
}

def CheckPrintf : Pass<"gpu-runner-check-printf", "::mlir::ModuleOp"> {
  let summary = "Check the format of every gpu.printf against its arguments, "
                "and promote its integer arguments to i32";
  let description = [{
    The second step of every pipeline, before the backends' lowerings of
    `gpu.printf` (libc's printf on the host, CUDA's vprintf, HIP's hostcall
    printf) part ways: none of them checks a format, so a conversion without
    an argument, or with one of another type, prints garbage or reads stray
    memory, and `%n` writes to memory. Each format is parsed as C's printf
    reads it and must keep to what the CUDA Programming Guide lists under
    "Format specifiers": flags `-`, `+`, space, `#`, `0`; a width and a
    precision written as digits, at most 1024 each (a `*` is refused); the
    sizes `h`, `l` and `ll`; the conversions `d i o u x X c e E f g G a A`
    and `%%`; at most 32 arguments. `%s` and `%p` are refused too, since the
    op cannot pass a string or a pointer. Each conversion must match its
    argument by C's rules after the default promotions:

    - `%d`, `%i`, `%o`, `%u`, `%x`, `%X` (optionally with `h`) and `%c`
      take a signless integer of at most 32 bits, printed as an int;
    - the same with `l` or `ll` take `i64` or `index`;
    - `%e`, `%f`, `%g`, `%a` (and upper-case forms, optionally with `l`)
      take `f16`, `bf16`, `f32` or `f64`, printed as a double.

    A format that breaks a rule is an error at the op that names the
    conversion, its offset in the format and the argument's type:

    ```mlir
    gpu.printf "%d\n", %v : i64
    // error: 'gpu.printf' cannot print this format: conversion 1 '%d' at
    // offset 0 of the format: argument 1 has type i64, but '%d' takes an int
    // (an integer of at most 32 bits); write '%ld' for i64 and index
    ```

    Arguments narrower than 32 bits are then extended to `i32`
    (`arith.extsi`; `arith.extui` for `i1`), as C promotes them, so that
    every backend passes printf the int it reads.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CheckLowered : Pass<"gpu-runner-check-lowered", "::mlir::ModuleOp"> {
  let summary = "Report anything left that is not in the LLVM dialect";
  let description = [{
    The last step of every pipeline. Translation to LLVM IR only understands
    the LLVM dialect; this pass turns any other op that is still present (an
    op without a lowering on this backend, or a type conversion left
    unresolved) into an error at its location that names it, instead of a
    failure in translation or a silent partial conversion. It also checks
    that every declaration of a runtime function (one a program calls itself,
    such as the mgpuTimer* functions) has the type the runtime defines.
  }];
}

#endif // GPU_RUNNER_LOWERING_PASSES
