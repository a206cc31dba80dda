//===- Baseline.cpp - The kernel benchmarks written as plain C++ ----------===//
//
// What elementwise.mlir and reduction.mlir compute, as loops compiled at -O3
// and split over as many threads as the host backend uses, printing their
// times and checks in the same format, so that a driver can run both side
// by side.
//
//   gpu-runner-kernel-baseline saxpy|reduction
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

namespace {

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Runs `body(begin, end)` over [0, n) split into one contiguous range per
/// hardware thread.
void parallelFor(int64_t n, const std::function<void(int64_t, int64_t)> &body) {
  unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  int64_t chunk = (n + workers - 1) / workers;
  for (unsigned w = 0; w < workers; ++w) {
    int64_t begin = w * chunk, end = std::min<int64_t>(n, begin + chunk);
    if (begin < end)
      threads.emplace_back(body, begin, end);
  }
  for (std::thread &thread : threads)
    thread.join();
}

/// Times `run` after `warmup` untimed calls, printing one line a run.
void time(int warmup, int runs, const std::function<void()> &run) {
  for (int r = 0; r < warmup + runs; ++r) {
    double start = now();
    run();
    double seconds = now() - start;
    if (r >= warmup)
      std::printf("%f\n", seconds);
  }
}

int saxpy() {
  const int64_t n = int64_t(1) << 24;
  std::vector<float> x(n, 1.0f), y(n, 0.0f);
  const float a = 0.5f;
  time(2, 10, [&] {
    parallelFor(n, [&](int64_t begin, int64_t end) {
      float *__restrict ys = y.data();
      const float *__restrict xs = x.data();
      for (int64_t i = begin; i < end; ++i)
        ys[i] = a * xs[i] + ys[i];
    });
  });
  std::printf("%f\n", double(y[n - 1]));
  return 0;
}

int reduction() {
  const int64_t n = int64_t(1) << 22, block = 256;
  std::vector<int32_t> in(n, 3), out(n / block);
  time(1, 5, [&] {
    parallelFor(n / block, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        int32_t sum = 0;
        for (int64_t i = b * block; i < (b + 1) * block; ++i)
          sum += in[i];
        out[b] = sum;
      }
    });
  });
  int64_t total = 0;
  for (int32_t sum : out)
    total += sum;
  std::printf("%lld\n", static_cast<long long>(total));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "saxpy") == 0)
    return saxpy();
  if (argc == 2 && std::strcmp(argv[1], "reduction") == 0)
    return reduction();
  std::fprintf(stderr, "usage: %s saxpy|reduction\n", argv[0]);
  return 1;
}
