//===- ProgramOutput.cpp - What the program prints on stdout --------------===//

#include "runner/ProgramOutput.h"

#include "runner/RunnerError.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace gpu_runner {

namespace {

/// Whether stdout was closed when the run started (and /dev/null, opened
/// read-only, took its place).
bool stdoutWasClosed = false;

/// Why stdout's buffer could not be written, the first time it could not.
int stdoutError = 0;

} // namespace

void flushProgramOutput() {
  errno = 0;
  if (std::fflush(stdout) != 0 && stdoutError == 0)
    stdoutError = errno;
  std::cout.flush();
  llvm::outs().flush();
}

void occupyClosedStandardStreams() {
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
      continue;
    // open returns the lowest free descriptor: this one. Writes to it fail,
    // and so do reads of stdin, as they would have on the closed one.
    int opened = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
    if (opened != fd) {
      if (opened != -1)
        close(opened);
      continue;
    }
    if (fd == STDOUT_FILENO)
      stdoutWasClosed = true;
  }
}

llvm::Error checkProgramOutput() {
  flushProgramOutput();
  std::error_code streamError = llvm::outs().error();
  if (!std::ferror(stdout) && !std::cout.fail() && !llvm::outs().has_error())
    return llvm::Error::success();
  // Else LLVM reports the stream's error as fatal when it is destroyed.
  llvm::outs().clear_error();
  std::clearerr(stdout);
  std::string why;
  if (stdoutWasClosed)
    why = "stdout is closed";
  else if (stdoutError != 0)
    why = std::strerror(stdoutError);
  else if (streamError)
    why = streamError.message();
  else
    why = "a write to stdout failed";
  return makeError("the program's output could not be written: " + why);
}

} // namespace gpu_runner
