//===- KernelCompiler.cpp - NVVM IR compiled to run on the CPU ------------===//
//
// See KernelCompiler.h. ProgramBuilder rewrites the NVVM module in place, in
// this order: check it is NVVM IR and agrees with the image; give every
// function the thread context; lower the calls (NvvmLowering.cpp); lay out
// shared memory; move the other globals to host memory; check every
// memory access; add each kernel's entry; then hand the module, now for the
// host's triple and data layout, to LLJIT.
//
// The data layouts of NVPTX and x86-64 agree on the size and alignment of
// every type a kernel's IR has (64-bit pointers, i64 and i128 aligned to
// their size, vectors to theirs), so the offsets the NVVM optimizer folded
// into the IR stay right on the host.
//
//===----------------------------------------------------------------------===//

#include "standin/KernelCompiler.h"

#include "standin/KernelRuntime.h"
#include "standin/NvvmLowering.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <map>
#include <mutex>
#include <set>

using namespace llvm;

namespace gpu_runner {
namespace standin {

namespace {

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

} // namespace

class ProgramBuilder {
public:
  ProgramBuilder(KernelProgram &program, const ImageInfo &image, Module &module)
      : program(program), image(image), module(module),
        dataLayout(module.getDataLayout()) {}

  Error build(std::string &message);
  Error compile(orc::ThreadSafeContext context, std::unique_ptr<Module> owned,
                std::string &message);

private:
  Error checkTarget(std::string &message);
  Error collectKernels(std::string &message);
  KernelParams getParams(Function &kernel) const;
  Error checkAgainstImage(std::string &message);
  void addContextParameters();
  void lowerCalls();
  void layOutSharedMemory();
  void moveGlobals();
  void checkAccesses(Function &function);
  void addEntries();
  void findWaitingFunctions();
  void finishModule();

  /// A memory access through `pointer`, checked before `at`: the pointer to
  /// use instead.
  Value *checkAccess(Instruction *at, Value *pointer, uint64_t bytes,
                     uint64_t alignment, bool write, const std::string &what);
  Value *checkRange(Instruction *at, Value *pointer, Value *bytes, bool write,
                    const std::string &what);
  uint32_t addSite(Instruction *at, const std::string &what);
  void refuse(const std::string &why) {
    if (std::find(unsupported.begin(), unsupported.end(), why) ==
        unsupported.end())
      unsupported.push_back(why);
  }

