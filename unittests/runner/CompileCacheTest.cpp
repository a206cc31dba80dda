//===- CompileCacheTest.cpp - Compiled programs kept between runs ---------===//
//
// Entries read back as written, under their own key only; every truncation
// and every changed byte of an entry is found; the cache folder hits,
// misses, replaces damaged and foreign entries, evicts the least recently
// used ones, cleans up after killed stores, and is refused when someone
// else could write to it.
//
//===----------------------------------------------------------------------===//

#include "runner/CompileCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace gpu_runner;

namespace {

CompiledProgram makeProgram(std::string object) {
  CompiledProgram program;
  program.object = std::move(object);
  program.externals = {"printMemrefF32", "mgpuMemcpy", ""};
  program.gpuBinaries = {
      {"kernels", std::string("fatbin\0bytes", 12), std::string("BC\0ir", 5)},
      {"more_kernels", "", ""}};
  return program;
}

/// A fresh folder, the user's alone as a cache folder must be (whatever the
/// umask), removed with what is in it at the end of the test.
class TemporaryFolder {
public:
  TemporaryFolder() {
    llvm::SmallString<128> path;
    REQUIRE(!llvm::sys::fs::createUniqueDirectory("compile-cache-test", path));
    REQUIRE(::chmod(path.c_str(), 0700) == 0);
    this->path = std::string(path);
  }
  ~TemporaryFolder() { llvm::sys::fs::remove_directories(path); }

  std::string path;
};

unsigned countEntries(const std::string &folder) {
  unsigned count = 0;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(folder, error), end;
       !error && it != end; it.increment(error))
    if (llvm::sys::path::filename(it->path()).starts_with("llvmcache-"))
      ++count;
  return count;
}

/// Writes `size` bytes to `path`, last changed `age` ago.
void writeFile(const std::string &path, size_t size,
               std::chrono::seconds age = std::chrono::seconds(0)) {
  int fd;
  REQUIRE(!llvm::sys::fs::openFileForWrite(path, fd));
  std::string bytes(size, 'x');
  REQUIRE(::write(fd, bytes.data(), bytes.size()) == ssize_t(size));
  auto then = std::chrono::system_clock::now() - age;
  REQUIRE(!llvm::sys::fs::setLastAccessAndModificationTime(fd, then, then));
  llvm::sys::fs::closeFile(fd);
}

/// The message of a cache that could not be opened.
std::string openError(const std::string &folder) {
  llvm::Expected<CompileCache> cache =
      CompileCache::open(folder, kDefaultCacheMaxSize);
  REQUIRE(!cache);
  return llvm::toString(cache.takeError());
}

/// Sets an environment variable for the rest of a test, or unsets it.
class ScopedEnvironment {
public:
  ScopedEnvironment(const char *name, std::optional<std::string> value)
      : name(name) {
    if (const char *old = std::getenv(name))
      previous = old;
    set(value);
  }
  ~ScopedEnvironment() { set(previous); }

private:
  void set(const std::optional<std::string> &value) {
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }

  const char *name;
  std::optional<std::string> previous;
};

/// Sets the last access of `path`, after its last change: reading it then
/// leaves the access time as it is on a file system mounted relatime.
void setAccessTime(const std::string &path, int secondsAgo) {
  int fd;
  REQUIRE(!llvm::sys::fs::openFileForRead(path, fd));
  auto now = std::chrono::system_clock::now();
  REQUIRE(!llvm::sys::fs::setLastAccessAndModificationTime(
      fd, now - std::chrono::seconds(secondsAgo), now - std::chrono::hours(1)));
  llvm::sys::fs::closeFile(fd);
}

} // namespace

TEST_CASE("an entry reads back as it was written") {
  std::string object("\x7f"
                     "ELF\0\1\2 object bytes",
                     20);
  std::string bytes = serializeCompiledProgram("key", makeProgram(object));
  llvm::Expected<CompiledProgram> read =
      deserializeCompiledProgram("key", bytes);
  REQUIRE(static_cast<bool>(read));
  CHECK(read->object == object);
  CHECK(read->externals == makeProgram("").externals);
  REQUIRE(read->gpuBinaries.size() == 2);
  CHECK(read->gpuBinaries[0].name == "kernels");
  CHECK(read->gpuBinaries[0].object == std::string("fatbin\0bytes", 12));
  CHECK(read->gpuBinaries[1].name == "more_kernels");
  CHECK(read->gpuBinaries[0].kernelIR == std::string("BC\0ir", 5));
  CHECK(read->gpuBinaries[1].object.empty());
  CHECK(read->gpuBinaries[1].kernelIR.empty());
}

