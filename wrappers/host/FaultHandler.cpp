//===- FaultHandler.cpp - Invalid memory accesses of kernels, reported ----===//
//
// See FaultHandler.h. The handler runs on an alternate stack and uses only
// async-signal-safe calls (write, _Exit, sigaction, dladdr in practice) and
// fixed buffers, with one exception: it flushes stdout first, so that what
// the program printed before the fault comes before the error, as it does
// for every other error (glibc's stdio locks are recursive, so a fault
// inside printf on this thread does not deadlock there).
//
//===----------------------------------------------------------------------===//

#include "wrappers/host/FaultHandler.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace gpu_runner {

namespace {

thread_local RunningKernel running;
thread_local const char *runningOpLoc = nullptr;

std::atomic<bool> installed{false};

/// The signals handled here, and the actions installed before ours.
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction previousActions[4];

struct sigaction *previousAction(int signal) {
  for (int i = 0; i < 4; ++i)
    if (kSignals[i] == signal)
      return &previousActions[i];
  return nullptr;
}

bool isMemoryFault(int signal) { return signal == SIGSEGV || signal == SIGBUS; }

constexpr size_t kSignalStackBytes = 64 * 1024;

/// The calling thread's alternate signal stack and the bounds of its own
/// stack (for naming an overflow of it), set up once per thread.
struct ThreadSignalState {
  void *altStack = nullptr;
  const char *stackLow = nullptr;

  ~ThreadSignalState() {
    if (!altStack)
      return;
    stack_t disable = {};
    disable.ss_flags = SS_DISABLE;
    sigaltstack(&disable, nullptr);
    munmap(altStack, kSignalStackBytes);
  }
};
thread_local ThreadSignalState signalState;

/// A message assembled in a fixed buffer, without allocating.
class Message {
public:
  Message &operator<<(const char *text) {
    if (!text)
      text = "(null)";
    while (*text && length < sizeof(buffer) - 1)
      buffer[length++] = *text++;
    return *this;
  }
  Message &appendSigned(int64_t value) {
    if (value < 0) {
      *this << "-";
      return appendUnsigned(0 - static_cast<uint64_t>(value), 10);
    }
    return appendUnsigned(static_cast<uint64_t>(value), 10);
  }
  Message &appendUnsigned(uint64_t value, unsigned base) {
    char digits[24];
    int count = 0;
    do {
      digits[count++] = "0123456789abcdef"[value % base];
      value /= base;
    } while (value);
    if (base == 16)
      *this << "0x";
    while (count && length < sizeof(buffer) - 1)
      buffer[length++] = digits[--count];
    return *this;
  }
  Message &appendIds(const int64_t *ids) {
    *this << "(";
    for (int i = 0; i < 3; ++i) {
      if (i)
        *this << ", ";
      appendSigned(ids[i]);
    }
    return *this << ")";
  }
  /// "file:line:col: error: op: " from a loc "op@file:line:col", the way
  /// formatDiagnostic writes it.
  Message &appendErrorPrefix(const char *loc) {
    const char *at = loc ? std::strchr(loc, '@') : nullptr;
    if (at && at[1])
      *this << at + 1 << ": ";
    *this << "error: ";
    if (loc && *loc) {
      for (const char *c = loc; *c && c != at && length < sizeof(buffer) - 1;
           ++c)
        buffer[length++] = *c;
      *this << ": ";
    }
    return *this;
  }
  void print() {
    buffer[length++] = '\n';
    size_t done = 0;
    while (done < length) {
      ssize_t written = write(STDERR_FILENO, buffer + done, length - done);
      if (written <= 0)
        break;
      done += static_cast<size_t>(written);
    }
  }

private:
  char buffer[1024];
  size_t length = 0;
};

const void *faultingPc(void *context) {
  auto *uc = static_cast<ucontext_t *>(context);
#if defined(__x86_64__)
  return reinterpret_cast<const void *>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return reinterpret_cast<const void *>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return nullptr;
#endif
}

/// What went wrong, at `address` for a memory fault.
void appendFault(Message &message, int signal, const char *address) {
  if (signal == SIGFPE) {
    message << "integer division by zero (or of the most negative value "
               "by -1)";
    return;
  }
  if (signal == SIGILL) {
    message << "trap (llvm.intr.trap, or code the program marks as "
               "unreachable)";
    return;
  }
  message << "invalid memory access at ";
  message.appendUnsigned(reinterpret_cast<uintptr_t>(address), 16);
  if (signal == SIGBUS)
    message << " (bus error)";
}

[[noreturn]] void exitWith(Message &message) {
  std::fflush(stdout);
  message.print();
  _Exit(1);
}

void reportKernelFault(const RunningKernel &kernel, int signal,
                       const char *address) {
  Message message;
  message.appendErrorPrefix(kernel.launchLoc ? kernel.launchLoc
                                             : "gpu.launch_func");
  message << "kernel '" << kernel.name << "': ";
  // Code without stack probes (a C++ kernel, in tests) may skip a little
  // past the guard page: up to 64 KiB below it counts as an overflow too.
  bool inGuard = kernel.guardBegin && address < kernel.guardEnd &&
                 address >= kernel.guardBegin - 64 * 1024;
  const char *stackLow = signalState.stackLow;
  bool belowThreadStack = !kernel.threadId && stackLow && address < stackLow &&
                          address >= stackLow - 64 * 1024;
  if (isMemoryFault(signal) && (inGuard || belowThreadStack)) {
    message << "stack overflow in block ";
    message.appendIds(kernel.blockId);
    if (kernel.threadId) {
      message << ", thread ";
      message.appendIds(kernel.threadId);
      message << ": a GPU thread has ";
      message.appendUnsigned(kernel.stackBytes / 1024, 10);
      message << " KiB of stack on the host backend, for its private "
                 "memory and calls; use workgroup or device memory for "
                 "large arrays";
    } else {
      message << ": the kernel ran out of the stack of the thread that runs "
                 "its block; use workgroup or device memory for large arrays";
    }
    exitWith(message);
  }
  appendFault(message, signal, address);
  message << " in block ";
  message.appendIds(kernel.blockId);
  if (kernel.threadId) {
    message << ", thread ";
    message.appendIds(kernel.threadId);
    if (isMemoryFault(signal))
      message << "; run with --check-bounds to find the load or store";
  } else if (isMemoryFault(signal)) {
    message << " (the kernel runs its block's threads as one loop: run "
               "with --check-bounds to name the thread, and the load or "
               "store)";
  } else {
    message << " (the kernel runs its block's threads as one loop, so the "
               "thread is not known)";
  }
  exitWith(message);
}

void onFault(int signal, siginfo_t *info, void *context) {
  const char *address = static_cast<const char *>(info->si_addr);
  if (running.name)
    reportKernelFault(running, signal, address);

  if (runningOpLoc && isMemoryFault(signal)) {
    Message message;
    message.appendErrorPrefix(runningOpLoc);
    appendFault(message, signal, address);
    message << ": the op reached memory outside what the program "
               "allocated (host memory is not checked before an op runs)";
    exitWith(message);
  }

  const void *pc = faultingPc(context);
  Dl_info object = {};
  Message message;
  if (pc && !dladdr(pc, &object)) {
    // Code that belongs to no loaded object is the JIT's: the program's.
    message << "error: ";
    appendFault(message, signal, address);
    message << " in the program's host code (outside any kernel)";
    exitWith(message);
  }
  message << "error: internal error: ";
  appendFault(message, signal, address);
  message << " in " << (object.dli_fname ? object.dli_fname : "unknown code");
  if (object.dli_sname)
    message << " (" << object.dli_sname << ")";
  message << ", outside the program's code: a bug of gpu-runner or of a "
             "library; please report it with the input";
  std::fflush(stdout);
  message.print();
  // Hand the fault to whoever handled it before (LLVM's stack trace, a
  // sanitizer): the faulting instruction runs again and faults again.
  sigaction(signal, previousAction(signal), nullptr);
}

} // namespace

