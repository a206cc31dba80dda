//===- StandinTestSupport.h - Helpers for the stand-ins' API tests --------===//
//
// The stand-ins' state lives for the process, so what needs a fresh one (the
// calls before initialization, the report at exit) runs as a hidden test
// case of the same binary in a process of its own.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_UNITTESTS_STANDIN_STANDINTESTSUPPORT_H
#define GPU_RUNNER_UNITTESTS_STANDIN_STANDINTESTSUPPORT_H

#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gpu_runner {
namespace test {

struct SelfRun {
  int status = -1;
  /// stdout and stderr together.
  std::string output;
};

/// Runs this test binary on the hidden test case `tag` ("[.name]") with
/// `environment` ("NAME=value ..." or empty) added.
inline SelfRun runHiddenTest(const std::string &tag,
                             const std::string &environment = "") {
  char self[PATH_MAX] = {};
  ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  REQUIRE(length > 0);
  std::string command =
      "env " + environment + " '" + std::string(self) + "' '" + tag + "' 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  SelfRun run;
  char buffer[4096];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    run.output.append(buffer, got);
  int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

/// Whether the process may read `bytes` at `pointer`, found without
/// touching it: write() fails with EFAULT where it may not.
inline bool isHostReadable(const void *pointer, size_t bytes) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  ssize_t written = write(fds[1], pointer, bytes);
  close(fds[0]);
  close(fds[1]);
  return written == static_cast<ssize_t>(bytes);
}

/// A page of host memory that is no longer mapped.
inline void *getUnmappedPage() {
  long page = sysconf(_SC_PAGESIZE);
  void *memory = mmap(nullptr, page, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(memory != MAP_FAILED);
  munmap(memory, page);
  return memory;
}

} // namespace test
} // namespace gpu_runner

#endif // GPU_RUNNER_UNITTESTS_STANDIN_STANDINTESTSUPPORT_H
