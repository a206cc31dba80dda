//===- ConformanceMain.cpp - The suite's main, and its fixture ------------===//
//
// Runs the conformance suite on the backend the binary links, less the
// cases the backend cannot run: each is named with its reason on stdout, so
// that nothing is left out silently. A test spec on the command line runs
// what it names, excluded cases included.
//
//===----------------------------------------------------------------------===//

#define CATCH_CONFIG_RUNNER
#include "unittests/wrappers/conformance/Conformance.h"

#include <cstdio>

using namespace gpu_runner;
using namespace gpu_runner::conformance;
using namespace gpu_runner::test;

RuntimeFixture::RuntimeFixture()
    : backend(backendUnderTest()), owned([this] {
        std::unique_ptr<Runtime> made;
        REQUIRE_OK(backend.create(made));
        REQUIRE(made);
        return made;
      }()),
      runtime(*owned) {}

RuntimeFixture::~RuntimeFixture() {
  // A case that failed while holding a stream would otherwise leave
  // finalize waiting for it.
  for (std::unique_ptr<Gate> &gate : gates)
    gate->open();
  std::vector<Runtime::Warning> leaks;
  (void)runtime.finalize(leaks);
}

void *RuntimeFixture::allocate(uint64_t bytes, void *stream, const char *loc) {
  void *result = nullptr;
  REQUIRE_OK(runtime.allocate(bytes, stream, false, loc, result));
  REQUIRE(result);
  return result;
}

void *RuntimeFixture::createStream() {
  void *stream = nullptr;
  REQUIRE_OK(runtime.createStream(stream, kLoc));
  return stream;
}

Gate &RuntimeFixture::hold(void *stream) {
  REQUIRE(backend.hold);
  gates.push_back(std::make_unique<Gate>());
  REQUIRE_OK(backend.hold(runtime, stream, *gates.back()));
  return *gates.back();
}

std::string RuntimeFixture::allocation(uint64_t bytes,
                                       const std::string &madeBy) const {
  return backend.allocation(bytes, madeBy);
}

int main(int argc, char **argv) {
  Catch::Session session;
  if (int error = session.applyCommandLine(argc, argv))
    return error;
  const BackendUnderTest &backend = backendUnderTest();
  std::vector<std::string> &spec = session.configData().testsOrTags;
  bool chosen = !spec.empty();
  std::string exclusions;
  for (const Exclusion &exclusion : backend.cannotRun) {
    std::printf("%s: %s the cases tagged %s: %s\n", backend.name.c_str(),
                chosen ? "asked to run" : "does not run", exclusion.tag.c_str(),
                exclusion.reason.c_str());
    exclusions += "~" + exclusion.tag;
  }
  if (!chosen && !exclusions.empty())
    spec.push_back(exclusions);
  std::fflush(stdout);
  return session.run();
}
