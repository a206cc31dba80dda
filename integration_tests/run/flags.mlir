// --version and --help answer without a program, and say what they should.
// RUN: %gpu-runner --version | FileCheck %s --check-prefix=VERSION -DBACKEND=%{backend}
// RUN: %gpu-runner --help | FileCheck %s --check-prefix=HELP
// Each step of the lowering can be shown, in order.
// RUN: %gpu-runner --print-ir-after-all %s 2>&1 >/dev/null | FileCheck %s --check-prefixes=STEPS,STEPS-%{backend}
// The compiled object can be written out, under its default name or another.
// obj2yaml reads it: unlike llvm-objdump it needs no libLLVM, so the test
// runs on a machine with only the bundle of scripts/device-bundle.
// RUN: rm -rf %t && mkdir %t && cp %s %t/program.mlir
// RUN: %gpu-runner --dump-object-file %t/program.mlir
// RUN: obj2yaml %t/program.mlir.o | FileCheck %s --check-prefix=OBJECT
// RUN: %gpu-runner --dump-object-file --object-filename=%t/other.o %s
// RUN: obj2yaml %t/other.o | FileCheck %s --check-prefix=OBJECT

// VERSION: gpu-runner {{[0-9]+\.[0-9]+\.[0-9]+}}
// VERSION-NEXT: backend: [[BACKEND]]
// VERSION-NEXT: LLVM version 22.

// STEPS: IR Dump After GpuKernelOutliningPass (gpu-kernel-outlining)
// STEPS-host: IR Dump After HostKernels (gpu-runner-host-kernels)
// STEPS-cuda: IR Dump After ModuleToBinaryWithIR (gpu-runner-module-to-binary)
// STEPS-hip: IR Dump After ModuleToBinaryWithIR (gpu-runner-module-to-binary)
// STEPS: IR Dump After GpuToLLVM (gpu-runner-gpu-to-llvm)
// STEPS: IR Dump After ConvertAsyncToLLVMPass (convert-async-to-llvm)
// STEPS: IR Dump After CheckLowered (gpu-runner-check-lowered)
// STEPS-NEXT: module {
// STEPS-NEXT: llvm.func @main()

// HELP: --benchmark-out=<FILE>
// HELP: --benchmark-repetitions=<N>
// HELP: --benchmark-warmup=<W>
// HELP: -e <name>
// HELP-NEXT: --entry-point - Alias for -e
// HELP-NEXT: --entry-point-result=<type>
// HELP: -g
// HELP: --perf-jitdump
// HELP: --print-ir-after-all
// HELP: --print-ir-after-lowering
// HELP: --print-statistics
// HELP: --shared-libs=<path,...>
// HELP: --trace=<FILE>

// OBJECT:      - Name: main{{$}}
// OBJECT-NEXT:   Type: STT_FUNC
// OBJECT-NEXT:   Section: .text

func.func @main() {
  return
}
