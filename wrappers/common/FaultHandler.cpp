//===- FaultHandler.cpp - Invalid memory accesses of kernels, reported ----===//
//
// See FaultHandler.h. The handler runs on an alternate stack and uses only
// async-signal-safe calls (write, _Exit, sigaction, alarm, dladdr in
// practice) and fixed buffers; it flushes stdout only when no thread holds
// its lock, and the report has a deadline (common/FatalReport.h), so that
// it never hangs. It runs with its signal unblocked (SA_NODEFER): a fault
// while it reports ends the report with the message made so far.
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/FaultHandler.h"

#include "wrappers/HostKernelAbi.h"
#include "wrappers/common/FatalReport.h"
#include "wrappers/common/ProgramFunctions.h"
#include "wrappers/common/ProgramHeap.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h> // NOLINT(modernize-deprecated-headers): POSIX's sigaction
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace gpu_runner {

namespace {

thread_local RunningKernel running;

std::atomic<bool> installed{false};

/// The signals handled here, and the actions installed before ours.
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr int kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);
struct sigaction previousActions[kSignalCount];

struct sigaction *previousAction(int signal) {
  for (int i = 0; i < kSignalCount; ++i)
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
  /// Prints the message as the process's one error and exits with status
  /// 1, flushing the program's output first where that is safe.
  [[noreturn]] void exit() {
    buffer[length++] = '\n';
    setFatalReportMessage(buffer, length);
    flushProgramOutputIfFree();
    finishFatalReport();
  }
  /// Prints the message on stderr, for a fault handed on to the previous
  /// handler.
  void print() {
    buffer[length++] = '\n';
    flushProgramOutputIfFree();
    writeToStderr(buffer, length);
  }

private:
  char buffer[1024];
  size_t length = 0;
};

/// Whether the faulting instruction at `pc` is the trap that the compiled
/// program runs where it reached code it marks as unreachable:
/// llvm.ubsantrap(kUnreachableTrapKind), `ud1l kind(%eax), %eax` on x86-64.
bool isUnreachableTrap(const void *pc) {
#if defined(__x86_64__)
  const auto *code = static_cast<const unsigned char *>(pc);
  return pc && code[0] == 0x67 && code[1] == 0x0f && code[2] == 0xb9 &&
         code[3] == 0x40 && code[4] == kUnreachableTrapKind;
#else
  (void)pc;
  return false;
#endif
}

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

/// What went wrong, at `address` for a memory fault, `pc` for a trap.
void appendFault(Message &message, int signal, const char *address,
                 const void *pc) {
  if (signal == SIGABRT) {
    message << "aborted";
    return;
  }
  if (signal == SIGFPE) {
    message << "integer division by zero (or of the most negative value "
               "by -1)";
    return;
  }
  if (signal == SIGILL && isUnreachableTrap(pc)) {
    message << "reached unreachable code (llvm.unreachable, or an op the "
               "program says is never reached)";
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

/// Whether a memory fault at `address` is the calling thread's stack
/// overflowing: the address is just below the thread's stack, or just
/// below the stack pointer of the code that faulted.
bool isStackOverflow(int signal, const char *address, void *context) {
  if (!isMemoryFault(signal))
    return false;
  const char *stackLow = signalState.stackLow;
  if (stackLow && address < stackLow + 4096 && address >= stackLow - 64 * 1024)
    return true;
#if defined(__x86_64__)
  auto *uc = static_cast<ucontext_t *>(context);
  const char *sp =
      reinterpret_cast<const char *>(uc->uc_mcontext.gregs[REG_RSP]);
  return stackLow && sp < stackLow + 64 * 1024 && address < sp + 4096 &&
         address >= sp - 64 * 1024;
#else
  (void)context;
  return false;
#endif
}

/// A fault or abort inside the C library's allocator, called by the
/// program: the program corrupted its heap.
void appendHeapCorruption(Message &message, const char *function, int signal,
                          const char *address) {
  message << "heap corruption: the C library's " << function << " ";
  if (signal == SIGABRT)
    message << "found its heap damaged and stopped the program";
  else
    message << "faulted at ";
  if (signal != SIGABRT)
    message.appendUnsigned(reinterpret_cast<uintptr_t>(address), 16);
  message << ": the program wrote outside memory it allocated, or freed "
             "a pointer malloc did not return; run with --check-bounds to "
             "find the bad access";
}

/// "block (X, Y, Z)", and ", thread (X, Y, Z)" where the thread is known.
void appendBlockAndThread(Message &message, const RunningKernel &kernel) {
  message << "block ";
  message.appendIds(kernel.blockId);
  if (kernel.threadId) {
    message << ", thread ";
    message.appendIds(kernel.threadId);
  }
}

/// A fault in the guards around the block's workgroup memory: how far out
/// of its bounds the access was.
void appendWorkgroupFault(Message &message, const RunningKernel &kernel,
                          const char *address) {
  message << "workgroup memory accessed out of bounds at ";
  message.appendUnsigned(reinterpret_cast<uintptr_t>(address), 16);
  message << " in ";
  appendBlockAndThread(message, kernel);
  message << ": ";
  const char *end = kernel.workgroupBegin + kernel.workgroupBytes;
  if (address < kernel.workgroupBegin) {
    message.appendUnsigned(
        static_cast<uint64_t>(kernel.workgroupBegin - address), 10);
    message << " bytes before the start of";
  } else {
    message.appendUnsigned(static_cast<uint64_t>(address - end), 10);
    message << " bytes past the end of";
  }
  message << " the block's ";
  message.appendUnsigned(kernel.workgroupBytes, 10);
  message << " bytes of workgroup memory; run with --check-bounds to find "
             "the load or store";
}

void reportKernelFault(const RunningKernel &kernel, int signal,
                       const char *address, const void *pc) {
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
    message.exit();
  }
  if (isMemoryFault(signal) && kernel.workgroupReservedBegin &&
      address >= kernel.workgroupReservedBegin &&
      address < kernel.workgroupReservedEnd) {
    appendWorkgroupFault(message, kernel, address);
    message.exit();
  }
  if (const char *function = programHeapCall()) {
    appendHeapCorruption(message, function, signal, address);
    message << " in block ";
    message.appendIds(kernel.blockId);
    message.exit();
  }
  appendFault(message, signal, address, pc);
  message << " in ";
  appendBlockAndThread(message, kernel);
  if (kernel.threadId) {
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
  message.exit();
}

void onFault(int signal, siginfo_t *info, void *context) {
  // A fault while this thread reported prints what it had.
  claimFatalReportOrWait();
  const char *address = static_cast<const char *>(info->si_addr);
  const void *pc = faultingPc(context);
  if (running.name)
    reportKernelFault(running, signal, address, pc);

  if (const char *function = programHeapCall()) {
    Message message;
    message << "error: ";
    appendHeapCorruption(message, function, signal, address);
    message.exit();
  }

  if (const char *opLoc = runningOpLoc(); opLoc && isMemoryFault(signal)) {
    Message message;
    message.appendErrorPrefix(opLoc);
    appendFault(message, signal, address, pc);
    message << ": the op reached memory outside what the program "
               "allocated (host memory is not checked before an op runs)";
    message.exit();
  }

  Dl_info object = {};
  Message message;
  if (signal != SIGABRT && pc && !dladdr(pc, &object)) {
    // Code that belongs to no loaded object is the JIT's: the program's.
    message << "error: ";
    const char *function = findProgramFunction(reinterpret_cast<uintptr_t>(pc));
    if (isStackOverflow(signal, address, context)) {
      message << "stack overflow in the program's host code (outside any "
                 "kernel)";
      if (function)
        message << ", in @" << function;
      message << ": too deep a recursion, or too large a memref.alloca";
      message.exit();
    }
    appendFault(message, signal, address, pc);
    message << " in the program's host code (outside any kernel)";
    if (function)
      message << ", in @" << function;
    message.exit();
  }
  if (signal == SIGABRT) {
    // gpu-runner's own abort (an LLVM error, an assertion) has printed why;
    // hand it to the previous handler, which runs when this one returns.
    sigaction(signal, previousAction(signal), nullptr);
    raise(signal);
    return;
  }
  message << "error: internal error: ";
  appendFault(message, signal, address, pc);
  message << " in " << (object.dli_fname ? object.dli_fname : "unknown code");
  if (object.dli_sname)
    message << " (" << object.dli_sname << ")";
  message << ", outside the program's code: a bug of gpu-runner or of a "
             "library; please report it with the input";
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
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < kSignalCount; ++i)
    sigaction(kSignals[i], &action, &previousActions[i]);
}

bool faultHandlerInstalled() { return installed.load(); }

} // namespace gpu_runner
