//===- CodeObjectTestSupport.h - AMDGPU code objects made by hand ---------===//
//
// The least of a gfx90a code object that the HIP stand-in reads: a kernel
// descriptor per kernel (a `<name>.kd` symbol on 64 zero bytes: no LDS,
// waves of 64) and the metadata note (NT_AMDGPU_METADATA, owner "AMDGPU"),
// written from YAML into MessagePack by LLVM's msgpack::Document, or bytes
// given as they are, to make it malformed. Made by hand, not by the AMDGPU
// back end, so that a test can give the metadata any content.
//
//===----------------------------------------------------------------------===//

#ifndef GPU_RUNNER_UNITTESTS_STANDIN_CODEOBJECTTESTSUPPORT_H
#define GPU_RUNNER_UNITTESTS_STANDIN_CODEOBJECTTESTSUPPORT_H

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace gpu_runner {
namespace test {

/// The MessagePack of metadata written as YAML.
inline std::string toMsgPack(const std::string &yaml) {
  llvm::msgpack::Document document;
  REQUIRE(document.fromYAML(yaml));
  std::string blob;
  document.writeToBlob(blob);
  return blob;
}

/// The bytes of `value`, appended to `out`.
template <typename T> void appendBytes(std::string &out, const T &value) {
  out.append(reinterpret_cast<const char *>(&value), sizeof(T));
}

/// `out` padded with zeros to a multiple of `alignment`.
inline void padTo(std::string &out, size_t alignment) {
  out.resize((out.size() + alignment - 1) / alignment * alignment, '\0');
}

/// An ELF note: its header, its name and its description, each padded to
/// 4 bytes.
inline std::string makeNote(const std::string &name, uint32_t type,
                            const std::string &description) {
  std::string note;
  appendBytes<uint32_t>(note, name.size() + 1);
  appendBytes<uint32_t>(note, description.size());
  appendBytes<uint32_t>(note, type);
  note += name + '\0';
  padTo(note, 4);
  note += description;
  padTo(note, 4);
  return note;
}

/// A gfx90a code object with a kernel descriptor for each of `kernels`, and
/// a note section that holds a GNU build id and, unless `metadata` is
/// empty, the metadata note with those bytes.
inline std::string makeCodeObject(const std::vector<std::string> &kernels,
                                  const std::string &metadata) {
  namespace elf = llvm::ELF;
  std::string notes = makeNote("GNU", elf::NT_GNU_BUILD_ID, "12345678");
  if (!metadata.empty())
    notes += makeNote("AMDGPU", elf::NT_AMDGPU_METADATA, metadata);
  std::string symbolNames(1, '\0');
  std::string symbols(sizeof(elf::Elf64_Sym), '\0');
  const uint64_t descriptorsAddress = 0x1000;
  for (size_t i = 0; i < kernels.size(); ++i) {
    elf::Elf64_Sym symbol;
    std::memset(&symbol, 0, sizeof(symbol));
    symbol.st_name = symbolNames.size();
    symbol.setBindingAndType(elf::STB_GLOBAL, elf::STT_OBJECT);
    symbol.st_shndx = 2;
    symbol.st_value = descriptorsAddress + 64 * i;
    symbol.st_size = 64;
    appendBytes(symbols, symbol);
    symbolNames += kernels[i] + ".kd" + '\0';
  }
  const std::string sectionNames =
      std::string("\0.note\0.rodata\0.symtab\0.strtab\0.shstrtab\0", 42);
  // Sections 1 to 5, each at an offset aligned to 8, after the ELF header.
  struct Section {
    uint32_t name, type;
    std::string contents;
    uint64_t address, alignment, entrySize;
    uint32_t link, info;
  };
  std::vector<Section> sections = {
      {1, elf::SHT_NOTE, notes, 0, 4, 0, 0, 0},
      {7, elf::SHT_PROGBITS, std::string(64 * kernels.size(), '\0'),
       descriptorsAddress, 64, 0, 0, 0},
      {15, elf::SHT_SYMTAB, symbols, 0, 8, sizeof(elf::Elf64_Sym), 4, 1},
      {23, elf::SHT_STRTAB, symbolNames, 0, 1, 0, 0, 0},
      {31, elf::SHT_STRTAB, sectionNames, 0, 1, 0, 0, 0},
  };
  std::string image(sizeof(elf::Elf64_Ehdr), '\0');
  std::vector<elf::Elf64_Shdr> headers(1);
  std::memset(headers.data(), 0, sizeof(elf::Elf64_Shdr));
  for (const Section &section : sections) {
    padTo(image, 64);
    elf::Elf64_Shdr header;
    std::memset(&header, 0, sizeof(header));
    header.sh_name = section.name;
    header.sh_type = section.type;
    header.sh_flags =
        section.type == elf::SHT_PROGBITS ? uint64_t(elf::SHF_ALLOC) : 0;
    header.sh_addr = section.address;
    header.sh_offset = image.size();
    header.sh_size = section.contents.size();
    header.sh_link = section.link;
    header.sh_info = section.info;
    header.sh_addralign = section.alignment;
    header.sh_entsize = section.entrySize;
    headers.push_back(header);
    image += section.contents;
  }
  padTo(image, 8);
  elf::Elf64_Ehdr header;
  std::memset(&header, 0, sizeof(header));
  std::memcpy(header.e_ident, elf::ElfMagic, 4);
  header.e_ident[elf::EI_CLASS] = elf::ELFCLASS64;
  header.e_ident[elf::EI_DATA] = elf::ELFDATA2LSB;
  header.e_ident[elf::EI_VERSION] = elf::EV_CURRENT;
  header.e_ident[elf::EI_OSABI] = elf::ELFOSABI_AMDGPU_HSA;
  header.e_ident[elf::EI_ABIVERSION] = elf::ELFABIVERSION_AMDGPU_HSA_V5;
  header.e_type = elf::ET_DYN;
  header.e_machine = elf::EM_AMDGPU;
  header.e_version = elf::EV_CURRENT;
  header.e_flags = elf::EF_AMDGPU_MACH_AMDGCN_GFX90A;
  header.e_ehsize = sizeof(elf::Elf64_Ehdr);
  header.e_shoff = image.size();
  header.e_shentsize = sizeof(elf::Elf64_Shdr);
  header.e_shnum = headers.size();
  header.e_shstrndx = 5;
  std::memcpy(&image[0], &header, sizeof(header));
  for (const elf::Elf64_Shdr &section : headers)
    appendBytes(image, section);
  return image;
}

/// The metadata of a kernel `name` whose arguments are `args`, YAML
/// sequence entries at the indentation of `.args`' items, with the kernarg
/// segment of `segmentBytes`.
inline std::string kernelMetadata(const std::string &name,
                                  const std::string &args,
                                  unsigned segmentBytes) {
  return "  - .name: " + name + "\n    .symbol: " + name +
         ".kd\n    .kernarg_segment_size: " + std::to_string(segmentBytes) +
         "\n    .kernarg_segment_align: 8\n    .wavefront_size: 64\n" +
         (args.empty() ? "" : "    .args:\n" + args);
}

/// Metadata whose amdhsa.kernels are `kernels` (kernelMetadata's).
inline std::string codeObjectMetadata(const std::string &kernels) {
  return toMsgPack("---\namdhsa.version: [ 1, 2 ]\namdhsa.kernels:\n" +
                   kernels + "...\n");
}

} // namespace test
} // namespace gpu_runner

#endif // GPU_RUNNER_UNITTESTS_STANDIN_CODEOBJECTTESTSUPPORT_H
