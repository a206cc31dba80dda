//===- CheckReportsTest.cpp - What --check finds, reported and counted ----===//
//
// The --check list's grammar (CheckKinds.h), and how the runtime reports
// the checks' findings: each once, named for its check, a fatal one with the
// summary, and the summary at the end.
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/CheckReports.h"

#include "unittests/wrappers/TestSupport.h"

#include "wrappers/common/RuntimeError.h"

using namespace gpu_runner;
using namespace gpu_runner::test;

TEST_CASE("a --check value is a list of checks, or all", "[checks]") {
  CheckSet checks;
  CHECK(checks.parse("memcheck,leakcheck").empty());
  CHECK(checks.has(Check::Memcheck));
  CHECK(checks.has(Check::Leakcheck));
  CHECK_FALSE(checks.has(Check::Racecheck));
  CHECK(checks.str() == "memcheck,leakcheck");
  CHECK(checks.parse("racecheck").empty()); // adds to what is there
  CHECK(checks.str() == "memcheck,racecheck,leakcheck");

  CheckSet all;
  CHECK(all.parse("all").empty());
  CHECK(all == CheckSet::all());
  CHECK(all.str() == "memcheck,racecheck,initcheck,synccheck,leakcheck");
  CHECK(CheckSet().str() == "none");

  CHECK(CheckSet().parse("memcheck,bounds") ==
        "'bounds' is not a check; give a comma-separated list of memcheck, "
        "racecheck, initcheck, synccheck, leakcheck, or all");
  CHECK(CheckSet().parse("").rfind("the list is empty; give", 0) == 0);
  CHECK(CheckSet().parse("memcheck,,leakcheck").rfind("an empty name", 0) == 0);
  CHECK(CheckSet().parse("Memcheck").rfind("'Memcheck' is not", 0) == 0);
}

TEST_CASE("a finding is printed and counted once, and summed up at the end",
          "[checks]") {
  ChildResult result = runInChild([] {
    setEnabledChecks(CheckSet::all());
    reportCheckError(Check::Racecheck, "memref.store@k.mlir:3:5", "hazard");
    reportCheckError(Check::Racecheck, "memref.store@k.mlir:3:5", "hazard");
    reportCheckError(Check::Initcheck, "memref.load@k.mlir:4:5", "unset");
    std::printf("still running\n");
    std::fflush(stdout);
    // Another pair of threads at the same ops: the same hazard.
    reportCheckError(Check::Racecheck, "memref.store@k.mlir:3:5", "other",
                     "key");
    reportCheckError(Check::Racecheck, "memref.store@k.mlir:3:5", "again",
                     "key");
    std::exit(finishChecks() == 3 ? 0 : 2);
  });
  CHECK(result.exitStatus == 0);
  CHECK(result.out == "still running\n");
  CHECK(result.err ==
        "k.mlir:3:5: error: racecheck: memref.store: hazard\n"
        "k.mlir:4:5: error: initcheck: memref.load: unset\n"
        "k.mlir:3:5: error: racecheck: memref.store: other\n"
        "--check=memcheck,racecheck,initcheck,synccheck,leakcheck: 3 errors "
        "(racecheck 2, initcheck 1)\n");
}

TEST_CASE("a fatal finding ends the run with the summary", "[checks]") {
  ChildResult result = runInChild([] {
    setEnabledChecks(CheckSet(static_cast<uint8_t>(Check::Memcheck)));
    reportFatalCheckError(Check::Memcheck, "memref.load@k.mlir:7:1",
                          "misaligned load");
  });
  CHECK(result.exitStatus == 1);
  CHECK(result.err == "k.mlir:7:1: error: memcheck: memref.load: misaligned "
                      "load\n--check=memcheck: 1 error (memcheck 1)\n");

  // The host code's checks report through ordinary errors whose op names
  // their check; any other error still ends with the summary.
  result = runInChild([] {
    setEnabledChecks(CheckSet(static_cast<uint8_t>(Check::Memcheck)));
    reportFatalError("memcheck: memref.load@h.mlir:2:8",
                     "out-of-bounds access");
  });
  CHECK(result.err == "h.mlir:2:8: error: memcheck: memref.load: "
                      "out-of-bounds access\n--check=memcheck: 1 error "
                      "(memcheck 1)\n");
  result = runInChild([] {
    setEnabledChecks(CheckSet(static_cast<uint8_t>(Check::Memcheck)));
    reportFatalError("gpu.memcpy@h.mlir:5:3", "out of bounds");
  });
  CHECK(result.err == "h.mlir:5:3: error: gpu.memcpy: out of bounds\n"
                      "--check=memcheck: no errors\n");
}

TEST_CASE("without --check, nothing is summed up", "[checks]") {
  ChildResult result = runInChild([] {
    setEnabledChecks(CheckSet());
    std::exit(static_cast<int>(finishChecks()));
  });
  CHECK(result.exitStatus == 0);
  CHECK(result.err.empty());
}
