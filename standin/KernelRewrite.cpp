//===- KernelRewrite.cpp - NVVM IR given the thread's context -------------===//
//
// The steps of ProgramBuilder (ProgramBuilder.h) that change what the
// module's functions take and reach: every function gets the thread's
// context first; calls of intrinsics, inline PTX and external functions are
// lowered (NvvmLowering.h); shared memory is laid out in the block's
// buffer, other globals moved to host memory; each kernel gets an entry
// that unpacks the launch's parameters; what needs a fiber per thread is
// found.
//
//===----------------------------------------------------------------------===//

#include "standin/NvvmLowering.h"
#include "standin/ProgramBuilder.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ReplaceConstant.h"

using namespace llvm;

namespace gpu_runner {
namespace standin {

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
  lowering.warpSize = warpSize;
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
        !callee->getName().starts_with("llvm.amdgcn.") &&
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
    uint64_t bytes = dataLayout.getTypeAllocSize(global->getValueType());
    // A definition gets the alignment LLVM's optimizer assumed of it, as a
    // GPU's code generator lays it out: the type's preferred one, or 16
    // bytes for one larger than 16 bytes defined without an alignment
    // (DataLayout::getPreferredAlign, which AMDGPU's LDS layout follows).
    Align alignment =
        global->isDeclaration()
            ? global->getAlign().value_or(
                  dataLayout.getABITypeAlign(global->getValueType()))
            : dataLayout.getPreferredAlign(global);
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

} // namespace standin
} // namespace gpu_runner
