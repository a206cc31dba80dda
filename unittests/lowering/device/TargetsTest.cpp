//===- TargetsTest.cpp - The chip kernels are compiled for ----------------===//
//
// --gpu-chip wins over the device; without it the device's chip is used,
// and only a program that is not run falls back to the default chip; a
// chip the backend cannot compile for is refused with what to use instead.
//
//===----------------------------------------------------------------------===//

#include "lowering/device/Targets.h"

#include <catch2/catch.hpp>

#include <string>

using namespace gpu_runner;

namespace {

/// A device query that answers `chip`, counting its calls.
struct DeviceQuery {
  std::string chip;
  int calls = 0;

  llvm::Expected<std::string> operator()() {
    ++calls;
    if (chip.empty())
      return llvm::createStringError("no CUDA device: CUDA_ERROR_NO_DEVICE");
    return chip;
  }
};

/// The message of `error`, or "success".
std::string describe(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "success";
}

} // namespace

TEST_CASE("--gpu-chip is used without asking the device", "[targets]") {
  DeviceQuery query{"sm_90"};
  PipelineOptions pipeline;
  REQUIRE(describe(chooseGpuTarget(Backend::Cuda, "sm_80", false,
                                   std::ref(query), pipeline)) == "success");
  CHECK(pipeline.gpuChip == "sm_80");
  CHECK(pipeline.gpuFeatures == getPtxFeaturesForChip("sm_80"));
  CHECK(query.calls == 0);
}

TEST_CASE("without --gpu-chip the device's chip is used", "[targets]") {
  DeviceQuery query{"sm_89"};
  PipelineOptions pipeline;
  REQUIRE(describe(chooseGpuTarget(Backend::Cuda, "", false, std::ref(query),
                                   pipeline)) == "success");
  CHECK(pipeline.gpuChip == "sm_89");
  CHECK(pipeline.gpuFeatures == getPtxFeaturesForChip("sm_89"));
  CHECK(query.calls == 1);
}

TEST_CASE("a run without a device reports the device's error", "[targets]") {
  DeviceQuery query{""};
  PipelineOptions pipeline;
  CHECK(describe(chooseGpuTarget(Backend::Cuda, "", false, std::ref(query),
                                 pipeline)) ==
        "no CUDA device: CUDA_ERROR_NO_DEVICE");
}

TEST_CASE("a program only compiled falls back to the default chip",
          "[targets]") {
  DeviceQuery query{""};
  PipelineOptions cuda;
  CHECK(describe(chooseGpuTarget(Backend::Cuda, "", true, std::ref(query),
                                 cuda)) == "success");
  CHECK(cuda.gpuChip == kDefaultCudaChip);

  // Whether the ROCm tools are installed decides the result; the chip is
  // chosen before they are looked for.
  PipelineOptions hip;
  llvm::consumeError(
      chooseGpuTarget(Backend::Hip, "", true, std::ref(query), hip));
  CHECK(hip.gpuChip == kDefaultHipChip);
}

TEST_CASE("a chip the backend cannot compile for is refused", "[targets]") {
  DeviceQuery query{"sm_90"};
  PipelineOptions pipeline;
  CHECK(describe(chooseGpuTarget(Backend::Cuda, "sm_70", false, std::ref(query),
                                 pipeline)) ==
        "--gpu-chip=sm_70 is not a CUDA chip that CUDA 13 supports: use "
        "sm_75 or newer, such as sm_80, sm_90 or sm_90a");
  CHECK(describe(chooseGpuTarget(Backend::Cuda, "gfx90a", false,
                                 std::ref(query), pipeline)) ==
        "--gpu-chip=gfx90a is not a CUDA chip that CUDA 13 supports: use "
        "sm_75 or newer, such as sm_80, sm_90 or sm_90a");
  CHECK(describe(chooseGpuTarget(Backend::Hip, "sm_90", false, std::ref(query),
                                 pipeline)) ==
        "--gpu-chip=sm_90 is not an AMD GPU: use its gfx name, such as gfx90a "
        "or gfx942");
  // The device's chip is checked as --gpu-chip is.
  DeviceQuery oldDevice{"sm_61"};
  CHECK(
      describe(chooseGpuTarget(Backend::Cuda, "", false, std::ref(oldDevice),
                               pipeline)) ==
      "the device's chip, sm_61, is not a CUDA chip that CUDA 13 supports: use "
      "sm_75 or newer, such as sm_80, sm_90 or sm_90a");
}
