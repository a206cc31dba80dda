//===- ProgramFunctionsTest.cpp - The function at an address --------------===//
//
// The table the JIT publishes for fault reports: each address inside a
// function names it, addresses between or outside functions name nothing,
// and functions added later join those added before.
//
//===----------------------------------------------------------------------===//

#include "wrappers/common/ProgramFunctions.h"

#include <catch2/catch.hpp>

#include <string>

using namespace gpu_runner;

namespace {

std::string nameAt(uintptr_t address) {
  const char *name = findProgramFunction(address);
  return name ? name : "(none)";
}

} // namespace

TEST_CASE("an address names the program's function whose code holds it",
          "[program-functions]") {
  // Added out of order, and in two links, as the JIT may.
  addProgramFunctions({{0x2000, 0x2040, "later"}, {0x1000, 0x1100, "first"}});
  addProgramFunctions({{0x1100, 0x1180, "adjacent"}});

  CHECK(nameAt(0x1000) == "first");
  CHECK(nameAt(0x10ff) == "first");
  CHECK(nameAt(0x1100) == "adjacent");
  CHECK(nameAt(0x117f) == "adjacent");
  CHECK(nameAt(0x1180) == "(none)"); // between two functions
  CHECK(nameAt(0x2020) == "later");
  CHECK(nameAt(0x2040) == "(none)"); // just past the last one
  CHECK(nameAt(0x0fff) == "(none)"); // before the first one
  CHECK(nameAt(0) == "(none)");

  clearProgramFunctions();
  CHECK(nameAt(0x1000) == "(none)");
}
