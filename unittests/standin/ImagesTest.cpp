//===- ImagesTest.cpp - Module images as the stand-in reads them ----------===//

#include "standin/Images.h"
#include "unittests/standin/CodeObjectTestSupport.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

using namespace gpu_runner::standin;
using gpu_runner::test::codeObjectMetadata;
using gpu_runner::test::kernelMetadata;
using gpu_runner::test::makeCodeObject;
using gpu_runner::test::toMsgPack;

namespace {

bool anything(const void *, uint64_t) { return true; }

/// A fatbin container of the given entries: kind 1 (PTX) or 2 (ELF), the
/// chip, the payload.
struct Entry {
  uint16_t kind;
  uint32_t arch;
  std::string payload;
  uint64_t flags = 0x11;
};

template <typename T> void append(std::string &out, T value) {
  out.append(reinterpret_cast<const char *>(&value), sizeof(T));
}

std::string makeFatbin(const std::vector<Entry> &entries) {
  std::string body;
  for (const Entry &entry : entries) {
    std::string payload = entry.payload;
    payload.resize((payload.size() + 7) / 8 * 8, '\0');
    std::string header;
    append<uint16_t>(header, entry.kind);
    append<uint16_t>(header, 0x0101);
    append<uint32_t>(header, 64);
    append<uint64_t>(header, payload.size());
    append<uint32_t>(header, 0);
    append<uint32_t>(header, 0);
    append<uint16_t>(header, 8);
    append<uint16_t>(header, 1);
    append<uint32_t>(header, entry.arch);
    append<uint32_t>(header, 0);
    append<uint32_t>(header, 0);
    append<uint64_t>(header, entry.flags);
    header.resize(64, '\0');
    body += header + payload;
  }
  std::string fatbin;
  append<uint32_t>(fatbin, 0xBA55ED50);
  append<uint16_t>(fatbin, 1);
  append<uint16_t>(fatbin, 16);
  append<uint64_t>(fatbin, body.size());
  return fatbin + body;
}

const char *const kPtx = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry first(
	.param .u64 first_param_0,
	.param .u32 first_param_1
)
{ ret; }
.visible .entry second(
	.param .align 8 .b8 second_param_0[24]
)
{ ret; }
)";

} // namespace

TEST_CASE("PTX gives its kernels, their parameters and its target",
          "[standin]") {
  int target = 0;
  std::vector<KernelInfo> kernels;
  REQUIRE(readPtx(kPtx, target, kernels));
  CHECK(target == 80);
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].name == "first");
  CHECK(kernels[0].paramSizes == std::vector<uint32_t>{8, 4});
  CHECK(kernels[1].name == "second");
  CHECK(kernels[1].paramSizes == std::vector<uint32_t>{24});
  CHECK_FALSE(readPtx("not ptx", target, kernels));
}

TEST_CASE("a CUDA image is PTX, a cubin or a fatbin, or invalid", "[standin]") {
  ImageInfo info;
  std::string log;
  CHECK(readCudaImage(kPtx, 90, anything, info, log) == Error::Success);
  CHECK(info.format == "PTX");
  CHECK(info.namesKnown);
  REQUIRE(info.find("second"));
  CHECK_FALSE(info.find("third"));

  // PTX for a newer chip cannot be compiled for this one.
  std::string newer =
      std::string(kPtx).replace(std::string(kPtx).find("sm_80"), 5, "sm_100");
  CHECK(readCudaImage(newer.c_str(), 90, anything, info, log) ==
        Error::InvalidPtx);
  CHECK(log == "ptxas: the PTX targets sm_100, newer than the device's sm_90");
  // PTX for an older chip is compiled for a newer one, unless it is for an
  // architecture-specific target, which runs on that chip alone.
  CHECK(readCudaImage(kPtx, 100, anything, info, log) == Error::Success);
  std::string specific =
      std::string(kPtx).replace(std::string(kPtx).find("sm_80"), 5, "sm_90a");
  CHECK(readCudaImage(specific.c_str(), 90, anything, info, log) ==
        Error::Success);
  CHECK(readCudaImage(specific.c_str(), 100, anything, info, log) ==
        Error::InvalidPtx);
  CHECK(log == "ptxas: the PTX targets sm_90a, whose architecture-specific "
               "features only that chip has, not the device's sm_100");

  const char garbage[] = "\x12\x34\x56\x78 nothing a driver loads";
  CHECK(readCudaImage(garbage, 90, anything, info, log) == Error::InvalidImage);
  // Bytes the stand-in may not read are never read.
  CHECK(readCudaImage(
            kPtx, 90, [](const void *, uint64_t) { return false; }, info,
            log) == Error::InvalidValue);
}

