//===- FaultHandlerTest.cpp - Faults of kernels, ops and other code -------===//
//
// Each fault happens in a child process (the handler ends the process) and
// the test reads what the child printed and how it ended: kernels on fibers
// and as loops, a fiber's stack overflow, a division by zero, a fault
// inside a runtime op, and a fault of the runner's own code, which must
// still end as a crash after the message; the handler never waits for
// stdout's lock.
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/FaultHandler.h"

#include "wrappers/HostKernelAbi.h"
#include "wrappers/MgpuAbi.h"
#include "wrappers/host/Fibers.h"

#include "unittests/wrappers/TestSupport.h"

#include "wrappers/common/Sanitizers.h"

#include <atomic>
#include <csignal>
#include <thread>

using namespace gpu_runner;
using namespace gpu_runner::test;

namespace {

char *volatile badPointer = reinterpret_cast<char *>(0x10);
volatile int zero = 0;

void launch(HostKernelEntry kernel, int64_t gridX, int64_t blockX,
            int32_t flags, const char *name) {
  installFaultHandler();
  mgpuLaunchHostKernelAt(reinterpret_cast<void *>(kernel), 1, 1, 1, gridX, 1, 1,
                         blockX, 1, 1, 0, 0, flags, nullptr, 0, nullptr, name,
                         "gpu.launch_func@f.mlir:7:5");
}

/// A real division instruction, also under UndefinedBehaviorSanitizer
/// (which would report the division by zero itself).
__attribute__((noinline, no_sanitize("undefined"))) int divide(int a, int b) {
  return a / b;
}

/// Recurses with frames of 1 KiB until the stack runs out.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winfinite-recursion"
int deepen(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  return deepen(depth + 1) + frame[0];
}
#pragma GCC diagnostic pop

} // namespace

TEST_CASE("a fault on a fiber names the kernel, block and thread", "[faults]") {
  ChildResult result = runInChild([] {
    launch(
        [](HostKernelContext *context, void *) {
          if (context->threadId[0] == 3)
            *badPointer = 1;
        },
        1, 8, kHostKernelUsesFibers, "k");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "f.mlir:7:5: error: gpu.launch_func: kernel 'k': "
                      "invalid memory access at 0x10 in block (0, 0, 0), "
                      "thread (3, 0, 0); run with --check-bounds to find the "
                      "load or store\n");
}

TEST_CASE("a fault in a kernel run as a loop names the block", "[faults]") {
  ChildResult result = runInChild([] {
    launch(
        [](HostKernelContext *context, void *) {
          if (context->blockId[0] == 2)
            *badPointer = 1;
        },
        3, 1, 0, "loop");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err ==
        "f.mlir:7:5: error: gpu.launch_func: kernel 'loop': invalid memory "
        "access at 0x10 in block (2, 0, 0) (the kernel runs its block's "
        "threads as one loop: run with --check-bounds to name the thread, "
        "and the load or store)\n");
}

TEST_CASE("a fiber that overflows its stack is named", "[faults]") {
  ChildResult result = runInChild([] {
    launch(
        [](HostKernelContext *context, void *) {
          if (context->threadId[0] == 1)
            deepen(0);
        },
        1, 2, kHostKernelUsesFibers, "deep");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err ==
        "f.mlir:7:5: error: gpu.launch_func: kernel 'deep': stack overflow in "
        "block (0, 0, 0), thread (1, 0, 0): a GPU thread has 128 KiB of stack "
        "on the host backend, for its private memory and calls; use workgroup "
        "or device memory for large arrays\n");
}

TEST_CASE("a division by zero in a kernel is named", "[faults]") {
  ChildResult result = runInChild([] {
    launch(
        [](HostKernelContext *context, void *) {
          volatile int quotient = divide(7, zero);
          (void)quotient;
        },
        1, 1, 0, "divide");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "f.mlir:7:5: error: gpu.launch_func: kernel 'divide': "
                      "integer division by zero (or of the most negative "
                      "value by -1) in block (0, 0, 0) (the kernel runs its "
                      "block's threads as one loop, so the thread is not "
                      "known)\n");
}

TEST_CASE("a fault inside a runtime op is reported at the op", "[faults]") {
  ChildResult result = runInChild([] {
    installFaultHandler();
    RunningOpScope op("gpu.memcpy@c.mlir:4:3");
    *badPointer = 1;
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "c.mlir:4:3: error: gpu.memcpy: invalid memory access "
                      "at 0x10: the op reached memory outside what the "
                      "program allocated (host memory is not checked before "
                      "an op runs)\n");
}

TEST_CASE("a fault of the runner's own code stays a crash", "[faults]") {
  ChildResult result = runInChild([] {
    // The test's default action, not a sanitizer's or a debugger's.
    std::signal(SIGSEGV, SIG_DFL);
    installFaultHandler();
    *badPointer = 1;
  });
  CHECK_FALSE(result.exited);
  CHECK(result.err.find("error: internal error: invalid memory access at "
                        "0x10 in ") == 0);
}

#ifndef GPU_RUNNER_TSAN // This child starts threads.
TEST_CASE("a fault while another thread holds stdout does not hang",
          "[faults]") {
  ChildResult result = runInChild([] {
    // Without the fix the child hangs; SIGALRM's default action then ends
    // it, and the test fails instead of hanging too.
    alarm(20);
    std::printf("held back");
    std::atomic<bool> locked{false};
    std::thread holder([&] {
      flockfile(stdout);
      locked = true;
      pause();
    });
    holder.detach();
    while (!locked)
      std::this_thread::yield();
    installFaultHandler();
    RunningOpScope op("gpu.memcpy@c.mlir:4:3");
    *badPointer = 1;
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "c.mlir:4:3: error: gpu.memcpy: invalid memory access "
                      "at 0x10: the op reached memory outside what the "
                      "program allocated (host memory is not checked before "
                      "an op runs)\n");
}

#endif

TEST_CASE("the running kernel's record is restored after a scope", "[faults]") {
  int64_t outer[3] = {1, 2, 3}, inner[3] = {4, 5, 6};
  REQUIRE(runningKernel().name == nullptr);
  {
    RunningKernelScope a("a", "gpu.launch_func@x.mlir:1:1", outer);
    {
      RunningKernelScope b("b", nullptr, inner);
      CHECK(runningKernel().name == std::string("b"));
      CHECK(runningKernel().blockId == inner);
    }
    CHECK(runningKernel().name == std::string("a"));
    CHECK(runningKernel().blockId == outer);
  }
  CHECK(runningKernel().name == nullptr);
}
