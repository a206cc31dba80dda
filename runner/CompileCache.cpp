//===- CompileCache.cpp - Compiled programs kept between runs -------------===//

#include "runner/CompileCache.h"

#include "runner/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <link.h>
#include <unistd.h>

using namespace llvm;

namespace gpu_runner {

CacheKeyBuilder &CacheKeyBuilder::add(StringRef name, StringRef value) {
  auto addSized = [&](StringRef text) {
    uint64_t size = support::endian::byte_swap<uint64_t>(
        text.size(), llvm::endianness::little);
    hasher.update(
        ArrayRef<uint8_t>(reinterpret_cast<uint8_t *>(&size), sizeof(size)));
    hasher.update(text);
  };
  addSized(name);
  addSized(value);
  return *this;
}

std::string CacheKeyBuilder::finish() { return toHex(hasher.final(), true); }

namespace {

/// The ELF note that holds a GNU build id.
constexpr uint32_t kBuildIdNoteType = 3; // NT_GNU_BUILD_ID

/// Appends the build id of the object `info` describes to `identity`, if
/// it has one; returns whether it had.
bool appendBuildId(const dl_phdr_info &info, std::string &identity) {
  for (unsigned i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr) &header = info.dlpi_phdr[i];
    if (header.p_type != PT_NOTE)
      continue;
    const char *note =
        reinterpret_cast<const char *>(info.dlpi_addr + header.p_vaddr);
    const char *end = note + header.p_memsz;
    while (note + sizeof(ElfW(Nhdr)) <= end) {
      const auto *nhdr = reinterpret_cast<const ElfW(Nhdr) *>(note);
      const char *name = note + sizeof(ElfW(Nhdr));
      const char *desc = name + alignTo(nhdr->n_namesz, 4);
      if (desc + nhdr->n_descsz > end)
        break;
      if (nhdr->n_type == kBuildIdNoteType && nhdr->n_namesz == 4 &&
          StringRef(name, 3) == "GNU") {
        identity += toHex(StringRef(desc, nhdr->n_descsz), true);
        identity += ';';
        return true;
      }
      note = desc + alignTo(nhdr->n_descsz, 4);
    }
  }
  return false;
}

struct BuildIdSearch {
  std::string identity;
  bool mainHasBuildId = false;
};

int visitLoadedObject(dl_phdr_info *info, size_t, void *data) {
  auto &search = *static_cast<BuildIdSearch *>(data);
  StringRef name = info->dlpi_name ? info->dlpi_name : "";
  // The executable comes first, with an empty name.
  if (name.empty() && search.identity.empty()) {
    search.mainHasBuildId = appendBuildId(*info, search.identity);
    search.identity += "exe;";
    return 0;
  }
  // libLLVM, loaded with the runner; libMLIR is loaded only with the
  // compiler, whose file the caller names, and comes from the same build of
  // LLVM.
  if (sys::path::filename(name).starts_with("libLLVM"))
    appendBuildId(*info, search.identity);
  return 0;
}

/// The GNU build id of the ELF file at `path`, as hexadecimal digits; else
/// its size and time.
std::string readBuildId(StringRef path) {
  Expected<object::OwningBinary<object::ObjectFile>> file =
      object::ObjectFile::createObjectFile(path);
  if (file) {
    if (auto *elf = dyn_cast<object::ELF64LEObjectFile>(file->getBinary())) {
      const object::ELF64LEFile &contents = elf->getELFFile();
      if (auto headers = contents.program_headers())
        for (const auto &header : *headers) {
          if (header.p_type != PT_NOTE)
            continue;
          Error error = Error::success();
          for (const auto &note : contents.notes(header, error))
            if (note.getType() == kBuildIdNoteType && note.getName() == "GNU") {
              consumeError(std::move(error));
              return toHex(note.getDesc(header.p_align), true);
            }
          consumeError(std::move(error));
        }
      else
        consumeError(headers.takeError());
    }
  } else {
    consumeError(file.takeError());
  }
  return getFileStamp(path);
}

} // namespace

std::string getFileStamp(const Twine &path) {
  sys::fs::file_status status;
  if (sys::fs::status(path, status))
    return "missing";
  return std::to_string(status.getSize()) + ":" +
         std::to_string(
             status.getLastModificationTime().time_since_epoch().count());
}

