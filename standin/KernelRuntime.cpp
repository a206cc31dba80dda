//===- KernelRuntime.cpp - A launch run on the CPU ------------------------===//
//
// See KernelRuntime.h: the pool of worker threads that runs a grid's blocks,
// what the runtime functions share (RuntimeFunctions.h), and the runtime
// functions rewritten kernels call for memory checks, barriers and
// warp-collective instructions (through BlockThreads), assert, trap and
// timers. printf is KernelPrintf.cpp's, the PTX rounding modes
// KernelRounding.cpp's, wmma KernelWmma.cpp's.
//
//===----------------------------------------------------------------------===//

#include "standin/KernelRuntime.h"

#include "standin/BlockThreads.h"
#include "standin/Driver.h"
#include "standin/RuntimeFunctions.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <thread>

namespace gpu_runner {
namespace standin {

//===----------------------------------------------------------------------===//
// GridRun
//===----------------------------------------------------------------------===//

void GridRun::fail(Error failure, const std::string &text) {
  std::lock_guard<std::mutex> lock(mutex);
  if (failed.load(std::memory_order_relaxed))
    return;
  // A failure outranks the assertions before it: the launch reports it.
  error = failure;
  report = text;
  failed.store(true, std::memory_order_relaxed);
  stopped.store(true, std::memory_order_relaxed);
}

void GridRun::failAssertions(uint64_t block, std::string lines) {
  std::lock_guard<std::mutex> lock(mutex);
  assertions[block] = std::move(lines);
  if (error == Error::Success)
    error = Error::Assert;
  stopped.store(true, std::memory_order_relaxed);
}

void GridRun::addOutput(uint64_t block, std::string text,
                        std::string errorText) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!text.empty())
    output[block] = std::move(text);
  if (!errorText.empty())
    errorOutput[block] = std::move(errorText);
}

//===----------------------------------------------------------------------===//
// What the runtime functions share.
//===----------------------------------------------------------------------===//

BlockThreads &blockOf(ThreadContext *context) { return *context->slot->block; }

/// "kernel 'k', block (1, 0, 0), thread (3, 0, 0)": from the registers, which
/// hold the running thread also when one fiber runs them all.
std::string describeThread(ThreadContext *context) {
  const uint32_t *r = context->registers;
  return blockOf(context).where() + ", thread (" + std::to_string(r[kTidX]) +
         ", " + std::to_string(r[kTidY]) + ", " + std::to_string(r[kTidZ]) +
         ")";
}

[[noreturn]] void failThread(ThreadContext *context, Error error,
                             const std::string &report) {
  context->grid->fail(error, report);
  blockOf(context).abandonThread(*context->slot);
}

/// Stops the thread if its grid failed meanwhile.
void checkGrid(ThreadContext *context) {
  if (context->grid->failed.load(std::memory_order_relaxed))
    blockOf(context).abandonThread(*context->slot);
}

/// Where `address` lies among what a kernel may reach: the stand-in's
/// pointer to it and the bytes readable from there. Null when it is none of
/// them (or, for a write, read-only).
char *resolve(ThreadContext *context, uintptr_t address, uint32_t space,
              bool write, uint64_t &available) {
  const GridRun &grid = *context->grid;
  const KernelProgram &program = *grid.program;
  bool global = space == kAccessGeneric || space == kAccessGlobal ||
                space == kAccessConst;
  auto inside = [&](uintptr_t begin, uint64_t size) {
    if (address < begin || address - begin >= size)
      return false;
    available = size - (address - begin);
    return true;
  };
  if (global) {
    const ArenaView &arena = program.getArena();
    if (inside(arena.base, arena.size))
      return reinterpret_cast<char *>(address + arena.delta);
    if (inside(grid.memory.managedBase, grid.memory.managedSize))
      return reinterpret_cast<char *>(address);
    const auto &ranges = grid.memory.registrations;
    auto it =
        std::upper_bound(ranges.begin(), ranges.end(), address,
                         [](uintptr_t a, const ReachableMemory::Range &r) {
                           return a < r.begin;
                         });
    if (it != ranges.begin()) {
      --it;
      if (inside(it->begin, it->bytes))
        return write && it->readOnly ? nullptr
                                     : reinterpret_cast<char *>(address);
    }
    for (const GlobalRange &range : program.getGlobals())
      if (inside(range.begin, range.bytes))
        return write && range.constant ? nullptr
                                       : reinterpret_cast<char *>(address);
  }
  if (space == kAccessGeneric || space == kAccessShared)
    if (inside(reinterpret_cast<uintptr_t>(context->shared),
               context->sharedBytes))
      return reinterpret_cast<char *>(address);
  if (space == kAccessGeneric || space == kAccessLocal)
    if (inside(context->stackLow, context->stackHigh - context->stackLow))
      return reinterpret_cast<char *>(address);
  return nullptr;
}