  KernelProgram &program;
  const ImageInfo &image;
  Module &module;
  DataLayout dataLayout;
  StructType *contextType = nullptr;
  /// The kernels, by name, and their IR functions once rewritten.
  std::vector<std::string> kernelNames;
  std::map<std::string, Function *> kernels;
  std::map<std::string, KernelParams> params;
  std::set<Function *> waiting;
  std::map<std::string, bool> needsFibers;
  /// Per function: the context's shared memory range, loaded at its entry.
  std::map<Function *, std::pair<Value *, Value *>> sharedRanges;
  struct MovedGlobal {
    std::string symbol;
    std::string name;
    uint64_t bytes = 0;
    bool constant = false;
  };
  std::vector<MovedGlobal> movedGlobals;
  std::vector<std::string> unsupported;
};

//===----------------------------------------------------------------------===//
// Checks of the IR against the image.
//===----------------------------------------------------------------------===//

Error ProgramBuilder::checkTarget(std::string &message) {
  const Triple &triple = module.getTargetTriple();
  if (triple.getArch() != Triple::nvptx64) {
    message = "the kernel IR is for '" + triple.str() +
              "', not nvptx64-nvidia-cuda: it is not the IR of a CUDA image";
    return Error::InvalidImage;
  }
  return Error::Success;
}

Error ProgramBuilder::collectKernels(std::string &message) {
  std::set<Function *> found;
  for (Function &function : module)
    if (function.getCallingConv() == CallingConv::PTX_Kernel)
      found.insert(&function);
  // Older IR marks kernels in !nvvm.annotations: {function, "kernel", 1}.
  if (NamedMDNode *annotations = module.getNamedMetadata("nvvm.annotations"))
    for (MDNode *node : annotations->operands()) {
      if (node->getNumOperands() < 3)
        continue;
      auto *function =
          mdconst::dyn_extract_or_null<Function>(node->getOperand(0));
      auto *key = dyn_cast<MDString>(node->getOperand(1));
      if (function && key && key->getString() == "kernel")
        found.insert(function);
    }
  for (Function *function : found) {
    if (function->isDeclaration())
      continue;
    if (!function->getReturnType()->isVoidTy()) {
      message = "kernel '" + function->getName().str() +
                "' of the kernel IR returns a value";
      return Error::InvalidImage;
    }
    kernelNames.push_back(function->getName().str());
    kernels[function->getName().str()] = function;
    params[function->getName().str()] = getParams(*function);
  }
  return Error::Success;
}

KernelParams ProgramBuilder::getParams(Function &kernel) const {
  // Each parameter's bytes in the kernel's parameter space, and its
  // offset there: aligned to its own alignment, as PTX's .param space and
  // cuLaunchKernel's `extra` buffer lay them out.
  KernelParams result;
  uint64_t offset = 0;
  for (Argument &argument : kernel.args()) {
    uint64_t bytes = 0;
    Align alignment;
    if (Type *byval = argument.getParamByValType()) {
      bytes = dataLayout.getTypeAllocSize(byval);
      alignment =
          argument.getParamAlign().value_or(dataLayout.getABITypeAlign(byval));
    } else {
      bytes = dataLayout.getTypeAllocSize(argument.getType());
      alignment = dataLayout.getABITypeAlign(argument.getType());
    }
    offset = alignTo(offset, alignment);
    result.sizes.push_back(static_cast<uint32_t>(bytes));
    result.offsets.push_back(static_cast<uint32_t>(offset));
    offset += bytes;
  }
  result.bufferBytes = static_cast<uint32_t>(offset);
  return result;
}

Error ProgramBuilder::checkAgainstImage(std::string &message) {
  // The IR must be the image's: the same kernels, whose parameters have the
  // sizes the image lists where it lists them.
  if (image.namesKnown) {
    for (const KernelInfo &kernel : image.kernels)
      if (!kernels.count(kernel.name)) {
        message = "the image has kernel '" + kernel.name +
                  "', which the kernel IR lacks: the IR is not the image's";
        return Error::InvalidImage;
      }
    for (const std::string &name : kernelNames)
      if (!image.find(name)) {
        message = "the kernel IR has kernel '" + name +
                  "', which the image lacks: the IR is not the image's";
        return Error::InvalidImage;
      }
  }
  for (const KernelInfo &kernel : image.kernels) {
    if (!kernel.paramsKnown || !kernels.count(kernel.name))
      continue;
    const std::vector<uint32_t> &sizes = params[kernel.name].sizes;
    if (sizes.size() != kernel.paramSizes.size()) {
      message = "kernel '" + kernel.name + "' has " +
                std::to_string(kernel.paramSizes.size()) +
                " parameters in the image but " + std::to_string(sizes.size()) +
                " in the kernel IR";
      return Error::InvalidImage;
    }
    const std::vector<uint32_t> &offsets = params[kernel.name].offsets;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (i < kernel.paramOffsets.size() &&
          kernel.paramOffsets[i] != offsets[i]) {
        message = "parameter " + std::to_string(i) + " of kernel '" +
                  kernel.name + "' is at offset " +
                  std::to_string(kernel.paramOffsets[i]) +
                  " in the image but " + std::to_string(offsets[i]) +
                  " in the kernel IR";
        return Error::InvalidImage;
      }
      if (sizes[i] != kernel.paramSizes[i]) {
        message = "parameter " + std::to_string(i) + " of kernel '" +
                  kernel.name + "' has " +
                  std::to_string(kernel.paramSizes[i]) +
                  " bytes in the image but " + std::to_string(sizes[i]) +
                  " in the kernel IR";
        return Error::InvalidImage;
      }
    }
  }
  return Error::Success;
}

//===----------------------------------------------------------------------===//
// The thread context.
//===----------------------------------------------------------------------===//

void ProgramBuilder::addContextParameters() {
  LLVMContext &c = module.getContext();
  PointerType *ptr = PointerType::get(c, 0);
  std::map<Function *, Function *> rewritten;
  std::vector<Function *> defined;
  for (Function &function : module)
    if (!function.isDeclaration())
      defined.push_back(&function);
  for (Function *old : defined) {
    FunctionType *type = old->getFunctionType();
    SmallVector<Type *> paramTypes{ptr};
    paramTypes.append(type->param_begin(), type->param_end());
    auto *newType =
        FunctionType::get(type->getReturnType(), paramTypes, type->isVarArg());
    Function *function = Function::Create(newType, old->getLinkage(),
                                          old->getAddressSpace(), "", &module);
    function->copyAttributesFrom(old);
    AttributeList attributes = old->getAttributes();
    SmallVector<AttributeSet> paramAttributes{AttributeSet()};
    for (unsigned i = 0; i < type->getNumParams(); ++i)
      paramAttributes.push_back(attributes.getParamAttrs(i));
    function->setAttributes(AttributeList::get(
        c, attributes.getFnAttrs(), attributes.getRetAttrs(), paramAttributes));
    // What the GPU target set is not the host's.
    function->removeFnAttr("target-cpu");
    function->removeFnAttr("target-features");
    function->setCallingConv(CallingConv::C);
    function->splice(function->begin(), old);
    for (unsigned i = 0; i < type->getNumParams(); ++i) {
      function->getArg(i + 1)->takeName(old->getArg(i));
      old->getArg(i)->replaceAllUsesWith(function->getArg(i + 1));
    }
    function->getArg(0)->setName("context");
    function->takeName(old);
    function->setSubprogram(old->getSubprogram());
    rewritten[old] = function;
    for (auto &[name, kernel] : kernels)
      if (kernel == old)
        kernel = function;
  }
  // Calls pass their caller's context on.
  for (auto &[old, function] : rewritten) {
    for (Use &use : make_early_inc_range(old->uses())) {
      auto *call = dyn_cast<CallBase>(use.getUser());
      if (!call || !call->isCallee(&use)) {
        refuse("function '" + function->getName().str() +
               "' is used other than by calls (a function pointer)");
        continue;
      }
      SmallVector<Value *> args{call->getFunction()->getArg(0)};
      args.append(call->arg_begin(), call->arg_end());
      SmallVector<OperandBundleDef> bundles;
      call->getOperandBundlesAsDefs(bundles);
      IRBuilder<> b(call);
      CallInst *replacement = b.CreateCall(function, args, bundles);
      replacement->setCallingConv(CallingConv::C);
      replacement->setDebugLoc(call->getDebugLoc());
      replacement->setTailCallKind(CallInst::TCK_None);
      if (!call->getType()->isVoidTy())
        replacement->takeName(call);
      call->replaceAllUsesWith(replacement);
      call->eraseFromParent();
    }
  }
  for (auto &[old, function] : rewritten)
    if (old->use_empty())
      old->eraseFromParent();
}

//===----------------------------------------------------------------------===//
// Calls.
//===----------------------------------------------------------------------===//

uint32_t ProgramBuilder::addSite(Instruction *at, const std::string &what) {
  std::string text = what + " in '" + at->getFunction()->getName().str() + "'";
  if (const DebugLoc &loc = at->getDebugLoc())
    if (auto *scope = dyn_cast_or_null<DIScope>(loc.getScope()))
      text += " (" + scope->getFilename().str() + ":" +
              std::to_string(loc.getLine()) + ":" +
              std::to_string(loc.getCol()) + ")";
  program.sites.push_back(text);
  return static_cast<uint32_t>(program.sites.size() - 1);
}

bool isHarmlessIntrinsic(const Function &callee) {
  switch (callee.getIntrinsicID()) {
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::launder_invariant_group:
  case Intrinsic::strip_invariant_group:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::prefetch:
  case Intrinsic::var_annotation:
  case Intrinsic::ptr_annotation:
  case Intrinsic::sideeffect:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::donothing:
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
    return true;
  default:
    return callee.doesNotAccessMemory() ||
           callee.onlyAccessesInaccessibleMemory();
  }
}

void ProgramBuilder::lowerCalls() {
  LoweringContext lowering;
  lowering.module = &module;
  lowering.contextType = contextType;
  lowering.addSite = [this](Instruction *at, const std::string &what) {
    return addSite(at, what);
  };
  std::vector<CallBase *> calls;
  for (Function &function : module)
    for (Instruction &instruction : instructions(function))
      if (auto *call = dyn_cast<CallBase>(&instruction))
        calls.push_back(call);
  for (CallBase *call : calls) {
    Function *callee = call->getCalledFunction();
    bool isAsm = call->isInlineAsm();
    if (callee && !callee->isDeclaration())
      continue; // a call of the module's own function
    if (callee && callee->isIntrinsic() &&
        !callee->getName().starts_with("llvm.nvvm.") &&
        callee->getIntrinsicID() != Intrinsic::trap &&
        callee->getIntrinsicID() != Intrinsic::debugtrap &&
        callee->getIntrinsicID() != Intrinsic::ubsantrap) {
      if (!isHarmlessIntrinsic(*callee))
        refuse("the intrinsic " + callee->getName().str() +
               " touches memory the stand-in cannot check");
      continue;
    }
    std::string what = isAsm    ? "inline assembly"
                       : callee ? callee->getName().str()
                                : "an indirect call";
    std::string why;
    if (!lowerCall(*call, lowering, why))
      refuse(what + " " + why);
  }
  // Declarations nothing calls any more.
  for (Function &function : make_early_inc_range(module))
    if (function.isDeclaration() && function.use_empty())
      function.eraseFromParent();
}

//===----------------------------------------------------------------------===//
// Globals.
//===----------------------------------------------------------------------===//

void ProgramBuilder::layOutSharedMemory() {
  // PTX ISA, "Shared State Space": static shared variables; CUDA C++
  // Programming Guide, "__shared__": an `extern` array's size is the
  // launch's dynamic shared memory, and all such arrays start at the same
  // address, after the static ones.
  std::vector<GlobalVariable *> shared;
  for (GlobalVariable &global : module.globals())
    if (global.getAddressSpace() == kShared)
      shared.push_back(&global);
  if (shared.empty()) {
    program.staticSharedBytes = 0;
    program.dynamicSharedOffset = 0;
    return;
  }
  // llvm.used and llvm.compiler.used only keep globals alive.
  for (const char *name : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *used = module.getGlobalVariable(name))
      used->eraseFromParent();
  uint64_t offset = 0;
  uint64_t dynamicAlignment = 16;
  std::map<GlobalVariable *, uint64_t> offsets;
  std::vector<GlobalVariable *> dynamic;
  for (GlobalVariable *global : shared) {
    Align alignment = global->getAlign().value_or(
        dataLayout.getABITypeAlign(global->getValueType()));
    uint64_t bytes = dataLayout.getTypeAllocSize(global->getValueType());
    if (global->isDeclaration() || bytes == 0) {
      dynamic.push_back(global);
      dynamicAlignment =
          std::max<uint64_t>(dynamicAlignment, alignment.value());
      continue;
    }
    offset = alignTo(offset, alignment);
    offsets[global] = offset;
    offset += bytes;
  }
  program.staticSharedBytes = offset;
  program.dynamicSharedOffset = alignTo(offset, dynamicAlignment);
  for (GlobalVariable *global : dynamic)
    offsets[global] = program.dynamicSharedOffset;

  SmallVector<Constant *> constants(shared.begin(), shared.end());
  convertUsersOfConstantsToInstructions(constants);
  std::map<Function *, Value *> bases;
  for (GlobalVariable *global : shared) {
    for (Use &use : make_early_inc_range(global->uses())) {
      auto *user = dyn_cast<Instruction>(use.getUser());
      if (!user) {
        refuse("shared variable '" + global->getName().str() +
               "' is used outside a function");
        continue;
      }
      Function *function = user->getFunction();
      Value *&base = bases[function];
      IRBuilder<> b(&*function->getEntryBlock().getFirstInsertionPt());
      if (!base) {
        LoadInst *load = b.CreateLoad(
            b.getPtrTy(),
            b.CreateStructGEP(contextType, function->getArg(0), kFieldShared));
        LoweringContext::trust(load);
        base = load;
      }
      // Right after the base, which every use then follows.
      b.SetInsertPoint(cast<Instruction>(base)->getNextNode());
      Value *at = b.CreateAddrSpaceCast(
          b.CreateConstGEP1_64(b.getInt8Ty(), base, offsets[global]),
          global->getType());
      use.set(at);
    }
  }
  for (GlobalVariable *global : shared)
    if (global->use_empty())
      global->eraseFromParent();
}

void ProgramBuilder::moveGlobals() {
  // The module's other globals (global, constant and generic address
  // spaces) become host globals of the JIT'd code, in address space 0,
  // under names the stand-in looks up to know their ranges.
  std::vector<GlobalVariable *> globals;
  for (GlobalVariable &global : module.globals())
    globals.push_back(&global);
  unsigned index = 0;
  for (GlobalVariable *global : globals) {
    if (global->getName().starts_with("llvm."))
      continue;
    if (global->isDeclaration()) {
      refuse("the kernel IR refers to the external variable '" +
             global->getName().str() + "'");
      continue;
    }
    unsigned space = global->getAddressSpace();
    if (space != kGeneric && space != kGlobal && space != kConstant) {
      refuse("variable '" + global->getName().str() + "' is in address space " +
             std::to_string(space));
      continue;
    }
    MovedGlobal moved;
    moved.name = global->getName().str();
    moved.symbol = kGlobalPrefix + std::to_string(index++);
    moved.bytes = dataLayout.getTypeAllocSize(global->getValueType());
    moved.constant = global->isConstant() || space == kConstant;
    GlobalVariable *host = global;
    if (space != kGeneric) {
      host = new GlobalVariable(
          module, global->getValueType(), global->isConstant(),
          GlobalValue::ExternalLinkage, global->getInitializer(), "", nullptr,
          global->getThreadLocalMode(), kGeneric);
      host->setAlignment(global->getAlign());
      global->replaceAllUsesWith(
          ConstantExpr::getAddrSpaceCast(host, global->getType()));
      global->eraseFromParent();
    }
    host->setName(moved.symbol);
    host->setLinkage(GlobalValue::ExternalLinkage);
    host->setVisibility(GlobalValue::DefaultVisibility);
    host->setDSOLocal(true);
    movedGlobals.push_back(std::move(moved));
  }
}

//===----------------------------------------------------------------------===//
// Memory accesses.
//===----------------------------------------------------------------------===//

Value *ProgramBuilder::checkRange(Instruction *at, Value *pointer, Value *bytes,
                                  bool write, const std::string &what) {
  IRBuilder<> b(at);
  Function *function = at->getFunction();
  unsigned space = pointer->getType()->getPointerAddressSpace();
  uint32_t flags = (space <= kLocal ? space : 0) | (write ? kAccessWrite : 0);
  LoweringContext lowering;
  lowering.module = &module;
  FunctionCallee access =
      lowering.getRuntime("access", b.getPtrTy(),
                          {b.getPtrTy(), b.getInt64Ty(), b.getInt64Ty(),
                           b.getInt32Ty(), b.getInt32Ty()});
  return b.CreateCall(
      access, {function->getArg(0), b.CreatePtrToInt(pointer, b.getInt64Ty()),
               b.CreateZExtOrTrunc(bytes, b.getInt64Ty()), b.getInt32(flags),
               b.getInt32(addSite(at, what))});
}

Value *ProgramBuilder::checkAccess(Instruction *at, Value *pointer,
                                   uint64_t bytes, uint64_t alignment,
                                   bool write, const std::string &what) {
  unsigned space = pointer->getType()->getPointerAddressSpace();
  if (space != kGeneric && space != kGlobal && space != kShared &&
      space != kConstant && space != kLocal) {
    refuse(what + " through a pointer in address space " +
           std::to_string(space));
    return pointer;
  }
  Function *function = at->getFunction();
  IRBuilder<> b(at);
  Type *i64 = b.getInt64Ty();
  Value *address = b.CreatePtrToInt(pointer, i64);
  // Fast path: an address in the device's arena (generic, global and
  // constant pointers), or in the block's shared memory (shared pointers),
  // with the alignment the IR promises.
  Value *ok = nullptr;
  Value *fast = nullptr;
  if (space == kShared) {
    auto &[base, size] = sharedRanges[function];
    if (!base) {
      IRBuilder<> entry(&*function->getEntryBlock().getFirstInsertionPt());
      LoadInst *loadBase = entry.CreateLoad(
          i64, entry.CreateStructGEP(contextType, function->getArg(0),
                                     kFieldShared));
      LoadInst *loadSize = entry.CreateLoad(
          i64, entry.CreateStructGEP(contextType, function->getArg(0),
                                     kFieldSharedBytes));
      LoweringContext::trust(loadBase);
      LoweringContext::trust(loadSize);
      base = loadBase;
      size = loadSize;
    }
    Value *offset = b.CreateSub(address, base);
    Value *fits = b.CreateICmpUGE(size, b.getInt64(bytes));
    Value *limit = b.CreateSub(size, b.getInt64(bytes));
    ok = b.CreateAnd(fits, b.CreateICmpULE(offset, limit));
  } else if (space != kLocal) {
    const ArenaView &arena = program.arena;
    Value *offset = b.CreateSub(address, b.getInt64(arena.base));
    ok = b.CreateICmpULE(offset, b.getInt64(arena.size - bytes));
  }
  if (!ok)
    return checkRange(at, pointer, b.getInt64(bytes), write, what);
  if (alignment > 1)
    ok = b.CreateAnd(
        ok, b.CreateICmpEQ(b.CreateAnd(address, alignment - 1), b.getInt64(0)));
  MDNode *likely = MDBuilder(module.getContext()).createLikelyBranchWeights();
  Instruction *thenTerm = nullptr, *elseTerm = nullptr;
  SplitBlockAndInsertIfThenElse(ok, at, &thenTerm, &elseTerm, likely);
  b.SetInsertPoint(thenTerm);
  if (space == kShared)
    fast = b.CreateIntToPtr(address, b.getPtrTy());
  else
    fast = b.CreateIntToPtr(
        b.CreateAdd(address, b.getInt64(program.arena.delta)), b.getPtrTy());
  // Slow path: the runtime checks everything else, and fails the launch
  // when the kernel may not reach the address.
  uint32_t flags = space | (write ? kAccessWrite : 0) |
                   (Log2_64(alignment) << kAccessAlignShift);
  b.SetInsertPoint(elseTerm);
  LoweringContext lowering;
  lowering.module = &module;
  FunctionCallee access = lowering.getRuntime(
      "access", b.getPtrTy(),
      {b.getPtrTy(), i64, i64, b.getInt32Ty(), b.getInt32Ty()});
  Value *slow =
      b.CreateCall(access, {function->getArg(0), address, b.getInt64(bytes),
                            b.getInt32(flags), b.getInt32(addSite(at, what))});
  b.SetInsertPoint(at->getParent(), at->getParent()->begin());
  PHINode *phi = b.CreatePHI(b.getPtrTy(), 2);
  phi->addIncoming(fast, thenTerm->getParent());
  phi->addIncoming(slow, elseTerm->getParent());
  return phi;
}

void ProgramBuilder::checkAccesses(Function &function) {
  std::vector<Instruction *> accesses;
  for (Instruction &instruction : instructions(function))
    if (isa<LoadInst, StoreInst, AtomicRMWInst, AtomicCmpXchgInst,
            MemIntrinsic>(instruction) &&
        !LoweringContext::isTrusted(&instruction))
      accesses.push_back(&instruction);
  // An access at a constant offset within the thread's own alloca needs no
  // check: it is the thread's stack, and in bounds.
  auto isInOwnAlloca = [&](Value *pointer, uint64_t bytes) {
    APInt offset(64, 0);
    const Value *base =
        pointer->stripAndAccumulateConstantOffsets(dataLayout, offset, true);
    auto *alloca = dyn_cast<AllocaInst>(base);
    if (!alloca)
      return false;
    std::optional<TypeSize> size = alloca->getAllocationSize(dataLayout);
    return size && !size->isScalable() && offset.sge(0) &&
           offset.getZExtValue() + bytes <= size->getFixedValue();
  };
  auto describe = [](const char *kind, uint64_t bytes) {
    return std::string(kind) + " of " + std::to_string(bytes) + " bytes";
  };
  for (Instruction *instruction : accesses) {
    if (auto *load = dyn_cast<LoadInst>(instruction)) {
      uint64_t bytes = dataLayout.getTypeStoreSize(load->getType());
      if (isInOwnAlloca(load->getPointerOperand(), bytes))
        continue;
      load->setOperand(0, checkAccess(load, load->getPointerOperand(), bytes,
                                      load->getAlign().value(), false,
                                      describe("a load", bytes)));
    } else if (auto *store = dyn_cast<StoreInst>(instruction)) {
      uint64_t bytes =
          dataLayout.getTypeStoreSize(store->getValueOperand()->getType());
      if (isInOwnAlloca(store->getPointerOperand(), bytes))
        continue;
      store->setOperand(1, checkAccess(store, store->getPointerOperand(), bytes,
                                       store->getAlign().value(), true,
                                       describe("a store", bytes)));
    } else if (auto *rmw = dyn_cast<AtomicRMWInst>(instruction)) {
      uint64_t bytes = dataLayout.getTypeStoreSize(rmw->getType());
      rmw->setOperand(0, checkAccess(rmw, rmw->getPointerOperand(), bytes,
                                     rmw->getAlign().value(), true,
                                     describe("an atomic", bytes)));
    } else if (auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(instruction)) {
      uint64_t bytes =
          dataLayout.getTypeStoreSize(cmpxchg->getCompareOperand()->getType());
      cmpxchg->setOperand(
          0, checkAccess(cmpxchg, cmpxchg->getPointerOperand(), bytes,
                         cmpxchg->getAlign().value(), true,
                         describe("an atomic compare-and-swap", bytes)));
    } else if (auto *intrinsic = dyn_cast<MemIntrinsic>(instruction)) {
      IRBuilder<> b(intrinsic);
      Value *length = intrinsic->getLength();
      Value *dest = checkRange(intrinsic, intrinsic->getRawDest(), length, true,
                               "a memory intrinsic's destination");
      MaybeAlign destAlign = intrinsic->getDestAlign();
      bool isVolatile = intrinsic->isVolatile();
      if (auto *set = dyn_cast<MemSetInst>(intrinsic)) {
        b.CreateMemSet(dest, set->getValue(), length, destAlign, isVolatile);
      } else {
        auto *transfer = cast<MemTransferInst>(intrinsic);
        Value *source = checkRange(intrinsic, transfer->getRawSource(), length,
                                   false, "a memory intrinsic's source");
        if (isa<MemMoveInst>(transfer))
          b.CreateMemMove(dest, destAlign, source, transfer->getSourceAlign(),
                          length, isVolatile);
        else
          b.CreateMemCpy(dest, destAlign, source, transfer->getSourceAlign(),
                         length, isVolatile);
      }
      intrinsic->eraseFromParent();
    }
  }
}

//===----------------------------------------------------------------------===//
// Entries.
//===----------------------------------------------------------------------===//

void ProgramBuilder::addEntries() {
  LLVMContext &c = module.getContext();
  PointerType *ptr = PointerType::get(c, 0);
  auto *entryType =
      FunctionType::get(Type::getVoidTy(c), {ptr, ptr}, /*isVarArg=*/false);
  for (const std::string &name : kernelNames) {
    Function *kernel = kernels[name];
    // Each kernel is called through its entry: `entry(context, params)`,
    // params[i] pointing at parameter i's value (cuLaunchKernel's
    // kernelParams); a by-value aggregate is copied, as each thread gets
    // its own parameter space.
    Function *entry = Function::Create(entryType, GlobalValue::ExternalLinkage,
                                       kEntryPrefix + name, &module);
    IRBuilder<> b(BasicBlock::Create(c, "entry", entry));
    SmallVector<Value *> args{entry->getArg(0)};
    for (unsigned i = 1; i < kernel->arg_size(); ++i) {
      Argument *parameter = kernel->getArg(i);
      LoadInst *slot = b.CreateAlignedLoad(
          ptr, b.CreateConstGEP1_64(ptr, entry->getArg(1), i - 1), Align(8));
      LoweringContext::trust(slot);
      if (Type *byval = kernel->getParamByValType(i)) {
        Align alignment = kernel->getParamAlign(i).value_or(
            dataLayout.getABITypeAlign(byval));
        AllocaInst *copy = b.CreateAlloca(byval);
        copy->setAlignment(alignment);
        b.CreateMemCpy(copy, alignment, slot, Align(1),
                       dataLayout.getTypeAllocSize(byval));
        args.push_back(b.CreateAddrSpaceCast(copy, parameter->getType()));
        continue;
      }
      LoadInst *value =
          b.CreateAlignedLoad(parameter->getType(), slot, Align(1));
      LoweringContext::trust(value);
      args.push_back(value);
    }
    b.CreateCall(kernel, args);
    b.CreateRetVoid();
    // The memcpy of a by-value parameter reads the launch's own copy.
    for (Instruction &instruction : instructions(*entry))
      if (isa<MemIntrinsic>(instruction))
        LoweringContext::trust(&instruction);
  }
}

void ProgramBuilder::findWaitingFunctions() {
  // A function waits for other threads if it calls a runtime function that
  // does, or a function that waits.
  for (Function &function : module)
    for (Instruction &instruction : instructions(function))
      if (auto *call = dyn_cast<CallBase>(&instruction))
        if (Function *callee = call->getCalledFunction())
          if (isWaitingRuntimeFunction(callee->getName()))
            waiting.insert(&function);
  bool changed = true;
  while (changed) {
    changed = false;
    for (Function &function : module) {
      if (waiting.count(&function))
        continue;
      for (Instruction &instruction : instructions(function))
        if (auto *call = dyn_cast<CallBase>(&instruction))
          if (waiting.count(call->getCalledFunction())) {
            waiting.insert(&function);
            changed = true;
            break;
          }
    }
  }
}

void ProgramBuilder::finishModule() {
  if (NamedMDNode *annotations = module.getNamedMetadata("nvvm.annotations"))
    module.eraseNamedMetadata(annotations);
  for (Function &function : module)
    for (Instruction &instruction : instructions(function))
      if (auto *call = dyn_cast<CallBase>(&instruction))
        call->setCallingConv(CallingConv::C);
}

//===----------------------------------------------------------------------===//
// The whole rewrite, and the JIT.
//===----------------------------------------------------------------------===//

Error ProgramBuilder::build(std::string &message) {
  if (Error error = checkTarget(message); error != Error::Success)
    return error;
  if (Error error = collectKernels(message); error != Error::Success)
    return error;
  if (Error error = checkAgainstImage(message); error != Error::Success)
    return error;
  LLVMContext &c = module.getContext();
  PointerType *ptr = PointerType::get(c, 0);
  Type *i64 = Type::getInt64Ty(c);
  contextType = StructType::create(
      c,
      {ArrayType::get(Type::getInt32Ty(c), kSpecialRegisterCount), ptr, i64,
       i64, i64, ptr, ptr},
      "gpu_runner.standin.ThreadContext");
  addContextParameters();
  lowerCalls();
  layOutSharedMemory();
  moveGlobals();
  for (Function &function : module)
    if (!function.isDeclaration())
      checkAccesses(function);
  findWaitingFunctions();
  for (const std::string &name : kernelNames)
    needsFibers[name] = waiting.count(kernels[name]) > 0;
  addEntries();
  finishModule();
  if (!unsupported.empty()) {
    message = "the kernel IR uses what the stand-in does not implement: ";
    for (size_t i = 0; i < unsupported.size() && i < 8; ++i)
      message += (i ? "; " : "") + unsupported[i];
    if (unsupported.size() > 8)
      message += "; and " + std::to_string(unsupported.size() - 8) + " more";
    return Error::KernelNotSupported;
  }
  std::string errors;
  raw_string_ostream stream(errors);
  if (verifyModule(module, &stream)) {
    message = "the stand-in rewrote the kernel IR into invalid IR (a bug of "
              "the stand-in): " +
              errors.substr(0, 2000);
    return Error::KernelNotSupported;
  }
  return Error::Success;
}

Error ProgramBuilder::compile(orc::ThreadSafeContext context,
                              std::unique_ptr<Module> owned,
                              std::string &message) {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
  auto fail = [&](llvm::Error error) {
    message = "the stand-in cannot compile the kernel IR for the host: " +
              toString(std::move(error));
    return Error::KernelNotSupported;
  };
  auto builder = orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return fail(builder.takeError());
  builder->setCodeGenOptLevel(CodeGenOptLevel::Default);
  auto layout = builder->getDefaultDataLayoutForTarget();
  if (!layout)
    return fail(layout.takeError());
  owned->setDataLayout(*layout);
  owned->setTargetTriple(builder->getTargetTriple());
  {
    // The rewrite leaves what the host's optimizer cleans up: the checks'
    // context loads, the entries' unpacking, the NVVM intrinsics' host
    // forms.
    auto machine = builder->createTargetMachine();
    if (!machine)
      return fail(machine.takeError());
    LoopAnalysisManager loops;
    FunctionAnalysisManager functions;
    CGSCCAnalysisManager sccs;
    ModuleAnalysisManager modules;
    PassBuilder passes(machine->get());
    passes.registerModuleAnalyses(modules);
    passes.registerCGSCCAnalyses(sccs);
    passes.registerFunctionAnalyses(functions);
    passes.registerLoopAnalyses(loops);
    passes.crossRegisterProxies(loops, functions, sccs, modules);
    ModulePassManager pipeline =
        passes.buildPerModuleDefaultPipeline(OptimizationLevel::O2);
    pipeline.run(*owned, modules);
  }
  auto jit = orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*builder))
                 .create();
  if (!jit)
    return fail(jit.takeError());
  orc::JITDylib &library = (*jit)->getMainJITDylib();
  orc::SymbolMap symbols;
  for (const RuntimeSymbol &symbol : getRuntimeSymbols())
    symbols[(*jit)->mangleAndIntern(
        std::string(GPU_RUNNER_STANDIN_RUNTIME_PREFIX) + symbol.name)] = {
        orc::ExecutorAddr::fromPtr(symbol.address), JITSymbolFlags::Exported};
  if (auto error = library.define(orc::absoluteSymbols(std::move(symbols))))
    return fail(std::move(error));
  // What the host's code generator calls (libm's functions for the math
  // intrinsics, memcpy): the process's own.
  auto generator = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator)
    return fail(generator.takeError());
  library.addGenerator(std::move(*generator));
  if (auto error = (*jit)->addIRModule(
          orc::ThreadSafeModule(std::move(owned), std::move(context))))
    return fail(std::move(error));

  for (const std::string &name : kernelNames) {
    auto address = (*jit)->lookup(kEntryPrefix + name);
    if (!address)
      return fail(address.takeError());
    CompiledKernel kernel;
    kernel.name = name;
    kernel.entry = address->toPtr<KernelEntry>();
    const KernelParams &layout = params[name];
    kernel.paramSizes = layout.sizes;
    kernel.paramOffsets = layout.offsets;
    kernel.paramBufferBytes = layout.bufferBytes;
    kernel.needsFibers = needsFibers[name];
    program.kernels.push_back(std::move(kernel));
  }
  for (const MovedGlobal &moved : movedGlobals) {
    auto address = (*jit)->lookup(moved.symbol);
    if (!address)
      return fail(address.takeError());
    GlobalRange range;
    range.begin = address->getValue();
    range.bytes = moved.bytes;
    range.constant = moved.constant;
    range.name = moved.name;
    program.globals.push_back(std::move(range));
  }
  program.jit = std::move(*jit);
  return Error::Success;
}