TEST_CASE("every truncation of an entry is found") {
  std::string bytes = serializeCompiledProgram("key", makeProgram("object"));
  for (size_t size = 0; size < bytes.size(); ++size) {
    llvm::Expected<CompiledProgram> read = deserializeCompiledProgram(
        "key", llvm::StringRef(bytes).take_front(size));
    INFO("truncated to " << size << " of " << bytes.size() << " bytes");
    REQUIRE(!read);
    llvm::consumeError(read.takeError());
  }
  llvm::Expected<CompiledProgram> longer =
      deserializeCompiledProgram("key", bytes + "x");
  REQUIRE(!longer);
  CHECK(llvm::toString(longer.takeError()) == "it is longer than it says");
}

TEST_CASE("every changed byte of an entry is found") {
  std::string bytes = serializeCompiledProgram("key", makeProgram("object"));
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] ^= 0x20;
    llvm::Expected<CompiledProgram> read =
        deserializeCompiledProgram("key", damaged);
    INFO("byte " << i << " of " << bytes.size());
    REQUIRE(!read);
    llvm::consumeError(read.takeError());
  }
}

TEST_CASE("an entry reads back under its own key only") {
  std::string bytes = serializeCompiledProgram("1234", makeProgram("object"));
  llvm::Expected<CompiledProgram> read =
      deserializeCompiledProgram("5678", bytes);
  REQUIRE(!read);
  CHECK(llvm::toString(read.takeError()) ==
        "it was stored under another key: it is another program's entry, "
        "copied or renamed");
  // Nor does rewriting the key it names make it pass: the checksum covers
  // the key.
  std::string renamed = bytes;
  renamed.replace(renamed.find("1234"), 4, "5678");
  read = deserializeCompiledProgram("5678", renamed);
  REQUIRE(!read);
  CHECK(llvm::toString(read.takeError()) ==
        "its checksum does not match its contents");
}

TEST_CASE("keys depend on every part and on where parts split") {
  auto key = [](llvm::StringRef a, llvm::StringRef b) {
    return CacheKeyBuilder().add("first", a).add("second", b).finish();
  };
  CHECK(key("ab", "c") == key("ab", "c"));
  CHECK(key("ab", "c") != key("a", "bc"));
  CHECK(key("ab", "c") != key("ab", "d"));
  CHECK(key("ab", "c").size() == 64);
}

TEST_CASE("the build identity names this executable's build") {
  std::string identity = getBuildIdentity();
  CHECK(!identity.empty());
  CHECK(identity == getBuildIdentity());
}

TEST_CASE("cache sizes read as LLVM's pruning policy reads them") {
  CHECK(*parseCacheSize("4096") == 4096);
  CHECK(*parseCacheSize("512k") == 512ull << 10);
  CHECK(*parseCacheSize("512m") == 512ull << 20);
  CHECK(*parseCacheSize("2g") == 2ull << 30);
  CHECK(*parseCacheSize("2G") == 2ull << 30);
  CHECK(*parseCacheSize("18446744073709551615") == UINT64_MAX);
  CHECK(*parseCacheSize("17179869183g") == 17179869183ull << 30);
  for (const char *bad :
       {"", "k", "lots", "-1", "0", "0k", "12q", "1.5g", " 12", "0x10"}) {
    llvm::Expected<uint64_t> size = parseCacheSize(bad);
    INFO(bad);
    REQUIRE(!size);
    llvm::consumeError(size.takeError());
  }
}

TEST_CASE("a cache size past 2^64 bytes is an error, not a wrapped size") {
  for (const char *huge : {"18014398509481985k", "17179869184g",
                           "18446744073709551616", "99999999999999999999m"}) {
    llvm::Expected<uint64_t> size = parseCacheSize(huge);
    INFO(huge);
    REQUIRE(!size);
    CHECK(llvm::toString(size.takeError()) ==
          std::string("--cache-max-size=") + huge +
              " is too large: a size is at most 2^64 - 1 bytes (16 EiB)");
  }
}

TEST_CASE("a cache folder misses, stores and hits") {
  TemporaryFolder folder;
  llvm::Expected<CompileCache> cache =
      CompileCache::open(folder.path + "/cache", kDefaultCacheMaxSize);
  REQUIRE(static_cast<bool>(cache));

  CompileCache::Lookup miss = cache->lookup("1234");
  CHECK(!miss.program);
  CHECK(miss.damage.empty());

  REQUIRE(!cache->store("1234", makeProgram("first")));
  CompileCache::Lookup hit = cache->lookup("1234");
  REQUIRE(hit.program);
  CHECK(hit.program->object == "first");
  CHECK(hit.damage.empty());
  CHECK(!cache->lookup("5678").program);
}