namespace {

const char *describeSpace(uint32_t space) {
  switch (space) {
  case kAccessGlobal:
    return "global ";
  case kAccessShared:
    return "shared ";
  case kAccessConst:
    return "constant ";
  case kAccessLocal:
    return "local ";
  default:
    return "";
  }
}

} // namespace

std::string hexAddress(uintptr_t address) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIxPTR, address);
  return text;
}

/// A NUL-terminated string the kernel passes (printf's format, assert's
/// texts), read where the kernel may read it; false if it may not.
bool readString(ThreadContext *context, uintptr_t address, std::string &text) {
  uint64_t available = 0;
  char *at = resolve(context, address, kAccessGeneric, false, available);
  if (!at)
    return false;
  size_t length = strnlen(at, available);
  if (length == available)
    return false;
  text.assign(at, length);
  return true;
}

namespace {

//===----------------------------------------------------------------------===//
// The runtime functions.
//===----------------------------------------------------------------------===//

char *rtAccess(ThreadContext *context, uintptr_t address, uint64_t bytes,
               uint32_t flags, uint32_t site) {
  checkGrid(context);
  uint32_t space = flags & kAccessSpaceMask;
  bool write = flags & kAccessWrite;
  uint64_t alignment = uint64_t(1) << ((flags >> kAccessAlignShift) & 15);
  if (bytes == 0)
    return reinterpret_cast<char *>(address);
  std::string what = std::string(write ? "a write of " : "a read of ") +
                     std::to_string(bytes) + " bytes at " + hexAddress(address);
  // The IR's alignment is a promise the code generated for the GPU relies
  // on; an access that breaks it faults there (CUDA_ERROR_MISALIGNED_ADDRESS).
  if (address % alignment != 0)
    failThread(context, Error::MisalignedAddress,
               describeThread(context) + ": " + what +
                   ", which the IR says is " + std::to_string(alignment) +
                   "-byte aligned, at " +
                   context->grid->program->describeSite(site) +
                   ": a misaligned address");
  uint64_t available = 0;
  char *at = resolve(context, address, space, write, available);
  if (at && bytes <= available)
    return at;
  std::string where =
      Driver::get().describePointer(reinterpret_cast<const void *>(address));
  failThread(context, Error::IllegalAddress,
             describeThread(context) + ": " + what + " (" + where +
                 ", through a " + describeSpace(space) + "pointer) at " +
                 context->grid->program->describeSite(site) +
                 ": an illegal address. A kernel reaches device memory (its "
                 "device's, managed and registered), the module's globals, its "
                 "block's shared memory and its own stack, and nothing else");
}

uint32_t rtBarrier(ThreadContext *context, uint32_t id, uint32_t count,
                   uint32_t flags, uint32_t predicate, uint32_t site) {
  checkGrid(context);
  return blockOf(context).barrier(*context->slot, id, count, flags, predicate,
                                  site);
}

uint64_t rtShfl(ThreadContext *context, uint32_t mode, uint32_t a, uint32_t b,
                uint32_t c, uint32_t mask, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.a = a;
  slot.b = b;
  slot.c = c;
  return blockOf(context).warpOp(slot, WarpOpKind::Shfl, mode, mask, site);
}

uint32_t rtVote(ThreadContext *context, uint32_t mode, uint32_t predicate,
                uint32_t mask, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.a = predicate != 0;
  return static_cast<uint32_t>(
      blockOf(context).warpOp(slot, WarpOpKind::Vote, mode, mask, site));
}

uint64_t rtMatch(ThreadContext *context, uint32_t all, uint64_t value,
                 uint32_t wide, uint32_t mask, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.a = value;
  return blockOf(context).warpOp(slot, WarpOpKind::Match,
                                 (all ? 1 : 0) | (wide ? 2 : 0), mask, site);
}

uint32_t rtRedux(ThreadContext *context, uint32_t op, uint32_t value,
                 uint32_t mask, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.a = value;
  return static_cast<uint32_t>(
      blockOf(context).warpOp(slot, WarpOpKind::Redux, op, mask, site));
}

void rtWarpSync(ThreadContext *context, uint32_t mask, uint32_t site) {
  checkGrid(context);
  blockOf(context).warpOp(*context->slot, WarpOpKind::WarpSync, 0, mask, site);
}

uint32_t rtActiveMask(ThreadContext *context, uint32_t site) {
  checkGrid(context);
  return blockOf(context).activeMask(*context->slot, site);
}

uint64_t rtWave(ThreadContext *context, uint32_t op, uint64_t value,
                uint32_t operand, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.a = value;
  slot.b = operand;
  return blockOf(context).waveOp(slot, op, site);
}

void rtExit(ThreadContext *context, uint32_t) {
  blockOf(context).exitThread(*context->slot);
}

void rtTrap(ThreadContext *context, uint32_t site) {
  // PTX ISA, trap: "Abort execution and generate an interrupt to the host
  // CPU"; the launch fails with CUDA_ERROR_LAUNCH_FAILED.
  failThread(context, Error::LaunchFailed,
             describeThread(context) + " executed trap at " +
                 context->grid->program->describeSite(site));
}

void rtAssertFail(ThreadContext *context, uintptr_t message, uintptr_t file,
                  uint32_t line, uintptr_t function, uint64_t) {
  std::string messageText, fileText, functionText;
  if (!readString(context, message, messageText))
    messageText = "(unreadable)";
  if (!readString(context, file, fileText))
    fileText = "(unreadable)";
  if (!readString(context, function, functionText))
    functionText = "(unreadable)";
  const uint32_t *r = context->registers;
  char ids[160];
  std::snprintf(ids, sizeof(ids), "block: [%u,%u,%u], thread: [%u,%u,%u]",
                r[kCtaidX], r[kCtaidY], r[kCtaidZ], r[kTidX], r[kTidY],
                r[kTidZ]);
  // CUDA's device-side assert prints, for each failing thread,
  // "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion
  // `MESSAGE` failed." on stderr, then the kernel traps and the context is
  // left with CUDA_ERROR_ASSERT.
  std::string text = fileText + ":" + std::to_string(line) + ": " +
                     functionText + ": " + ids + " Assertion `" + messageText +
                     "` failed.\n";
  blockOf(context).failAssertion(*context->slot, text);
}

uint64_t rtClock(ThreadContext *) {
  // %clock64 counts the SM's cycles; the device's clock rate is 1.98 GHz
  // (CU_DEVICE_ATTRIBUTE_CLOCK_RATE).
  uint64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
  return ns * 198 / 100;
}

uint64_t rtGlobalTimer(ThreadContext *) {
  // PTX ISA, %globaltimer: "A predefined, 64-bit global nanosecond timer."
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void rtNanosleep(ThreadContext *context, uint32_t) {
  // PTX ISA, nanosleep: the thread sleeps "for a duration approximately
  // close to" the time given, from 0 to twice it: here it lets the block's
  // other threads run first, which a loop that waits for them needs.
  checkGrid(context);
  blockOf(context).yield(*context->slot);
}

void rtWmmaMma(ThreadContext *context, const WmmaDescriptor *descriptor,
               void *a, void *b, void *c, void *d, uint32_t site) {
  checkGrid(context);
  ThreadSlot &slot = *context->slot;
  slot.wmma = descriptor;
  slot.fragments[0] = a;
  slot.fragments[1] = b;
  slot.fragments[2] = c;
  slot.fragments[3] = d;
  uint32_t shape = descriptor->m | (descriptor->n << 6) | (descriptor->k << 12);
  blockOf(context).warpOp(slot, WarpOpKind::Wmma, shape, 0xffffffffu, site);
}

} // namespace

void BlockThreads::yield(ThreadSlot &slot) {
  if (loopMode)
    return;
  runQueue.push_back(slot.linear);
  suspend(slot);
}

std::vector<RuntimeSymbol> getRuntimeSymbols() {
  return {
      {"access", reinterpret_cast<void *>(&rtAccess)},
      {"barrier", reinterpret_cast<void *>(&rtBarrier)},
      {"shfl", reinterpret_cast<void *>(&rtShfl)},
      {"vote", reinterpret_cast<void *>(&rtVote)},
      {"match", reinterpret_cast<void *>(&rtMatch)},
      {"redux", reinterpret_cast<void *>(&rtRedux)},
      {"warpsync", reinterpret_cast<void *>(&rtWarpSync)},
      {"activemask", reinterpret_cast<void *>(&rtActiveMask)},
      {"wave", reinterpret_cast<void *>(&rtWave)},
      {"exit", reinterpret_cast<void *>(&rtExit)},
      {"trap", reinterpret_cast<void *>(&rtTrap)},
      {"assertfail", reinterpret_cast<void *>(&rtAssertFail)},
      {"vprintf", reinterpret_cast<void *>(&rtVprintf)},
      {"hostcall_printf", reinterpret_cast<void *>(&rtHostcallPrintf)},
      {"clock", reinterpret_cast<void *>(&rtClock)},
      {"globaltimer", reinterpret_cast<void *>(&rtGlobalTimer)},
      {"nanosleep", reinterpret_cast<void *>(&rtNanosleep)},
      {"roundf32", reinterpret_cast<void *>(&rtRoundF32)},
      {"roundf64", reinterpret_cast<void *>(&rtRoundF64)},
      {"d2f", reinterpret_cast<void *>(&rtD2F)},
      {"itof32", reinterpret_cast<void *>(&rtIToF32)},
      {"itof64", reinterpret_cast<void *>(&rtIToF64)},
      {"wmma_mma", reinterpret_cast<void *>(&rtWmmaMma)},
  };
}

//===----------------------------------------------------------------------===//
// The worker pool.
//===----------------------------------------------------------------------===//

namespace {

/// Threads that run blocks, shared by every launch of the process. Never
/// destroyed: streams may still launch while the process exits.
class WorkerPool {
public:
  static WorkerPool &get() {
    static WorkerPool *pool = new WorkerPool();
    return *pool;
  }

