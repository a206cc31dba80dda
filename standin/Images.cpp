//===- Images.cpp - What a module image holds, read as far as it is cheap -===//

#include "standin/Images.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <regex>

namespace gpu_runner {
namespace standin {
namespace {

using ElfFile = llvm::object::ELF64LEFile;

template <typename T> T readLE(const char *data) {
  T value;
  std::memcpy(&value, data, sizeof(T));
  return value;
}

/// The bytes an ELF file spans, from its headers; 0 if they cannot be read.
uint64_t getElfSize(const char *image, const CanRead &canRead) {
  if (!canRead(image, sizeof(llvm::ELF::Elf64_Ehdr)))
    return 0;
  llvm::ELF::Elf64_Ehdr header;
  std::memcpy(&header, image, sizeof(header));
  if (header.e_ident[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS64 ||
      header.e_ident[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2LSB ||
      header.e_shentsize != sizeof(llvm::ELF::Elf64_Shdr))
    return 0;
  uint64_t end = header.e_shoff + uint64_t(header.e_shnum) * header.e_shentsize;
  if (end < header.e_shoff || !canRead(image, end))
    return 0;
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    llvm::ELF::Elf64_Shdr section;
    std::memcpy(&section, image + header.e_shoff + i * sizeof(section),
                sizeof(section));
    if (section.sh_type == llvm::ELF::SHT_NOBITS)
      continue;
    uint64_t sectionEnd = section.sh_offset + section.sh_size;
    if (sectionEnd < section.sh_offset)
      return 0;
    end = std::max(end, sectionEnd);
  }
  uint64_t programEnd =
      header.e_phoff + uint64_t(header.e_phnum) * header.e_phentsize;
  end = std::max(end, programEnd);
  return canRead(image, end) ? end : 0;
}

/// The contents of the section named `name`, if any.
bool findSection(const ElfFile &file, llvm::StringRef name,
                 llvm::ArrayRef<uint8_t> &contents, uint64_t &size) {
  auto sections = file.sections();
  if (!sections) {
    llvm::consumeError(sections.takeError());
    return false;
  }
  for (const auto &section : *sections) {
    auto sectionName = file.getSectionName(section);
    if (!sectionName) {
      llvm::consumeError(sectionName.takeError());
      continue;
    }
    if (*sectionName != name)
      continue;
    size = section.sh_size;
    if (section.sh_type == llvm::ELF::SHT_NOBITS)
      return true;
    auto data = file.getSectionContents(section);
    if (!data) {
      llvm::consumeError(data.takeError());
      return false;
    }
    contents = *data;
    return true;
  }
  return false;
}

/// Calls `visit(symbol, name)` for each symbol of the symbol table.
template <typename Visit> bool forEachSymbol(const ElfFile &file, Visit visit) {
  auto sections = file.sections();
  if (!sections) {
    llvm::consumeError(sections.takeError());
    return false;
  }
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto symbols = file.symbols(&section);
    auto strings = file.getStringTableForSymtab(section);
    if (!symbols || !strings) {
      llvm::consumeError(symbols.takeError());
      llvm::consumeError(strings.takeError());
      return false;
    }
    for (const auto &symbol : *symbols) {
      auto name = symbol.getName(*strings);
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      visit(symbol, *name);
    }
  }
  return true;
}

/// The parameters a cubin's `.nv.info.<kernel>` section lists, as cuobjdump
/// -elf prints its records: a format byte, an attribute byte and a 16-bit
/// field, which is unused (format 1, e.g. EIATTR_WMMA_USED, 0x2b), the value
/// (2 and 3), or the size of the bytes that follow (4); records stay 4-byte
/// aligned. A parameter is an EIATTR_KPARAM_INFO record (attribute 0x17:
/// its ordinal and offset, 16 bits each, at bytes 4 and 6, its size in bits
/// 18-31 of the last word) or, in newer toolkits' output (kernels whose
/// parameters take more than 4 KiB), an EIATTR_KPARAM_INFO_V2 record (0x45:
/// ordinal, offset and size, 16 bits each, at bytes 4, 6 and 8). The
/// parameter buffer's size is EIATTR_CBANK_PARAM_SIZE (0x19) and the size
/// in EIATTR_PARAM_CBANK (0x0a: bank symbol, then offset and size, 16 bits
/// each): both must be where the last parameter ends. Fails, saying why in
/// `log`, when the records disagree.
bool readCubinParams(llvm::ArrayRef<uint8_t> info, KernelInfo &kernel,
                     std::string &log) {
  struct Param {
    uint32_t offset, size;
  };
  std::map<uint16_t, Param> byOrdinal;
  int64_t cbankParamSize = -1, paramCbankSize = -1;
  size_t at = 0;
  auto add = [&](uint16_t ordinal, Param param, const char *record) {
    auto [it, added] = byOrdinal.insert({ordinal, param});
    if (!added &&
        (it->second.offset != param.offset || it->second.size != param.size)) {
      log = "the cubin's " + std::string(record) + " record of parameter " +
            std::to_string(ordinal) + " of kernel '" + kernel.name +
            "' disagrees with another record of it";
      return false;
    }
    return true;
  };
  while (at + 2 <= info.size()) {
    uint8_t format = info[at], attribute = info[at + 1];
    if (format == 1) {
      at += 4;
      continue;
    }
    if (format == 2 || format == 3) {
      if (at + 4 > info.size())
        break;
      if (attribute == 0x19)
        cbankParamSize =
            readLE<uint16_t>(reinterpret_cast<const char *>(&info[at + 2]));
      at += 4;
      continue;
    }
    if (format != 4 || at + 4 > info.size()) {
      log = "the cubin's .nv.info." + kernel.name + " cannot be read";
      return false;
    }
    uint16_t size =
        readLE<uint16_t>(reinterpret_cast<const char *>(&info[at + 2]));
    if (at + 4 + size > info.size()) {
      log = "the cubin's .nv.info." + kernel.name + " is truncated";
      return false;
    }
    const char *value = reinterpret_cast<const char *>(&info[at + 4]);
    if (attribute == 0x17 && size == 12) {
      uint32_t word = readLE<uint32_t>(value + 8);
      if (!add(readLE<uint16_t>(value + 4),
               {readLE<uint16_t>(value + 6), (word >> 18) & 0x3fff},
               "EIATTR_KPARAM_INFO"))
        return false;
    } else if (attribute == 0x45 && size == 12) {
      if (!add(readLE<uint16_t>(value + 4),
               {readLE<uint16_t>(value + 6), readLE<uint16_t>(value + 8)},
               "EIATTR_KPARAM_INFO_V2"))
        return false;
    } else if (attribute == 0x0a && size == 8) {
      paramCbankSize = readLE<uint16_t>(value + 6);
    }
    at += 4 + size;
  }
  kernel.paramSizes.clear();
  kernel.paramOffsets.clear();
  uint64_t end = 0;
  for (const auto &[ordinal, param] : byOrdinal) {
    if (ordinal != kernel.paramSizes.size()) {
      log = "the cubin lists no parameter " +
            std::to_string(kernel.paramSizes.size()) + " of kernel '" +
            kernel.name + "', but a parameter " + std::to_string(ordinal);
      return false;
    }
    kernel.paramSizes.push_back(param.size);
    kernel.paramOffsets.push_back(param.offset);
    end = std::max<uint64_t>(end, uint64_t(param.offset) + param.size);
  }
  for (auto [name, recorded] : {std::pair<const char *, int64_t>{
                                    "EIATTR_CBANK_PARAM_SIZE", cbankParamSize},
                                {"EIATTR_PARAM_CBANK", paramCbankSize}}) {
    if (recorded >= 0 && uint64_t(recorded) != end) {
      log = "the cubin's parameters of kernel '" + kernel.name + "' end at " +
            std::to_string(end) + " bytes, but its " + name + " says " +
            std::to_string(recorded);
      return false;
    }
  }
  kernel.paramsKnown = true;
  return true;
}

/// Whether code for `target` runs on a device of `arch` (CUDA C++
/// Programming Guide, "Binary Compatibility" and "Feature Availability"): a
/// cubin for sm_XY on the same major version with a minor of Y or more, PTX
/// (which the driver compiles) on any chip not older; code for an
/// architecture-specific target (sm_90a) on that chip alone.
bool runsOn(int target, bool archSpecific, bool isPtx, int arch) {
  if (archSpecific)
    return target == arch;
  if (isPtx)
    return target <= arch;
  return target / 10 == arch / 10 && target <= arch;
}

std::string describeChip(int target, bool archSpecific) {
  return "sm_" + std::to_string(target) + (archSpecific ? "a" : "");
}

/// The chip a cubin is for, from its ELF header as LLVM's ELFObjectFile
/// reads it: with ELF ABI version 7, e_flags' low byte, 0x800 marking sm_90a;
/// with version 8, bits 8-15, 0x8 marking the architecture-specific
/// variants.
template <typename File>
void getCubinChip(const File &file, int &target, bool &archSpecific) {
  const auto &header = file.getHeader();
  uint32_t flags = header.e_flags;
  if (header.e_ident[llvm::ELF::EI_ABIVERSION] ==
      llvm::ELF::ELFABIVERSION_CUDA_V1) {
    target = flags & llvm::ELF::EF_CUDA_SM;
    archSpecific = flags & llvm::ELF::EF_CUDA_ACCELERATORS_V1;
  } else {
    target =
        (flags & llvm::ELF::EF_CUDA_SM_MASK) >> llvm::ELF::EF_CUDA_SM_OFFSET;
    archSpecific = flags & llvm::ELF::EF_CUDA_ACCELERATORS;
  }
}

Error readCubin(const char *data, uint64_t size, int arch, ImageInfo &info,
                std::string &log) {
  auto file = ElfFile::create(llvm::StringRef(data, size));
  if (!file) {
    log = "the cubin is not a valid ELF file: " +
          llvm::toString(file.takeError());
    return Error::InvalidImage;
  }
  if (file->getHeader().e_machine != llvm::ELF::EM_CUDA) {
    log = "the ELF file is not a cubin (its machine is not EM_CUDA)";
    return Error::InvalidImage;
  }
  int target = 0;
  bool archSpecific = false;
  getCubinChip(*file, target, archSpecific);
  if (!runsOn(target, archSpecific, false, arch)) {
    log = "the cubin is for " + describeChip(target, archSpecific) +
          ", which does not run on the device's sm_" + std::to_string(arch);
    return Error::NoBinaryForGpu;
  }
  std::vector<KernelInfo> kernels;
  std::string paramsLog;
  bool ok = forEachSymbol(*file, [&](const auto &symbol, llvm::StringRef name) {
    // Kernels are the `.entry` functions, which ptxas marks STO_CUDA_ENTRY
    // (0x10) in st_other; a `.func` is none, nor is an `.extern .func` such
    // as `vprintf`, which the cubin lists undefined.
    if (symbol.getType() != llvm::ELF::STT_FUNC ||
        symbol.getBinding() != llvm::ELF::STB_GLOBAL ||
        symbol.st_shndx == llvm::ELF::SHN_UNDEF || !(symbol.st_other & 0x10))
      return;
    KernelInfo kernel;
    kernel.name = name.str();
    llvm::ArrayRef<uint8_t> contents;
    uint64_t sectionSize = 0;
    if (findSection(*file, (".nv.info." + name).str(), contents, sectionSize) &&
        !readCubinParams(contents, kernel, paramsLog))
      return;
    if (findSection(*file, (".nv.shared." + name).str(), contents, sectionSize))
      kernel.sharedBytes = sectionSize;
    kernels.push_back(std::move(kernel));
  });
  if (!ok) {
    log = "the cubin's symbol table cannot be read";
    return Error::InvalidImage;
  }
  if (!paramsLog.empty()) {
    log = paramsLog;
    return Error::InvalidImage;
  }
  info.kernels = std::move(kernels);
  info.namesKnown = true;
  return Error::Success;
}

Error readPtxImage(const std::string &text, int arch, ImageInfo &info,
                   std::string &log) {
  int target = 0;
  if (!readPtx(text, target, info.kernels)) {
    log = "the PTX has no .version directive";
    return Error::InvalidImage;
  }
  // PTX is compiled for the device when it is loaded; code for a newer
  // chip than the device's cannot be, nor code for an architecture-specific
  // target (`.target sm_90a`) on another chip.
  static const auto &specific = *new std::regex(R"(\.target\s+sm_\d+a\b)");
  bool archSpecific = std::regex_search(text, specific);
  if (target > arch) {
    log = "ptxas: the PTX targets sm_" + std::to_string(target) +
          ", newer than the device's sm_" + std::to_string(arch);
    return Error::InvalidPtx;
  }
  if (!runsOn(target, archSpecific, true, arch)) {
    log = "ptxas: the PTX targets " + describeChip(target, archSpecific) +
          ", whose architecture-specific features only that chip has, not "
          "the device's sm_" +
          std::to_string(arch);
    return Error::InvalidPtx;
  }
  info.namesKnown = true;
  return Error::Success;
}

/// The fatbin container: a 16-byte header (magic 0xBA55ED50, version,
/// header size, size of the entries), then entries, each a header (kind 1
/// for PTX, 2 for ELF; its own size; the payload's padded size; the chip at
/// offset 28; flags at offset 40, where 0x2000 and 0x8000 mark compressed
/// payloads) followed by its payload.
Error readFatbin(const char *image, int arch, const CanRead &canRead,
                 ImageInfo &info, std::string &log) {
  if (!canRead(image, 16)) {
    log = "the fatbin header cannot be read";
    return Error::InvalidImage;
  }
  uint16_t headerSize = readLE<uint16_t>(image + 6);
  uint64_t entriesSize = readLE<uint64_t>(image + 8);
  if (readLE<uint16_t>(image + 4) != 1 || headerSize < 16 ||
      entriesSize > (uint64_t(1) << 40) ||
      !canRead(image, headerSize + entriesSize)) {
    log = "the fatbin header is not one the driver reads";
    return Error::InvalidImage;
  }
  info.format = "fatbin";
  const char *entry = image + headerSize;
  const char *end = entry + entriesSize;
  // The best entry: a cubin for this chip (the same major version, a minor
  // one not newer: CUDA C++ Programming Guide, "Binary Compatibility"),
  // else PTX for a chip not newer than the device's.
  const char *bestCubin = nullptr, *bestPtx = nullptr;
  int bestCubinArch = -1, bestPtxArch = -1;
  uint64_t bestCubinSize = 0, bestPtxSize = 0;
  bool bestCubinCompressed = false, bestPtxCompressed = false;
  std::string found;
  while (entry < end) {
    if (end - entry < 48) {
      log = "a fatbin entry is truncated";
      return Error::InvalidImage;
    }
    uint16_t kind = readLE<uint16_t>(entry);
    uint32_t entryHeaderSize = readLE<uint32_t>(entry + 4);
    uint64_t payloadSize = readLE<uint64_t>(entry + 8);
    uint32_t entryArch = readLE<uint32_t>(entry + 28);
    uint64_t flags = readLE<uint64_t>(entry + 40);
    if (entryHeaderSize < 48 || entryHeaderSize > uint64_t(end - entry) ||
        payloadSize > uint64_t(end - entry) - entryHeaderSize) {
      log = "a fatbin entry runs past the end of the fatbin";
      return Error::InvalidImage;
    }
    const char *payload = entry + entryHeaderSize;
    bool compressed = (flags & (0x2000 | 0x8000)) != 0;
    found += std::string(found.empty() ? "" : ", ") +
             (kind == 1 ? "PTX for sm_" : "sm_") + std::to_string(entryArch);
    int a = static_cast<int>(entryArch);
    if (kind == 2 && runsOn(a, false, false, arch) && a > bestCubinArch) {
      bestCubin = payload;
      bestCubinArch = a;
      bestCubinSize = payloadSize;
      bestCubinCompressed = compressed;
    }
    if (kind == 1 && a <= arch && a > bestPtxArch) {
      bestPtx = payload;
      bestPtxArch = a;
      bestPtxSize = payloadSize;
      bestPtxCompressed = compressed;
    }
    entry = payload + payloadSize;
  }
  if (!bestCubin && !bestPtx) {
    log = "the fatbin has code for " + (found.empty() ? "no chip" : found) +
          ", none of it for the device's sm_" + std::to_string(arch);
    return Error::NoBinaryForGpu;
  }
  if (bestCubin ? bestCubinCompressed : bestPtxCompressed)
    return Error::Success; // any kernel name will do
  if (bestCubin)
    return readCubin(bestCubin, bestCubinSize, arch, info, log);
  std::string text(bestPtx, strnlen(bestPtx, bestPtxSize));
  return readPtxImage(text, arch, info, log);
}

/// AMDGPU chips by the EF_AMDGPU_MACH value of their code objects.
const std::map<std::string, unsigned> &getAmdgpuMachines() {
  static const auto *machines = new std::map<std::string, unsigned>{
      {"gfx900", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX900},
      {"gfx906", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX906},
      {"gfx908", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX908},
      {"gfx90a", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX90A},
      {"gfx942", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX942},
      {"gfx950", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX950},
      {"gfx1030", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1030},
      {"gfx1100", llvm::ELF::EF_AMDGPU_MACH_AMDGCN_GFX1100},
  };
  return *machines;
}

std::string getAmdgpuChip(unsigned machine) {
  for (const auto &[chip, value] : getAmdgpuMachines())
    if (value == machine)
      return chip;
  return "machine " + std::to_string(machine);
}

using llvm::msgpack::DocNode;
using llvm::msgpack::MapDocNode;

/// The value of `key` in `map`, or null.
DocNode *findKey(MapDocNode &map, llvm::StringRef key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

/// The unsigned integer `key` of `map`, which `where` names: a MessagePack
/// uint, or an int that is not negative (writers may use either). Fails,
/// saying why in `log`, when it is absent or something else.
bool getUnsigned(MapDocNode &map, llvm::StringRef key, const std::string &where,
                 uint64_t &value, std::string &log) {
  DocNode *node = findKey(map, key);
  if (node && node->getKind() == llvm::msgpack::Type::UInt) {
    value = node->getUInt();
    return true;
  }
  if (node && node->getKind() == llvm::msgpack::Type::Int &&
      node->getInt() >= 0) {
    value = static_cast<uint64_t>(node->getInt());
    return true;
  }
  log = node ? key.str() + " of " + where + " is not an unsigned integer"
             : where + " has no " + key.str();
  return false;
}

/// The explicit arguments of `kernel` from its entry of the metadata's
/// ".args", each a map ("AMDHSA Code Object V3 Kernel Argument Metadata
/// Map") whose ".size", ".offset" and ".value_kind" are required. An
/// argument whose value kind starts with "hidden_" is one the runtime fills
/// in after the explicit ones (V5 adds kinds: "Code Object V5 Metadata"),
/// which the kernel's IR reads through `implicitarg.ptr`, not a parameter.
/// Every argument lies in the kernarg segment; the explicit ones come in
/// order and do not overlap, as the IR's parameters are laid out.
bool readKernelArgs(DocNode *args, uint64_t segment, const std::string &where,
                    KernelInfo &kernel, std::string &log) {
  kernel.paramSizes.clear();
  kernel.paramOffsets.clear();
  // ".args" is not required: a kernel without it has no arguments.
  if (!args)
    return true;
  if (!args->isArray()) {
    log = ".args of " + where + " is not an array";
    return false;
  }
  size_t index = 0;
  for (DocNode &arg : args->getArray()) {
    std::string at = "argument " + std::to_string(index++) + " of " + where;
    if (!arg.isMap()) {
      log = at + " is not a map";
      return false;
    }
    uint64_t size = 0, offset = 0;
    if (!getUnsigned(arg.getMap(), ".size", at, size, log) ||
        !getUnsigned(arg.getMap(), ".offset", at, offset, log))
      return false;
    DocNode *kind = findKey(arg.getMap(), ".value_kind");
    if (!kind || !kind->isString()) {
      log = kind ? ".value_kind of " + at + " is not a string"
                 : at + " has no .value_kind";
      return false;
    }
    std::string placed = " (offset " + std::to_string(offset) + ", " +
                         std::to_string(size) + " bytes)";
    if (size > segment || offset > segment - size) {
      log = at + placed + " ends past the kernarg segment's " +
            std::to_string(segment) + " bytes (.kernarg_segment_size)";
      return false;
    }
    if (kind->getString().starts_with("hidden_"))
      continue;
    if (!kernel.paramOffsets.empty()) {
      uint64_t lastOffset = kernel.paramOffsets.back();
      uint64_t lastSize = kernel.paramSizes.back();
      if (offset < lastOffset + lastSize) {
        log = at + placed +
              (offset < lastOffset ? " comes before" : " overlaps") +
              " the explicit argument before it (offset " +
              std::to_string(lastOffset) + ", " + std::to_string(lastSize) +
              " bytes)";
        return false;
      }
    }
    kernel.paramSizes.push_back(static_cast<uint32_t>(size));
    kernel.paramOffsets.push_back(static_cast<uint32_t>(offset));
  }
  return true;
}

/// The parameters of `kernels` from the code object's metadata (AMDGPUUsage,
/// "Code Object V3 Metadata"; V4's and V5's keep the keys read here): a
/// MessagePack map whose "amdhsa.kernels" holds a map per kernel ("AMDHSA
/// Code Object V3 Kernel Metadata Map": ".name", ".symbol", the kernel
/// descriptor's symbol, ".kernarg_segment_size", ".args"). Fails, saying
/// what is wrong in `log`, when the metadata is not of that form or names a
/// kernel the symbol table lacks.
bool readAmdgpuMetadata(llvm::StringRef blob, std::vector<KernelInfo> &kernels,
                        std::string &log) {
  const std::string metadata = "the code object's metadata";
  llvm::msgpack::Document document;
  // The merger is called for a key its map already has, and refuses it.
  std::string repeated;
  if (!document.readFromBlob(blob, /*Multi=*/false,
                             [&](DocNode *, DocNode, DocNode key) {
                               repeated = key.toString();
                               return -1;
                             })) {
    log = repeated.empty()
              ? metadata + " note is not valid MessagePack"
              : metadata + " has the key '" + repeated + "' twice in a map";
    return false;
  }
  DocNode &root = document.getRoot();
  if (!root.isMap()) {
    log = metadata + " is not a MessagePack map";
    return false;
  }
  DocNode *list = findKey(root.getMap(), "amdhsa.kernels");
  if (!list || !list->isArray()) {
    log = list ? "amdhsa.kernels of " + metadata + " is not an array"
               : metadata + " has no amdhsa.kernels";
    return false;
  }
  size_t index = 0;
  for (DocNode &entry : list->getArray()) {
    std::string where =
        "amdhsa.kernels[" + std::to_string(index++) + "] of " + metadata;
    if (!entry.isMap()) {
      log = where + " is not a map";
      return false;
    }
    MapDocNode &map = entry.getMap();
    // The kernel is the one whose descriptor .symbol names; .name, which
    // LLVM makes the same, stands in where .symbol is absent.
    std::string name;
    if (DocNode *symbol = findKey(map, ".symbol")) {
      if (!symbol->isString() || !symbol->getString().ends_with(".kd")) {
        log = ".symbol of " + where +
              " is not a kernel descriptor's name (a string that ends with "
              ".kd)";
        return false;
      }
      name = symbol->getString().drop_back(3).str();
    } else if (DocNode *source = findKey(map, ".name")) {
      if (!source->isString()) {
        log = ".name of " + where + " is not a string";
        return false;
      }
      name = source->getString().str();
    } else {
      log = where + " has neither .symbol nor .name";
      return false;
    }
    auto kernel = std::find_if(
        kernels.begin(), kernels.end(),
        [&](const KernelInfo &known) { return known.name == name; });
    if (kernel == kernels.end()) {
      log = metadata + " describes kernel '" + name +
            "', whose descriptor the symbol table lacks (no " + name + ".kd)";
      return false;
    }
    if (kernel->paramsKnown) {
      log = metadata + " describes kernel '" + name + "' twice";
      return false;
    }
    where = "kernel '" + name + "' in " + metadata;
    uint64_t segment = 0;
    if (!getUnsigned(map, ".kernarg_segment_size", where, segment, log))
      return false;
    if (segment > UINT32_MAX) {
      log = ".kernarg_segment_size of " + where + ", " +
            std::to_string(segment) +
            " bytes, is more than the stand-in reads (4 GiB)";
      return false;
    }
    if (!readKernelArgs(findKey(map, ".args"), segment, where, *kernel, log))
      return false;
    kernel->paramsKnown = true;
  }
  return true;
}

/// A code object: kernels are the symbols with a kernel descriptor
/// (`<name>.kd`), whose first word is the group segment size; their
/// parameters are in the metadata note, where it has one.
Error readCodeObject(const char *data, uint64_t size, const std::string &chip,
                     ImageInfo &info, std::string &log) {
  auto file = ElfFile::create(llvm::StringRef(data, size));
  if (!file) {
    log = "the code object is not a valid ELF file: " +
          llvm::toString(file.takeError());
    return Error::InvalidImage;
  }
  if (file->getHeader().e_machine != llvm::ELF::EM_AMDGPU) {
    log = "the ELF file is not an AMDGPU code object";
    return Error::InvalidImage;
  }
  unsigned machine = file->getHeader().e_flags & llvm::ELF::EF_AMDGPU_MACH;
  auto expected = getAmdgpuMachines().find(chip);
  if (expected == getAmdgpuMachines().end() || expected->second != machine) {
    log = "the code object is for " + getAmdgpuChip(machine) +
          ", not the device's " + chip;
    return Error::NoBinaryForGpu;
  }
  auto sections = file->sections();
  if (!sections) {
    log = llvm::toString(sections.takeError());
    return Error::InvalidImage;
  }
  std::vector<KernelInfo> kernels;
  bool ok = forEachSymbol(*file, [&](const auto &symbol, llvm::StringRef name) {
    if (!name.ends_with(".kd"))
      return;
    // The kernel descriptor (AMDGPUUsage, "Kernel Descriptor"): its
    // group_segment_fixed_size and kernel_code_properties.
    KernelInfo kernel;
    kernel.name = name.drop_back(3).str();
    kernel.waveSize = 64;
    if (symbol.st_shndx < sections->size()) {
      const auto &section = (*sections)[symbol.st_shndx];
      auto contents = file->getSectionContents(section);
      uint64_t offset = symbol.st_value - section.sh_addr;
      if (contents && offset + sizeof(llvm::amdhsa::kernel_descriptor_t) <=
                          contents->size()) {
        const char *descriptor =
            reinterpret_cast<const char *>(contents->data() + offset);
        kernel.sharedBytes = readLE<uint32_t>(descriptor);
        auto properties = readLE<uint16_t>(
            descriptor + llvm::amdhsa::KERNEL_CODE_PROPERTIES_OFFSET);
        if (properties &
            llvm::amdhsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32)
          kernel.waveSize = 32;
      } else if (!contents) {
        llvm::consumeError(contents.takeError());
      }
    }
    kernels.push_back(std::move(kernel));
  });
  if (!ok) {
    log = "the code object's symbol table cannot be read";
    return Error::InvalidImage;
  }
  // The metadata is the note of type NT_AMDGPU_METADATA whose name is
  // "AMDGPU" (AMDGPUUsage, "Code Object V3 and Above Note Records"). A code
  // object without one (V2's notes are another format) keeps its kernels'
  // parameters unknown.
  std::optional<llvm::StringRef> metadata;
  bool twice = false;
  for (const auto &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_NOTE)
      continue;
    llvm::Error error = llvm::Error::success();
    for (const auto &note : file->notes(section, error)) {
      if (note.getName() != "AMDGPU" ||
          note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      twice |= metadata.has_value();
      metadata =
          note.getDescAsStringRef(std::max<size_t>(section.sh_addralign, 4));
    }
    if (error) {
      log = "the code object's notes cannot be read: " +
            llvm::toString(std::move(error));
      return Error::InvalidImage;
    }
  }
  if (twice) {
    log = "the code object has two metadata notes (NT_AMDGPU_METADATA)";
    return Error::InvalidImage;
  }
  if (metadata && !readAmdgpuMetadata(*metadata, kernels, log))
    return Error::InvalidImage;
  info.kernels = std::move(kernels);
  info.namesKnown = true;
  return Error::Success;
}

/// clang's offload bundle: "__CLANG_OFFLOAD_BUNDLE__", a count, then per
/// entry its offset, size, and target id ("hipv4-amdgcn-amd-amdhsa--gfx90a").
Error readOffloadBundle(const char *image, const std::string &chip,
                        const CanRead &canRead, ImageInfo &info,
                        std::string &log) {
  info.format = "offload bundle";
  if (!canRead(image, 32)) {
    log = "the offload bundle header cannot be read";
    return Error::InvalidImage;
  }
  uint64_t count = readLE<uint64_t>(image + 24);
  const char *at = image + 32;
  std::string targets;
  for (uint64_t i = 0; i < count; ++i) {
    if (!canRead(at, 24)) {
      log = "the offload bundle's entries cannot be read";
      return Error::InvalidImage;
    }
    uint64_t offset = readLE<uint64_t>(at);
    uint64_t size = readLE<uint64_t>(at + 8);
    uint64_t idSize = readLE<uint64_t>(at + 16);
    if (idSize > 4096 || !canRead(at + 24, idSize) ||
        !canRead(image, offset + size)) {
      log = "an offload bundle entry runs past what can be read";
      return Error::InvalidImage;
    }
    std::string id(at + 24, idSize);
    at += 24 + idSize;
    targets += (targets.empty() ? "" : ", ") + id;
    // The target id ends with the chip, then its features: gfx90a:xnack-.
    size_t dashes = id.rfind("--");
    std::string target =
        dashes == std::string::npos ? "" : id.substr(dashes + 2);
    if (target.substr(0, target.find(':')) == chip &&
        id.compare(0, 6, "hipv4-") == 0)
      return readCodeObject(image + offset, size, chip, info, log);
  }
  log = "the offload bundle has " +
        (targets.empty() ? std::string("no entries") : targets) +
        ", none for the device's " + chip;
  return Error::NoBinaryForGpu;
}

} // namespace

const KernelInfo *ImageInfo::find(const std::string &name) const {
  for (const KernelInfo &kernel : kernels)
    if (kernel.name == name)
      return &kernel;
  return nullptr;
}

bool readPtx(const std::string &text, int &targetArch,
             std::vector<KernelInfo> &kernels) {
  if (text.find(".version") == std::string::npos)
    return false;
  targetArch = 0;
  static const auto &target = *new std::regex(R"(\.target\s+sm_(\d+))");
  std::smatch match;
  if (std::regex_search(text, match, target))
    targetArch = std::stoi(match[1]);
  // `.entry name ( .param .u64 a, .param .align 8 .b8 b[16] )`
  static const auto &entry =
      *new std::regex(R"(\.entry\s+([A-Za-z_$%][\w$%]*)\s*\(([^)]*)\))");
  static const auto &param = *new std::regex(
      R"(\.param\s+(?:\.align\s+\d+\s+)?\.[a-z]+?(\d+)\b[^,\[]*?(?:\[(\d+)\])?\s*(?:,|$))");
  kernels.clear();
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry);
       it != std::sregex_iterator(); ++it) {
    KernelInfo kernel;
    kernel.name = (*it)[1];
    kernel.paramsKnown = true;
    std::string params = (*it)[2];
    for (auto p = std::sregex_iterator(params.begin(), params.end(), param);
         p != std::sregex_iterator(); ++p) {
      uint32_t bits = std::stoul((*p)[1]);
      uint32_t count = (*p)[2].matched ? std::stoul((*p)[2]) : 1;
      kernel.paramSizes.push_back(bits / 8 * count);
    }
    kernels.push_back(std::move(kernel));
  }
  return true;
}

Error readCudaImage(const void *image, int arch, const CanRead &canRead,
                    ImageInfo &info, std::string &log) {
  info = ImageInfo();
  const char *data = static_cast<const char *>(image);
  if (!image || !canRead(image, 4)) {
    log = "the image cannot be read";
    return Error::InvalidValue;
  }
  if (readLE<uint32_t>(data) == 0xBA55ED50)
    return readFatbin(data, arch, canRead, info, log);
  if (std::memcmp(data,
                  "\x7f"
                  "ELF",
                  4) == 0) {
    info.format = "cubin";
    uint64_t size = getElfSize(data, canRead);
    if (!size) {
      log = "the cubin's headers cannot be read";
      return Error::InvalidImage;
    }
    return readCubin(data, size, arch, info, log);
  }
  // PTX: text up to its NUL, which must be readable.
  info.format = "PTX";
  std::string text;
  for (const char *c = data;; ++c) {
    if (!canRead(c, 1)) {
      log = "the image is neither a fatbin, a cubin nor NUL-terminated PTX";
      return Error::InvalidImage;
    }
    if (!*c)
      break;
    text += *c;
  }
  if (text.find(".version") == std::string::npos) {
    log = "the image is neither a fatbin, a cubin nor PTX";
    return Error::InvalidImage;
  }
  return readPtxImage(text, arch, info, log);
}

Error readAmdgpuImage(const void *image, const std::string &chip,
                      const CanRead &canRead, ImageInfo &info,
                      std::string &log) {
  info = ImageInfo();
  const char *data = static_cast<const char *>(image);
  if (!image || !canRead(image, 24)) {
    log = "the image cannot be read";
    return Error::InvalidValue;
  }
  if (std::memcmp(data, "__CLANG_OFFLOAD_BUNDLE__", 24) == 0)
    return readOffloadBundle(data, chip, canRead, info, log);
  if (std::memcmp(data,
                  "\x7f"
                  "ELF",
                  4) != 0) {
    log = "the image is neither an AMDGPU code object nor an offload bundle";
    return Error::InvalidImage;
  }
  info.format = "code object";
  uint64_t size = getElfSize(data, canRead);
  if (!size) {
    log = "the code object's headers cannot be read";
    return Error::InvalidImage;
  }
  return readCodeObject(data, size, chip, info, log);
}

} // namespace standin
} // namespace gpu_runner
