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
#include <cstring>
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

// PTX ISA, "Special Registers": %dynamic_smem_size is the launch's dynamic
// shared memory, %total_smem_size and %aggr_smem_size the block's static
// and dynamic shared memory together (the stand-in reserves none),
// %is_explicit_cluster whether the launch asked for clusters, %gridid "a
// temporal grid launch number", different for each launch.
TEST_CASE("a kernel reads its launch's special registers",
          "[standin][kernels]") {
  CUmodule module = loadKernels(inputPath("ids.ll"));
  CUfunction registers = getKernel(module, "registers");
  CUdeviceptr out = toDevice(std::vector<int32_t>(6, -1));
  std::vector<void *> params = {&out};
  REQUIRE(launch(registers, 1, 1, 1, 64, 1, 1, 48, params) == CUDA_SUCCESS);
  std::vector<int32_t> first = fromDevice<int32_t>(out, 6);
  CHECK(first[0] == 48);
  CHECK(first[1] == 16 + 48);
  CHECK(first[2] == 16 + 48);
  CHECK(first[3] == 0);
  CHECK(first[5] == 32);

  // A launch that names a cluster size has explicit clusters, and another
  // grid number.
  CUlaunchAttribute attribute;
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = 2;
  attribute.value.clusterDim.y = 1;
  attribute.value.clusterDim.z = 1;
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = 2;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 64;
  config.blockDimY = config.blockDimZ = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  REQUIRE(cuLaunchKernelEx(&config, registers, params.data(), nullptr) ==
          CUDA_SUCCESS);
  std::vector<int32_t> second = fromDevice<int32_t>(out, 6);
  CHECK(second[0] == 0);
  CHECK(second[1] == 16);
  CHECK(second[3] == 1);
  CHECK(second[4] != first[4]);
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

namespace {

/// shfl.sync as the PTX ISA's pseudo-code gives it, for lane `lane` whose
/// warp offers `values`: the value received and the predicate.
std::pair<uint32_t, bool> shuffleReference(int mode, uint32_t lane, uint32_t b,
                                           uint32_t c,
                                           const std::vector<uint32_t> &values,
                                           uint32_t warpBase) {
  int32_t bval = b & 0x1f, cval = c & 0x1f, segmask = (c >> 8) & 0x1f;
  int32_t self = static_cast<int32_t>(lane);
  int32_t maxLane = (self & segmask) | (cval & ~segmask);
  int32_t minLane = self & segmask;
  int32_t j = 0;
  bool pval = false;
  switch (mode) {
  case 0:
    j = self - bval;
    pval = j >= maxLane;
    break;
  case 1:
    j = self + bval;
    pval = j <= maxLane;
    break;
  case 2:
    j = self ^ bval;
    pval = j <= maxLane;
    break;
  default:
    j = minLane | (bval & ~segmask);
    pval = j <= maxLane;
    break;
  }
  if (!pval)
    j = self;
  return {values[warpBase + j], pval};
}

struct ShuffleRun {
  std::vector<uint32_t> out;
  std::vector<uint32_t> valid;
};

ShuffleRun runShuffle(CUfunction f, const std::vector<uint32_t> &values,
                      int32_t mode, int32_t b, int32_t c, uint32_t mask) {
  size_t count = values.size();
  CUdeviceptr in = toDevice(values);
  CUdeviceptr out = toDevice(std::vector<uint32_t>(count, 0xdeadbeef));
  CUdeviceptr valid = toDevice(std::vector<uint32_t>(count, 7));
  REQUIRE(launch(f, 1, 1, 1, static_cast<unsigned>(count), 1, 1, 0,
                 {&in, &out, &valid, &mode, &b, &c, &mask}) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  ShuffleRun run{fromDevice<uint32_t>(out, count),
                 fromDevice<uint32_t>(valid, count)};
  for (CUdeviceptr pointer : {in, out, valid})
    REQUIRE(cuMemFree(pointer) == CUDA_SUCCESS);
  return run;
}

} // namespace

TEST_CASE("shfl.sync follows the PTX ISA's pseudo-code", "[standin][kernels]") {
  CUmodule module = loadKernels(inputPath("shuffles.ll"));
  CUfunction f = getKernel(module, "shuffle");
  // Two warps, each lane offering a value of its own.
  std::vector<uint32_t> values(64);
  for (uint32_t i = 0; i < values.size(); ++i)
    values[i] = 1000 + 7 * i;

  SECTION("every mode and width, as CUDA's __shfl_*_sync encode c") {
    // CUDA's intrinsics pass c = ((32 - width) << 8) | clamp, the clamp
    // being 0 for up and 0x1f for the others.
    for (int mode = 0; mode < 5; ++mode)
      for (uint32_t width : {1u, 2u, 4u, 8u, 16u, 32u})
        for (uint32_t b : {0u, 1u, 2u, 3u, 5u, 8u, 17u, 31u}) {
          uint32_t c = ((32 - width) << 8) | (mode == 0 ? 0 : 0x1f);
          ShuffleRun run = runShuffle(f, values, mode, b, c, 0xffffffffu);
          for (uint32_t t = 0; t < values.size(); ++t) {
            auto [value, pred] =
                shuffleReference(mode, t % 32, b, c, values, t / 32 * 32);
            INFO("mode " << mode << ", width " << width << ", b " << b
                         << ", thread " << t);
            CHECK(run.out[t] == value);
            CHECK(run.valid[t] == uint32_t(pred));
          }
        }
  }

  SECTION("up with width 8: the segment mask is c[12:8]") {
    ShuffleRun run = runShuffle(f, values, 0, 1, (32 - 8) << 8, 0xffffffffu);
    // Lane 8 starts a segment: nothing below it in its segment.
    CHECK(run.out[8] == values[8]);
    CHECK(run.valid[8] == 0);
    CHECK(run.out[9] == values[8]);
    CHECK(run.valid[9] == 1);
    CHECK(run.out[24] == values[24]);
    CHECK(run.valid[24] == 0);
    CHECK(run.out[25] == values[24]);
  }

  SECTION("up with c = 32 - width puts it in the clamp, not the segment "
          "mask") {
    // c = 24: no segments, and only lanes past 24 have a source: lane 9
    // keeps its own value, lane 25 reads lane 24.
    ShuffleRun run = runShuffle(f, values, 0, 1, 32 - 8, 0xffffffffu);
    CHECK(run.out[9] == values[9]);
    CHECK(run.valid[9] == 0);
    CHECK(run.out[24] == values[24]);
    CHECK(run.valid[24] == 0);
    CHECK(run.out[25] == values[24]);
    CHECK(run.valid[25] == 1);
  }

  SECTION("raw clamp values and partial member masks") {
    for (uint32_t c : {0x0fu, 0x1fu, 0x0810u, 0x1c03u})
      for (uint32_t mask : {0x0000ffffu, 0xffff0000u, 0x00ff00ffu})
        for (int mode = 0; mode < 4; ++mode) {
          // Only shuffles that read lanes of the mask are defined.
          bool defined = true;
          for (uint32_t lane = 0; lane < 32; ++lane) {
            if (!(mask >> lane & 1))
              continue;
            std::vector<uint32_t> lanes(32);
            std::iota(lanes.begin(), lanes.end(), 0u);
            uint32_t source =
                shuffleReference(mode, lane, 1, c, lanes, 0).first;
            defined &= (mask >> source & 1) != 0;
          }
          if (!defined)
            continue;
          ShuffleRun run = runShuffle(f, values, mode, 1, c, mask);
          for (uint32_t t = 0; t < values.size(); ++t) {
            INFO("mode " << mode << ", c " << c << ", mask " << mask
                         << ", thread " << t);
            if (!(mask >> (t % 32) & 1)) {
              CHECK(run.out[t] == 0xdeadbeef);
              continue;
            }
            auto [value, pred] =
                shuffleReference(mode, t % 32, 1, c, values, t / 32 * 32);
            CHECK(run.out[t] == value);
            CHECK(run.valid[t] == uint32_t(pred));
          }
        }
  }
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}

TEST_CASE("a shuffle that reads an exited lane (child)",
          "[.standin-exited-lane]") {
  CUmodule module = loadKernels(inputPath("shuffles.ll"));
  CUdeviceptr out = toDevice(std::vector<uint32_t>(32, 0));
  REQUIRE(launch(getKernel(module, "exited"), 1, 1, 1, 32, 1, 1, 0, {&out}) ==
          CUDA_SUCCESS);
  std::printf("synchronize: %d\n", cuCtxSynchronize());
  std::printf("then: %d\n", cuMemFree(out));
}

TEST_CASE("a shuffle by a lane outside its member mask (child)",
          "[.standin-outside-mask]") {
  CUmodule module = loadKernels(inputPath("shuffles.ll"));
  CUdeviceptr out = toDevice(std::vector<uint32_t>(32, 0));
  REQUIRE(launch(getKernel(module, "outside"), 1, 1, 1, 32, 1, 1, 0, {&out}) ==
          CUDA_SUCCESS);
  std::printf("synchronize: %d\n", cuCtxSynchronize());
}

TEST_CASE("reading an exited or non-member lane fails the launch",
          "[standin][kernels]") {
  // Undefined on a GPU; the stand-in says which lane read which, and the
  // context is left with CUDA_ERROR_LAUNCH_FAILED.
  SelfRun exited = runHiddenTest("[.standin-exited-lane]");
  INFO(exited.output);
  CHECK(exited.output.find("lane 0 (thread (0, 0, 0)) of kernel 'exited', "
                           "block (0, 0, 0) reads lane 16 with shfl.sync at "
                           "shfl.sync.down in 'exited', which has exited: "
                           "the value it reads is undefined on a GPU") !=
        std::string::npos);
  CHECK(exited.output.find("synchronize: 719\nthen: 719\n") !=
        std::string::npos);
  SelfRun outside = runHiddenTest("[.standin-outside-mask]");
  INFO(outside.output);
  CHECK(outside.output.find("lane 8 (thread (8, 0, 0)) of kernel 'outside', "
                            "block (0, 0, 0) executes shfl.sync at "
                            "shfl.sync.bfly in 'outside' with member mask "
                            "0xff, which does not include it") !=
        std::string::npos);
  CHECK(outside.output.find("synchronize: 719\n") != std::string::npos);
}

TEST_CASE("vote.sync, activemask, match.sync and redux.sync",
          "[standin][kernels]") {
  CUmodule module = loadKernels(inputPath("votes.ll"));
  CUfunction votes = getKernel(module, "votes");
  // Four warps: all true, all false, mixed, and mixed with equal keys.
  const unsigned threads = 128;
  std::vector<int32_t> pred(threads), key(threads);
  for (unsigned t = 0; t < threads; ++t) {
    unsigned warp = t / 32, lane = t % 32;
    pred[t] = warp == 0 ? 1 : warp == 1 ? 0 : (lane % 5 == 0);
    key[t] = warp == 3 ? 7 : int32_t(lane % 4);
  }
  CUdeviceptr predDevice = toDevice(pred), keyDevice = toDevice(key);
  CUdeviceptr out = toDevice(std::vector<uint32_t>(threads * 8, 0xdeadbeef));
  REQUIRE(launch(votes, 1, 1, 1, threads, 1, 1, 0,
                 {&predDevice, &keyDevice, &out}) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  std::vector<uint32_t> words = fromDevice<uint32_t>(out, threads * 8);
  for (unsigned t = 0; t < threads; ++t) {
    unsigned warp = t / 32, lane = t % 32;
    INFO("thread " << t);
    uint32_t ballot = 0;
    for (unsigned l = 0; l < 32; ++l)
      ballot |= uint32_t(pred[warp * 32 + l] != 0) << l;
    const uint32_t *w = &words[t * 8];
    CHECK(w[0] == uint32_t(ballot == 0xffffffffu));
    CHECK(w[1] == uint32_t(ballot != 0));
    CHECK(w[2] == uint32_t(ballot == 0 || ballot == 0xffffffffu));
    CHECK(w[3] == ballot);
    // The lanes that took the branch together: every third.
    uint32_t thirds = 0;
    for (unsigned l = 0; l < 32; l += 3)
      thirds |= 1u << l;
    CHECK(w[4] == (lane % 3 == 0 ? thirds : 0xffffffffu));
    uint32_t same = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (key[warp * 32 + l] == key[t])
        same |= 1u << l;
    CHECK(w[5] == same);
    bool allSame = warp == 3;
    CHECK(w[6] == (allSame ? 0xffffffffu : 0u));
    int32_t sum = 0;
    for (unsigned l = 0; l < 32; ++l)
      sum += key[warp * 32 + l];
    CHECK(w[7] == uint32_t(sum + (allSame ? 1000 : 0)));
  }
  for (CUdeviceptr pointer : {predDevice, keyDevice, out})
    CHECK(cuMemFree(pointer) == CUDA_SUCCESS);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}

TEST_CASE("atomics are atomic across the grid's blocks", "[standin][kernels]") {
  CUmodule module = loadKernels(inputPath("atomics.ll"));
  CUfunction atomics = getKernel(module, "atomics");
  const unsigned blocks = 8, threads = 128, n = blocks * threads;
  std::vector<uint32_t> initial(32, 0);
  initial[9] = 0xffffffffu;
  initial[15] = 0xffffffffu;
  CUdeviceptr c = toDevice(initial);
  REQUIRE(launch(atomics, blocks, 1, 1, threads, 1, 1, 0, {&c}) ==
          CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  std::vector<uint32_t> w = fromDevice<uint32_t>(c, 32);
  CHECK(w[0] == n);
  float half;
  std::memcpy(&half, &w[1], 4);
  CHECK(half == 0.5f * n);
  CHECK(int32_t(w[2]) == int32_t(n - 1 - 100));
  CHECK(int32_t(w[3]) == -100);
  CHECK(w[4] == n - 1);
  CHECK(w[5] == 2 * n);
  // uinc_wrap: old >= 9 ? 0 : old + 1; udec_wrap: old == 0 || old > 9 ? 9
  // : old - 1 (LLVM's atomicrmw, which CUDA's atomicInc and atomicDec are).
  CHECK(w[6] == n % 10);
  CHECK(w[7] == (10 - n % 10) % 10);
  CHECK(w[8] == 0xffffffffu);
  CHECK(w[9] == 0u);
  uint32_t xored = 0;
  for (uint32_t g = 0; g < n; ++g)
    xored ^= g;
  CHECK(w[10] == xored);
  CHECK(w[11] == 3 * n);
  double quarter;
  std::memcpy(&quarter, &w[12], 8);
  CHECK(quarter == 0.25 * n);
  for (unsigned b = 0; b < blocks; ++b)
    CHECK(w[16 + b] == threads);
  // Each exchange gives back the value before it: the initial 0 and every
  // g but the last one written, so those and the last add up to every g.
  uint32_t sum = n * (n - 1) / 2;
  CHECK(w[14] < n);
  CHECK(w[24] + w[14] == sum);
  CHECK(w[15] == 5u);
  // The scoped forms (PTX ISA, atom: .exch, .cas, .add.f32, .inc, .dec,
  // .max with a .cta or .sys scope), which the host's atomics, atomic for
  // every scope, implement.
  CHECK(w[25] < n);
  CHECK(w[26] + w[25] == sum);
  CHECK(w[27] == 2 * n);
  float scopedHalf;
  std::memcpy(&scopedHalf, &w[28], 4);
  CHECK(scopedHalf == 0.5f * n);
  CHECK(w[29] == n % 10);
  CHECK(w[30] == (10 - n % 10) % 10);
  CHECK(int32_t(w[31]) == int32_t(n - 1 - 100));
  CHECK(cuMemFree(c) == CUDA_SUCCESS);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}

TEST_CASE("threads that exit no longer hold a barrier up",
          "[standin][kernels]") {
  CUmodule module = loadKernels(inputPath("errors.ll"));
  CUdeviceptr out = toDevice(std::vector<int32_t>(64, 0));
  REQUIRE(launch(getKernel(module, "exitEarly"), 1, 1, 1, 64, 1, 1, 0,
                 {&out}) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  std::vector<int32_t> values = fromDevice<int32_t>(out, 64);
  for (int t = 0; t < 64; ++t)
    CHECK(values[t] == (t < 4 ? 0 : 1));
  CHECK(cuMemFree(out) == CUDA_SUCCESS);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}

TEST_CASE("kernels print through vprintf (child)", "[.standin-printf]") {
  CUmodule module = loadKernels(inputPath("errors.ll"));
  REQUIRE(launch(getKernel(module, "print"), 1, 1, 1, 3, 1, 1, 0, {}) ==
          CUDA_SUCCESS);
  // CUDA prints at the next synchronization, not before.
  std::printf("before synchronizing\n");
  std::fflush(stdout);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  std::printf("after\n");
}

TEST_CASE("printf prints its arguments at the next synchronization",
          "[standin][kernels]") {
  SelfRun run = runHiddenTest("[.standin-printf]");
  INFO(run.output);
  CHECK(run.output.find("before synchronizing\n"
                        "thread 0:  0.00 0 hello A% [ff]\n"
                        "thread 1:  0.50 -10000000000 hello B% [ff]\n"
                        "thread 2:  1.00 -20000000000 hello C% [ff]\n"
                        "after\n") != std::string::npos);
}

TEST_CASE("device asserts (child)", "[.standin-assert]") {
  CUmodule module = loadKernels(inputPath("errors.ll"));
  CUdeviceptr out = toDevice(std::vector<int32_t>(8, 0));
  REQUIRE(launch(getKernel(module, "assertEven"), 3, 1, 1, 4, 1, 1, 0,
                 {&out}) == CUDA_SUCCESS);
  std::fprintf(stderr, "synchronize: %d\n", cuCtxSynchronize());
  CUdeviceptr other = 0;
  std::fprintf(stderr, "then: %d\n", cuMemAlloc(&other, 4));
}

TEST_CASE("a failed device assert prints CUDA's line, then the context has "
          "CUDA_ERROR_ASSERT",
          "[standin][kernels]") {
  SelfRun run = runHiddenTest("[.standin-assert]");
  INFO(run.output);
  CHECK(run.output.find(
            "kernel.cu:42: checkEven: block: [1,0,0], thread: [1,0,0] "
            "Assertion `t % 2 == 0` failed.\n"
            "kernel.cu:42: checkEven: block: [1,0,0], thread: [3,0,0] "
            "Assertion `t % 2 == 0` failed.\n"
            "synchronize: 710\nthen: 710\n") != std::string::npos);
}

TEST_CASE("trap (child)", "[.standin-trap]") {
  CUmodule module = loadKernels(inputPath("errors.ll"));
  REQUIRE(launch(getKernel(module, "trapFive"), 2, 1, 1, 32, 1, 1, 0, {}) ==
          CUDA_SUCCESS);
  std::printf("synchronize: %d\n", cuCtxSynchronize());
}

TEST_CASE("a trap fails the launch with CUDA_ERROR_LAUNCH_FAILED",
          "[standin][kernels]") {
  SelfRun run = runHiddenTest("[.standin-trap]");
  INFO(run.output);
  CHECK(run.output.find("thread (5, 0, 0) executed trap at trap in "
                        "'trapFive'") != std::string::npos);
  CHECK(run.output.find("synchronize: 719\n") != std::string::npos);
}

TEST_CASE("a kernel given host memory (child)", "[.standin-host-pointer]") {
  CUmodule module = loadKernels(inputPath("errors.ll"));
  static int32_t hostValue = 17;
  int32_t *pointer = &hostValue;
  int32_t value = 99;
  REQUIRE(launch(getKernel(module, "storeTo"), 1, 1, 1, 1, 1, 1, 0,
                 {&pointer, &value}) == CUDA_SUCCESS);
  std::printf("synchronize: %d\n", cuCtxSynchronize());
  std::printf("host value: %d\n", hostValue);
  CUstream stream = nullptr;
  std::printf("then: %d\n", cuStreamCreate(&stream, 0));
}

TEST_CASE("misaligned and shared out-of-bounds accesses (child)",
          "[.standin-misaligned]") {
  CUmodule module = loadKernels(inputPath("errors.ll"));
  CUdeviceptr in = toDevice(std::vector<int32_t>(4, 0));
  CUdeviceptr out = toDevice(std::vector<int32_t>(1, 0));
  REQUIRE(launch(getKernel(module, "misaligned"), 1, 1, 1, 1, 1, 1, 0,
                 {&in, &out}) == CUDA_SUCCESS);
  std::printf("synchronize: %d\n", cuCtxSynchronize());
}

TEST_CASE("shared memory out of bounds (child)", "[.standin-shared-bounds]") {
  CUmodule module = loadKernels(inputPath("errors.ll"));
  int32_t index = 64;
  REQUIRE(launch(getKernel(module, "sharedAt"), 1, 1, 1, 1, 1, 1, 0,
                 {&index}) == CUDA_SUCCESS);
  std::printf("synchronize: %d\n", cuCtxSynchronize());
}

TEST_CASE("a deadlock (child)", "[.standin-deadlock]") {
  CUmodule module = loadKernels(inputPath("errors.ll"));
  REQUIRE(launch(getKernel(module, "deadlock"), 1, 1, 1, 64, 1, 1, 0, {}) ==
          CUDA_SUCCESS);
  std::printf("synchronize: %d\n", cuCtxSynchronize());
}

TEST_CASE("a kernel reaches device memory and nothing else",
          "[standin][kernels]") {
  SelfRun host = runHiddenTest("[.standin-host-pointer]");
  INFO(host.output);
  // CUDA_ERROR_ILLEGAL_ADDRESS, sticky; the host's memory is untouched.
  CHECK(host.output.find("kernel 'storeTo', block (0, 0, 0), thread (0, 0, "
                         "0): a write of 4 bytes at 0x") != std::string::npos);
  CHECK(host.output.find("(host, through a global pointer) at a store of 4 "
                         "bytes in 'storeTo': an illegal address") !=
        std::string::npos);
  CHECK(host.output.find("synchronize: 700\nhost value: 17\nthen: 700\n") !=
        std::string::npos);

  SelfRun misaligned = runHiddenTest("[.standin-misaligned]");
  INFO(misaligned.output);
  CHECK(misaligned.output.find("which the IR says is 4-byte aligned") !=
        std::string::npos);
  CHECK(misaligned.output.find("synchronize: 716\n") != std::string::npos);

  SelfRun shared = runHiddenTest("[.standin-shared-bounds]");
  INFO(shared.output);
  CHECK(shared.output.find("through a shared pointer) at a store of 4 bytes "
                           "in 'sharedAt': an illegal address") !=
        std::string::npos);
  CHECK(shared.output.find("synchronize: 700\n") != std::string::npos);
}

TEST_CASE("masked loads, stores and gathers touch only their enabled lanes",
          "[standin][kernels]") {
  CUmodule module = loadKernels(inputPath("masked.ll"));
  CUdeviceptr in = toDevice(std::vector<int32_t>{10, 11, 12, 13});
  // Lanes 1 and 3 off: their host addresses are not reached, their stores
  // not made, and the gather's lanes take the passthru value.
  static int32_t hostValue = 17;
  int32_t *host = &hostValue;
  for (int32_t bits : {0x5, 0x0, 0x1}) {
    CUdeviceptr out = toDevice(std::vector<int32_t>(8, 55));
    REQUIRE(launch(getKernel(module, "masked"), 1, 1, 1, 1, 1, 1, 0,
                   {&in, &out, &host, &bits}) == CUDA_SUCCESS);
    REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
    std::vector<int32_t> expected(8, 55);
    for (int lane = 0; lane < 4; ++lane) {
      bool on = (bits >> lane) & 1;
      if (on)
        expected[lane] = 10 + lane;
      expected[4 + lane] = on ? 10 + lane : 7;
    }
    INFO("mask " << bits);
    CHECK(fromDevice<int32_t>(out, 8) == expected);
    REQUIRE(cuMemFree(out) == CUDA_SUCCESS);
  }
  CUdeviceptr out = toDevice(std::vector<int32_t>(1, 55));
  int32_t bits = 1;
  REQUIRE(launch(getKernel(module, "scatter"), 1, 1, 1, 1, 1, 1, 0,
                 {&out, &host, &bits}) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(fromDevice<int32_t>(out, 1) == std::vector<int32_t>{5});
  CHECK(hostValue == 17);
  REQUIRE(cuMemFree(out) == CUDA_SUCCESS);
  REQUIRE(cuMemFree(in) == CUDA_SUCCESS);
}

TEST_CASE("a masked scatter's enabled lane is checked (child)",
          "[.standin-masked-scatter]") {
  CUmodule module = loadKernels(inputPath("masked.ll"));
  CUdeviceptr out = toDevice(std::vector<int32_t>(1, 55));
  static int32_t hostValue = 17;
  int32_t *host = &hostValue;
  int32_t bits = 3;
  REQUIRE(launch(getKernel(module, "scatter"), 1, 1, 1, 1, 1, 1, 0,
                 {&out, &host, &bits}) == CUDA_SUCCESS);
  std::printf("synchronize: %d\n", cuCtxSynchronize());
  std::printf("host value: %d\n", hostValue);
}

TEST_CASE("a masked scatter to host memory is an illegal address",
          "[standin][kernels]") {
  SelfRun run = runHiddenTest("[.standin-masked-scatter]");
  INFO(run.output);
  CHECK(run.output.find("kernel 'scatter', block (0, 0, 0), thread (0, 0, "
                        "0): a write of 4 bytes at 0x") != std::string::npos);
  CHECK(run.output.find("synchronize: 700\nhost value: 17\n") !=
        std::string::npos);
}

TEST_CASE("a deadlock is reported, not hung on", "[standin][kernels]") {
  SelfRun run = runHiddenTest("[.standin-deadlock]");
  INFO(run.output);
  CHECK(run.output.find("deadlock in kernel 'deadlock', block (0, 0, 0): "
                        "thread (0, 0, 0) waits at barrier 1") !=
        std::string::npos);
  CHECK(run.output.find("threads (1, 0, 0) to (63, 0, 0) waits at barrier 0") !=
        std::string::npos);
  CHECK(run.output.find("synchronize: 719\n") != std::string::npos);
}

TEST_CASE("kernel IR that disagrees with its image is refused",
          "[standin][kernels]") {
  KernelIR ir(inputPath("errors.ll"));
  CUmodule module = nullptr;
  std::string log;
  // storeTo's second parameter is an i32: a PTX .b64 is not it.
  std::string wrong = ir.ptx();
  size_t at = wrong.find(".param .b32 storeTo_param_1");
  REQUIRE(at != std::string::npos);
  wrong.replace(at, 11, ".param .b64");
  CHECK(loadWithIR(wrong, ir.bitcode(), module, log) ==
        CUDA_ERROR_INVALID_IMAGE);
  CHECK(log == "parameter 1 of kernel 'storeTo' has 8 bytes in the image but "
               "4 in the kernel IR");
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
  // A kernel the IR lacks.
  CHECK(loadWithIR(ir.ptx() + ".visible .entry extra()\n{ ret; }\n",
                   ir.bitcode(), module, log) == CUDA_ERROR_INVALID_IMAGE);
  CHECK(log == "the image has kernel 'extra', which the kernel IR lacks: the "
               "IR is not the image's");
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
  // Not bitcode at all.
  CHECK(loadWithIR(ir.ptx(), "BC not really", module, log) ==
        CUDA_ERROR_INVALID_IMAGE);
  CHECK(log.rfind("the kernel IR is not LLVM bitcode: ", 0) == 0);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
  // Given twice.
  REQUIRE(loadWithIR(ir.ptx(), ir.bitcode(), module, log) == CUDA_SUCCESS);
  char buffer[256];
  CHECK(getAttachIR()(module, ir.bitcode().data(), ir.bitcode().size(), buffer,
                      sizeof(buffer)) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
  CHECK(getAttachIR()(module, ir.bitcode().data(), ir.bitcode().size(), buffer,
                      sizeof(buffer)) == CUDA_ERROR_INVALID_HANDLE);
}

TEST_CASE("what the stand-in does not implement is refused by name",
          "[standin][kernels]") {
  KernelIR ir(inputPath("unsupported.ll"));
  CUmodule module = nullptr;
  std::string log;
  CHECK(loadWithIR(ir.ptx(), ir.bitcode(), module, log) ==
        CUDA_ERROR_NOT_SUPPORTED);
  CHECK(log == "the kernel IR uses what the stand-in does not implement: "
               "llvm.nvvm.mapa.shared.cluster is not implemented; inline "
               "assembly is inline PTX the stand-in does not implement: "
               "\"ld.global.nc.u32 $0, [$1];\"; helper is a function outside "
               "the module the stand-in does not provide");
  // Its launches are refused as those of a module without IR.
  CUfunction f = getKernel(module, "unsupported");
  CUdeviceptr p = 0;
  CHECK(launch(f, 1, 1, 1, 1, 1, 1, 0, {&p, &p}) == CUDA_ERROR_NOT_SUPPORTED);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}

TEST_CASE("launch parameters are checked against the kernel (child)",
          "[.standin-params]") {
  CUmodule module = loadKernels(inputPath("errors.ll"));
  CUfunction storeTo = getKernel(module, "storeTo");
  CUdeviceptr out = toDevice(std::vector<int32_t>(1, 0));
  int32_t value = 5;
  // kernelParams[1] does not point anywhere.
  void *params[] = {&out, nullptr};
  std::printf(
      "null parameter: %d\n",
      cuLaunchKernel(storeTo, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  // `extra`: a buffer of the parameters at their offsets, 8 + 4 bytes.
  struct {
    CUdeviceptr p;
    int32_t v;
  } buffer{out, value};
  for (size_t size : {size_t(16), size_t(12)}) {
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buffer,
                     CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    std::printf(
        "extra of %zu bytes: %d\n", size,
        cuLaunchKernel(storeTo, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra));
  }
  std::printf("synchronize: %d\n", cuCtxSynchronize());
  std::printf("stored: %d\n", fromDevice<int32_t>(out, 1)[0]);
}

TEST_CASE("a mismatched parameter list is refused, naming the parameter",
          "[standin][kernels]") {
  char trace[] = "/tmp/gpu-runner-standin-params-XXXXXX";
  int fd = mkstemp(trace);
  REQUIRE(fd >= 0);
  close(fd);
  SelfRun run = runHiddenTest("[.standin-params]",
                              std::string("GPU_RUNNER_STANDIN_TRACE=") + trace);
  INFO(run.output);
  CHECK(run.output.find("null parameter: 1\nextra of 16 bytes: 1\n"
                        "extra of 12 bytes: 0\nsynchronize: 0\nstored: 5\n") !=
        std::string::npos);
  std::FILE *file = std::fopen(trace, "r");
  REQUIRE(file);
  std::string lines;
  char line[4096];
  while (std::fgets(line, sizeof(line), file))
    lines += line;
  std::fclose(file);
  std::remove(trace);
  INFO(lines);
  CHECK(lines.find("-> CUDA_ERROR_INVALID_VALUE [why=parameter 1 of kernel "
                   "'storeTo': kernelParams[1] does not point at 4 bytes of "
                   "host memory]") != std::string::npos);
  CHECK(lines.find("-> CUDA_ERROR_INVALID_VALUE [why=the parameter buffer of "
                   "kernel 'storeTo' has 16 bytes, but its 2 parameters take "
                   "12]") != std::string::npos);
}
