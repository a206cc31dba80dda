//===- MlirKernelsTest.cpp - MLIR's NVVM output run on the CUDA stand-in --===//
//
// Kernels of unittests/standin/Inputs/*.mlir, compiled at build time by
// MLIR's NVVM pipeline into the bitcode it would have made PTX of (libdevice
// linked in, the NVVM optimizer run): math functions within the ulp bounds
// CUDA documents, gpu.all_reduce, a narrow gpu.shuffle, and wmma.
//
//===----------------------------------------------------------------------===//

#include "unittests/standin/KernelTestSupport.h"
#include "unittests/standin/StandinTestSupport.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace gpu_runner::test;

namespace {

/// A memref's descriptor as a kernel's parameters: allocated and aligned
/// pointers, offset, sizes, strides.
struct Memref {
  CUdeviceptr pointer = 0;
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;

  void addTo(std::vector<void *> &params) {
    params.push_back(&pointer);
    params.push_back(&pointer);
    params.push_back(&offset);
    for (int64_t &size : sizes)
      params.push_back(&size);
    for (int64_t &stride : strides)
      params.push_back(&stride);
  }
};

Memref vector1d(CUdeviceptr pointer, int64_t size) {
  return Memref{pointer, 0, {size}, {1}};
}

CUresult launch(CUfunction f, unsigned blocks, unsigned threads,
                std::vector<void *> params) {
  return cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, nullptr,
                        params.data(), nullptr);
}

/// The distance in units in the last place between two values of a
/// floating-point type: 0 when both are the same NaN or infinity.
template <typename Float> uint64_t ulpDistance(Float a, Float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) ? 0 : UINT64_MAX;
  if (a == b)
    return 0;
  if (std::isinf(a) || std::isinf(b))
    return UINT64_MAX;
  using Int = std::conditional_t<sizeof(Float) == 4, int32_t, int64_t>;
  auto ordered = [](Float x) {
    Int bits;
    std::memcpy(&bits, &x, sizeof(bits));
    return bits < 0 ? std::numeric_limits<Int>::min() - bits : bits;
  };
  Int x = ordered(a), y = ordered(b);
  return x > y ? uint64_t(x) - uint64_t(y) : uint64_t(y) - uint64_t(x);
}

/// math.mlir's functions, in its order, with the maximum errors in ulp the
/// CUDA C++ Programming Guide gives them ("Mathematical Functions",
/// single and double precision, full range, without fast-math), and a
/// reference computed in long double.
struct MathFunction {
  const char *name;
  unsigned ulpFloat, ulpDouble;
  long double (*reference)(long double);
};

const MathFunction kFunctions[] = {
    {"exp", 2, 1, [](long double x) { return expl(x); }},
    {"exp2", 2, 1, [](long double x) { return exp2l(x); }},
    {"log", 1, 1, [](long double x) { return logl(x); }},
    {"log2", 1, 1, [](long double x) { return log2l(x); }},
    {"log10", 2, 1, [](long double x) { return log10l(x); }},
    {"sin", 2, 2, [](long double x) { return sinl(x); }},
    {"cos", 2, 2, [](long double x) { return cosl(x); }},
    {"tan", 4, 2, [](long double x) { return tanl(x); }},
    {"tanh", 2, 1, [](long double x) { return tanhl(x); }},
    {"sqrt", 1, 0, [](long double x) { return sqrtl(x); }},
    {"erf", 2, 2, [](long double x) { return erfl(x); }},
    {"atan", 2, 2, [](long double x) { return atanl(x); }},
    {"asin", 2, 2, [](long double x) { return asinl(x); }},
    {"acos", 2, 2, [](long double x) { return acosl(x); }},
    {"sinh", 3, 2, [](long double x) { return sinhl(x); }},
    {"cosh", 2, 1, [](long double x) { return coshl(x); }},
    {"cbrt", 1, 1, [](long double x) { return cbrtl(x); }},
    {"rsqrt", 2, 1, [](long double x) { return 1.0L / sqrtl(x); }},
    {"expm1", 1, 1, [](long double x) { return expm1l(x); }},
    {"log1p", 1, 1, [](long double x) { return log1pl(x); }},
    {"atan2(x, 0.7)", 3, 2, nullptr},
    {"pow(|x|, 1.3)", 4, 2, nullptr},
};
constexpr size_t kFunctionCount = sizeof(kFunctions) / sizeof(kFunctions[0]);

template <typename Float> std::vector<Float> mathInputs() {
  std::vector<Float> inputs;
  for (int i = -100; i <= 100; ++i)
    inputs.push_back(static_cast<Float>(i) / Float(20));
  for (double x :
       {0.999, -0.999, 0.3333, 3.14159265, 10.0, 20.0, 50.0, 88.0, -87.0, 100.0,
        1000.0, 1.0e4, -1.0e6, 1.0e10, 1.0e-5, 1.0e-20, 6.0e7, -3.0e8})
    inputs.push_back(static_cast<Float>(x));
  if (sizeof(Float) == 8)
    for (double x : {700.0, -700.0, 1.0e22, -1.0e100, 1.0e300, 1.0e-300})
      inputs.push_back(static_cast<Float>(x));
  return inputs;
}