TEST_CASE("a fatbin's entry is chosen by the CUDA compatibility rules",
          "[standin]") {
  ImageInfo info;
  std::string log;
  // A cubin only for a newer chip, and PTX only for a newer one: nothing.
  std::string newer = makeFatbin({{2, 100,
                                   "\x7f"
                                   "ELF"},
                                  {1, 100, kPtx}});
  CHECK(readCudaImage(newer.data(), 90, anything, info, log) ==
        Error::NoBinaryForGpu);
  CHECK(log == "the fatbin has code for sm_100, PTX for sm_100, none of it "
               "for the device's sm_90");
  // A cubin of another major version is no good, but older PTX is
  // compiled for the device.
  std::string older = makeFatbin({{2, 80,
                                   "\x7f"
                                   "ELF"},
                                  {1, 80, kPtx}});
  REQUIRE(readCudaImage(older.data(), 90, anything, info, log) ==
          Error::Success);
  CHECK(info.format == "fatbin");
  CHECK(info.namesKnown);
  CHECK(info.find("first"));
  // A compressed entry is not read: any name will do.
  std::string compressed = makeFatbin({{1, 90, "zstd bytes", 0x8011}});
  REQUIRE(readCudaImage(compressed.data(), 90, anything, info, log) ==
          Error::Success);
  CHECK_FALSE(info.namesKnown);
  // Entries that run past the container's end.
  std::string truncated = makeFatbin({{1, 90, kPtx}});
  uint64_t shorter = 40;
  std::memcpy(&truncated[8], &shorter, sizeof(shorter));
  CHECK(readCudaImage(truncated.data(), 90, anything, info, log) ==
        Error::InvalidImage);
  // A bad cubin inside is an invalid image.
  std::string badCubin = makeFatbin({{2, 90,
                                      "\x7f"
                                      "ELF and no more"}});
  CHECK(readCudaImage(badCubin.data(), 90, anything, info, log) ==
        Error::InvalidImage);
}

TEST_CASE("an AMDGPU image is a code object or an offload bundle",
          "[standin]") {
  ImageInfo info;
  std::string log;
  const char garbage[] = "this is no code object at all, nor a bundle";
  CHECK(readAmdgpuImage(garbage, "gfx90a", anything, info, log) ==
        Error::InvalidImage);
  std::string bundle = "__CLANG_OFFLOAD_BUNDLE__";
  append<uint64_t>(bundle, 0);
  CHECK(readAmdgpuImage(bundle.data(), "gfx90a", anything, info, log) ==
        Error::NoBinaryForGpu);
  CHECK(log == "the offload bundle has no entries, none for the device's "
               "gfx90a");
}

