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

def RejectKernels : Pass<"gpu-runner-reject-kernels", "::mlir::ModuleOp"> {
  let summary = "Report kernel launches on a backend that cannot run them yet";
  let description = [{
    The host backend does not run kernels yet. Every `gpu.launch` and
    `gpu.launch_func` is reported at its location, and `gpu.module`s that no
    launch uses are dropped, so that the host pipeline never sees device code.
  }];
  let options = [
    Option<"backend", "backend", "std::string", /*default=*/"\"host\"",
           "The backend named in the diagnostic">,
  ];
}

def CheckLowered : Pass<"gpu-runner-check-lowered", "::mlir::ModuleOp"> {
  let summary = "Report anything left that is not in the LLVM dialect";
  let description = [{
    The last step of every pipeline. Translation to LLVM IR only understands
    the LLVM dialect; this pass turns any other op that is still present (an
    op without a lowering on this backend, or a type conversion left
    unresolved) into an error at its location that names it, instead of a
    failure in translation or a silent partial conversion.
  }];
}

#endif // GPU_RUNNER_LOWERING_PASSES