  void run(GridRun &grid) {
    std::unique_lock<std::mutex> lock(mutex);
    start();
    grids.push_back(&grid);
    busy[&grid] = 0;
    wake.notify_all();
    done.wait(lock, [&] {
      return busy[&grid] == 0 &&
             std::find(grids.begin(), grids.end(), &grid) == grids.end();
    });
    busy.erase(&grid);
  }

private:
  void start() {
    if (started)
      return;
    started = true;
    // One worker per core, at least two so that blocks run in parallel
    // even on one, at most eight.
    unsigned count =
        std::min(8u, std::max(2u, std::thread::hardware_concurrency()));
    for (unsigned i = 0; i < count; ++i)
      std::thread([this] { workerLoop(); }).detach();
  }

  void workerLoop() {
    BlockThreads blocks;
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      wake.wait(lock, [&] { return !grids.empty(); });
      GridRun *grid = grids.front();
      ++busy[grid];
      lock.unlock();
      uint64_t count = grid->blockCount();
      while (!grid->stopped.load(std::memory_order_relaxed)) {
        uint64_t index = grid->nextBlock.fetch_add(1);
        if (index >= count)
          break;
        blocks.run(*grid, index);
        if (!blocks.output.empty() || !blocks.errorOutput.empty())
          grid->addOutput(index, std::move(blocks.output),
                          std::move(blocks.errorOutput));
        if (!blocks.assertions.empty())
          grid->failAssertions(index, std::move(blocks.assertions));
      }
      lock.lock();
      // No block is left to hand out: later workers go to the next grid.
      auto it = std::find(grids.begin(), grids.end(), grid);
      if (it != grids.end())
        grids.erase(it);
      --busy[grid];
      done.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable wake, done;
  std::deque<GridRun *> grids;
  std::map<GridRun *, int> busy;
  bool started = false;
};

} // namespace

void runGrid(GridRun &grid) { WorkerPool::get().run(grid); }

} // namespace standin
} // namespace gpu_runner