TEST_CASE("a code object's metadata gives its kernels' explicit arguments",
          "[standin]") {
  // As the AMDGPU back end lays them out: each at its own alignment (the
  // i64 after the i32 at 16), then code object v5's hidden arguments from
  // the next 8 bytes, which are no parameters of the kernel.
  std::string args = R"(      - .offset: 0
        .size: 8
        .value_kind: global_buffer
        .address_space: global
      - .offset: 8
        .size: 4
        .value_kind: by_value
      - .offset: 16
        .size: 8
        .value_kind: by_value
      - .offset: 24
        .size: 4
        .value_kind: hidden_block_count_x
      - .offset: 36
        .size: 2
        .value_kind: hidden_group_size_x
      - .offset: 112
        .size: 8
        .value_kind: hidden_hostcall_buffer
)";
  std::string metadata = codeObjectMetadata(kernelMetadata("scale", args, 280) +
                                            kernelMetadata("none", "", 0));
  std::string image = makeCodeObject({"scale", "none", "plain"}, metadata);
  ImageInfo info;
  std::string log;
  REQUIRE(readAmdgpuImage(image.data(), "gfx90a", anything, info, log) ==
          Error::Success);
  CHECK(info.format == "code object");
  const KernelInfo *scale = info.find("scale");
  REQUIRE(scale);
  CHECK(scale->paramsKnown);
  CHECK(scale->paramSizes == std::vector<uint32_t>{8, 4, 8});
  CHECK(scale->paramOffsets == std::vector<uint32_t>{0, 8, 16});
  CHECK(scale->waveSize == 64);
  // A kernel without .args has no parameters; one the metadata does not
  // describe keeps them unknown.
  const KernelInfo *none = info.find("none");
  REQUIRE(none);
  CHECK(none->paramsKnown);
  CHECK(none->paramSizes.empty());
  const KernelInfo *plain = info.find("plain");
  REQUIRE(plain);
  CHECK_FALSE(plain->paramsKnown);

  // Without the note, no kernel's parameters are known.
  std::string bare = makeCodeObject({"scale"}, "");
  REQUIRE(readAmdgpuImage(bare.data(), "gfx90a", anything, info, log) ==
          Error::Success);
  REQUIRE(info.find("scale"));
  CHECK_FALSE(info.find("scale")->paramsKnown);
}

