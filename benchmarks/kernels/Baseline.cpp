//===- Baseline.cpp - The kernel benchmarks written as plain C++ ----------===//
//
// What the kernel benchmarks (elementwise.mlir, reduction.mlir,
// allreduce.mlir, shuffle.mlir, softmax.mlir) compute, on the same data, as
// loops compiled at -O3 and split over as many threads as the host backend
// uses, printing their times and checks in the same format, so that a driver
// can run both side by side.
//
//   gpu-runner-kernel-baseline saxpy|reduction|allreduce|shuffle|softmax
//                              [WARMUP RUNS]
//
// WARMUP and RUNS (untimed and timed runs) default to the counts of the
// program's @main.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

/// Untimed and timed runs; the command line's, when given.
struct Counts {
  int warmup, runs;
};
Counts counts{-1, -1};

/// Times `run` after the warm-up calls, printing one line a timed run;
/// `warmup` and `runs` unless the command line gave counts.
void time(int warmup, int runs, const std::function<void()> &run) {
  if (counts.warmup >= 0) {
    warmup = counts.warmup;
    runs = counts.runs;
  }
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

/// in[i] = (7 i + 3) mod 17 - 8, as the programs' @fill kernels write.
std::vector<int32_t> patternInts(int64_t n) {
  std::vector<int32_t> in(n);
  for (int64_t i = 0; i < n; ++i)
    in[i] = int32_t((7 * i + 3) % 17) - 8;
  return in;
}

/// The sum over groups g of (g + 1) * sums[g], the programs' checksum.
int64_t weightedChecksum(const std::vector<int32_t> &sums) {
  int64_t check = 0;
  for (size_t g = 0; g < sums.size(); ++g)
    check += int64_t(sums[g]) * int64_t(g + 1);
  return check;
}

/// Sums of consecutive groups of `group` ints of the pattern, one thread a
/// range of groups: allreduce.mlir (groups of a block, 256) and shuffle.mlir
/// (groups of a subgroup, 32).
int groupSums(int64_t group) {
  const int64_t n = int64_t(1) << 22;
  std::vector<int32_t> in = patternInts(n), out(n / group);
  time(1, 5, [&] {
    parallelFor(n / group, [&](int64_t begin, int64_t end) {
      for (int64_t g = begin; g < end; ++g) {
        int32_t sum = 0;
        for (int64_t i = g * group; i < (g + 1) * group; ++i)
          sum += in[i];
        out[g] = sum;
      }
    });
  });
  std::printf("%lld\n", static_cast<long long>(weightedChecksum(out)));
  return 0;
}

int softmax() {
  const int64_t rows = 4096, cols = 1024;
  std::vector<float> x(rows * cols), y(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i)
    x[i] = float(i * 7 % 23) * 0.125f - 1.0f;
  time(1, 5, [&] {
    parallelFor(rows, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const float *__restrict xs = x.data() + r * cols;
        float *__restrict ys = y.data() + r * cols;
        float max = -INFINITY;
        for (int64_t c = 0; c < cols; ++c)
          max = std::fmax(max, xs[c]);
        float sum = 0.0f;
        for (int64_t c = 0; c < cols; ++c) {
          ys[c] = std::exp(xs[c] - max);
          sum += ys[c];
        }
        for (int64_t c = 0; c < cols; ++c)
          ys[c] = ys[c] / sum;
      }
    });
  });
  double check = 0.0;
  for (int64_t i = 0; i < rows * cols; ++i)
    check += double(x[i] * y[i]);
  std::printf("%f\n", check);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 4) {
    counts.warmup = std::atoi(argv[2]);
    counts.runs = std::atoi(argv[3]);
  }
  if (argc == 2 || argc == 4) {
    const char *name = argv[1];
    if (std::strcmp(name, "saxpy") == 0)
      return saxpy();
    if (std::strcmp(name, "reduction") == 0)
      return reduction();
    if (std::strcmp(name, "allreduce") == 0)
      return groupSums(256);
    if (std::strcmp(name, "shuffle") == 0)
      return groupSums(32);
    if (std::strcmp(name, "softmax") == 0)
      return softmax();
  }
  std::fprintf(stderr,
               "usage: %s saxpy|reduction|allreduce|shuffle|softmax "
               "[WARMUP RUNS]\n",
               argv[0]);
  return 1;
}
