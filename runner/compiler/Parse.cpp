//===- Parse.cpp - A program's text to MLIR, with clearer messages --------===//
//
// The parser is MLIR's, with two guards around it, since neither kind of
// input may crash or hang the runner:
// - text nested deeper than kMaxNesting levels is refused before parsing,
//   at the place the nesting goes too deep: the parser recurses once a
//   level, and the compiler's thread has a stack for that many
//   (kCompilerStackBytes);
// - bytecode is read first in a child process, with a time limit: the
//   bytecode reader trusts sizes and offsets in its input, and a few bytes
//   changed can make it crash or loop. Only bytecode that the child read
//   to the end is parsed in the runner itself.
//
//===----------------------------------------------------------------------===//

#include "runner/compiler/CompilerSteps.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include <fcntl.h>
#include <signal.h> // NOLINT(modernize-deprecated-headers): POSIX's sigaction
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;

namespace gpu_runner {

namespace {

/// MLIR bytecode's magic number, the first bytes of every bytecode file.
constexpr llvm::StringLiteral kBytecodeMagic = "ML\xefR";

/// An opening bracket, brace, parenthesis or angle bracket not closed yet.
struct Opener {
  char close;
  size_t offset;
};

/// The offsets of the outermost opener and of the first opener nested
/// deeper than `limit` inside it, if there is one. Brackets in strings and
/// comments do not count, and neither do `->`'s and `>=`'s `>`; a closer
/// that does not match the innermost opener is left to the parser.
std::optional<std::pair<size_t, size_t>> findTooDeepNesting(StringRef text,
                                                            unsigned limit) {
  llvm::SmallVector<Opener> open;
  auto push = [&](char close, size_t offset) {
    open.push_back({close, offset});
    return open.size() > limit;
  };
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    switch (char c = text[i]) {
    case '"': // A string ends at its quote, or at the line's end (an error).
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        i = std::min(text.find('\n', i), e);
      break;
    case '-':
      if (i + 1 < e && text[i + 1] == '>')
        ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (push(c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '>', i))
        return std::make_pair(open.front().offset, i);
      break;
    case ')':
    case ']':
    case '}':
    case '>':
      if (!open.empty() && open.back().close == c)
        open.pop_back();
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

Location getLocation(llvm::SourceMgr &sourceMgr, MLIRContext &context,
                     size_t offset) {
  unsigned buffer = sourceMgr.getMainFileID();
  const llvm::MemoryBuffer *text = sourceMgr.getMemoryBuffer(buffer);
  auto [line, column] = sourceMgr.getLineAndColumn(
      llvm::SMLoc::getFromPointer(text->getBufferStart() + offset), buffer);
  return FileLineColLoc::get(&context, text->getBufferIdentifier(), line,
                             column);
}

/// Refuses text nested deeper than kMaxNesting, at the place it does.
LogicalResult checkNesting(llvm::SourceMgr &sourceMgr, MLIRContext &context) {
  StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  std::optional<std::pair<size_t, size_t>> tooDeep =
      findTooDeepNesting(text, kMaxNesting);
  if (!tooDeep)
    return success();
  InFlightDiagnostic error =
      emitError(getLocation(sourceMgr, context, tooDeep->second))
      << "nested more than " << kMaxNesting
      << " levels deep: gpu-runner reads brackets, braces, parentheses and "
         "angle brackets nested up to "
      << kMaxNesting << " levels";
  error.attachNote(getLocation(sourceMgr, context, tooDeep->first))
      << "the nesting starts here";
  return failure();
}

/// How the child that reads bytecode ends when the reader crashed without
/// a signal: one of LLVM's fatal errors, running out of memory, or a
/// sanitizer's report (which would otherwise exit with status 1, like an
/// error the reader reported).
constexpr int kReaderCrashedStatus = 125;

// The sanitizers' own name for it.
// NOLINTNEXTLINE(bugprone-reserved-identifier)
extern "C" void __sanitizer_set_death_callback(void (*)())
    __attribute__((weak));

/// A page shared with the child, where it leaves why the reader crashed.
constexpr size_t kReasonBytes = 4096;
char *crashReason = nullptr;

/// In the child: notes `reason` and ends with kReaderCrashedStatus.
[[noreturn]] void endReaderChild(const char *reason) {
  std::strncpy(crashReason, reason, kReasonBytes - 1);
  _exit(kReaderCrashedStatus);
}

/// The address space the child may grow by: sizes in malformed bytecode
/// can make the reader fill memory for a long time before it fails.
uint64_t getBytecodeReadMemoryLimit(size_t size) {
  return std::max<uint64_t>(uint64_t(4) << 30, uint64_t(16) * size);
}

/// In the child: limits its address space to what it has now plus
/// `growth` bytes, so that the reader's allocations fail instead. Not
/// under a sanitizer, which reserves terabytes of address space.
void limitAddressSpace(uint64_t growth) {
  if (__sanitizer_set_death_callback)
    return;
  uint64_t pages = 0;
  if (FILE *statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%" SCNu64, &pages) != 1)
      pages = 0;
    std::fclose(statm);
  }
  if (pages == 0)
    return;
  struct rlimit limit;
  limit.rlim_cur = limit.rlim_max =
      pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) + growth;
  setrlimit(RLIMIT_AS, &limit);
}

/// How long the child may take to read bytecode of `size` bytes: far more
/// than the reader needs for valid bytecode, which it reads in one pass.
std::chrono::milliseconds getBytecodeReadLimit(size_t size) {
  return std::chrono::seconds(10) + std::chrono::milliseconds(size >> 10);
}

/// Reads the bytecode in `sourceMgr`, in a child process that prints
/// nothing. Returns why the reader crashed, or did not finish in time, or
/// nothing if it finished: what it found wrong then is left for the parse
/// in the runner to report.
std::optional<std::string> readBytecodeInChild(llvm::SourceMgr &sourceMgr,
                                               MLIRContext &context) {
  void *page = mmap(nullptr, kReasonBytes, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    return std::string("cannot share memory with a process to read the "
                       "bytecode in: ") +
           std::strerror(errno);
  llvm::scope_exit unmap([&] { munmap(page, kReasonBytes); });
  crashReason = static_cast<char *>(page);
  pid_t child = fork();
  if (child == -1)
    return std::string("cannot start a process to read the bytecode in: ") +
           std::strerror(errno);
  if (child == 0) {
    // The child ends with the runner, which waits for it.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    llvm::remove_fatal_error_handler();
    llvm::install_fatal_error_handler(
        [](void *, const char *reason, bool) { endReaderChild(reason); });
    llvm::remove_bad_alloc_error_handler();
    llvm::install_bad_alloc_error_handler([](void *, const char *, bool) {
      endReaderChild("it ran out of memory");
    });
    if (__sanitizer_set_death_callback)
      __sanitizer_set_death_callback(
          [] { endReaderChild("a sanitizer reported an error"); });
    limitAddressSpace(getBytecodeReadMemoryLimit(
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferSize()));
    // A crash ends the child at once: LLVM's handlers, which print a stack
    // trace, could wait forever on a lock the reader left taken.
    for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
      std::signal(signal, SIG_DFL);
    // The runner's other threads are not in this process.
    context.disableMultithreading();
    bool read;
    {
      // What was read is destroyed here too: that may crash or hang as well.
      ParserConfig config(&context);
      Block block;
      read = succeeded(parseSourceFile(sourceMgr, &block, config));
    }
    _exit(read ? 0 : 1);
  }

  std::chrono::milliseconds limit = getBytecodeReadLimit(
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferSize());
  auto deadline = std::chrono::steady_clock::now() + limit;
  auto pause = std::chrono::microseconds(100);
  int status = 0;
  while (true) {
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child)
      break;
    if (done == -1 && errno != EINTR)
      return std::string("cannot wait for the process that reads the "
                         "bytecode: ") +
             std::strerror(errno);
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return "the bytecode reader did not finish reading it in " +
             std::to_string(limit.count() / 1000) + " s";
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  if (WIFSIGNALED(status))
    return std::string("the bytecode reader crashed reading it (") +
           strsignal(WTERMSIG(status)) + ")";
  if (WIFEXITED(status) && WEXITSTATUS(status) == kReaderCrashedStatus)
    return std::string("the bytecode reader failed reading it: ") + crashReason;
  return std::nullopt;
}

} // namespace

OwningOpRef<ModuleOp> parseProgram(llvm::SourceMgr &sourceMgr,
                                   MLIRContext &context, bool everyDialect) {
  ParseDiagnostics parseDiagnostics(context, sourceMgr, everyDialect);
  const llvm::MemoryBuffer *input =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (!input->getBuffer().starts_with(kBytecodeMagic)) {
    if (failed(checkNesting(sourceMgr, context)))
      return {};
  } else if (std::optional<std::string> crash =
                 readBytecodeInChild(sourceMgr, context)) {
    emitError(FileLineColLoc::get(&context, input->getBufferIdentifier(), 1, 1))
        << "malformed MLIR bytecode: " << *crash;
    return {};
  }
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  // An implicit module has no line of its own, and diagnostics about the
  // whole program point at the file's start; where the text starts below
  // blank lines, as a part of a --split-input-file input does (the lines
  // before the part are blank), they point at the first line of text.
  auto fileLoc = module ? dyn_cast<FileLineColLoc>(module->getLoc()) : nullptr;
  StringRef text = input->getBuffer();
  size_t start = text.find_first_not_of(" \t\r\n");
  if (fileLoc && fileLoc.getLine() == 0 && start != StringRef::npos) {
    unsigned line = text.take_front(start).count('\n') + 1;
    if (line > 1)
      (*module)->setLoc(FileLineColLoc::get(fileLoc.getFilename(), line, 1));
  }
  return module;
}

Location getModuleLocation(ModuleOp module) {
  auto fileLoc = dyn_cast<FileLineColLoc>(module.getLoc());
  if (fileLoc && fileLoc.getLine() == 0)
    return FileLineColLoc::get(fileLoc.getFilename(), 1, 1);
  return module.getLoc();
}

ParseDiagnostics::ParseDiagnostics(MLIRContext &context,
                                   llvm::SourceMgr &sourceMgr,
                                   bool everyDialect)
    : context(context), sourceMgr(sourceMgr), everyDialect(everyDialect),
      handler(&context, [this](Diagnostic &diag) { return handle(diag); }) {}

LogicalResult ParseDiagnostics::handle(Diagnostic &diag) {
  if (diag.getSeverity() != DiagnosticSeverity::Error)
    return failure();
  std::string message = diag.str();
  size_t cut = message.find(". If this is intended");
  if (cut != std::string::npos &&
      message.find("unregistered dialect") != std::string::npos) {
    InFlightDiagnostic better = emitError(diag.getLocation());
    better << message.substr(0, cut)
           << ": gpu-runner accepts ops and types of the dialects ";
    llvm::interleaveComma(context.getAvailableDialects(), better);
    if (!everyDialect)
      better << "; --passes opens the others that MLIR has, for passes that "
                "lower them to these";
    return success(); // replaced by `better`, printed when it goes
  }
  auto fileLoc = dyn_cast<FileLineColLoc>(diag.getLocation());
  if (fileLoc && fileLoc.getLine() == 0 && isBytecode()) {
    // The bytecode reader has no positions to give: the file's start.
    emitError(FileLineColLoc::get(fileLoc.getFilename(), 1, 1))
        << "invalid MLIR bytecode: " << message;
    return success();
  }
  if (isAtEndOfInput(diag.getLocation()))
    diag.attachNote() << "the input ends here: it may be truncated";
  return failure();
}

bool ParseDiagnostics::isBytecode() {
  return sourceMgr.getNumBuffers() != 0 &&
         sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
             ->getBuffer()
             .starts_with(kBytecodeMagic);
}

bool ParseDiagnostics::isAtEndOfInput(Location loc) {
  auto fileLoc = dyn_cast<FileLineColLoc>(loc);
  if (!fileLoc || sourceMgr.getNumBuffers() == 0)
    return false;
  unsigned buffer = sourceMgr.getMainFileID();
  llvm::SMLoc position = sourceMgr.FindLocForLineAndColumn(
      buffer, fileLoc.getLine(), fileLoc.getColumn());
  if (!position.isValid())
    return false;
  StringRef text = sourceMgr.getMemoryBuffer(buffer)->getBuffer();
  size_t offset = position.getPointer() - text.data();
  return offset <= text.size() && text.drop_front(offset).trim().empty();
}

} // namespace gpu_runner
