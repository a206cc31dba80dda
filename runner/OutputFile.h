//===- OutputFile.h - Files written whole or not at all -------------------===//
//
// What --output and the compile cache write: a file is written to a
// temporary file beside it, then renamed over it, so that a write that fails
// part way (a full disk, a file size limit) leaves the file that was there
// as it was, and no temporary file behind.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_RUNNER_OUTPUTFILE_H
#define GPU_RUNNER_RUNNER_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

#include <string>

namespace gpu_runner {

/// The path a write to `path` reaches: `path` with the symbolic link it
/// names followed, and the one that names, as the kernel follows them when
/// it opens a file (at most 40); a link that leads nowhere gives the file
/// that opening it would create. A relative target is taken from its link's
/// folder.
std::string followSymbolicLinks(llvm::StringRef path);

/// Writes `bytes` to `path` whole or not at all. The bytes go to a new file
/// in the same folder (named by `temporaryModel`, whose %s become random
/// characters; by default the file's name and ".tmp-%%%%%%"), which is
/// renamed over `path` once written and closed; when any step fails, the
/// temporary file is removed and a file already at `path` is left as it
/// was. A symbolic link is followed (followSymbolicLinks), and the file it
/// leads to replaced. A file that is there keeps its permissions; a new one
/// gets `mode`, less the umask. What is not a regular file (a device such as
/// /dev/null, a FIFO) is written in place: there is no file to replace.
llvm::Error
writeFileWhole(llvm::StringRef path, llvm::StringRef bytes,
               llvm::StringRef temporaryModel = {},
               llvm::sys::fs::perms mode = llvm::sys::fs::all_read |
                                           llvm::sys::fs::all_write);

} // namespace gpu_runner

#endif // GPU_RUNNER_RUNNER_OUTPUTFILE_H
