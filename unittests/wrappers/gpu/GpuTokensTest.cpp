//===- GpuTokensTest.cpp - The GPU runtime's tokens after their release ---===//
//
// The gpu dialect's tokens are values: a token stays a dependency after a
// gpu.wait or a join released its stream. GpuRuntime is run over a scripted
// driver that logs every stream and event call and lets the test say which
// streams still have work, so each test states exactly which driver calls a
// released token makes: none for work that is done, a wait on its own stream
// for work that still runs, and never one on a stream that serves another
// token since.
//
//===----------------------------------------------------------------------===//

#include "wrappers/gpu/GpuRuntime.h"

#include "unittests/wrappers/TestSupport.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace gpu_runner;
using namespace gpu_runner::test;

namespace {

/// A driver whose streams run nothing: a stream is busy while the test says
/// so, and an event is reached once the stream it was recorded on is idle.
class ScriptedDriver final : public GpuDriver {
public:
  static constexpr Result kNotReady = 600;

  /// The calls made so far, one string each ("createStream s1").
  std::vector<std::string> log;
  std::set<std::string> busy;

  std::string name(void *handle) const {
    auto it = names.find(handle);
    return it == names.end() ? "?" : it->second;
  }
  /// The calls logged since the test last looked.
  std::vector<std::string> take() {
    std::vector<std::string> result = std::move(log);
    log.clear();
    return result;
  }
  size_t count(const std::string &prefix) const {
    return std::count_if(log.begin(), log.end(), [&](const std::string &line) {
      return line.rfind(prefix, 0) == 0;
    });
  }

  const char *vendor() const override { return "scripted"; }
  Status load() override { return Status(); }
  std::string describe(Result result) const override {
    return "scripted error " + std::to_string(result);
  }
  bool isKernelFault(Result) const override { return false; }
  bool isNotReady(Result result) const override { return result == kNotReady; }
  bool isOutOfMemory(Result) const override { return false; }
  bool isWrongBinary(Result) const override { return false; }
  bool isNotFound(Result) const override { return false; }

  Result getDeviceCount(int &count) override {
    count = 1;
    return 0;
  }
  Result openDevice(int index, GpuDeviceInfo &info) override {
    info.index = index;
    info.context = this;
    return 0;
  }
  Result closeDevice(const GpuDeviceInfo &) override { return 0; }
  Result makeCurrent(const GpuDeviceInfo &) override { return 0; }
  Result synchronizeDevice() override { return 0; }
  Result describeDevice(int, std::string &name, std::string &chip,
                        uint64_t &memory) override {
    name = "scripted";
    chip = "sm_90";
    memory = 0;
    return 0;
  }
  Result getMemoryInfo(uint64_t &freeBytes, uint64_t &totalBytes) override {
    freeBytes = totalBytes = 0;
    return 0;
  }

  void *getNullStream() override { return nullptr; }
  Result createStream(void *&stream) override {
    stream = make("s");
    log.push_back("createStream " + name(stream));
    return 0;
  }
  Result destroyStream(void *stream) override {
    log.push_back("destroyStream " + name(stream));
    return 0;
  }
  Result queryStream(void *stream) override {
    log.push_back("queryStream " + name(stream));
    return busy.count(name(stream)) ? kNotReady : 0;
  }
  Result synchronizeStream(void *stream) override {
    log.push_back("synchronizeStream " + (stream ? name(stream) : "null"));
    return 0;
  }
  Result createEvent(void *&event) override {
    event = make("e");
    log.push_back("createEvent " + name(event));
    return 0;
  }
  Result destroyEvent(void *event) override {
    log.push_back("destroyEvent " + name(event));
    return 0;
  }
  Result recordEvent(void *event, void *stream) override {
    recordedOn[event] = name(stream);
    log.push_back("recordEvent " + name(event) + " " + name(stream));
    return 0;
  }
  Result queryEvent(void *event) override {
    log.push_back("queryEvent " + name(event));
    return busy.count(recordedOn[event]) ? kNotReady : 0;
  }
  Result synchronizeEvent(void *event) override {
    log.push_back("synchronizeEvent " + name(event));
    return 0;
  }
  Result streamWaitEvent(void *stream, void *event) override {
    log.push_back("streamWaitEvent " + name(stream) + " " + name(event));
    return 0;
  }
  Result createTimingEvent(void *&event) override { return createEvent(event); }
  Result getElapsedMilliseconds(float &milliseconds, void *, void *) override {
    milliseconds = 0;
    return 0;
  }

