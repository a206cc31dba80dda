//===- Baseline.h - The memcpy benchmark's sweep, for native baselines ----===//
//
// What memcpy.mlir does, in C++, over an interface that each native baseline
// implements with its vendor's raw calls (libc memcpy for the host backend,
// cuMemcpyAsync for CUDA): the same environment variables, sizes, buffers,
// fill pattern, warm-up, timed batches, data check and output lines, so that
// scripts/bench-memcpy reads both sides with one parser.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_BENCHMARKS_MEMCPY_BASELINE_H
#define GPU_RUNNER_BENCHMARKS_MEMCPY_BASELINE_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace gpu_runner {
namespace memcpy_bench {

/// The raw copy calls of one vendor API. Every function either succeeds or
/// ends the process with a message.
class CopyApi {
public:
  virtual ~CopyApi() = default;
  virtual void *allocateDevice(uint64_t bytes) = 0;
  virtual void freeDevice(void *ptr) = 0;
  /// Host memory as memref.alloc makes it; `pinned` registers it the way
  /// gpu.host_register does.
  virtual void *allocateHost(uint64_t bytes, bool pinned) = 0;
  virtual void freeHost(void *ptr, bool pinned) = 0;
  /// Synchronous copies between host and device memory, for filling and
  /// checking (not timed).
  virtual void copyToDevice(void *dst, const void *src, uint64_t bytes) = 0;
  virtual void copyToHost(void *dst, const void *src, uint64_t bytes) = 0;
  /// `copies` copies of `bytes` bytes from `src` to `dst`, in order, timed
  /// as memcpy.mlir times its batch: `deviceNs` where the copies ran,
  /// `hostNs` the time spent issuing them. An asynchronous API issues one
  /// untimed copy first, to keep its stream busy while the batch is issued.
  virtual void timeBatch(void *dst, const void *src, uint64_t bytes,
                         int64_t copies, int64_t &deviceNs,
                         int64_t &hostNs) = 0;
};

struct Kind {
  const char *name;
  bool srcOnDevice;
  bool dstOnDevice;
  bool pinned;
};

inline const Kind *findKind(const char *name) {
  static const Kind kinds[] = {
      {"h2d-pageable", false, true, false}, {"h2d-pinned", false, true, true},
      {"d2h-pageable", true, false, false}, {"d2h-pinned", true, false, true},
      {"d2d", true, true, false},
  };
  for (const Kind &kind : kinds)
    if (std::strcmp(kind.name, name) == 0)
      return &kind;
  return nullptr;
}

/// The integer in the environment variable `name`, or `fallback`; the same
/// variables and defaults as memcpy.mlir.
inline int64_t param(const char *name, int64_t fallback) {
  const char *text = std::getenv(name);
  return text ? std::strtoll(text, nullptr, 0) : fallback;
}

class Sweep {
public:
  Sweep(CopyApi &api, const Kind &kind) : api(api), kind(kind) {}

  void run() {
    int64_t minBytes = param("MEMCPY_BENCH_MIN_BYTES", 4096);
    int64_t maxBytes = param("MEMCPY_BENCH_MAX_BYTES", int64_t(1) << 30);
    int64_t batchBytes = param("MEMCPY_BENCH_BATCH_BYTES", int64_t(1) << 28);
    int64_t maxCopies = param("MEMCPY_BENCH_MAX_COPIES", 1000);
    int64_t smallBytes = param("MEMCPY_BENCH_SMALL_BYTES", 8);
    int64_t smallCopies = param("MEMCPY_BENCH_SMALL_COPIES", 1000);
    warmup = param("MEMCPY_BENCH_WARMUP", 1);
    samples = param("MEMCPY_BENCH_SAMPLES", 5);
    for (int64_t bytes = minBytes; bytes <= maxBytes; bytes *= 2) {
      int64_t copies = std::max<int64_t>(
          1, std::min<int64_t>(batchBytes / bytes, maxCopies));
      runSize("sample", bytes, copies);
    }
    if (smallCopies > 0)
      runSize("small", smallBytes, smallCopies);
  }

private:
  void *allocate(bool onDevice, uint64_t bytes) {
    return onDevice ? api.allocateDevice(bytes)
                    : api.allocateHost(bytes, kind.pinned);
  }
  void release(void *ptr, bool onDevice) {
    if (onDevice)
      api.freeDevice(ptr);
    else
      api.freeHost(ptr, kind.pinned);
  }

