//===- CompileCache.h - Compiled programs kept between runs ---------------===//
//
// A folder of compiled programs, one file per program, named by a hash of
// everything that decides the compiled code: the input, the flags that
// change it, the backend and its target, and the build of gpu-runner and
// LLVM. Each entry is written to a temporary file and renamed into place
// (writeFileWhole), so concurrent runs only ever see whole entries, and a
// store that fails (a full disk) leaves nothing behind; LLVM's file cache
// (llvm/Support/Caching.h) looks entries up, and its pruning
// (llvm/Support/CachePruning.h) bounds the folder's size, least recently used
// first. Each entry carries its key and a checksum of both, so that a damaged
// entry, or one copied from another program's, is found and recompiled, never
// loaded. The checksum finds accidents, not forgeries: whoever can write to the
// folder can make the runner run code of theirs, so a folder anyone else can
// write to is refused.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_COMPILECACHE_H
#define GPU_RUNNER_RUNNER_COMPILECACHE_H

#include "runner/compiler/Compiler.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpu_runner {

/// Builds a cache key: each part is hashed with its name, so that no two
/// different sets of parts give the same stream of bytes.
class CacheKeyBuilder {
public:
  CacheKeyBuilder &add(llvm::StringRef name, llvm::StringRef value);
  /// The key, as hexadecimal digits.
  std::string finish();

private:
  llvm::BLAKE3 hasher;
};

/// Identifies this build of gpu-runner and the LLVM library it runs with,
/// and the build of each of `files` (the compiler library, which is loaded
/// only to compile): their GNU build ids, which change with any change to
/// the code, or a file's size and time where it has none.
std::string getBuildIdentity(llvm::ArrayRef<std::string> files = {});

/// A file's size and modification time, which change when it is replaced:
/// "<size>:<time>", or "missing".
std::string getFileStamp(const llvm::Twine &path);

/// The cache folder when --cache-dir is not given: $GPU_RUNNER_CACHE_DIR,
/// else gpu-runner under the user's cache folder ($XDG_CACHE_HOME or
/// ~/.cache). Empty when there is no home folder to put it in: neither
/// names an absolute path (the XDG base directory rule), so that a cache is
/// never made in whatever the current folder is.
std::string getDefaultCacheDir();

/// The size the cache folder is kept under when --cache-max-size is not
/// given.
inline constexpr uint64_t kDefaultCacheMaxSize = uint64_t(1) << 30;

/// How old the temporary file of a store must be to count as left by a run
/// that was killed: a store writes its file in well under a second.
inline constexpr std::chrono::minutes kStaleTemporaryAge{10};

/// Parses a --cache-max-size value: bytes, or a number with a k, m or g
/// suffix; a size that does not fit in 64 bits is an error.
llvm::Expected<uint64_t> parseCacheSize(llvm::StringRef text);

class CompileCache {
public:
  /// Opens the cache in `directory`, creating it (for its owner alone) if
  /// need be. Fails when it is not a folder, or is not safe to load code
  /// from: owned by another user, or writable by its group or by others.
  static llvm::Expected<CompileCache> open(llvm::StringRef directory,
                                           uint64_t maxSizeBytes);

  struct Lookup {
    /// The program, on a hit.
    std::optional<CompiledProgram> program;
    /// Why a file that was there could not be used (it is removed, to be
    /// written again); empty on a hit or when there was no file.
    std::string damage;
  };

  /// Looks `key` up. A damaged entry is removed and reported in
  /// Lookup::damage; it is a miss.
  Lookup lookup(llvm::StringRef key);

  /// Stores `program` under `key`, then removes the temporary files of
  /// stores that never finished (kStaleTemporaryAge old) and evicts the least
  /// recently used entries while the folder, the temporaries of stores
  /// still running included, is over its size limit. A store that fails (a
  /// full disk, any write error) removes its temporary file and returns the
  /// error, for the run to warn about and go on.
  llvm::Error store(llvm::StringRef key, const CompiledProgram &program);

  /// Where the entry of `key` lives.
  std::string getEntryPath(llvm::StringRef key) const;

private:
  using BufferSlot = std::shared_ptr<std::unique_ptr<llvm::MemoryBuffer>>;

  CompileCache(llvm::FileCache cache, BufferSlot found, std::string directory,
               uint64_t maxSizeBytes)
      : cache(std::move(cache)), found(std::move(found)),
        directory(std::move(directory)), maxSizeBytes(maxSizeBytes) {}

  llvm::FileCache cache;
  /// Where the file cache puts the entry it found.
  BufferSlot found;
  std::string directory;
  uint64_t maxSizeBytes;
};

/// The bytes of the entry of `program` under `key`, and the reverse, which
/// fails for damaged bytes and for an entry stored under another key;
/// exposed for the unit tests.
std::string serializeCompiledProgram(llvm::StringRef key,
                                     const CompiledProgram &program);
llvm::Expected<CompiledProgram>
deserializeCompiledProgram(llvm::StringRef key, llvm::StringRef bytes);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_COMPILECACHE_H
