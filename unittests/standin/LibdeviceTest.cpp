//===- LibdeviceTest.cpp - libdevice on the CUDA stand-in -----------------===//
//
// The whole of the CUDA toolkit's libdevice, linked into a kernel's module
// as the NVVM target links it: the stand-in must map every NVVM intrinsic
// and every piece of inline PTX it uses. A kernel then calls the functions
// whose results the PTX rounding modes and integer instructions decide
// exactly (directed rounding, conversions, byte permutes, high halves), and
// each is compared with the host computing the same operation in the same
// rounding mode.
//
//===----------------------------------------------------------------------===//

#include "unittests/standin/KernelTestSupport.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Linker/Linker.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <functional>

using namespace gpu_runner::test;

namespace {

/// The operands of one call: floats, doubles, 32- and 64-bit integers, each
/// kind taken in order by the function's parameters of that type.
struct Inputs {
  float x, y, z;
  double dx, dy, dz;
  int32_t a, b, c;
  int64_t l, m;
};

template <typename T> uint64_t bits(T value) {
  uint64_t out = 0;
  std::memcpy(&out, &value, sizeof(T));
  return out;
}

/// Calls `compute` out of line: the compiler may move arithmetic across
/// fesetround (-frounding-math does not stop it), but not into a call.
template <typename Compute>
__attribute__((noinline)) uint64_t computeOutOfLine(Compute compute) {
  return compute();
}

/// `compute` in a rounding mode, with operands the compiler cannot fold.
template <typename Compute> uint64_t rounded(int mode, Compute compute) {
  int saved = std::fegetround();
  std::fesetround(mode);
  uint64_t result = computeOutOfLine(compute);
  std::fesetround(saved);
  return result;
}

struct LibdeviceCall {
  const char *name;
  std::function<uint64_t(const Inputs &)> reference;
};

const LibdeviceCall kCalls[] = {
    {"__nv_fadd_rz",
     [](const Inputs &in) {
       return rounded(FE_TOWARDZERO, [&] {
         volatile float x = in.x, y = in.y;
         return bits<float>(x + y);
       });
     }},
    {"__nv_fmul_rd",
     [](const Inputs &in) {
       return rounded(FE_DOWNWARD, [&] {
         volatile float x = in.x, y = in.y;
         return bits<float>(x * y);
       });
     }},
    {"__nv_fmaf_ru",
     [](const Inputs &in) {
       return rounded(FE_UPWARD, [&] {
         volatile float x = in.x, y = in.y, z = in.z;
         return bits<float>(std::fma(float(x), float(y), float(z)));
       });
     }},
    {"__nv_fdiv_rz",
     [](const Inputs &in) {
       return rounded(FE_TOWARDZERO, [&] {
         volatile float x = in.x, y = in.y;
         return bits<float>(x / y);
       });
     }},
    {"__nv_fsqrt_rd",
     [](const Inputs &in) {
       return rounded(FE_DOWNWARD, [&] {
         volatile float x = in.x;
         return bits<float>(std::sqrt(float(x)));
       });
     }},
    {"__nv_frcp_rz",
     [](const Inputs &in) {
       return rounded(FE_TOWARDZERO, [&] {
         volatile float x = in.x;
         return bits<float>(1.0f / x);
       });
     }},
    {"__nv_dadd_ru",
     [](const Inputs &in) {
       return rounded(FE_UPWARD, [&] {
         volatile double x = in.dx, y = in.dy;
         return bits<double>(x + y);
       });
     }},
    {"__nv_ddiv_rd",
     [](const Inputs &in) {
       return rounded(FE_DOWNWARD, [&] {
         volatile double x = in.dx, y = in.dy;
         return bits<double>(x / y);
       });
     }},
    {"__nv_dsqrt_rz",
     [](const Inputs &in) {
       return rounded(FE_TOWARDZERO, [&] {
         volatile double x = in.dx;
         return bits<double>(std::sqrt(double(x)));
       });
     }},
    {"__nv_double2float_rz",
     [](const Inputs &in) {
       return rounded(FE_TOWARDZERO, [&] {
         volatile double x = in.dx;
         return bits<float>(static_cast<float>(x));
       });
     }},
    {"__nv_double2float_ru",
     [](const Inputs &in) {
       return rounded(FE_UPWARD, [&] {
         volatile double x = in.dx;
         return bits<float>(static_cast<float>(x));
       });
     }},
    // Float to integer: rounded in the mode, then clamped to the type's
    // range, NaN giving 0 (PTX ISA, cvt).
    {"__nv_float2int_rd",
     [](const Inputs &in) {
       float r = std::floor(in.x);
       int32_t v = std::isnan(r)        ? 0
                   : r >= 2147483648.0f ? INT32_MAX
                   : r < -2147483648.0f ? INT32_MIN
                                        : int32_t(r);
       return uint64_t(uint32_t(v));
     }},
    {"__nv_float2uint_ru",
     [](const Inputs &in) {
       float r = std::ceil(in.x);
       uint32_t v = std::isnan(r) || r <= 0 ? 0
                    : r >= 4294967296.0f    ? UINT32_MAX
                                            : uint32_t(r);
       return uint64_t(v);
     }},
    {"__nv_float2ll_rz",
     [](const Inputs &in) {
       float r = std::trunc(in.x);
       int64_t v = std::isnan(r)                 ? 0
                   : r >= 9223372036854775808.0f ? INT64_MAX
                   : r < -9223372036854775808.0f ? INT64_MIN
                                                 : int64_t(r);
       return uint64_t(v);
     }},
    {"__nv_int2float_rz",
     [](const Inputs &in) {
       return rounded(FE_TOWARDZERO, [&] {
         volatile int32_t a = in.a;
         return bits<float>(static_cast<float>(a));
       });
     }},
    {"__nv_ull2float_ru",
     [](const Inputs &in) {
       return rounded(FE_UPWARD, [&] {
         volatile uint64_t l = uint64_t(in.l);
         return bits<float>(static_cast<float>(l));
       });
     }},
    {"__nv_ll2double_rd",
     [](const Inputs &in) {
       return rounded(FE_DOWNWARD, [&] {
         volatile int64_t l = in.l;
         return bits<double>(static_cast<double>(l));
       });
     }},
    {"__nv_saturatef",
     [](const Inputs &in) {
       float x = in.x;
       return bits<float>(x > 0 ? (x < 1 ? x : 1.0f) : 0.0f);
     }},
    {"__nv_rintf",
     [](const Inputs &in) { return bits<float>(std::nearbyint(in.x)); }},
    {"__nv_fminf",
     [](const Inputs &in) { return bits<float>(std::fmin(in.x, in.y)); }},
    {"__nv_fmaxf",
     [](const Inputs &in) { return bits<float>(std::fmax(in.x, in.y)); }},
    {"__nv_byte_perm",
     [](const Inputs &in) {
       // __byte_perm(x, y, s): byte n of the result is byte s[4n+2:4n] of
       // the 8 bytes of {y, x}.
       uint64_t source =
           uint64_t(uint32_t(in.a)) | (uint64_t(uint32_t(in.b)) << 32);
       uint32_t result = 0;
       for (int n = 0; n < 4; ++n) {
         uint32_t selector = (uint32_t(in.c) >> (4 * n)) & 7;
         result |= uint32_t((source >> (8 * selector)) & 0xff) << (8 * n);
       }
       return uint64_t(result);
     }},
    {"__nv_mulhi",
     [](const Inputs &in) {
       return uint64_t(uint32_t((int64_t(in.a) * int64_t(in.b)) >> 32));
     }},
    {"__nv_umul64hi",
     [](const Inputs &in) {
       unsigned __int128 product =
           (unsigned __int128)uint64_t(in.l) * uint64_t(in.m);
       return uint64_t(product >> 64);
     }},
    {"__nv_mul64hi",
     [](const Inputs &in) {
       __int128 product = (__int128)in.l * in.m;
       return uint64_t(product >> 64);
     }},
    {"__nv_mul24",
     [](const Inputs &in) {
       int32_t x = int32_t(uint32_t(in.a) << 8) >> 8;
       int32_t y = int32_t(uint32_t(in.b) << 8) >> 8;
       // The 48-bit product, of which mul24.lo keeps the low 32 bits.
       return uint64_t(uint32_t(int64_t(x) * y));
     }},
    {"__nv_sad",
     [](const Inputs &in) {
       int64_t difference = int64_t(in.a) - int64_t(in.b);
       return uint64_t(
           uint32_t(uint32_t(difference < 0 ? -difference : difference) +
                    uint32_t(in.c)));
     }},
    {"__nv_brev",
     [](const Inputs &in) {
       uint32_t x = uint32_t(in.a), r = 0;
       for (int i = 0; i < 32; ++i)
         r |= ((x >> i) & 1) << (31 - i);
       return uint64_t(r);
     }},
    {"__nv_float2half_rn",
     [](const Inputs &in) {
       _Float16 h = static_cast<_Float16>(in.x);
       uint16_t b;
       std::memcpy(&b, &h, 2);
       return uint64_t(b);
     }},
};
constexpr size_t kCallCount = sizeof(kCalls) / sizeof(kCalls[0]);

std::vector<Inputs> makeInputs() {
  std::vector<Inputs> inputs;
  const float floats[] = {
      1.0f, 1.0e-8f,   3.0f,     -7.25f,      0.1f,     1.0e30f, -0.0f,
      2.5f, 3.5f,      -2.5f,    16777217.0f, 1.5e9f,   -3.0e9f, 5.0e18f,
      NAN,  0.333333f, 1.0e-30f, 123456.789f, -1.0e20f, 65504.0f};
  const int32_t ints[] = {0,          1,
                          -1,         16777217,
                          2147483647, -2147483647 - 1,
                          0x01234567, int32_t(0x89abcdef),
                          12345678,   -999};
  const int64_t longs[] = {0,
                           1,
                           -1,
                           9007199254740993LL,
                           INT64_MAX,
                           INT64_MIN + 1,
                           0x0123456789abcdefLL,
                           -0x7edcba9876543210LL};
  int i = 0;
  for (float x : floats)
    for (float y : {3.0f, -1.0e-3f, 7.0f, 1.0e-8f, NAN}) {
      Inputs in{};
      in.x = x;
      in.y = y;
      in.z = floats[(i * 7) % 20];
      in.dx = double(x) * (1.0 + 1.0e-12) + 1.0e-300;
      in.dy = double(y) / 3.0;
      in.dz = double(in.z);
      in.a = ints[i % 10];
      in.b = ints[(i * 3 + 1) % 10];
      in.c = ints[(i * 7 + 2) % 10] & 0x7777;
      in.l = longs[i % 8];
      in.m = longs[(i * 5 + 3) % 8];
      inputs.push_back(in);
      ++i;
    }
  return inputs;
}

/// A kernel calling each function of kCalls on inputs[i]: out[k * n + i]
/// holds call k's result, its bits zero-extended to 64.
/// `kinds` receives each call's result type: 'f' float, 'd' double, 'i'
/// integer.
std::unique_ptr<llvm::Module> makeCallsKernel(llvm::LLVMContext &context,
                                              llvm::Module &libdevice,
                                              std::vector<char> &kinds) {
  using namespace llvm;
  auto module = std::make_unique<Module>("calls", context);
  module->setTargetTriple(Triple("nvptx64-nvidia-cuda"));
  module->setDataLayout(
      "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64");
  Type *f32 = Type::getFloatTy(context), *f64 = Type::getDoubleTy(context);
  Type *i32 = Type::getInt32Ty(context), *i64 = Type::getInt64Ty(context);
  auto *inputsType = StructType::get(
      context, {f32, f32, f32, f64, f64, f64, i32, i32, i32, i64, i64});
  REQUIRE(module->getDataLayout().getTypeAllocSize(inputsType) ==
          sizeof(Inputs));
  PointerType *global = PointerType::get(context, 1);
  auto *kernel = Function::Create(
      FunctionType::get(Type::getVoidTy(context), {global, global, i32}, false),
      GlobalValue::ExternalLinkage, "calls", *module);
  kernel->setCallingConv(CallingConv::PTX_Kernel);
  BasicBlock *entry = BasicBlock::Create(context, "entry", kernel);
  BasicBlock *body = BasicBlock::Create(context, "body", kernel);
  BasicBlock *done = BasicBlock::Create(context, "done", kernel);
  IRBuilder<> b(entry);
  Value *tid = b.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_tid_x, {});
  Value *ntid = b.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_x, {});
  Value *ctaid = b.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, {});
  Value *i = b.CreateAdd(b.CreateMul(ctaid, ntid), tid);
  Value *n = kernel->getArg(2);
  b.CreateCondBr(b.CreateICmpULT(i, n), body, done);
  b.SetInsertPoint(body);
  Value *at = b.CreateGEP(inputsType, kernel->getArg(0), b.CreateZExt(i, i64));
  auto field = [&](unsigned index, Type *type) {
    return b.CreateLoad(type, b.CreateStructGEP(inputsType, at, index));
  };
  for (size_t k = 0; k < kCallCount; ++k) {
    Function *callee = libdevice.getFunction(kCalls[k].name);
    REQUIRE(callee);
    unsigned floats = 0, doubles = 0, ints = 0, longs = 0;
    SmallVector<Value *> args;
    for (Type *type : callee->getFunctionType()->params()) {
      if (type->isFloatTy())
        args.push_back(field(floats++, f32));
      else if (type->isDoubleTy())
        args.push_back(field(3 + doubles++, f64));
      else if (type->isIntegerTy(32))
        args.push_back(field(6 + ints++, i32));
      else
        args.push_back(field(9 + longs++, i64));
    }
    FunctionCallee declared =
        module->getOrInsertFunction(kCalls[k].name, callee->getFunctionType());
    Value *result = b.CreateCall(declared, args);
    Type *type = result->getType();
    kinds.push_back(type->isFloatTy() ? 'f' : type->isDoubleTy() ? 'd' : 'i');
    if (!type->isIntegerTy())
      result = b.CreateBitCast(
          result, b.getIntNTy(type->getPrimitiveSizeInBits().getFixedValue()));
    result = b.CreateZExt(result, i64);
    Value *index = b.CreateAdd(b.CreateMul(b.getInt32(k), n), i);
    b.CreateStore(
        result, b.CreateGEP(i64, kernel->getArg(1), b.CreateZExt(index, i64)));
  }
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return module;
}

} // namespace