  Result allocate(void *&pointer, uint64_t) override {
    pointer = make("m");
    return 0;
  }
  Result allocateManaged(void *&pointer, uint64_t bytes) override {
    return allocate(pointer, bytes);
  }
  Result free(void *) override { return 0; }
  Result copy(const RectangularCopy &, void *stream) override {
    log.push_back("copy " + (stream ? name(stream) : "null"));
    return 0;
  }
  Result fill(void *, uint64_t, int64_t, uint64_t, void *stream) override {
    log.push_back("fill " + (stream ? name(stream) : "null"));
    return 0;
  }
  Result fillRows(void *, uint64_t, uint64_t, int64_t, uint64_t, uint64_t,
                  void *) override {
    return 0;
  }
  Result hostRegister(void *, uint64_t) override { return 0; }
  Result hostUnregister(void *) override { return 0; }
  Result getMappedPointer(void *&device, void *host) override {
    device = host;
    return 0;
  }

  Result loadModule(void *&, const void *, uint64_t, int32_t, int,
                    std::string &) override {
    return 1;
  }
  Result unloadModule(void *) override { return 0; }
  Result getFunction(void *&, void *, const char *) override { return 1; }
  Result getFunctionLimits(void *, int64_t &, int64_t &) override { return 1; }
  Result setMaxDynamicSharedBytes(void *, int64_t) override { return 1; }
  Status checkLaunch(const GpuLaunchConfig &) const override {
    return Status();
  }
  Result launch(void *, const GpuLaunchConfig &, void *, void **) override {
    return 1;
  }

private:
  /// A new handle named `kind` and a number: s1, s2, e3, ...
  void *make(const char *kind) {
    void *handle = reinterpret_cast<void *>(static_cast<uintptr_t>(++next));
    names[handle] = kind + std::to_string(next);
    return handle;
  }

  uintptr_t next = 0x1000;
  std::map<void *, std::string> names;
  std::map<void *, std::string> recordedOn;
};

using Calls = std::vector<std::string>;

/// A runtime over `driver`, initialized on device 0.
struct Fixture {
  ScriptedDriver driver;
  GpuRuntime runtime{driver};
  int32_t device[4] = {0, 0, 0, 0};

  Fixture() { REQUIRE_OK(runtime.initialize(0)); }
  ~Fixture() {
    std::vector<Runtime::Warning> leaks;
    CHECK(runtime.finalize(leaks).ok());
  }

  void *createStream() {
    void *stream = nullptr;
    REQUIRE_OK(runtime.createStream(stream, kLoc));
    return stream;
  }
  void *streamFromToken(void *token) {
    void *stream = nullptr;
    REQUIRE_OK(runtime.streamFromToken(token, stream, kLoc));
    return stream;
  }
  /// gpu.wait [%token], as the lowering emits it.
  void wait(void *token) {
    REQUIRE_OK(runtime.synchronizeStream(token, kLoc));
    REQUIRE_OK(runtime.destroyStream(token, kLoc));
  }
  void fill(void *stream) {
    REQUIRE_OK(runtime.memset(device, 0, 4, 4, stream, kLoc));
  }
};

} // namespace

TEST_CASE("a token released idle is done: its stream serves the next token, "
          "and the old token waits for none of that token's work",
          "[gpu][token]") {
  Fixture f;
  void *old = f.createStream();
  f.fill(old);
  f.wait(old);
  CHECK(f.driver.take() == Calls{"createStream s4097", "fill s4097",
                                 "synchronizeStream s4097",
                                 "queryStream s4097"});
  // The idle stream goes back to the pool and serves the next token.
  void *next = f.createStream();
  f.fill(next);
  f.driver.busy.insert("s4097");
  CHECK(f.driver.take() == Calls{"fill s4097"});

  // The old token's work is done: a stream of its own, no wait; waiting,
  // joining and yielding it make no call.
  void *stream = f.streamFromToken(old);
  CHECK(stream != old);
  CHECK(stream != next);
  f.wait(old);
  REQUIRE_OK(f.runtime.joinStream(stream, old, kLoc));
  void *event = nullptr;
  REQUIRE_OK(f.runtime.recordEventOnStream(old, event, kLoc));
  CHECK(event == old);
  f.fill(stream);
  CHECK(f.driver.take() == Calls{"createStream s4098", "fill s4098"});
  // Only new work on the released stream itself is refused.
  REQUIRE_ERROR(f.runtime.memset(f.device, 0, 4, 4, old, kLoc),
                "already released");
  f.driver.busy.clear();
}

