//===- HipDriverTest.cpp - The HIP runtime where no AMD GPU is ------------===//
//
// What every build machine without an AMD GPU can check of the HIP backend:
// it starts, says in every error that there is no runtime or no device, and
// never calls into a runtime it did not load.
//
//===----------------------------------------------------------------------===//

#include "wrappers/gpu/GpuRuntime.h"
#include "wrappers/hip/DynamicSymbols.h"

#include "unittests/wrappers/TestSupport.h"

using namespace gpu_runner;
using namespace gpu_runner::test;

TEST_CASE("without an AMD GPU, the runtime says so and does nothing", "[hip]") {
  GpuRuntime runtime(getGpuDriver());
  std::string text;
  Status devices = runtime.describeDevices(text);
  if (devices.ok()) {
    WARN("an AMD GPU answers here: nothing to check");
    return;
  }
  // Either ROCm is missing or it finds no GPU; both say what to do.
  bool missing =
      devices.message().find("the HIP runtime is not installed") == 0;
  bool noDevice = devices.message().find("no HIP device") == 0;
  CHECK((missing || noDevice));
  INFO(devices.message());
  REQUIRE_FALSE(runtime.initialize(0).ok());

  void *stream = nullptr;
  REQUIRE_ERROR(runtime.createStream(stream, kLoc),
                "the HIP backend was not initialized");
  int data = 0;
  REQUIRE_ERROR(runtime.memcpy(&data, &data, sizeof(data), nullptr, kLoc),
                "the HIP backend was not initialized");
  std::vector<GpuRuntime::Warning> leaks;
  REQUIRE_OK(runtime.finalize(leaks));
  CHECK(leaks.empty());
}