RunningKernel &runningKernel() { return running; }

RunningKernelScope::RunningKernelScope(const char *name, const char *launchLoc,
                                       const int64_t *blockId)
    : saved(running) {
  running = RunningKernel();
  running.name = name;
  running.launchLoc = launchLoc;
  running.blockId = blockId;
}

RunningKernelScope::~RunningKernelScope() { running = saved; }

RunningOpScope::RunningOpScope(const char *loc) : saved(runningOpLoc) {
  runningOpLoc = loc && *loc ? loc : nullptr;
}

RunningOpScope::~RunningOpScope() { runningOpLoc = saved; }

void ensureSignalStack() {
  if (signalState.altStack)
    return;
  void *stack = mmap(nullptr, kSignalStackBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stack == MAP_FAILED)
    return; // The handler then runs on the thread's own stack.
  stack_t alternate = {};
  alternate.ss_sp = stack;
  alternate.ss_size = kSignalStackBytes;
  if (sigaltstack(&alternate, nullptr) != 0) {
    munmap(stack, kSignalStackBytes);
    return;
  }
  signalState.altStack = stack;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    void *low = nullptr;
    size_t bytes = 0;
    if (pthread_attr_getstack(&attributes, &low, &bytes) == 0)
      signalState.stackLow = static_cast<const char *>(low);
    pthread_attr_destroy(&attributes);
  }
}

void installFaultHandler() {
  ensureSignalStack();
  if (installed.exchange(true))
    return;
  struct sigaction action = {};
  action.sa_sigaction = &onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < 4; ++i)
    sigaction(kSignals[i], &action, &previousActions[i]);
}

bool faultHandlerInstalled() { return installed.load(); }

} // namespace gpu_runner