  /// Element i becomes first + i * step, through a host buffer for device
  /// memory; this touches every page before the timed copies.
  void fill(void *buffer, bool onDevice, int64_t n, int64_t first,
            int64_t step) {
    std::vector<int64_t> staging;
    int64_t *out = static_cast<int64_t *>(buffer);
    if (onDevice) {
      staging.resize(n);
      out = staging.data();
    }
    for (int64_t i = 0; i < n; ++i)
      out[i] = first + i * step;
    if (onDevice)
      api.copyToDevice(buffer, staging.data(), n * 8);
  }

  int64_t countWrong(const void *buffer, bool onDevice, int64_t n,
                     int64_t first) {
    std::vector<int64_t> staging;
    const int64_t *in = static_cast<const int64_t *>(buffer);
    if (onDevice) {
      staging.resize(n);
      api.copyToHost(staging.data(), buffer, n * 8);
      in = staging.data();
    }
    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i)
      wrong += in[i] != first + i;
    return wrong;
  }

  void runSize(const char *tag, int64_t bytes, int64_t copies) {
    int64_t n = bytes / 8;
    void *src = allocate(kind.srcOnDevice, bytes);
    void *dst = allocate(kind.dstOnDevice, bytes);
    fill(src, kind.srcOnDevice, n, bytes, 1);
    fill(dst, kind.dstOnDevice, n, -1, 0);
    int64_t deviceNs, hostNs;
    for (int64_t w = 0; w < warmup; ++w)
      api.timeBatch(dst, src, bytes, copies, deviceNs, hostNs);
    for (int64_t s = 0; s < samples; ++s) {
      api.timeBatch(dst, src, bytes, copies, deviceNs, hostNs);
      std::printf("%s %s %lld %lld %lld %lld\n", tag, kind.name,
                  static_cast<long long>(bytes), static_cast<long long>(copies),
                  static_cast<long long>(deviceNs),
                  static_cast<long long>(hostNs));
    }
    std::printf(
        "check %s %lld %lld\n", kind.name, static_cast<long long>(bytes),
        static_cast<long long>(countWrong(dst, kind.dstOnDevice, n, bytes)));
    std::fflush(stdout);
    release(src, kind.srcOnDevice);
    release(dst, kind.dstOnDevice);
  }

  CopyApi &api;
  const Kind &kind;
  int64_t warmup = 1;
  int64_t samples = 5;
};

/// The bytes the kernel says can be allocated without swapping.
inline uint64_t hostAvailableBytes() {
  FILE *file = std::fopen("/proc/meminfo", "r");
  if (!file)
    return 0;
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof(line), file))
    if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
      break;
  std::fclose(file);
  return uint64_t(kib) * 1024;
}

/// main() of a baseline: `<binary> KIND` runs the sweep of one kind of copy;
/// `<binary> info` prints the memory the harness may use
/// ("host_available_bytes N", "device_free_bytes N") and the device's name.
template <typename Api> int baselineMain(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "info") == 0) {
    Api api;
    std::printf("host_available_bytes %llu\n",
                static_cast<unsigned long long>(hostAvailableBytes()));
    std::printf("device_free_bytes %llu\n",
                static_cast<unsigned long long>(api.deviceFreeBytes()));
    std::printf("device %s\n", api.deviceName().c_str());
    return 0;
  }
  const Kind *kind = argc == 2 ? findKind(argv[1]) : nullptr;
  if (!kind) {
    std::fprintf(stderr,
                 "usage: %s h2d-pageable|h2d-pinned|d2h-pageable|d2h-pinned|"
                 "d2d|info\n",
                 argv[0]);
    return 1;
  }
  Api api;
  Sweep(api, *kind).run();
  return 0;
}

} // namespace memcpy_bench
} // namespace gpu_runner

#endif // GPU_RUNNER_BENCHMARKS_MEMCPY_BASELINE_H