std::string getBuildIdentity(ArrayRef<std::string> files) {
  BuildIdSearch search;
  dl_iterate_phdr(visitLoadedObject, &search);
  for (const std::string &file : files)
    search.identity += readBuildId(file) + ";";
  // Linked without --build-id: the executable's size and time.
  if (!search.mainHasBuildId)
    search.identity += getFileStamp("/proc/self/exe");
  return search.identity;
}

std::string getDefaultCacheDir() {
  if (const char *path = std::getenv("GPU_RUNNER_CACHE_DIR"); path && *path)
    return path;
  // A relative $XDG_CACHE_HOME is ignored, as the XDG base directory
  // specification says, and so is a relative (or empty) home folder: either
  // would put the cache in whatever folder the run starts in.
  SmallString<256> directory;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME");
      xdg && sys::path::is_absolute(xdg)) {
    directory = xdg;
  } else {
    if (!sys::path::home_directory(directory) ||
        !sys::path::is_absolute(directory))
      return "";
    sys::path::append(directory, ".cache");
  }
  sys::path::append(directory, "gpu-runner");
  return std::string(directory);
}

Expected<uint64_t> parseCacheSize(StringRef text) {
  // The sizes LLVM's pruning policy parser reads (cache_size_bytes), read
  // here because that parser wraps a size past 2^64 bytes around to a small
  // one.
  StringRef digits = text;
  uint64_t unit = 1;
  if (!digits.empty()) {
    switch (toLower(digits.back())) {
    case 'k':
      unit = uint64_t(1) << 10;
      break;
    case 'm':
      unit = uint64_t(1) << 20;
      break;
    case 'g':
      unit = uint64_t(1) << 30;
      break;
    }
    if (unit != 1)
      digits = digits.drop_back();
  }
  if (digits.empty() || !all_of(digits, isDigit))
    return createStringError("--cache-max-size=" + text +
                             " is not a size: give bytes, or a number with a "
                             "k, m or g suffix, such as 512m");
  uint64_t count = 0;
  bool overflowed = digits.getAsInteger(10, count);
  uint64_t bytes =
      overflowed ? 0 : SaturatingMultiply(count, unit, &overflowed);
  if (overflowed)
    return createStringError("--cache-max-size=" + text +
                             " is too large: a size is at most 2^64 - 1 "
                             "bytes (16 EiB)");
  if (bytes == 0)
    return createStringError("--cache-max-size=" + text +
                             " is zero: use --no-cache to run without the "
                             "cache");
  return bytes;
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//
//
// An entry is the magic line, the key it is stored under, the size of the
// payload and the BLAKE3 hash of the key and the payload, then the payload:
// the number of externals, each as a size and its bytes; the number of GPU
// binaries, each as its name, its object and its kernel IR (empty but on
// CUDA); then the host object. Strings
// are a size and their bytes; sizes are little-endian 64-bit. The key is in
// the hash so that an entry copied over another program's is not loaded in
// its place.

namespace {

constexpr StringLiteral kMagic = "gpu-runner compiled program 5\n";
constexpr size_t kHashSize = 32;

void writeU64(std::string &out, uint64_t value) {
  char bytes[8];
  support::endian::write64le(bytes, value);
  out.append(bytes, sizeof(bytes));
}

/// Reads an entry, failing on any size that does not fit.
class EntryReader {
public:
  explicit EntryReader(StringRef bytes) : rest(bytes) {}

  bool readU64(uint64_t &value) {
    if (rest.size() < 8)
      return false;
    value = support::endian::read64le(rest.data());
    rest = rest.drop_front(8);
    return true;
  }

  bool readBytes(StringRef &bytes) {
    uint64_t size;
    if (!readU64(size) || size > rest.size())
      return false;
    bytes = rest.take_front(size);
    rest = rest.drop_front(size);
    return true;
  }

  bool atEnd() const { return rest.empty(); }
  StringRef getRest() const { return rest; }

private:
  StringRef rest;
};

void writeString(std::string &out, StringRef text) {
  writeU64(out, text.size());
  out += text;
}

/// The checksum of an entry: its key and its payload.
BLAKE3Result<kHashSize> hashEntry(StringRef key, StringRef payload) {
  std::string sizedKey;
  writeString(sizedKey, key);
  BLAKE3 hasher;
  hasher.update(sizedKey);
  hasher.update(payload);
  return hasher.final<kHashSize>();
}

void writeTypes(std::string &out, const std::vector<EntryType> &types) {
  writeU64(out, types.size());
  for (const EntryType &type : types) {
    writeString(out, type.text);
    writeU64(out, uint64_t(type.element));
    writeU64(out, type.isMemRef);
    writeU64(out, type.shape.size());
    for (int64_t size : type.shape)
      writeU64(out, uint64_t(size));
  }
}

bool readTypes(EntryReader &reader, std::vector<EntryType> &types) {
  uint64_t count;
  if (!reader.readU64(count) || count > reader.getRest().size())
    return false;
  for (uint64_t i = 0; i < count; ++i) {
    EntryType type;
    StringRef text;
    uint64_t element, isMemRef, rank;
    if (!reader.readBytes(text) || !reader.readU64(element) ||
        element > uint64_t(ElementType::F64) || !reader.readU64(isMemRef) ||
        !reader.readU64(rank) || rank > reader.getRest().size())
      return false;
    type.text = text.str();
    type.element = ElementType(element);
    type.isMemRef = isMemRef != 0;
    for (uint64_t d = 0; d < rank; ++d) {
      uint64_t size;
      if (!reader.readU64(size))
        return false;
      type.shape.push_back(int64_t(size));
    }
    types.push_back(std::move(type));
  }
  return true;
}

} // namespace

std::string serializeCompiledProgram(StringRef key,
                                     const CompiledProgram &program) {
  std::string payload;
  writeU64(payload, program.externals.size());
  for (const std::string &name : program.externals)
    writeString(payload, name);
  writeU64(payload, program.gpuBinaries.size());
  for (const GpuBinary &binary : program.gpuBinaries) {
    writeString(payload, binary.name);
    writeString(payload, binary.object);
    writeString(payload, binary.kernelIR);
  }
  writeU64(payload, program.signature.has_value());
  if (const std::optional<EntrySignature> &signature = program.signature) {
    writeString(payload, signature->name);
    writeString(payload, signature->location);
    writeU64(payload, signature->resultsAreMemRefParams);
    writeTypes(payload, signature->params);
    writeTypes(payload, signature->results);
  }
  writeString(payload, program.object);

  std::string entry(kMagic);
  writeString(entry, key);
  writeU64(entry, payload.size());
  BLAKE3Result<kHashSize> hash = hashEntry(key, payload);
  entry.append(reinterpret_cast<const char *>(hash.data()), hash.size());
  entry += payload;
  return entry;
}

Expected<CompiledProgram> deserializeCompiledProgram(StringRef key,
                                                     StringRef bytes) {
  auto damaged = [](const Twine &why) {
    return createStringError(inconvertibleErrorCode(), why);
  };
  if (!bytes.consume_front(kMagic))
    return damaged("it does not start as an entry does");
  EntryReader header(bytes);
  StringRef storedKey;
  uint64_t payloadSize;
  if (!header.readBytes(storedKey))
    return damaged("it is truncated");
  if (storedKey != key)
    return damaged("it was stored under another key: it is another "
                   "program's entry, copied or renamed");
  if (!header.readU64(payloadSize) || header.getRest().size() < kHashSize)
    return damaged("it is truncated");
  StringRef hash = header.getRest().take_front(kHashSize);
  StringRef payload = header.getRest().drop_front(kHashSize);
  if (payload.size() != payloadSize)
    return damaged(payload.size() < payloadSize ? "it is truncated"
                                                : "it is longer than it says");
  BLAKE3Result<kHashSize> actual = hashEntry(key, payload);
  if (hash !=
      StringRef(reinterpret_cast<const char *>(actual.data()), actual.size()))
    return damaged("its checksum does not match its contents");

  CompiledProgram program;
  EntryReader reader(payload);
  uint64_t externals;
  if (!reader.readU64(externals))
    return damaged("its list of externals is cut short");
  for (uint64_t i = 0; i < externals; ++i) {
    StringRef name;
    if (!reader.readBytes(name))
      return damaged("its list of externals is cut short");
    program.externals.push_back(name.str());
  }
  uint64_t binaries;
  if (!reader.readU64(binaries))
    return damaged("its list of GPU binaries is cut short");
  for (uint64_t i = 0; i < binaries; ++i) {
    StringRef name, object, kernelIR;
    if (!reader.readBytes(name) || !reader.readBytes(object) ||
        !reader.readBytes(kernelIR))
      return damaged("its list of GPU binaries is cut short");
    program.gpuBinaries.push_back({name.str(), object.str(), kernelIR.str()});
  }
  uint64_t hasSignature;
  if (!reader.readU64(hasSignature))
    return damaged("its entry point signature is cut short");
  if (hasSignature) {
    EntrySignature signature;
    StringRef name, location;
    uint64_t resultsAreParams;
    if (!reader.readBytes(name) || !reader.readBytes(location) ||
        !reader.readU64(resultsAreParams) ||
        !readTypes(reader, signature.params) ||
        !readTypes(reader, signature.results))
      return damaged("its entry point signature is cut short");
    signature.name = name.str();
    signature.location = location.str();
    signature.resultsAreMemRefParams = resultsAreParams != 0;
    program.signature = std::move(signature);
  }
  StringRef object;
  if (!reader.readBytes(object) || !reader.atEnd())
    return damaged("its object does not fill the rest of it");
  program.object = object.str();
  return program;
}

//===----------------------------------------------------------------------===//
// The cache folder
//===----------------------------------------------------------------------===//

namespace {

/// A store writes its entry to a temporary file named
/// <prefix>-XXXXXX.tmp.o, then renames it into place, as LLVM's file cache
/// does.
constexpr StringLiteral kTemporaryPrefix = "gpu-runner-entry";

bool isTemporaryFile(StringRef path) {
  StringRef name = sys::path::filename(path);
  return name.starts_with(kTemporaryPrefix) && name.ends_with(".tmp.o");
}

/// A file's mode as chmod reads it, such as 0755.
std::string formatMode(sys::fs::perms mode) {
  std::string text;
  raw_string_ostream(text) << format("%04o", unsigned(mode));
  return text;
}

/// The code of an entry runs in the runner, as the user: a folder that
/// anyone else can write to lets them choose that code, whatever the
/// checksums say. So the folder must be the user's own and writable by no
/// one else, as ssh requires of ~/.ssh.
Error checkCacheFolder(StringRef directory) {
  sys::fs::file_status status;
  if (std::error_code error = sys::fs::status(directory, status))
    return createStringError("cannot use the cache folder " + directory + ": " +
                             error.message());
  if (!sys::fs::is_directory(status))
    return createStringError("the cache folder " + directory +
                             " is not a folder");
  if (status.getUser() != ::geteuid())
    return createStringError(
        "the cache folder " + directory + " belongs to another user (uid " +
        Twine(status.getUser()) +
        "), who could put code in it for gpu-runner to run as you");
  sys::fs::perms mode = status.permissions();
  bool group = mode & sys::fs::group_write,
       others = mode & sys::fs::others_write;
  if (!group && !others)
    return Error::success();
  // A folder shared on purpose, as /tmp is, stays shared.
  std::string fix = mode & sys::fs::sticky_bit
                        ? "use a folder of your own"
                        : ("make it writable by its owner alone (chmod go-w " +
                           directory + ")")
                              .str();
  return createStringError(
      "the cache folder " + directory + " is writable by " +
      (group && others ? "its group and others"
       : group         ? "its group"
                       : "others") +
      " (mode " + formatMode(mode) +
      "), who could put code in it for gpu-runner to run as you: " + fix);
}

/// Removes the temporary files of stores that never finished (the run was
/// killed), which the file cache's pruning does not look at, and returns the
/// size of the others, those of stores still running.
uint64_t pruneTemporaryFiles(StringRef directory) {
  uint64_t liveBytes = 0;
  auto now = std::chrono::system_clock::now();
  std::error_code error;
  for (sys::fs::directory_iterator it(directory, error), end;
       !error && it != end; it.increment(error)) {
    sys::fs::file_status status;
    if (!isTemporaryFile(it->path()) ||
        sys::fs::status(it->path(), status, /*Follow=*/false))
      continue;
    if (now - status.getLastModificationTime() > kStaleTemporaryAge)
      (void)sys::fs::remove(it->path());
    else
      liveBytes += status.getSize();
  }
  return liveBytes;
}

/// Creates the pruner's timestamp file for its owner alone, as every file of
/// the cache is: pruneCache would create it with the umask's mode (0644),
/// and it only updates the time of one that exists.
void makeTimestampFile(StringRef directory) {
  SmallString<256> path(directory);
  sys::path::append(path, "llvmcache.timestamp");
  int fd = -1;
  if (sys::fs::openFileForWrite(path, fd, sys::fs::CD_OpenAlways,
                                sys::fs::OF_None, 0600))
    return;
  // One made by an earlier version of the runner has the umask's mode.
  (void)sys::fs::setPermissions(fd, sys::fs::owner_read | sys::fs::owner_write);
  (void)sys::Process::SafelyCloseFileDescriptor(fd);
}

} // namespace

Expected<CompileCache> CompileCache::open(StringRef directory,
                                          uint64_t maxSizeBytes) {
  if (std::error_code error = sys::fs::create_directories(
          directory, /*IgnoreExisting=*/true, sys::fs::owner_all))
    return createStringError("cannot create the cache folder " + directory +
                             ": " + error.message());
  if (Error error = checkCacheFolder(directory))
    return std::move(error);
  if (!sys::fs::can_write(directory))
    return createStringError("cannot write to the cache folder " + directory);
  BufferSlot found = std::make_shared<std::unique_ptr<MemoryBuffer>>();
  Expected<FileCache> cache = localCache(
      "gpu-runner cache", kTemporaryPrefix, directory,
      [found](unsigned, const Twine &, std::unique_ptr<MemoryBuffer> buffer) {
        *found = std::move(buffer);
      });
  if (!cache)
    return cache.takeError();
  return CompileCache(std::move(*cache), std::move(found), directory.str(),
                      maxSizeBytes);
}

std::string CompileCache::getEntryPath(StringRef key) const {
  // The file cache's naming, which its pruning looks for.
  SmallString<256> path(directory);
  sys::path::append(path, "llvmcache-" + key);
  return std::string(path);
}

CompileCache::Lookup CompileCache::lookup(StringRef key) {
  Lookup result;
  *found = nullptr;
  Expected<AddStreamFn> stream = cache(0, key, "");
  if (!stream) {
    // Unreadable: as good as damaged.
    result.damage = toString(stream.takeError());
  } else if (*found) {
    Expected<CompiledProgram> program =
        deserializeCompiledProgram(key, (*found)->getBuffer());
    *found = nullptr;
    if (program) {
      // A hit makes the entry the most recently used, for eviction; set
      // here, since a file system mounted noatime would not record it.
      std::string path = getEntryPath(key);
      int fd;
      if (!sys::fs::openFileForRead(path, fd)) {
        (void)sys::fs::setLastAccessAndModificationTime(
            fd, std::chrono::system_clock::now());
        (void)sys::Process::SafelyCloseFileDescriptor(fd);
      }
      result.program = std::move(*program);
      return result;
    }
    result.damage = toString(program.takeError());
  } else {
    return result; // No entry.
  }
  // Never loaded again: the run stores a good one in its place.
  (void)sys::fs::remove(getEntryPath(key));
  return result;
}

Error CompileCache::store(StringRef key, const CompiledProgram &program) {
  std::string path = getEntryPath(key);
  if (sys::fs::exists(path))
    return Error::success(); // A concurrent run stored it first.
  // Written here rather than through the file cache's stream, which ends
  // the process over a write that fails (a full disk) and leaves its
  // temporary file behind.
  if (Error error = writeFileWhole(path, serializeCompiledProgram(key, program),
                                   (kTemporaryPrefix + "-%%%%%%.tmp.o").str(),
                                   sys::fs::owner_read | sys::fs::owner_write))
    return error;

  // The temporaries of stores still running take room too; 0 would mean no
  // limit, so when they fill it all, every entry may go.
  uint64_t temporaryBytes = pruneTemporaryFiles(directory);
  CachePruningPolicy policy;
  policy.Interval = std::chrono::seconds(0); // Stores are rare: check each.
  policy.Expiration = std::chrono::seconds(0);
  policy.MaxSizeBytes =
      temporaryBytes < maxSizeBytes ? maxSizeBytes - temporaryBytes : 1;
  makeTimestampFile(directory);
  pruneCache(directory, policy);
  return Error::success();
}

} // namespace gpu_runner
