#include "warpsim/ptx/debug_names.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace warpsim::ptx {
namespace {

// DWARF constants (DWARF 2 to 5, the subset nvcc writes).
constexpr std::uint64_t kTagFormalParameter = 0x05;
constexpr std::uint64_t kTagSubprogram = 0x2e;
constexpr std::uint64_t kAtName = 0x03;
constexpr std::uint64_t kAtSpecification = 0x47;
constexpr std::uint64_t kAtLinkageName = 0x6e;
constexpr std::uint64_t kAtMipsLinkageName = 0x2007;

struct Truncated {};  // a read past the end of a section, or a form this reader does not know

const DebugSection* find_section(const Module& module, std::string_view name) {
  for (const DebugSection& s : module.debug_sections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// Little-endian reads with bounds, over one section.
class Reader {
 public:
  Reader(const DebugSection& section, std::size_t at) : section_(section), at_(at) {}

  std::size_t at() const { return at_; }
  bool done(std::size_t end) const { return at_ >= end || at_ >= section_.bytes.size(); }
  void skip(std::uint64_t n) {
    if (n > section_.bytes.size() - at_) throw Truncated{};
    at_ += static_cast<std::size_t>(n);
  }
  std::uint64_t fixed(int bytes) {
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) value |= std::uint64_t{byte()} << (8 * i);
    return value;
  }
  std::uint64_t uleb() {
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t b = byte();
      if (shift < 64) value |= std::uint64_t{b & 0x7fu} << shift;
      if ((b & 0x80) == 0) return value;
    }
  }
  std::string cstring() {
    std::string text;
    for (std::uint8_t b = byte(); b != 0; b = byte()) text += static_cast<char>(b);
    return text;
  }

 private:
  std::uint8_t byte() {
    if (at_ >= section_.bytes.size()) throw Truncated{};
    return section_.bytes[at_++];
  }

  const DebugSection& section_;
  std::size_t at_;
};

struct Abbreviation {
  std::uint64_t tag = 0;
  bool has_children = false;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> attributes;  // (attribute, form)
};

std::unordered_map<std::uint64_t, Abbreviation> read_abbreviations(const DebugSection& section,
                                                                   std::size_t offset) {
  std::unordered_map<std::uint64_t, Abbreviation> table;
  Reader in(section, offset);
  for (std::uint64_t code = in.uleb(); code != 0; code = in.uleb()) {
    Abbreviation& a = table[code];
    a.tag = in.uleb();
    a.has_children = in.fixed(1) != 0;
    for (std::uint64_t at = in.uleb(), form = in.uleb(); at != 0 || form != 0;
         at = in.uleb(), form = in.uleb()) {
      a.attributes.emplace_back(at, form);
    }
  }
  return table;
}

struct Subprogram {
  std::string name;                          // DW_AT_linkage_name, else DW_AT_name (extern "C")
  std::optional<std::size_t> specification;  // offset in .debug_info of the declaration it defines
  std::size_t offset = 0;
  std::vector<std::string> parameters;
};

// Reads .debug_info's units and keeps every subprogram with its formal parameters' names.
class InfoReader {
 public:
  InfoReader(const DebugSection& info, const DebugSection& abbrev, const DebugSection* strings)
      : info_(info), abbrev_(abbrev), strings_(strings) {
    for (const DebugSection::Symbol& s : info.symbols) symbol_at_.emplace(s.offset, &s);
    for (const DebugSection* section : {&abbrev, strings}) {
      if (section == nullptr) continue;
      for (const auto& [label, offset] : section->labels) labels_.emplace(label, offset);
    }
  }

  std::vector<Subprogram> run() {
    Reader in(info_, 0);
    while (!in.done(info_.bytes.size())) read_unit(in);
    return std::move(subprograms_);
  }

 private:
  // A 4-byte offset into another section, which nvcc may write as a label (`$L__info_string3`),
  // or as the section's own name plus an addend (`.debug_abbrev`).
  std::uint64_t section_offset(Reader& in) {
    const std::size_t at = in.at();
    const std::uint64_t number = in.fixed(4);
    const auto symbol = symbol_at_.find(at);
    if (symbol == symbol_at_.end()) return number;
    const auto addend = static_cast<std::uint64_t>(symbol->second->addend);
    const auto label = labels_.find(symbol->second->name);
    return label == labels_.end() ? addend : label->second + addend;
  }

