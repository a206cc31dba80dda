//===- BaselineHost.cpp - The memcpy benchmark with libc memcpy -----------===//
//
// The native side of the host backend's memcpy benchmark: the same copies
// as memcpy.mlir, made by calling memcpy directly on the program's thread.
// "Device" memory is anonymous mmap'd memory, page-aligned as the host
// backend's arena hands it out; host memory comes from malloc, as
// memref.alloc gets it. Registering host memory means nothing here, as on
// the host backend, so the pinned kinds copy the same way.
//
//   gpu-runner-memcpy-baseline-host h2d-pageable|...|d2d|info
//
//===----------------------------------------------------------------------===//

#include "Baseline.h"

#include <chrono>
#include <fstream>

#include <sys/mman.h>
#include <unistd.h>

using namespace gpu_runner::memcpy_bench;

namespace {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "error: %s failed\n", what);
  std::exit(1);
}

class HostApi : public CopyApi {
public:
  void *allocateDevice(uint64_t bytes) override {
    void *ptr = mmap(nullptr, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ptr == MAP_FAILED)
      fail("mmap");
    sizes.emplace_back(ptr, bytes ? bytes : 1);
    return ptr;
  }
  void freeDevice(void *ptr) override {
    for (auto it = sizes.begin(); it != sizes.end(); ++it)
      if (it->first == ptr) {
        munmap(ptr, it->second);
        sizes.erase(it);
        return;
      }
    fail("freeDevice of an unknown pointer");
  }
  void *allocateHost(uint64_t bytes, bool) override {
    void *ptr = std::malloc(bytes ? bytes : 1);
    if (!ptr)
      fail("malloc");
    return ptr;
  }
  void freeHost(void *ptr, bool) override { std::free(ptr); }
  void copyToDevice(void *dst, const void *src, uint64_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void copyToHost(void *dst, const void *src, uint64_t bytes) override {
    std::memcpy(dst, src, bytes);
  }
  void timeBatch(void *dst, const void *src, uint64_t bytes, int64_t copies,
                 int64_t &deviceNs, int64_t &hostNs) override {
    int64_t start = nowNs();
    for (int64_t i = 0; i < copies; ++i) {
      std::memcpy(dst, src, bytes);
      // Keeps the compiler from merging or dropping repeated copies.
      asm volatile("" : : "r"(dst) : "memory");
    }
    deviceNs = hostNs = nowNs() - start;
  }

  uint64_t deviceFreeBytes() const { return hostAvailableBytes(); }
  std::string deviceName() const {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
      if (line.rfind("model name", 0) == 0)
        return line.substr(line.find(':') + 2);
    return "host CPU";
  }

private:
  std::vector<std::pair<void *, uint64_t>> sizes;
};

} // namespace

int main(int argc, char **argv) { return baselineMain<HostApi>(argc, argv); }