TEST_CASE("a damaged entry is reported, removed and stored again") {
  TemporaryFolder folder;
  llvm::Expected<CompileCache> cache =
      CompileCache::open(folder.path, kDefaultCacheMaxSize);
  REQUIRE(static_cast<bool>(cache));
  REQUIRE(!cache->store("abcd", makeProgram("object")));
  std::string path = cache->getEntryPath("abcd");
  uint64_t size = 0;
  REQUIRE(!llvm::sys::fs::file_size(path, size));
  REQUIRE(::truncate(path.c_str(), size - 3) == 0);

  CompileCache::Lookup damaged = cache->lookup("abcd");
  CHECK(!damaged.program);
  CHECK(damaged.damage == "it is truncated");
  CHECK(!llvm::sys::fs::exists(path));

  REQUIRE(!cache->store("abcd", makeProgram("object")));
  CompileCache::Lookup hit = cache->lookup("abcd");
  REQUIRE(hit.program);
  CHECK(hit.program->object == "object");
}

TEST_CASE("the least recently used entries are evicted first") {
  TemporaryFolder folder;
  std::string object(4000, 'x');
  size_t entrySize =
      serializeCompiledProgram("aaaa", makeProgram(object)).size();
  // Room for two entries, not three.
  llvm::Expected<CompileCache> cache =
      CompileCache::open(folder.path, entrySize * 5 / 2);
  REQUIRE(static_cast<bool>(cache));
  REQUIRE(!cache->store("aaaa", makeProgram(object)));
  REQUIRE(!cache->store("bbbb", makeProgram(object)));
  setAccessTime(cache->getEntryPath("aaaa"), 300);
  setAccessTime(cache->getEntryPath("bbbb"), 200);
  // A hit makes aaaa the most recently used of the two...
  REQUIRE(cache->lookup("aaaa").program);
  // ...so storing a third entry evicts bbbb.
  REQUIRE(!cache->store("cccc", makeProgram(object)));
  CHECK(countEntries(folder.path) == 2);
  CHECK(cache->lookup("aaaa").program);
  CHECK(!cache->lookup("bbbb").program);
  CHECK(cache->lookup("cccc").program);
}

TEST_CASE("a folder that cannot be made is an error that names it") {
  TemporaryFolder folder;
  std::string file = folder.path + "/file";
  {
    int fd;
    REQUIRE(!llvm::sys::fs::openFileForWrite(file, fd));
    llvm::sys::fs::closeFile(fd);
  }
  llvm::Expected<CompileCache> cache =
      CompileCache::open(file + "/cache", kDefaultCacheMaxSize);
  REQUIRE(!cache);
  std::string message = llvm::toString(cache.takeError());
  CHECK(message.find("cannot create the cache folder " + file + "/cache") !=
        std::string::npos);
}

TEST_CASE("another program's entry copied over an entry is not loaded") {
  TemporaryFolder folder;
  llvm::Expected<CompileCache> cache =
      CompileCache::open(folder.path, kDefaultCacheMaxSize);
  REQUIRE(static_cast<bool>(cache));
  REQUIRE(!cache->store("aaaa", makeProgram("program a")));
  REQUIRE(!cache->store("bbbb", makeProgram("program b")));
  REQUIRE(!llvm::sys::fs::copy_file(cache->getEntryPath("aaaa"),
                                    cache->getEntryPath("bbbb")));

  CompileCache::Lookup foreign = cache->lookup("bbbb");
  CHECK(!foreign.program);
  CHECK(foreign.damage == "it was stored under another key: it is another "
                          "program's entry, copied or renamed");
  CHECK(!llvm::sys::fs::exists(cache->getEntryPath("bbbb")));
  CHECK(cache->lookup("aaaa").program->object == "program a");
}

TEST_CASE("a cache folder that is not a folder is an error") {
  TemporaryFolder folder;
  std::string file = folder.path + "/file";
  writeFile(file, 10);
  for (const std::string &path : {file, std::string("/dev/null")}) {
    INFO(path);
    CHECK(openError(path) == "the cache folder " + path + " is not a folder");
  }
}