TEST_CASE("every function of libdevice compiles, and its rounding is the "
          "PTX ISA's",
          "[standin][kernels]") {
  KernelIR ir;
  auto file = llvm::MemoryBuffer::getFile(GPU_RUNNER_STANDIN_LIBDEVICE);
  REQUIRE(file);
  auto libdevice =
      llvm::parseBitcodeFile((*file)->getMemBufferRef(), *ir.context);
  REQUIRE(static_cast<bool>(libdevice));
  (*libdevice)->setTargetTriple(llvm::Triple("nvptx64-nvidia-cuda"));
  (*libdevice)
      ->setDataLayout(
          "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64");
  std::vector<char> kinds;
  ir.module = makeCallsKernel(*ir.context, **libdevice, kinds);
  // All of it, not only what the kernel calls.
  REQUIRE_FALSE(llvm::Linker::linkModules(*ir.module, std::move(*libdevice)));
  CUmodule module = nullptr;
  std::string log;
  int code = loadWithIR(ir.ptx(), ir.bitcode(), module, log);
  INFO(log);
  REQUIRE(code == CUDA_SUCCESS);

  std::vector<Inputs> inputs = makeInputs();
  int32_t n = static_cast<int32_t>(inputs.size());
  CUdeviceptr in = toDevice(inputs);
  CUdeviceptr out = toDevice(std::vector<uint64_t>(kCallCount * n, 0));
  void *params[] = {&in, &out, &n};
  REQUIRE(cuLaunchKernel(getKernel(module, "calls"), (n + 31) / 32, 1, 1, 32, 1,
                         1, 0, nullptr, params, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  std::vector<uint64_t> results = fromDevice<uint64_t>(out, kCallCount * n);
  for (size_t k = 0; k < kCallCount; ++k)
    for (int32_t i = 0; i < n; ++i) {
      const Inputs &operands = inputs[i];
      INFO(kCalls[k].name << " with x " << operands.x << ", y " << operands.y
                          << ", z " << operands.z << ", dx " << operands.dx
                          << ", dy " << operands.dy << ", a " << operands.a
                          << ", b " << operands.b << ", c " << operands.c
                          << ", l " << operands.l << ", m " << operands.m);
      uint64_t expected = kCalls[k].reference(operands);
      uint64_t result = results[k * n + i];
      // NaNs of any payload are the same result.
      auto isNan = [&](uint64_t value) {
        if (kinds[k] == 'd') {
          double d;
          std::memcpy(&d, &value, 8);
          return std::isnan(d);
        }
        float f;
        uint32_t low = uint32_t(value);
        std::memcpy(&f, &low, 4);
        return kinds[k] == 'f' && std::isnan(f);
      };
      if (isNan(expected) && isNan(result))
        continue;
      CHECK(result == expected);
    }
  CHECK(cuMemFree(in) == CUDA_SUCCESS);
  CHECK(cuMemFree(out) == CUDA_SUCCESS);
  CHECK(cuModuleUnload(module) == CUDA_SUCCESS);
}