TEST_CASE("a code object whose metadata is malformed is invalid", "[standin]") {
  const std::string two = R"(      - .offset: 0
        .size: 8
        .value_kind: global_buffer
      - .offset: 8
        .size: 4
        .value_kind: by_value
)";
  auto withArgs = [](const std::string &args, unsigned segment = 16) {
    return codeObjectMetadata(kernelMetadata("scale", args, segment));
  };
  auto replaced = [&](const std::string &from, const std::string &to) {
    std::string args = two;
    size_t at = args.find(from);
    REQUIRE(at != std::string::npos);
    return withArgs(args.replace(at, from.size(), to));
  };
  struct Case {
    std::string metadata, log;
  };
  const std::string metadata = "the code object's metadata";
  const std::string scale = "kernel 'scale' in " + metadata;
  const Case cases[] = {
      {"\xc1", metadata + " note is not valid MessagePack"},
      {std::string("\x82\xae"
                   "amdhsa.kernels\x90\xae"
                   "amdhsa.kernels\x90"),
       metadata + " has the key 'amdhsa.kernels' twice in a map"},
      {toMsgPack("--- [ 1, 2 ]\n...\n"),
       metadata + " is not a MessagePack map"},
      {toMsgPack("---\namdhsa.version: [ 1, 2 ]\n...\n"),
       metadata + " has no amdhsa.kernels"},
      {toMsgPack("---\namdhsa.kernels: 3\n...\n"),
       "amdhsa.kernels of " + metadata + " is not an array"},
      {codeObjectMetadata("  - .kernarg_segment_size: 0\n"),
       "amdhsa.kernels[0] of " + metadata + " has neither .symbol nor .name"},
      {codeObjectMetadata("  - .symbol: scale\n"),
       ".symbol of amdhsa.kernels[0] of " + metadata +
           " is not a kernel descriptor's name (a string that ends with .kd)"},
      {codeObjectMetadata(kernelMetadata("scale", "", 0) +
                          kernelMetadata("other", "", 0)),
       metadata + " describes kernel 'other', whose descriptor the symbol "
                  "table lacks (no other.kd)"},
      {codeObjectMetadata(kernelMetadata("scale", "", 0) +
                          kernelMetadata("scale", "", 0)),
       metadata + " describes kernel 'scale' twice"},
      {codeObjectMetadata("  - .symbol: scale.kd\n"),
       scale + " has no .kernarg_segment_size"},
      {codeObjectMetadata(
           "  - .symbol: scale.kd\n    .kernarg_segment_size: big\n"),
       ".kernarg_segment_size of " + scale + " is not an unsigned integer"},
      {codeObjectMetadata("  - .symbol: scale.kd\n"
                          "    .kernarg_segment_size: 8\n    .args: 3\n"),
       ".args of " + scale + " is not an array"},
      {replaced("      - .offset: 8\n", "      - .align: 8\n"),
       "argument 1 of " + scale + " has no .offset"},
      {replaced(".size: 8", ".size: -8"),
       ".size of argument 0 of " + scale + " is not an unsigned integer"},
      {replaced(".value_kind: by_value", ".value_type: i32"),
       "argument 1 of " + scale + " has no .value_kind"},
      {replaced(".offset: 8", ".offset: 4"),
       "argument 1 of " + scale +
           " (offset 4, 4 bytes) overlaps the explicit argument before it "
           "(offset 0, 8 bytes)"},
      {withArgs(R"(      - .offset: 8
        .size: 8
        .value_kind: by_value
      - .offset: 0
        .size: 8
        .value_kind: global_buffer
)"),
       "argument 1 of " + scale +
           " (offset 0, 8 bytes) comes before the explicit argument before "
           "it (offset 8, 8 bytes)"},
      {withArgs(two, 10),
       "argument 1 of " + scale +
           " (offset 8, 4 bytes) ends past the kernarg segment's 10 bytes "
           "(.kernarg_segment_size)"},
      {withArgs(two + R"(      - .offset: 16
        .size: 8
        .value_kind: hidden_block_count_x
)"),
       "argument 2 of " + scale +
           " (offset 16, 8 bytes) ends past the kernarg segment's 16 bytes "
           "(.kernarg_segment_size)"},
  };
  for (const Case &test : cases) {
    std::string image = makeCodeObject({"scale"}, test.metadata);
    ImageInfo info;
    std::string log;
    INFO(test.log);
    CHECK(readAmdgpuImage(image.data(), "gfx90a", anything, info, log) ==
          Error::InvalidImage);
    CHECK(log == test.log);
  }
  // The same metadata, well formed, is read.
  std::string image = makeCodeObject({"scale"}, withArgs(two));
  ImageInfo info;
  std::string log;
  CHECK(readAmdgpuImage(image.data(), "gfx90a", anything, info, log) ==
        Error::Success);
}

#ifdef GPU_RUNNER_STANDIN_TEST_CUBIN
#include <fstream>
#include <iterator>

