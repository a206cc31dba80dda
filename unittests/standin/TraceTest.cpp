//===- TraceTest.cpp - Fault injection settings and call counting ---------===//

#include "standin/Trace.h"

#include <catch2/catch.hpp>

using namespace gpu_runner::standin;

namespace {

bool isEntry(const std::string &name) {
  return name == "cuMemAlloc_v2" || name == "cuStreamSynchronize";
}

bool codeOf(const std::string &name, int &code) {
  if (name == "CUDA_ERROR_OUT_OF_MEMORY")
    code = 2;
  else if (name == "CUDA_ERROR_ILLEGAL_ADDRESS")
    code = 700;
  else if (name == "CUDA_SUCCESS")
    code = 0;
  else
    return false;
  return true;
}

} // namespace

TEST_CASE("fault settings name an entry point, a call and an error",
          "[standin]") {
  std::vector<Fault> faults;
  std::string error;
  REQUIRE(parseFaults("cuMemAlloc_v2:1:CUDA_ERROR_OUT_OF_MEMORY,"
                      "cuStreamSynchronize:12:CUDA_ERROR_ILLEGAL_ADDRESS",
                      isEntry, codeOf, faults, error));
  REQUIRE(faults.size() == 2);
  CHECK(faults[0].entry == "cuMemAlloc_v2");
  CHECK(faults[0].call == 1);
  CHECK(faults[0].code == 2);
  CHECK(faults[1].call == 12);
  CHECK(faults[1].code == 700);

  CHECK_FALSE(parseFaults("cuMemAlloc:1:CUDA_ERROR_OUT_OF_MEMORY", isEntry,
                          codeOf, faults, error));
  CHECK(error.find("'cuMemAlloc' is not an entry point") == 0);
  CHECK_FALSE(parseFaults("cuMemAlloc_v2:first:CUDA_ERROR_OUT_OF_MEMORY",
                          isEntry, codeOf, faults, error));
  CHECK(error.find("'first'") == 0);
  CHECK_FALSE(parseFaults("cuMemAlloc_v2:0:CUDA_ERROR_OUT_OF_MEMORY", isEntry,
                          codeOf, faults, error));
  CHECK_FALSE(parseFaults("cuMemAlloc_v2:1:CUDA_SUCCESS", isEntry, codeOf,
                          faults, error));
  CHECK_FALSE(parseFaults("cuMemAlloc_v2:1:NO_SUCH_ERROR", isEntry, codeOf,
                          faults, error));
  CHECK_FALSE(parseFaults("cuMemAlloc_v2", isEntry, codeOf, faults, error));
  CHECK(error == "'cuMemAlloc_v2' is not ENTRY:N:ERROR");
}

TEST_CASE("the Nth call of an entry point fails, and no other", "[standin]") {
  CallLog log;
  log.setFaults({{"cuMemAlloc_v2", 2, 2}});
  CHECK(log.countCall("cuMemAlloc_v2") == 0);
  CHECK(log.countCall("cuStreamSynchronize") == 0);
  CHECK(log.countCall("cuMemAlloc_v2") == 2);
  CHECK(log.countCall("cuMemAlloc_v2") == 0);
}
