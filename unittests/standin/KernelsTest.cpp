//===- KernelsTest.cpp - Kernels run on the CUDA stand-in -----------------===//
//
// Loads PTX images with the NVVM IR they stand for, gives the IR to the
// stand-in (gpuRunnerStandinModuleAttachIR) and launches the kernels through
// cuLaunchKernel, checking what they compute against the PTX ISA's rules.
// Launches that fail leave a sticky error on the process's context, so they
// run as hidden test cases in processes of their own.
//
//===----------------------------------------------------------------------===//

#include "unittests/standin/KernelTestSupport.h"
#include "unittests/standin/StandinTestSupport.h"

#include <chrono>
#include <cstdio>
#include <numeric>

using namespace gpu_runner::test;

namespace {

CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                unsigned bx, unsigned by, unsigned bz, unsigned shared,
                std::vector<void *> params) {
  return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, nullptr,
                        params.data(), nullptr);
}

} // namespace

TEST_CASE("a kernel reads its special registers", "[standin][kernels]") {
  CUmodule module = loadKernels(inputPath("ids.ll"));
  CUfunction ids = getKernel(module, "ids");
  const unsigned gx = 3, gy = 2, bx = 4, by = 2, bz = 5;
  const size_t count = gx * gy * bx * by * bz;
  CUdeviceptr out = toDevice(std::vector<int32_t>(count, -1));
  REQUIRE(launch(ids, gx, gy, 1, bx, by, bz, 0, {&out}) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  std::vector<int32_t> values = fromDevice<int32_t>(out, count);
  size_t i = 0;
  for (unsigned y = 0; y < gy; ++y)
    for (unsigned x = 0; x < gx; ++x)
      for (unsigned tz = 0; tz < bz; ++tz)
        for (unsigned ty = 0; ty < by; ++ty)
          for (unsigned tx = 0; tx < bx; ++tx, ++i) {
            INFO("block (" << x << ", " << y << "), thread (" << tx << ", "
                           << ty << ", " << tz << ")");
            CHECK(values[i] == int32_t(tx + 10 * ty + 100 * tz + 1000 * x +
                                       10000 * y + 100000));
          }
  CHECK(cuMemFree(out) == CUDA_SUCCESS);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}

TEST_CASE("barriers wait for the threads that have not exited",
          "[standin][kernels]") {
  CUmodule module = loadKernels(inputPath("reduce.ll"));
  CUfunction reduce = getKernel(module, "reduce");
  const unsigned blocks = 6, threads = 256;
  std::vector<int32_t> input(blocks * threads);
  std::iota(input.begin(), input.end(), 1);
  CUdeviceptr in = toDevice(input);
  CUdeviceptr out = toDevice(std::vector<int32_t>(blocks, -1));
  CUdeviceptr neighbours = toDevice(std::vector<int32_t>(blocks * threads, -1));
  // Threads 200 and up return before the first barrier.
  int32_t n = 200;
  REQUIRE(launch(reduce, blocks, 1, 1, threads, 1, 1, threads * 4,
                 {&in, &out, &neighbours, &n}) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  std::vector<int32_t> sums = fromDevice<int32_t>(out, blocks);
  std::vector<int32_t> next = fromDevice<int32_t>(neighbours, blocks * threads);
  for (unsigned b = 0; b < blocks; ++b) {
    int32_t expected = 0;
    for (int32_t t = 0; t < n; ++t)
      expected += input[b * threads + t];
    CHECK(sums[b] == expected);
    for (int32_t t = 0; t < n; ++t)
      CHECK(next[b * threads + t] ==
            input[b * threads + (t + 1 == n ? 0 : t + 1)]);
    CHECK(next[b * threads + n] == -1);
  }
  for (CUdeviceptr pointer : {in, out, neighbours})
    CHECK(cuMemFree(pointer) == CUDA_SUCCESS);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}
