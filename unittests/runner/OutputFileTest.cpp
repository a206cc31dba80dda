//===- OutputFileTest.cpp - Files written whole or not at all -------------===//
//
// A file is replaced whole, keeping its permissions, through a symbolic
// link; a device is written in place; a write that fails part way (a file
// size limit, as a full disk fails it) leaves the earlier file and no
// temporary file, for --output and for a compile cache entry alike.
//
//===----------------------------------------------------------------------===//

#include "runner/OutputFile.h"
#include "runner/CompileCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace gpu_runner;

namespace {

class TemporaryFolder {
public:
  TemporaryFolder() {
    llvm::SmallString<128> path;
    REQUIRE(!llvm::sys::fs::createUniqueDirectory("output-file-test", path));
    REQUIRE(::chmod(path.c_str(), 0700) == 0);
    this->path = std::string(path);
  }
  ~TemporaryFolder() { llvm::sys::fs::remove_directories(path); }

  std::string path;
};

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  REQUIRE(buffer);
  return (*buffer)->getBuffer().str();
}

std::vector<std::string> listFolder(const std::string &folder) {
  std::vector<std::string> names;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(folder, error), end;
       !error && it != end; it.increment(error))
    names.push_back(llvm::sys::path::filename(it->path()).str());
  std::sort(names.begin(), names.end());
  return names;
}

/// The message of `error`, or "" on success.
std::string getMessage(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "";
}

/// Writes fail past `bytes` (with EFBIG, SIGXFSZ being ignored, as the
/// runner ignores it) while it lives.
class FileSizeLimit {
public:
  explicit FileSizeLimit(rlim_t bytes) {
    oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
    rlimit limit = old;
    limit.rlim_cur = bytes;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &limit) == 0);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
  }

private:
  rlimit old;
  void (*oldHandler)(int);
};

} // namespace

TEST_CASE("a file is written, and replaced keeping its permissions") {
  TemporaryFolder folder;
  std::string path = folder.path + "/a.bin";
  REQUIRE(!writeFileWhole(path, "first"));
  CHECK(readFile(path) == "first");
  REQUIRE(::chmod(path.c_str(), 0640) == 0);
  REQUIRE(!writeFileWhole(path, "second"));
  CHECK(readFile(path) == "second");
  struct stat status;
  REQUIRE(::stat(path.c_str(), &status) == 0);
  CHECK((status.st_mode & 07777) == 0640);
  CHECK(listFolder(folder.path) == std::vector<std::string>{"a.bin"});
}

TEST_CASE("a symbolic link is followed, and stays a link") {
  TemporaryFolder folder;
  std::string target = folder.path + "/target.npy";
  std::string link = folder.path + "/link.npy";
  REQUIRE(::symlink("target.npy", link.c_str()) == 0);
  CHECK(followSymbolicLinks(link) == target);
  // Dangling: the write creates the file it leads to.
  REQUIRE(!writeFileWhole(link, "one"));
  CHECK(readFile(target) == "one");
  REQUIRE(!writeFileWhole(link, "two"));
  CHECK(readFile(target) == "two");
  llvm::sys::fs::file_status status;
  REQUIRE(!llvm::sys::fs::status(link, status, /*Follow=*/false));
  CHECK(status.type() == llvm::sys::fs::file_type::symlink_file);
}

TEST_CASE("a device is written in place") {
  REQUIRE(!writeFileWhole("/dev/null", "nothing"));
  CHECK(getMessage(writeFileWhole("/dev/full", "too much")) ==
        "No space left on device");
  llvm::sys::fs::file_status status;
  REQUIRE(!llvm::sys::fs::status("/dev/full", status));
  CHECK(status.type() == llvm::sys::fs::file_type::character_file);
}

TEST_CASE("a write that fails leaves the earlier file and no temporary") {
  TemporaryFolder folder;
  std::string path = folder.path + "/a.npy";
  REQUIRE(!writeFileWhole(path, "earlier"));
  {
    FileSizeLimit limit(4096);
    CHECK(getMessage(writeFileWhole(path, std::string(10000, 'x'))) ==
          "File too large");
  }
  CHECK(readFile(path) == "earlier");
  CHECK(listFolder(folder.path) == std::vector<std::string>{"a.npy"});
  CHECK(getMessage(writeFileWhole(folder.path + "/no/such/folder/a.npy",
                                  "x")) == "No such file or directory");
}

TEST_CASE("a compile cache store that fails leaves nothing behind") {
  TemporaryFolder folder;
  llvm::Expected<CompileCache> cache =
      CompileCache::open(folder.path, kDefaultCacheMaxSize);
  REQUIRE(static_cast<bool>(cache));
  CompiledProgram program;
  program.object = std::string(10000, 'x');
  {
    FileSizeLimit limit(4096);
    CHECK(getMessage(cache->store("1234", program)) == "File too large");
  }
  CHECK(listFolder(folder.path).empty());
  CHECK(!cache->lookup("1234").program);
  // Room again: stored.
  REQUIRE(!cache->store("1234", program));
  CHECK(cache->lookup("1234").program);
}