template <typename Float> void checkMath(CUmodule module, const char *kernel) {
  std::vector<Float> inputs = mathInputs<Float>();
  int64_t n = static_cast<int64_t>(inputs.size());
  CUdeviceptr in = toDevice(inputs);
  CUdeviceptr out =
      toDevice(std::vector<Float>(kFunctionCount * inputs.size(), Float(-1)));
  Memref inRef = vector1d(in, n);
  Memref outRef = vector1d(out, n * int64_t(kFunctionCount));
  std::vector<void *> params;
  inRef.addTo(params);
  outRef.addTo(params);
  params.push_back(&n);
  REQUIRE(launch(getKernel(module, kernel), unsigned((n + 63) / 64), 64,
                 params) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  std::vector<Float> results =
      fromDevice<Float>(out, kFunctionCount * inputs.size());
  for (size_t k = 0; k < kFunctionCount; ++k) {
    const MathFunction &function = kFunctions[k];
    for (size_t i = 0; i < inputs.size(); ++i) {
      long double x = inputs[i];
      long double exact =
          k == kFunctionCount - 2   ? atan2l(x, static_cast<Float>(0.7))
          : k == kFunctionCount - 1 ? powl(fabsl(x), static_cast<Float>(1.3))
                                    : function.reference(x);
      Float reference = static_cast<Float>(exact);
      Float result = results[k * inputs.size() + i];
      uint64_t distance = ulpDistance(result, reference);
      unsigned bound =
          sizeof(Float) == 4 ? function.ulpFloat : function.ulpDouble;
      INFO(function.name << "(" << double(inputs[i]) << ") = " << double(result)
                         << ", expected " << double(reference) << " within "
                         << bound << " ulp");
      CHECK(distance <= bound);
    }
  }
  CHECK(cuMemFree(in) == CUDA_SUCCESS);
  CHECK(cuMemFree(out) == CUDA_SUCCESS);
}

/// IEEE half precision of small integers and halves: exact.
uint16_t toHalf(float value) {
  if (value == 0)
    return 0;
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  int exponent = int((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = (bits >> 13) & 0x3ff;
  return static_cast<uint16_t>(sign | (uint32_t(exponent) << 10) | mantissa);
}

} // namespace

TEST_CASE("libdevice's math, within CUDA's ulp bounds", "[standin][kernels]") {
  CUmodule module = loadKernels(builtPath("math.bc"));
  checkMath<float>(module, "math_f32");
  checkMath<double>(module, "math_f64");
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}

TEST_CASE("gpu.all_reduce as MLIR lowers it to shuffles and barriers",
          "[standin][kernels]") {
  CUmodule module = loadKernels(builtPath("reductions.bc"));
  CUfunction reduce = getKernel(module, "reduce");
  // Whole warps, and a last warp of 8 lanes. Not 3 warps: then the lanes
  // 0-2 that reduce the warps' partial sums end with different values
  // (only lane 0 has the total: a butterfly over 3 lanes) and all store
  // theirs to the same shared word in one instruction, which CUDA leaves
  // undefined ("which thread performs the final write is undefined").
  for (unsigned threads : {256u, 128u, 40u, 1u}) {
    const unsigned blocks = 5;
    int64_t n = blocks * threads;
    std::vector<float> input(n);
    for (int64_t i = 0; i < n; ++i)
      input[i] = float((i * 37) % 101) - 50.0f;
    CUdeviceptr in = toDevice(input);
    CUdeviceptr out = toDevice(std::vector<float>(blocks, -1.0f));
    CUdeviceptr maxima = toDevice(std::vector<int32_t>(blocks, -1));
    Memref inRef = vector1d(in, n), outRef = vector1d(out, blocks),
           maxRef = vector1d(maxima, blocks);
    std::vector<void *> params;
    inRef.addTo(params);
    outRef.addTo(params);
    maxRef.addTo(params);
    REQUIRE(launch(reduce, blocks, threads, params) == CUDA_SUCCESS);
    REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
    std::vector<float> sums = fromDevice<float>(out, blocks);
    std::vector<int32_t> max = fromDevice<int32_t>(maxima, blocks);
    for (unsigned b = 0; b < blocks; ++b) {
      float sum = 0;
      int32_t largest = INT32_MIN;
      for (unsigned t = 0; t < threads; ++t) {
        sum += input[b * threads + t];
        largest = std::max(largest, int32_t(input[b * threads + t]));
      }
      INFO("block " << b << " of " << threads << " threads");
      // Integers: exact in any order of addition.
      CHECK(sums[b] == sum);
      CHECK(max[b] == largest);
    }
    for (CUdeviceptr pointer : {in, out, maxima})
      CHECK(cuMemFree(pointer) == CUDA_SUCCESS);
  }
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}

TEST_CASE("a gpu.shuffle up of width 8, as MLIR lowers it (child)",
          "[.standin-up8]") {
  CUmodule module = loadKernels(builtPath("reductions.bc"));
  unsigned threads = std::stoi(std::getenv("THREADS"));
  CUdeviceptr out = toDevice(std::vector<int32_t>(threads, -1));
  CUdeviceptr valid = toDevice(std::vector<int32_t>(threads, -1));
  Memref outRef = vector1d(out, threads), validRef = vector1d(valid, threads);
  std::vector<void *> params;
  outRef.addTo(params);
  validRef.addTo(params);
  REQUIRE(launch(getKernel(module, "up8"), 1, threads, params) == CUDA_SUCCESS);
  std::printf("synchronize: %d\n", cuCtxSynchronize());
  std::vector<int32_t> values = fromDevice<int32_t>(out, threads);
  std::vector<int32_t> flags = fromDevice<int32_t>(valid, threads);
  for (unsigned t = 0; t < threads; ++t)
    std::printf("%d:%d ", values[t], flags[t]);
  std::printf("\n");
}

TEST_CASE("MLIR's lowering of gpu.shuffle up with width 8 is run as the PTX "
          "ISA says",
          "[standin][kernels]") {
  // The lowering passes c = 32 - width = 24 and member mask 0xff. The PTX
  // ISA reads c[4:0] as the clamp and c[12:8] as the segment mask, so with
  // c = 24 no lane of the first 8 has a source lane: each keeps its value,
  // with the predicate false, where gpu.shuffle up by 1 of width 8 gives
  // lane l the value of lane l - 1 (CUDA's __shfl_up_sync passes
  // (32 - width) << 8).
  SelfRun eight = runHiddenTest("[.standin-up8]", "THREADS=8");
  INFO(eight.output);
  CHECK(
      eight.output.find("synchronize: 0\n0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \n") !=
      std::string::npos);
  // With a whole warp, lanes 8-31 execute a shfl.sync whose member mask
  // (0xff) leaves them out: undefined, and refused.
  SelfRun warp = runHiddenTest("[.standin-up8]", "THREADS=32");
  INFO(warp.output);
  CHECK(warp.output.find("lane 8 (thread (8, 0, 0)) of kernel 'up8', block "
                         "(0, 0, 0) executes shfl.sync at shfl.sync.up in "
                         "'up8' with member mask 0xff, which does not include "
                         "it") != std::string::npos);
  CHECK(warp.output.find("synchronize: 719\n") != std::string::npos);
}

TEST_CASE("wmma fragments: load, mma and store agree", "[standin][kernels]") {
  CUmodule module = loadKernels(builtPath("mma.bc"));
  std::vector<uint16_t> a(256), b(256);
  std::vector<float> aValues(256), bValues(256), c(256);
  for (int i = 0; i < 256; ++i) {
    aValues[i] = float((i * 7) % 9) - 4.0f;
    bValues[i] = float((i * 5) % 11) * 0.5f - 2.5f;
    a[i] = toHalf(aValues[i]);
    b[i] = toHalf(bValues[i]);
    c[i] = float(i % 13);
  }
  for (const char *kernel : {"mma", "mma_bt"}) {
    bool transposed = std::string(kernel) == "mma_bt";
    CUdeviceptr aDevice = toDevice(a), bDevice = toDevice(b),
                cDevice = toDevice(c);
    Memref aRef{aDevice, 0, {16, 16}, {16, 1}};
    Memref bRef{bDevice, 0, {16, 16}, {16, 1}};
    Memref cRef{cDevice, 0, {16, 16}, {16, 1}};
    std::vector<void *> params;
    aRef.addTo(params);
    bRef.addTo(params);
    cRef.addTo(params);
    REQUIRE(launch(getKernel(module, kernel), 1, 32, params) == CUDA_SUCCESS);
    REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
    std::vector<float> d = fromDevice<float>(cDevice, 256);
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        float expected = c[i * 16 + j];
        for (int k = 0; k < 16; ++k)
          expected += aValues[i * 16 + k] *
                      (transposed ? bValues[j * 16 + k] : bValues[k * 16 + j]);
        INFO(kernel << ": D[" << i << "][" << j << "]");
        CHECK(d[i * 16 + j] == expected);
      }
    for (CUdeviceptr pointer : {aDevice, bDevice, cDevice})
      CHECK(cuMemFree(pointer) == CUDA_SUCCESS);
  }
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}
