//===- CompileCacheTest.cpp - Compiled programs kept between runs ---------===//
//
// Entries read back as written; every truncation and every changed byte of
// an entry is found; the cache folder hits, misses, replaces damaged
// entries and evicts the least recently used ones.
//
//===----------------------------------------------------------------------===//

#include "runner/CompileCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <unistd.h>

using namespace gpu_runner;

namespace {

CompiledProgram makeProgram(std::string object) {
  CompiledProgram program;
  program.object = std::move(object);
  program.externals = {"printMemrefF32", "mgpuMemcpy", ""};
  program.gpuBinaries = {{"kernels", std::string("fatbin\0bytes", 12)},
                         {"more_kernels", ""}};
  return program;
}

/// A fresh folder, removed with what is in it at the end of the test.
class TemporaryFolder {
public:
  TemporaryFolder() {
    llvm::SmallString<128> path;
    REQUIRE(!llvm::sys::fs::createUniqueDirectory("compile-cache-test", path));
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
  std::string bytes = serializeCompiledProgram(makeProgram(object));
  llvm::Expected<CompiledProgram> read = deserializeCompiledProgram(bytes);
  REQUIRE(static_cast<bool>(read));
  CHECK(read->object == object);
  CHECK(read->externals == makeProgram("").externals);
  REQUIRE(read->gpuBinaries.size() == 2);
  CHECK(read->gpuBinaries[0].name == "kernels");
  CHECK(read->gpuBinaries[0].object == std::string("fatbin\0bytes", 12));
  CHECK(read->gpuBinaries[1].name == "more_kernels");
  CHECK(read->gpuBinaries[1].object.empty());
}

TEST_CASE("every truncation of an entry is found") {
  std::string bytes = serializeCompiledProgram(makeProgram("object"));
  for (size_t size = 0; size < bytes.size(); ++size) {
    llvm::Expected<CompiledProgram> read =
        deserializeCompiledProgram(llvm::StringRef(bytes).take_front(size));
    INFO("truncated to " << size << " of " << bytes.size() << " bytes");
    REQUIRE(!read);
    llvm::consumeError(read.takeError());
  }
  llvm::Expected<CompiledProgram> longer =
      deserializeCompiledProgram(bytes + "x");
  REQUIRE(!longer);
  CHECK(llvm::toString(longer.takeError()) == "it is longer than it says");
}

TEST_CASE("every changed byte of an entry is found") {
  std::string bytes = serializeCompiledProgram(makeProgram("object"));
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] ^= 0x20;
    llvm::Expected<CompiledProgram> read = deserializeCompiledProgram(damaged);
    INFO("byte " << i << " of " << bytes.size());
    REQUIRE(!read);
    llvm::consumeError(read.takeError());
  }
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
  for (const char *bad : {"", "lots", "-1", "0", "12q"}) {
    llvm::Expected<uint64_t> size = parseCacheSize(bad);
    INFO(bad);
    REQUIRE(!size);
    llvm::consumeError(size.takeError());
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
  uint64_t size;
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
  size_t entrySize = serializeCompiledProgram(makeProgram(object)).size();
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
