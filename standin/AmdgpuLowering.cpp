//===- AmdgpuLowering.cpp - AMDGPU IR, for the host -----------------------===//
//
// See AmdgpuLowering.h. The IR is what the ROCDL target optimized, ROCm's
// device libraries (ockl, ocml) linked in, just before it made the code
// object; the rules cited are AMDGPUUsage's (the LLVM documentation's "User
// Guide for AMDGPU Backend") and the HSA Platform System Architecture
// Specification's kernel dispatch packet.
//
// AMDGPU numbers its address spaces as NVPTX does where it matters here
// (AMDGPUUsage, "Address Spaces": 0 flat, 1 global, 3 local (LDS), 4
// constant, 5 private), so the shared steps lay out LDS as shared memory
// and check every access alike. Its data layout differs from the host's in
// one way that matters: local, region and private pointers are 32 bits
// (p2, p3, p5, p6). The host keeps them in 64, which changes nothing for
// IR that only uses them as pointers, and everything for IR that stores one
// in memory or does integer arithmetic on it: that is refused.
//
//===----------------------------------------------------------------------===//

#include "standin/AmdgpuLowering.h"

#include "standin/KernelAbi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <optional>

using namespace llvm;

namespace gpu_runner {
namespace standin {

bool isAmdgpuModule(const Module &module) {
  return module.getTargetTriple().isAMDGPU();
}

//===----------------------------------------------------------------------===//
// The module made fit for the shared steps.
//===----------------------------------------------------------------------===//

namespace {

/// AMDGPUUsage, "Address Spaces": region (2), local (3), private (5) and
/// 32-bit constant (6) pointers are 32 bits wide.
/// ockl's hostcall: the stand-in serves it (AmdgpuCallLowering).
constexpr const char *kHostcallFunction = "__ockl_hostcall_internal";
/// What a fence of wavefront scope becomes before the calls are lowered.
constexpr const char *kWavefrontFence = "__gpu_runner_standin_wavefront_fence";

bool isNarrowSpace(unsigned space) {
  return space == 2 || space == 3 || space == 5 || space == 6;
}

bool holdsNarrowPointer(Type *type) {
  if (auto *pointer = dyn_cast<PointerType>(type))
    return isNarrowSpace(pointer->getAddressSpace());
  if (auto *vector = dyn_cast<VectorType>(type))
    return holdsNarrowPointer(vector->getElementType());
  if (auto *array = dyn_cast<ArrayType>(type))
    return holdsNarrowPointer(array->getElementType());
  if (auto *structure = dyn_cast<StructType>(type))
    return any_of(structure->elements(), holdsNarrowPointer);
  return false;
}

} // namespace

void prepareAmdgpuModule(
    Module &module, const std::function<void(const std::string &)> &refuse) {
  // The device libraries' hostcall (ockl's __ockl_hostcall_internal, which
  // passes a message to the HIP runtime's listener through a buffer in
  // memory both see) is served by the stand-in's runtime: its body, and
  // the functions only it called, go.
  if (Function *hostcall = module.getFunction(kHostcallFunction);
      hostcall && !hostcall->isDeclaration()) {
    hostcall->deleteBody();
    bool erased = true;
    while (erased) {
      erased = false;
      for (Function &function : make_early_inc_range(module))
        if (function.hasLocalLinkage() && function.use_empty()) {
          function.eraseFromParent();
          erased = true;
        }
    }
  }
  auto refuseNarrow = [&](Instruction &instruction, const char *how) {
    refuse(std::string("a 32-bit local or private pointer ") + how + " in '" +
           instruction.getFunction()->getName().str() +
           "', which the HIP stand-in cannot run (the host's pointers are "
           "64 bits)");
  };
  for (GlobalVariable &global : module.globals())
    if (holdsNarrowPointer(global.getValueType()))
      refuse("variable '" + global.getName().str() +
             "' holds a 32-bit local or private pointer, which the HIP "
             "stand-in cannot run (the host's pointers are 64 bits)");
  SmallVector<StringRef> scopes;
  module.getContext().getSyncScopeNames(scopes);
  for (Function &function : module) {
    for (Instruction &instruction :
         make_early_inc_range(instructions(function))) {
      if (auto *fence = dyn_cast<FenceInst>(&instruction)) {
        // The lanes of a wave execute in lockstep on a GPU, so a fence of
        // wavefront scope orders the memory accesses of lanes that reach it
        // together (LowerWarpExecute's synchronization on AMD GPUs). The
        // stand-in's lanes run one after another: they meet there.
        StringRef scope = fence->getSyncScopeID() < scopes.size()
                              ? scopes[fence->getSyncScopeID()]
                              : StringRef();
        if (scope == "wavefront" || scope == "wavefront-one-as") {
          FunctionCallee meet = module.getOrInsertFunction(
              kWavefrontFence, Type::getVoidTy(module.getContext()));
          CallInst::Create(meet, "", fence->getIterator());
          fence->eraseFromParent();
        }
        continue;
      }
      if (auto *alloca = dyn_cast<AllocaInst>(&instruction)) {
        if (holdsNarrowPointer(alloca->getAllocatedType()))
          refuseNarrow(instruction, "kept in private memory");
        // AMDGPUUsage, "Memory Spaces": an alloca is in the private address
        // space; on the host it is one of the thread's stack, as the NVVM
        // IR's are, seen through the same address space.
        if (alloca->getAddressSpace() == 0)
          continue;
        auto *host = new AllocaInst(alloca->getAllocatedType(), 0,
                                    alloca->getArraySize(), alloca->getAlign(),
                                    "", alloca->getIterator());
        host->takeName(alloca);
        auto *cast = new AddrSpaceCastInst(host, alloca->getType(), "",
                                           alloca->getIterator());
        alloca->replaceAllUsesWith(cast);
        alloca->eraseFromParent();
        continue;
      }
      if (auto *load = dyn_cast<LoadInst>(&instruction)) {
        if (holdsNarrowPointer(load->getType()))
          refuseNarrow(instruction, "loaded from memory");
      } else if (auto *store = dyn_cast<StoreInst>(&instruction)) {
        if (holdsNarrowPointer(store->getValueOperand()->getType()))
          refuseNarrow(instruction, "stored to memory");
      } else if (isa<PtrToIntInst>(instruction)) {
        if (holdsNarrowPointer(instruction.getOperand(0)->getType()))
          refuseNarrow(instruction, "turned into an integer");
      } else if (isa<IntToPtrInst>(instruction)) {
        if (holdsNarrowPointer(instruction.getType()))
          refuseNarrow(instruction, "made from an integer");
      } else if (auto *gep = dyn_cast<GetElementPtrInst>(&instruction)) {
        if (holdsNarrowPointer(gep->getSourceElementType()))
          refuseNarrow(instruction, "laid out in memory");
      } else if (auto *rmw = dyn_cast<AtomicRMWInst>(&instruction)) {
        if (holdsNarrowPointer(rmw->getValOperand()->getType()))
          refuseNarrow(instruction, "exchanged atomically");
      } else if (auto *cas = dyn_cast<AtomicCmpXchgInst>(&instruction)) {
        if (holdsNarrowPointer(cas->getNewValOperand()->getType()))
          refuseNarrow(instruction, "exchanged atomically");
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Calls.
//===----------------------------------------------------------------------===//

namespace {

class AmdgpuCallLowering {
public:
  AmdgpuCallLowering(CallBase &call, const LoweringContext &lc)
      : call(call), lc(lc), b(&call), ctx(call.getFunction()->getArg(0)),
        i32(b.getInt32Ty()), i64(b.getInt64Ty()) {}

  bool lower(StringRef name, std::string &why);

private:
  Value *arg(unsigned i) { return call.getArgOperand(i); }
  void replace(Value *value) {
    if (value)
      call.replaceAllUsesWith(value);
    call.eraseFromParent();
  }
  Value *siteValue(const std::string &what) {
    return b.getInt32(lc.addSite(&call, what));
  }
  CallInst *runtime(StringRef name, Type *result, ArrayRef<Value *> args) {
    SmallVector<Type *> types;
    for (Value *v : args)
      types.push_back(v->getType());
    return b.CreateCall(lc.getRuntime(name, result, types), args);
  }
  /// A special register of the thread's context, read before `at`.
  Value *reg(IRBuilder<> &builder, SpecialRegister r) {
    Value *at = builder.CreateInBoundsGEP(lc.contextType, ctx,
                                          {builder.getInt32(0),
                                           builder.getInt32(kFieldRegisters),
                                           builder.getInt32(r)});
    LoadInst *load = builder.CreateAlignedLoad(i32, at, Align(4));
    load->setMetadata(LLVMContext::MD_invariant_load,
                      MDNode::get(builder.getContext(), {}));
    LoweringContext::trust(load);
    return load;
  }
  Value *reg(SpecialRegister r) { return reg(b, r); }
  /// The lanes of the wave below this one (AMDGPUUsage: a work-group's
  /// work-items form its waves in the order of their flattened id, x
  /// fastest), as a 64-bit mask.
  Value *lanesBelow();
  /// A cross-lane instruction: the runtime's wave op on `value` (at most
  /// 64 bits, of any type) and `operand`, its result of the call's type.
  Value *waveOp(WaveOp op, Value *value, Value *operand);
  bool lowerTableRead(StringRef name, std::string &why);
  bool lowerHostcall(std::string &why);

  CallBase &call;
  const LoweringContext &lc;
  IRBuilder<> b;
  Value *ctx;
  Type *i32, *i64;
};

Value *AmdgpuCallLowering::lanesBelow() {
  Value *linear = b.CreateAdd(
      reg(kTidX),
      b.CreateMul(
          reg(kNtidX),
          b.CreateAdd(reg(kTidY), b.CreateMul(reg(kNtidY), reg(kTidZ)))));
  Value *lane =
      b.CreateZExt(b.CreateAnd(linear, b.getInt32(lc.warpSize - 1)), i64);
  return b.CreateSub(b.CreateShl(b.getInt64(1), lane), b.getInt64(1));
}

Value *AmdgpuCallLowering::waveOp(WaveOp op, Value *value, Value *operand) {
  Type *type = value->getType();
  unsigned bits = type->isPointerTy()
                      ? 64
                      : static_cast<unsigned>(type->getPrimitiveSizeInBits());
  if (bits == 0 || bits > 64)
    return nullptr;
  Value *wide = nullptr;
  if (type->isPointerTy())
    wide = b.CreatePtrToInt(value, i64);
  else
    wide = b.CreateZExt(b.CreateBitCast(value, b.getIntNTy(bits)), i64);
  Value *result =
      runtime("wave", i64,
              {ctx, b.getInt32(op), wide, operand,
               siteValue(call.getCalledFunction()->getName().str())});
  Type *resultType = call.getType();
  if (resultType->isPointerTy())
    return b.CreateIntToPtr(result, resultType);
  auto resultBits = static_cast<unsigned>(resultType->getPrimitiveSizeInBits());
  return b.CreateBitCast(b.CreateTrunc(result, b.getIntNTy(resultBits)),
                         resultType);
}

/// One field of a table the kernel reads through a pointer an intrinsic
/// gives: its offset, its bytes, and its value.
struct TableField {
  uint32_t offset;
  uint32_t bytes;
  std::function<Value *(IRBuilder<> &)> value;
};

bool AmdgpuCallLowering::lowerHostcall(std::string &why) {
  // __ockl_hostcall_internal(buffer, service, eight words) returns the
  // host's two words (ockl, hostcall.cl). Of its services (services.cl:
  // 1 function call, 2 printf, 3 device memory) the stand-in serves
  // printf, which HIP's printf and device assert use.
  constexpr uint64_t kServicePrintf = 2;
  FunctionType *type = call.getFunctionType();
  if (type->getNumParams() != 10 || !type->getParamType(1)->isIntegerTy(32) ||
      !all_of(type->params().drop_front(2),
              [](Type *t) { return t->isIntegerTy(64); })) {
    // The compiler kept its signature for the stand-in (the kernel IR's
    // llvm.compiler.used); IR made otherwise may have lost arguments.
    why = "has lost parameters to the optimizer (the IR was not compiled "
          "by gpu-runner, which keeps them)";
    return false;
  }
  auto *service = dyn_cast<ConstantInt>(arg(1));
  if (!service || service->getZExtValue() != kServicePrintf) {
    std::string number;
    raw_string_ostream stream(number);
    arg(1)->printAsOperand(stream, false);
    why = "is called for hostcall service " + number +
          ", which the HIP stand-in does not serve (it serves printf, 2)";
    return false;
  }
  SmallVector<Value *> args{ctx};
  for (unsigned i = 2; i < 10; ++i)
    args.push_back(arg(i));
  Value *first = runtime("hostcall_printf", i64, args);
  Value *result = b.CreateInsertElement(
      b.CreateInsertElement(PoisonValue::get(call.getType()), first,
                            b.getInt64(0)),
      b.getInt64(0), b.getInt64(1));
  replace(result);
  return true;
}

bool AmdgpuCallLowering::lowerTableRead(StringRef name, std::string &why) {
  // The kernel dispatch packet (llvm.amdgcn.dispatch.ptr; HSA Platform
  // System Architecture Specification, "Kernel Dispatch Packet"; hsa.h's
  // hsa_kernel_dispatch_packet_t) and the hidden kernel arguments
  // (llvm.amdgcn.implicitarg.ptr; AMDGPUUsage, "Code Object V4 Metadata"
  // and "Code Object V5 Metadata", hidden_*): only the fields that describe
  // the launch's sizes, each read by a load at a constant offset, which
  // becomes the value. Anything else is refused.
  std::vector<TableField> fields;
  auto sized = [&](SpecialRegister r, unsigned bits) {
    return [this, r, bits](IRBuilder<> &builder) {
      return builder.CreateZExtOrTrunc(reg(builder, r),
                                       builder.getIntNTy(bits));
    };
  };
  auto constant = [](uint64_t value, unsigned bits) {
    return [value, bits](IRBuilder<> &builder) -> Value * {
      return builder.getIntN(bits, value);
    };
  };
  uint32_t tableBytes = 0;
  if (name == "llvm.amdgcn.dispatch.ptr") {
    // setup: the dimensions in bits 0-1; HIP launches three.
    fields.push_back({2, 2, constant(3, 16)});
    fields.push_back({4, 2, sized(kNtidX, 16)});
    fields.push_back({6, 2, sized(kNtidY, 16)});
    fields.push_back({8, 2, sized(kNtidZ, 16)});
    fields.push_back({10, 2, constant(0, 16)});
    // grid_size: in work-items.
    for (int d = 0; d < 3; ++d) {
      auto ntid = static_cast<SpecialRegister>(kNtidX + d);
      auto nctaid = static_cast<SpecialRegister>(kNctaidX + d);
      fields.push_back({12 + 4u * d, 4, [this, ntid, nctaid](IRBuilder<> &bb) {
                          return bb.CreateMul(reg(bb, ntid), reg(bb, nctaid));
                        }});
    }
    // group_segment_size: the work-group's LDS, static and dynamic.
    fields.push_back({28, 4, sized(kTotalSmemSize, 32)});
    tableBytes = 32;
  } else {
    auto *version = mdconst::extract_or_null<ConstantInt>(
        lc.module->getModuleFlag("amdhsa_code_object_version"));
    uint64_t abi = version ? version->getZExtValue() : 0;
    if (abi == 500 || abi == 600) {
      // hidden_block_count_{x,y,z}, hidden_group_size_{x,y,z},
      // hidden_remainder_{x,y,z} (0: a HIP grid is whole work-groups).
      for (int d = 0; d < 3; ++d) {
        fields.push_back(
            {4u * d, 4, sized(static_cast<SpecialRegister>(kNctaidX + d), 32)});
        fields.push_back({12 + 2u * d, 2,
                          sized(static_cast<SpecialRegister>(kNtidX + d), 16)});
        fields.push_back({18 + 2u * d, 2, constant(0, 16)});
      }
      // hidden_hostcall_buffer: none; the stand-in serves the device
      // libraries' hostcalls itself (prepareAmdgpuModule).
      fields.push_back({80, 8, constant(0, 64)});
      tableBytes = 88;
    } else if (abi == 400) {
      // hidden_global_offset_{x,y,z}: 0, as HIP launches;
      // hidden_hostcall_buffer as for version 5.
      for (int d = 0; d < 3; ++d)
        fields.push_back({8u * d, 8, constant(0, 64)});
      fields.push_back({24, 8, constant(0, 64)});
      tableBytes = 32;
    } else {
      why = "is not implemented for code object version " +
            std::to_string(abi) + " by the HIP stand-in";
      return false;
    }
  }
  auto valueAt = [&](IRBuilder<> &builder, uint64_t offset,
                     Type *type) -> Value * {
    // A whole field read as an integer of its size is its value; anything
    // else is cut from the table's bytes.
    for (const TableField &field : fields)
      if (field.offset == offset && type->isIntegerTy(field.bytes * 8))
        return field.value(builder);
    unsigned bits = tableBytes * 8;
    Value *table = builder.getIntN(bits, 0);
    for (const TableField &field : fields)
      table = builder.CreateOr(
          table, builder.CreateShl(builder.CreateZExt(field.value(builder),
                                                      builder.getIntNTy(bits)),
                                   field.offset * 8));
    Value *bitsOut =
        builder.CreateTrunc(builder.CreateLShr(table, offset * 8),
                            builder.getIntNTy(type->getPrimitiveSizeInBits()));
    return builder.CreateBitCast(bitsOut, type);
  };
  const DataLayout &layout = lc.module->getDataLayout();
  // Every use: a chain of constant offsets ending in loads of fields the
  // table has.
  SmallVector<std::pair<Value *, int64_t>> work{{&call, 0}};
  SmallVector<LoadInst *> loads;
  SmallVector<int64_t> offsets;
  SmallVector<Instruction *> addresses;
  while (!work.empty()) {
    auto [pointer, offset] = work.pop_back_val();
    for (User *user : pointer->users()) {
      if (auto *gep = dyn_cast<GEPOperator>(user)) {
        APInt delta(64, 0);
        if (gep->getPointerOperand() == pointer &&
            gep->accumulateConstantOffset(layout, delta) &&
            isa<Instruction>(gep)) {
          work.push_back({gep, offset + delta.getSExtValue()});
          addresses.push_back(cast<Instruction>(gep));
          continue;
        }
      } else if (auto *load = dyn_cast<LoadInst>(user)) {
        Type *type = load->getType();
        uint64_t bytes = layout.getTypeStoreSize(type);
        if (!load->isVolatile() && !load->isAtomic() &&
            (type->isIntOrIntVectorTy() || type->isFPOrFPVectorTy()) &&
            !isa<ScalableVectorType>(type) && offset >= 0 &&
            uint64_t(offset) + bytes <= tableBytes) {
          bool covered = true;
          for (uint64_t byte = offset; byte < offset + bytes; ++byte)
            covered &= any_of(fields, [&](const TableField &field) {
              return byte >= field.offset && byte < field.offset + field.bytes;
            });
          if (covered) {
            loads.push_back(load);
            offsets.push_back(offset);
            continue;
          }
        }
        std::string typeName;
        raw_string_ostream typeStream(typeName);
        type->print(typeStream);
        why = "is read at offset " + std::to_string(offset) + " (" + typeName +
              "), a field the HIP stand-in does not implement";
        return false;
      }
      why = "is used other than by loads at constant offsets, which the HIP "
            "stand-in does not implement";
      return false;
    }
  }
  for (size_t i = 0; i < loads.size(); ++i) {
    IRBuilder<> builder(loads[i]);
    loads[i]->replaceAllUsesWith(
        valueAt(builder, offsets[i], loads[i]->getType()));
    loads[i]->eraseFromParent();
  }
  for (Instruction *address : reverse(addresses))
    if (address->use_empty())
      address->eraseFromParent();
  replace(PoisonValue::get(call.getType()));
  return true;
}

bool AmdgpuCallLowering::lower(StringRef name, std::string &why) {
  why = "is not implemented by the HIP stand-in";
  if (name == kHostcallFunction)
    return lowerHostcall(why);
  if (name == kWavefrontFence) {
    runtime("wave", i64,
            {ctx, b.getInt32(kWaveFence), b.getInt64(0), b.getInt32(0),
             siteValue("fence syncscope(\"wavefront\")")});
    replace(nullptr);
    return true;
  }
  if (name == "llvm.trap" || name == "llvm.debugtrap" ||
      name == "llvm.ubsantrap") {
    runtime("trap", b.getVoidTy(), {ctx, siteValue("trap")});
    replace(nullptr);
    return true;
  }
  StringRef rest = name;
  if (!rest.consume_front("llvm.amdgcn.")) {
    why = "is a function outside the module the HIP stand-in does not "
          "provide";
    return false;
  }
  // Work-item and work-group ids (AMDGPUUsage, "Kernel Dispatch" and
  // "Initial Kernel Execution State": the work-item id within the
  // work-group, the work-group id within the grid).
  static const std::pair<const char *, SpecialRegister> registers[] = {
      {"workitem.id.x", kTidX},    {"workitem.id.y", kTidY},
      {"workitem.id.z", kTidZ},    {"workgroup.id.x", kCtaidX},
      {"workgroup.id.y", kCtaidY}, {"workgroup.id.z", kCtaidZ},
  };
  for (const auto &[spelling, r] : registers)
    if (rest == spelling) {
      replace(reg(r));
      return true;
    }
  if (rest == "dispatch.ptr" || rest == "implicitarg.ptr")
    return lowerTableRead(name, why);
  if (rest == "groupstaticsize") {
    // The kernel's static LDS: the block's shared memory before the
    // launch's dynamic part.
    replace(b.CreateSub(reg(kTotalSmemSize), reg(kDynamicSmemSize)));
    return true;
  }
  if (rest == "wavefrontsize") {
    replace(b.getInt32(lc.warpSize));
    return true;
  }
  // The cross-lane instructions, among the lanes of the wave that execute
  // them together (BlockCollectives.cpp).
  std::optional<WaveOp> wave;
  Value *operand = b.getInt32(0);
  if (rest == "ds.bpermute") {
    // (byte address, value): the value of the lane the address names.
    wave = kWaveBpermute;
    operand = arg(0);
  } else if (rest == "ds.swizzle") {
    // (value, offset): the offset, an immediate, picks the pattern. Of
    // DS_SWIZZLE_B32's modes the stand-in runs those every ISA since GCN3
    // documents: offset[15] set, a permutation within each four lanes;
    // clear, and, or and xor masks within each 32.
    auto *pattern = dyn_cast<ConstantInt>(arg(1));
    if (!pattern || pattern->getZExtValue() >= 0xc000) {
      why = "with an offset of 0xc000 or more (rotate and FFT modes) is not "
            "implemented by the HIP stand-in";
      return false;
    }
    wave = kWaveSwizzle;
    operand = arg(1);
  } else if (rest.starts_with("readlane")) {
    wave = kWaveReadlane;
    operand = arg(1);
  } else if (rest.starts_with("readfirstlane")) {
    wave = kWaveFirstLane;
  } else if (rest.starts_with("ballot")) {
    wave = kWaveBallot;
  }
  if (wave) {
    Value *value = *wave == kWaveBpermute ? arg(1) : arg(0);
    if (*wave == kWaveBallot)
      value = b.CreateZExt(value, i32);
    Value *result = waveOp(*wave, value, operand);
    if (!result) {
      why = "on a value of more than 64 bits is not implemented by the HIP "
            "stand-in";
      return false;
    }
    replace(result);
    return true;
  }
  if (rest == "mbcnt.lo" || rest == "mbcnt.hi") {
    // AMDGPUUsage / the ISA's V_MBCNT_LO_U32_B32 and V_MBCNT_HI_U32_B32:
    // the second operand plus the count of the mask's set bits for the
    // lanes below this one, in lanes 0-31 (lo) or 32-63 (hi).
    Value *below = lanesBelow();
    if (rest == "mbcnt.hi")
      below = b.CreateLShr(below, 32);
    Value *bits = b.CreateAnd(b.CreateTrunc(below, i32), arg(0));
    replace(
        b.CreateAdd(arg(1), b.CreateUnaryIntrinsic(Intrinsic::ctpop, bits)));
    return true;
  }
  if (rest == "s.barrier") {
    // S_BARRIER: every wave of the work-group that has not ended waits
    // until all have reached it (AMDGPUUsage, "Memory Model": s_barrier);
    // the runtime's barrier 0 over all non-exited threads.
    runtime("barrier", i32,
            {ctx, b.getInt32(0), b.getInt32(0), b.getInt32(0), b.getInt32(0),
             siteValue("s.barrier")});
    replace(nullptr);
    return true;
  }
  if (rest == "s.waitcnt" || rest == "wave.barrier" ||
      rest == "sched.barrier" || rest == "s.setprio" ||
      rest == "sched.group.barrier") {
    // Waits for the wave's own memory operations, or only orders the
    // compiler's scheduling: the host's loads and stores complete in
    // program order.
    replace(nullptr);
    return true;
  }
  if (rest == "s.sleep") {
    // S_SLEEP: about 64 x N clocks, some 40 ns each N at the chip's
    // clock; lets the block's other threads run.
    runtime(
        "nanosleep", b.getVoidTy(),
        {ctx, b.CreateMul(b.CreateZExtOrTrunc(arg(0), i32), b.getInt32(40))});
    replace(nullptr);
    return true;
  }
  if (rest == "s.memtime") {
    replace(runtime("clock", i64, {ctx}));
    return true;
  }
  if (rest == "s.memrealtime") {
    // A constant 100 MHz clock (AMDGPUUsage: s_memrealtime).
    replace(b.CreateUDiv(runtime("globaltimer", i64, {ctx}), b.getInt64(10)));
    return true;
  }
  return false;
}

} // namespace

bool lowerAmdgpuCall(CallBase &call, const LoweringContext &context,
                     std::string &why) {
  if (isa<InlineAsm>(call.getCalledOperand())) {
    why = "is AMDGPU inline assembly, which the HIP stand-in does not run";
    return false;
  }
  Function *callee = call.getCalledFunction();
  if (!callee) {
    why = "is an indirect call, which the stand-in does not run";
    return false;
  }
  AmdgpuCallLowering lowering(call, context);
  return lowering.lower(callee->getName(), why);
}

} // namespace standin
} // namespace gpu_runner