TEST_CASE("a cache folder others can write to is refused") {
  TemporaryFolder folder;
  std::string shared = folder.path + "/shared";
  REQUIRE(::mkdir(shared.c_str(), 0700) == 0);
  std::string makePrivate =
      "make it writable by its owner alone (chmod go-w " + shared + ")";
  struct Case {
    mode_t mode;
    const char *who;
    std::string fix;
  } cases[] = {{0777, "its group and others", makePrivate},
               {0770, "its group", makePrivate},
               {0703, "others", makePrivate},
               // Shared on purpose, as /tmp is.
               {01777, "its group and others", "use a folder of your own"}};
  for (const Case &c : cases) {
    REQUIRE(::chmod(shared.c_str(), c.mode) == 0);
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%04o", unsigned(c.mode));
    INFO(mode);
    CHECK(openError(shared) ==
          "the cache folder " + shared + " is writable by " + c.who +
              " (mode " + mode +
              "), who could put code in it for gpu-runner to run as you: " +
              c.fix);
  }
  // Readable by all is fine: only writing lets anyone choose the code.
  REQUIRE(::chmod(shared.c_str(), 0755) == 0);
  CHECK(static_cast<bool>(CompileCache::open(shared, kDefaultCacheMaxSize)));
}

TEST_CASE("a cache folder made by the cache is its owner's alone") {
  TemporaryFolder folder;
  std::string made = folder.path + "/a/b";
  mode_t old = ::umask(0);
  llvm::Expected<CompileCache> cache =
      CompileCache::open(made, kDefaultCacheMaxSize);
  ::umask(old);
  REQUIRE(static_cast<bool>(cache));
  struct stat status;
  REQUIRE(::stat(made.c_str(), &status) == 0);
  CHECK((status.st_mode & 07777) == 0700);
}

TEST_CASE("a cache folder owned by another user is refused") {
  // As root, a folder given to nobody; as anyone else, the root folder,
  // which root owns.
  TemporaryFolder folder;
  std::string theirs = "/";
  uid_t owner = 0;
  if (::geteuid() == 0) {
    theirs = folder.path + "/theirs";
    owner = 65534;
    REQUIRE(::mkdir(theirs.c_str(), 0755) == 0);
    REQUIRE(::chown(theirs.c_str(), owner, owner) == 0);
  }
  CHECK(openError(theirs) ==
        "the cache folder " + theirs + " belongs to another user (uid " +
            std::to_string(owner) +
            "), who could put code in it for gpu-runner to run as you");
}

TEST_CASE("a store removes the temporaries of killed stores and counts "
          "those of running ones") {
  TemporaryFolder folder;
  std::string object(4000, 'x');
  size_t entrySize =
      serializeCompiledProgram("aaaa", makeProgram(object)).size();
  // Room for two entries, not three.
  llvm::Expected<CompileCache> cache =
      CompileCache::open(folder.path, entrySize * 5 / 2);
  REQUIRE(static_cast<bool>(cache));
  std::string stale = folder.path + "/gpu-runner-entry-abc123.tmp.o";
  std::string running = folder.path + "/gpu-runner-entry-def456.tmp.o";
  std::string other = folder.path + "/notes.tmp.o";
  writeFile(
      stale, entrySize,
      std::chrono::duration_cast<std::chrono::seconds>(kStaleTemporaryAge) +
          std::chrono::seconds(60));
  writeFile(running, entrySize);
  writeFile(other, 10, std::chrono::hours(24));

  REQUIRE(!cache->store("aaaa", makeProgram(object)));
  CHECK(!llvm::sys::fs::exists(stale));
  CHECK(llvm::sys::fs::exists(running));
  CHECK(llvm::sys::fs::exists(other)); // Not the cache's: left alone.
  // The running store's file and aaaa fill the room, so storing bbbb
  // evicts aaaa.
  setAccessTime(cache->getEntryPath("aaaa"), 300);
  REQUIRE(!cache->store("bbbb", makeProgram(object)));
  CHECK(countEntries(folder.path) == 1);
  CHECK(!cache->lookup("aaaa").program);
  CHECK(cache->lookup("bbbb").program);
}

TEST_CASE("the default cache folder is never a relative path") {
  ScopedEnvironment noCacheDir("GPU_RUNNER_CACHE_DIR", std::nullopt);
  {
    ScopedEnvironment xdg("XDG_CACHE_HOME", std::string("/xdg"));
    CHECK(getDefaultCacheDir() == "/xdg/gpu-runner");
  }
  ScopedEnvironment xdg("XDG_CACHE_HOME", std::string("relative"));
  {
    ScopedEnvironment home("HOME", std::string("/home/me"));
    CHECK(getDefaultCacheDir() == "/home/me/.cache/gpu-runner");
  }
  for (const char *badHome : {"", "me"}) {
    ScopedEnvironment home("HOME", std::string(badHome));
    INFO("HOME=" << badHome);
    CHECK(getDefaultCacheDir().empty());
  }
  ScopedEnvironment emptyXdg("XDG_CACHE_HOME", std::string(""));
  ScopedEnvironment home("HOME", std::string(""));
  CHECK(getDefaultCacheDir().empty());
}