  void read_unit(Reader& in) {
    const std::size_t start = in.at();
    const std::uint64_t length = in.fixed(4);
    if (length >= 0xfffffff0u) throw Truncated{};  // 64-bit DWARF: nvcc does not write it
    const std::size_t end = start + 4 + static_cast<std::size_t>(length);
    const std::uint64_t version = in.fixed(2);
    if (version < 2 || version > 5) throw Truncated{};
    std::uint64_t abbrev_offset = 0;
    if (version == 5) {
      in.fixed(1);  // unit type
      address_size_ = static_cast<int>(in.fixed(1));
      abbrev_offset = section_offset(in);
    } else {
      abbrev_offset = section_offset(in);
      address_size_ = static_cast<int>(in.fixed(1));
    }
    version_ = version;
    const auto abbreviations = read_abbreviations(abbrev_, static_cast<std::size_t>(abbrev_offset));
    std::vector<std::optional<std::size_t>>
        parents;  // per open DIE: its index in subprograms_, if one
    while (!in.done(end)) {
      const std::size_t offset = in.at();
      const std::uint64_t code = in.uleb();
      if (code == 0) {
        if (!parents.empty()) parents.pop_back();
        continue;
      }
      const auto it = abbreviations.find(code);
      if (it == abbreviations.end()) throw Truncated{};
      const Abbreviation& a = it->second;
      Subprogram die;
      die.offset = offset;
      for (const auto& [attribute, form] : a.attributes)
        read_attribute(in, attribute, form, start, die);
      std::optional<std::size_t> self;
      if (a.tag == kTagSubprogram) {
        self = subprograms_.size();
        subprograms_.push_back(std::move(die));
      } else if (a.tag == kTagFormalParameter && !parents.empty() && parents.back()) {
        subprograms_[*parents.back()].parameters.push_back(die.name);
      }
      if (a.has_children) parents.push_back(self);
    }
    in.skip(end > in.at() ? end - in.at() : 0);
  }

  // Reads one attribute's value, keeping names and the specification reference in `die`.
  void read_attribute(Reader& in, std::uint64_t attribute, std::uint64_t form,
                      std::size_t unit_start, Subprogram& die) {
    std::optional<std::string> text;
    std::optional<std::uint64_t> reference;
    // clang-format off
    switch (form) {
      case 0x08: text = in.cstring(); break;                                      // string
      case 0x0e: text = string_at(section_offset(in)); break;                     // strp
      case 0x01: in.skip(static_cast<std::uint64_t>(address_size_)); break;      // addr
      case 0x0b: case 0x0c: case 0x11: in.skip(1); break;                         // data1, flag, ref1
      case 0x05: case 0x12: in.skip(2); break;                                    // data2, ref2
      case 0x06: case 0x17: in.skip(4); break;                                    // data4, sec_offset
      case 0x13: reference = unit_start + in.fixed(4); break;                     // ref4
      case 0x10: reference = in.fixed(version_ == 2 ? address_size_ : 4); break;  // ref_addr
      case 0x07: case 0x14: case 0x20: in.skip(8); break;                         // data8, ref8, ref_sig8
      case 0x0d: case 0x0f: case 0x15: in.uleb(); break;                          // sdata, udata, ref_udata
      case 0x0a: in.skip(in.fixed(1)); break;                                     // block1
      case 0x03: in.skip(in.fixed(2)); break;                                     // block2
      case 0x04: in.skip(in.fixed(4)); break;                                     // block4
      case 0x09: case 0x18: in.skip(in.uleb()); break;                            // block, exprloc
      case 0x19: break;                                                           // flag_present
      case 0x16: return read_attribute(in, attribute, in.uleb(), unit_start, die);  // indirect
      default: throw Truncated{};
    }
    // clang-format on
    if (text && (attribute == kAtLinkageName || attribute == kAtMipsLinkageName)) die.name = *text;
    if (text && attribute == kAtName && die.name.empty()) die.name = *text;
    if (reference && attribute == kAtSpecification)
      die.specification = static_cast<std::size_t>(*reference);
  }

  std::string string_at(std::uint64_t offset) const {
    if (strings_ == nullptr || offset >= strings_->bytes.size()) throw Truncated{};
    Reader in(*strings_, static_cast<std::size_t>(offset));
    return in.cstring();
  }

  const DebugSection& info_;
  const DebugSection& abbrev_;
  const DebugSection* strings_;
  std::unordered_map<std::size_t, const DebugSection::Symbol*> symbol_at_;
  std::unordered_map<std::string, std::size_t> labels_;  // in .debug_abbrev and .debug_str
  std::vector<Subprogram> subprograms_;
  int address_size_ = 8;
  std::uint64_t version_ = 2;
};

}  // namespace

std::vector<std::string> cxx_parameter_names(const Module& module, const std::string& ptx_name,
                                             std::size_t parameter_count) {
  const DebugSection* info = find_section(module, ".debug_info");
  const DebugSection* abbrev = find_section(module, ".debug_abbrev");
  if (info == nullptr || abbrev == nullptr) return {};
  std::vector<Subprogram> subprograms;
  try {
    subprograms = InfoReader(*info, *abbrev, find_section(module, ".debug_str")).run();
  } catch (const Truncated&) {
    return {};  // debug information this reader cannot follow: no C++ names, as for an optimised
                // build
  }
  // A definition may carry its name on the declaration it completes (DW_AT_specification).
  const auto name_of = [&](const Subprogram& s) {
    if (!s.name.empty() || !s.specification) return s.name;
    for (const Subprogram& declaration : subprograms) {
      if (declaration.offset == *s.specification) return declaration.name;
    }
    return std::string();
  };
  for (const Subprogram& s : subprograms) {
    if (name_of(s) == ptx_name && s.parameters.size() == parameter_count) return s.parameters;
  }
  return {};
}

}  // namespace warpsim::ptx