TEST_CASE("a cubin's parameters, from both kinds of records, checked "
          "against the parameter buffer's size",
          "[standin]") {
  std::ifstream file(GPU_RUNNER_STANDIN_TEST_CUBIN, std::ios::binary);
  REQUIRE(file);
  std::string cubin((std::istreambuf_iterator<char>(file)),
                    std::istreambuf_iterator<char>());
  ImageInfo info;
  std::string log;
  REQUIRE(readCudaImage(cubin.data(), 90, anything, info, log) ==
          Error::Success);
  const KernelInfo *small = info.find("small");
  const KernelInfo *large = info.find("large");
  REQUIRE(small);
  REQUIRE(large);
  // EIATTR_KPARAM_INFO records.
  CHECK(small->paramsKnown);
  CHECK(small->paramSizes == std::vector<uint32_t>{8, 4, 24});
  CHECK(small->paramOffsets == std::vector<uint32_t>{0, 8, 16});
  // Only EIATTR_KPARAM_INFO_V2 records: the parameters take more than
  // 4 KiB.
  CHECK(large->paramsKnown);
  CHECK(large->paramSizes == std::vector<uint32_t>{8, 5000});
  CHECK(large->paramOffsets == std::vector<uint32_t>{0, 8});
  // Records read past EIATTR_WMMA_USED (format 1), whose unused 16-bit field
  // keeps the next record 4-byte aligned.
  const KernelInfo *mma = info.find("mma");
  REQUIRE(mma);
  REQUIRE(cubin.find(std::string("\x01\x2b\x00\x00\x03", 5)) !=
          std::string::npos);
  CHECK(mma->paramsKnown);
  CHECK(mma->paramSizes == std::vector<uint32_t>{8, 4});
  CHECK(mma->paramOffsets == std::vector<uint32_t>{0, 8});
  // Only `.entry` functions are kernels: not the `.func` that calls calls,
  // nor the `.extern .func` vprintf, which the symbol table lists undefined.
  std::vector<std::string> names;
  for (const KernelInfo &kernel : info.kernels)
    names.push_back(kernel.name);
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"calls", "large", "mma", "small"});

  // The chip, from e_flags (ELF ABI version 8: the SM in bits 8-15, 0x8 for
  // the architecture-specific variant): a cubin for sm_XY runs on the same
  // major version with a minor of Y or more, an sm_90a one on sm_90 alone.
  REQUIRE(static_cast<uint8_t>(cubin[8]) == 8);
  auto withFlags = [&](uint32_t flags) {
    std::string copy = cubin;
    std::memcpy(&copy[0x30], &flags, 4);
    return copy;
  };
  uint32_t flags = 0;
  std::memcpy(&flags, &cubin[0x30], 4);
  REQUIRE(((flags >> 8) & 0xff) == 90);
  CHECK(readCudaImage(cubin.data(), 100, anything, info, log) ==
        Error::NoBinaryForGpu);
  CHECK(log ==
        "the cubin is for sm_90, which does not run on the device's sm_100");
  CHECK(readCudaImage(cubin.data(), 89, anything, info, log) ==
        Error::NoBinaryForGpu);
  std::string sm86 = withFlags((flags & ~0xff00u) | (86u << 8));
  CHECK(readCudaImage(sm86.data(), 90, anything, info, log) ==
        Error::NoBinaryForGpu);
  CHECK(log ==
        "the cubin is for sm_86, which does not run on the device's sm_90");
  CHECK(readCudaImage(sm86.data(), 89, anything, info, log) == Error::Success);
  std::string sm90a = withFlags(flags | 0x8);
  CHECK(readCudaImage(sm90a.data(), 90, anything, info, log) == Error::Success);
  CHECK(readCudaImage(sm90a.data(), 91, anything, info, log) ==
        Error::NoBinaryForGpu);
  CHECK(log ==
        "the cubin is for sm_90a, which does not run on the device's sm_91");
  CHECK(readCudaImage(cubin.data(), 91, anything, info, log) == Error::Success);

  // EIATTR_CBANK_PARAM_SIZE (format 3, attribute 0x19) that disagrees with
  // where the last parameter ends.
  auto corrupt = [&](const std::string &record, const std::string &with) {
    std::string copy = cubin;
    size_t at = copy.find(record);
    REQUIRE(at != std::string::npos);
    REQUIRE(copy.find(record, at + 1) == std::string::npos);
    copy.replace(at, record.size(), with);
    return copy;
  };
  std::string wrongSize = corrupt(std::string("\x03\x19\x90\x13", 4),
                                  std::string("\x03\x19\x98\x13", 4));
  CHECK(readCudaImage(wrongSize.data(), 90, anything, info, log) ==
        Error::InvalidImage);
  CHECK(log == "the cubin's parameters of kernel 'large' end at 5008 bytes, "
               "but its EIATTR_CBANK_PARAM_SIZE says 5016");
  // A V1 record of small's last parameter, 24 bytes made 16.
  std::string wrongParam =
      corrupt(std::string("\x02\x00\x10\x00\x00\xf0\x61\x00", 8),
              std::string("\x02\x00\x10\x00\x00\xf0\x41\x00", 8));
  CHECK(readCudaImage(wrongParam.data(), 90, anything, info, log) ==
        Error::InvalidImage);
  CHECK(log == "the cubin's parameters of kernel 'small' end at 32 bytes, "
               "but its EIATTR_CBANK_PARAM_SIZE says 40");
}
#endif