TEST_CASE("a token released busy keeps its stream, unused, until a use or "
          "the exit",
          "[gpu][token]") {
  Fixture f;
  void *a = f.createStream();
  void *b = f.createStream();
  f.fill(b);
  f.driver.busy.insert("s4098");
  // gpu.wait async [%a, %b] releases %b's stream while it still runs.
  REQUIRE_OK(f.runtime.joinStream(a, b, kLoc));
  CHECK(f.driver.take() == Calls{"createStream s4097", "createStream s4098",
                                 "fill s4098", "createEvent e4099",
                                 "recordEvent e4099 s4098",
                                 "streamWaitEvent s4097 e4099",
                                 "destroyEvent e4099", "queryStream s4098"});
  // Neither destroyed nor reused: a new token gets a new stream.
  void *c = f.createStream();
  CHECK(f.driver.take() == Calls{"createStream s4100"});

  // An op on %b waits for an event recorded on %b's own stream now; a
  // wait on %b synchronizes that stream.
  void *stream = f.streamFromToken(b);
  CHECK(stream != b);
  f.wait(b);
  CHECK(f.driver.take() ==
        Calls{"createStream s4101", "createEvent e4102",
              "recordEvent e4102 s4098", "streamWaitEvent s4101 e4102",
              "destroyEvent e4102", "synchronizeStream s4098"});
  for (void *token : {a, c, stream})
    f.wait(token);
  f.driver.busy.clear();
  f.driver.take();
  std::vector<Runtime::Warning> leaks;
  REQUIRE_OK(f.runtime.finalize(leaks));
  CHECK(f.driver.count("destroyStream s4098") == 1);
}

TEST_CASE("an event token stays valid after its first use", "[gpu][token]") {
  Fixture f;
  void *producer = f.createStream();
  f.fill(producer);
  f.driver.busy.insert("s4097");
  void *event = nullptr;
  REQUIRE_OK(f.runtime.recordEventOnStream(producer, event, kLoc));
  REQUIRE_OK(f.runtime.destroyStream(producer, kLoc));
  f.driver.take();

  // Two regions await the same token: each gets a stream that waits for the
  // same event, which the first use released but did not destroy.
  void *first = f.streamFromToken(event);
  void *second = f.streamFromToken(event);
  CHECK(first != second);
  CHECK(f.driver.take() == Calls{"createStream s4099",
                                 "streamWaitEvent s4099 e4098",
                                 "queryEvent e4098", "createStream s4100",
                                 "streamWaitEvent s4100 e4098"});
  f.wait(event);
  CHECK(f.driver.take() == Calls{"synchronizeEvent e4098"});
  f.driver.busy.clear();
  for (void *token : {first, second})
    f.wait(token);
  std::vector<Runtime::Warning> leaks;
  REQUIRE_OK(f.runtime.finalize(leaks));
  CHECK(f.driver.count("destroyEvent e4098") == 1);
  CHECK(f.driver.count("destroyStream s4097") == 1);
}

TEST_CASE("released tokens whose work is done are retired in sweeps",
          "[gpu][token]") {
  Fixture f;
  std::vector<void *> released;
  for (int i = 0; i < 63; ++i) {
    void *token = f.createStream();
    f.driver.busy.insert(f.driver.name(
        reinterpret_cast<void *>(static_cast<uintptr_t>(0x1001 + i))));
    REQUIRE_OK(f.runtime.destroyStream(token, kLoc));
    released.push_back(token);
  }
  CHECK(f.driver.count("createStream") == 63);
  CHECK(f.driver.count("destroyStream") == 0);
  // Once their work is done, the 64th release sweeps them into the pool,
  // and new tokens reuse their streams.
  f.driver.busy.clear();
  void *last = f.createStream();
  f.driver.busy.insert("s4160");
  REQUIRE_OK(f.runtime.destroyStream(last, kLoc));
  f.driver.take();
  for (int i = 0; i < 63; ++i)
    f.createStream();
  CHECK(f.driver.count("createStream") == 0);
  // Their old tokens are done: waiting for them makes no call.
  for (void *token : released)
    f.wait(token);
  CHECK(f.driver.log.empty());
  f.driver.busy.clear();
}

TEST_CASE("a token no stream or event ever had is an error", "[gpu][token]") {
  Fixture f;
  void *never = reinterpret_cast<void *>(static_cast<uintptr_t>(0x3039));
  void *stream = nullptr;
  REQUIRE_ERROR(f.runtime.streamFromToken(never, stream, kLoc),
                "invalid stream handle 0x3039");
  REQUIRE_ERROR(f.runtime.synchronizeStream(never, kLoc),
                "invalid stream handle 0x3039");
  REQUIRE_ERROR(f.runtime.destroyStream(never, kLoc),
                "invalid stream handle 0x3039");
  void *live = f.createStream();
  REQUIRE_ERROR(f.runtime.joinStream(live, never, kLoc),
                "invalid stream handle 0x3039");
  void *event = nullptr;
  REQUIRE_ERROR(f.runtime.recordEventOnStream(never, event, kLoc),
                "invalid stream handle 0x3039");
}
