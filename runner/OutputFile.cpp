//===- OutputFile.cpp - Files written whole or not at all -----------------===//

#include "runner/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <climits>
#include <unistd.h>

using namespace llvm;

namespace gpu_runner {

namespace {

/// The kernel's limit on the symbolic links one path may go through
/// (MAXSYMLINKS); past it, the path is used as it is.
constexpr int kMaxLinks = 40;

/// Writes `bytes` to the open file `fd`, closes it, and returns the first
/// error of either.
std::error_code writeAndClose(int fd, StringRef bytes) {
  raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << bytes;
  os.close();
  std::error_code error = os.error();
  // The stream would end the process over an error still set.
  os.clear_error();
  return error;
}

} // namespace

std::string followSymbolicLinks(StringRef path) {
  SmallString<256> current(path);
  for (int i = 0; i < kMaxLinks; ++i) {
    char target[PATH_MAX];
    ssize_t length = ::readlink(current.c_str(), target, sizeof(target) - 1);
    if (length < 0)
      break; // Not a link, or not there.
    StringRef text(target, length);
    if (sys::path::is_absolute(text)) {
      current = text;
    } else {
      SmallString<256> next(sys::path::parent_path(current));
      sys::path::append(next, text);
      current = next;
    }
  }
  return std::string(current);
}

Error writeFileWhole(StringRef path, StringRef bytes, StringRef temporaryModel,
                     sys::fs::perms mode) {
  std::string target = followSymbolicLinks(path);
  sys::fs::file_status status;
  bool exists = !sys::fs::status(target, status);
  if (exists && status.type() != sys::fs::file_type::regular_file) {
    int fd;
    if (std::error_code error = sys::fs::openFileForWrite(
            target, fd, sys::fs::CD_OpenExisting, sys::fs::OF_None))
      return errorCodeToError(error);
    return errorCodeToError(writeAndClose(fd, bytes));
  }

  SmallString<256> model(sys::path::parent_path(target));
  if (temporaryModel.empty())
    sys::path::append(model, sys::path::filename(target) + ".tmp-%%%%%%");
  else
    sys::path::append(model, temporaryModel);
  int fd;
  SmallString<256> temporary;
  if (std::error_code error =
          sys::fs::createUniqueFile(model, fd, temporary, sys::fs::OF_None,
                                    exists ? status.permissions() : mode))
    return errorCodeToError(error);
  // Made with the umask's bits taken away; the file it replaces had its
  // own.
  std::error_code error;
  if (exists)
    error = sys::fs::setPermissions(fd, status.permissions());
  std::error_code written = writeAndClose(fd, bytes);
  if (!error)
    error = written;
  if (!error)
    error = sys::fs::rename(temporary, target);
  if (error) {
    (void)sys::fs::remove(temporary);
    return errorCodeToError(error);
  }
  return Error::success();
}

} // namespace gpu_runner
