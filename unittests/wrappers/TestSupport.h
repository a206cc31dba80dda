//===- TestSupport.h - Helpers shared by the wrapper unit tests -----------===//
//
// Gates to hold a stream's task until the test lets it go, memref
// descriptors laid out as MLIR lays them out, a Status matcher that prints
// the error, and a way to run code that ends the process (fatal errors) in
// a child process and read what it printed.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_UNITTESTS_WRAPPERS_TESTSUPPORT_H
#define GPU_RUNNER_UNITTESTS_WRAPPERS_TESTSUPPORT_H

#include "wrappers/common/RuntimeError.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

namespace gpu_runner {
namespace test {

/// The location tests pass for the op a runtime call serves.
inline constexpr const char *kLoc = "test.mlir:1:1";

/// Requires `expr` to be a successful Status, printing its error otherwise.
#define REQUIRE_OK(expr)                                                       \
  do {                                                                         \
    ::gpu_runner::Status requireOkStatus_ = (expr);                            \
    INFO("error: " << requireOkStatus_.message());                             \
    REQUIRE(requireOkStatus_.ok());                                            \
  } while (false)

/// Requires `expr` to fail with a message that contains `text`.
#define REQUIRE_ERROR(expr, text)                                              \
  do {                                                                         \
    ::gpu_runner::Status requireErrorStatus_ = (expr);                         \
    REQUIRE_FALSE(requireErrorStatus_.ok());                                   \
    REQUIRE_THAT(requireErrorStatus_.message(),                                \
                 Catch::Matchers::Contains(text));                             \
  } while (false)

/// A one-shot gate: tasks wait on it until the test opens it.
class Gate {
public:
  void open() {
    std::lock_guard<std::mutex> lock(mutex);
    isOpen = true;
    condition.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex);
    condition.wait(lock, [&] { return isOpen; });
  }

private:
  std::mutex mutex;
  std::condition_variable condition;
  bool isOpen = false;
};

/// Opens `gate` after `delay` from a thread of its own; joins on
/// destruction. For proving that a call blocked until the gate opened.
class DelayedOpener {
public:
  DelayedOpener(Gate &gate, std::chrono::milliseconds delay)
      : thread([&gate, delay] {
          std::this_thread::sleep_for(delay);
          gate.open();
        }) {}
  ~DelayedOpener() { thread.join(); }

private:
  std::thread thread;
};

/// A ranked memref descriptor (StridedMemRefType) of rank N.
template <int N> struct Descriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};
template <> struct Descriptor<0> {
  void *allocated;
  void *aligned;
  int64_t offset;
};

/// What a child process did.
struct ChildResult {
  bool exited = false; // false: killed by a signal
  int exitStatus = -1;
  std::string out;
  std::string err;
};

inline std::string readAll(FILE *file) {
  std::string text;
  std::rewind(file);
  char buffer[4096];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    text.append(buffer, got);
  std::fclose(file);
  return text;
}

/// Runs `body` in a forked child with stdout and stderr captured; the child
/// exits with status 0 if `body` returns. The child has only the forking
/// thread: `body` must not wait for stream workers created before the fork,
/// nor start threads (ThreadSanitizer forbids it).
inline ChildResult runInChild(const std::function<void()> &body) {
  std::fflush(nullptr);
  FILE *out = std::tmpfile();
  FILE *err = std::tmpfile();
  REQUIRE(out);
  REQUIRE(err);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    body();
    std::fflush(nullptr);
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  ChildResult result;
  result.exited = WIFEXITED(status);
  result.exitStatus = result.exited ? WEXITSTATUS(status) : -1;
  result.out = readAll(out);
  result.err = readAll(err);
  return result;
}

} // namespace test
} // namespace gpu_runner

#endif // GPU_RUNNER_UNITTESTS_WRAPPERS_TESTSUPPORT_H
