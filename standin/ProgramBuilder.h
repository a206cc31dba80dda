//===- ProgramBuilder.h - The rewrite of one module's NVVM IR -------------===//
//
// ProgramBuilder rewrites an NVVM module in place for the host, then
// compiles it (KernelCompiler.h says what the rewrite does). Its steps are
// defined in three files: KernelCompiler.cpp (the checks against the image,
// the order of the steps, the JIT), KernelRewrite.cpp (the thread context,
// the calls, shared memory and globals, the kernels' entries) and
// KernelAccessChecks.cpp (the check of every memory access). Only those
// files include it.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_STANDIN_PROGRAMBUILDER_H
#define GPU_RUNNER_STANDIN_PROGRAMBUILDER_H

#include "standin/KernelCompiler.h"

#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpu_runner {
namespace standin {

constexpr const char *kEntryPrefix = GPU_RUNNER_STANDIN_RUNTIME_PREFIX "entry.";
constexpr const char *kGlobalPrefix =
    GPU_RUNNER_STANDIN_RUNTIME_PREFIX "global.";

/// NVPTX's address spaces (NVPTX usage in the LLVM documentation: 0
/// generic, 1 global, 3 shared, 4 constant, 5 local).
enum AddressSpace : unsigned {
  kGeneric = 0,
  kGlobal = 1,
  kShared = 3,
  kConstant = 4,
  kLocal = 5,
};

struct KernelParams {
  std::vector<uint32_t> sizes, offsets;
  uint32_t bufferBytes = 0;
};

class ProgramBuilder {
public:
  ProgramBuilder(KernelProgram &program, const ImageInfo &image,
                 llvm::Module &module)
      : program(program), image(image), module(module),
        dataLayout(module.getDataLayout()) {}

  Error build(std::string &message);
  Error compile(llvm::orc::ThreadSafeContext context,
                std::unique_ptr<llvm::Module> owned, std::string &message);

private:
  Error checkTarget(std::string &message);
  Error collectKernels(std::string &message);
  KernelParams getParams(llvm::Function &kernel) const;
  Error checkAgainstImage(std::string &message);
  void addContextParameters();
  void scalarizeMaskedAccesses();
  void lowerCalls();
  void layOutSharedMemory();
  void moveGlobals();
  void checkAccesses(llvm::Function &function);
  void addEntries();
  void findWaitingFunctions();
  void finishModule();

  /// A memory access through `pointer`, checked before `at`: the pointer to
  /// use instead.
  llvm::Value *checkAccess(llvm::Instruction *at, llvm::Value *pointer,
                           uint64_t bytes, uint64_t alignment, bool write,
                           const std::string &what);
  llvm::Value *checkRange(llvm::Instruction *at, llvm::Value *pointer,
                          llvm::Value *bytes, bool write,
                          const std::string &what);
  uint32_t addSite(llvm::Instruction *at, const std::string &what);
  void refuse(const std::string &why) {
    if (std::find(unsupported.begin(), unsupported.end(), why) ==
        unsupported.end())
      unsupported.push_back(why);
  }

  KernelProgram &program;
  const ImageInfo &image;
  llvm::Module &module;
  llvm::DataLayout dataLayout;
  llvm::StructType *contextType = nullptr;
  /// The kernels, by name, and their IR functions once rewritten.
  std::vector<std::string> kernelNames;
  std::map<std::string, llvm::Function *> kernels;
  std::map<std::string, KernelParams> params;
  std::set<llvm::Function *> waiting;
  std::map<std::string, bool> needsFibers;
  /// Lanes per warp: kWarpSize, or the code object's wave size.
  uint32_t warpSize = kWarpSize;
  /// Per function: the context's shared memory range, loaded at its entry.
  std::map<llvm::Function *, std::pair<llvm::Value *, llvm::Value *>>
      sharedRanges;
  struct MovedGlobal {
    std::string symbol;
    std::string name;
    uint64_t bytes = 0;
    bool constant = false;
  };
  std::vector<MovedGlobal> movedGlobals;
  std::vector<std::string> unsupported;
};

} // namespace standin
} // namespace gpu_runner

#endif // GPU_RUNNER_STANDIN_PROGRAMBUILDER_H