//===----------------------------------------------------------------------===//
// KernelProgram
//===----------------------------------------------------------------------===//

KernelProgram::KernelProgram() = default;

KernelProgram::~KernelProgram() = default;

const CompiledKernel *KernelProgram::find(const std::string &name) const {
  for (const CompiledKernel &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

const std::string &KernelProgram::describeSite(uint32_t site) const {
  static const std::string unknown = "an unknown place";
  return site < sites.size() ? sites[site] : unknown;
}

Error KernelProgram::compile(const void *bitcode, size_t bytes,
                             const ImageInfo &image, const ArenaView &arena,
                             std::unique_ptr<KernelProgram> &result,
                             std::string &message) {
  std::unique_ptr<KernelProgram> program(new KernelProgram());
  program->arena = arena;
  auto context = std::make_unique<LLVMContext>();
  LLVMContext &c = *context;
  orc::ThreadSafeContext safeContext(std::move(context));
  std::unique_ptr<MemoryBuffer> buffer = MemoryBuffer::getMemBuffer(
      StringRef(static_cast<const char *>(bitcode), bytes), "kernel IR",
      /*RequiresNullTerminator=*/false);
  auto parsed = parseBitcodeFile(buffer->getMemBufferRef(), c);
  if (!parsed) {
    message =
        "the kernel IR is not LLVM bitcode: " + toString(parsed.takeError());
    return Error::InvalidImage;
  }
  std::unique_ptr<Module> module = std::move(*parsed);
  std::string errors;
  raw_string_ostream stream(errors);
  if (verifyModule(*module, &stream)) {
    message = "the kernel IR is not valid IR: " + errors.substr(0, 2000);
    return Error::InvalidImage;
  }
  ProgramBuilder builder(*program, image, *module);
  if (Error error = builder.build(message); error != Error::Success)
    return error;
  if (Error error =
          builder.compile(std::move(safeContext), std::move(module), message);
      error != Error::Success)
    return error;
  result = std::move(program);
  return Error::Success;
}

} // namespace standin
} // namespace gpu_runner
