// read_listing: nvdisasm's `-c -hex -g` text, one line at a time. What each line can be:
//   .target sm_80                          the architecture
//   .section .text.NAME,"ax",@progbits     a function starts (other sections: none with -c)
//   .sectioninfo @"SHI_REGISTERS=32"       its register count
//   //## File "k.cu", line 25 ...          the source line of the instructions after it (-g)
//   NAME: / .L_x_3:                        a label of the next instruction
//   /*0090*/ @P0 EXIT ; /* 0x... */        an instruction and its first word, then a line
//   /* 0x000fea0003800000 */               with its second word
// other directives (.align, .type, ...) and comments are skipped; anything else is an error.
#include <charconv>
#include <optional>

#include "operands.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/sass/listing.hpp"

namespace warpsim::sass {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::optional<std::uint64_t> hex(std::string_view digits, std::size_t max_digits) {
  std::uint64_t value = 0;
  if (digits.empty() || digits.size() > max_digits) return std::nullopt;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Listing read() {
    while (next_line()) read_line();
    if (listing_.functions.empty()) fail(line_number_ == 0 ? 1 : line_number_, "no SASS function in the listing (expected `nvdisasm -c -hex -g` output)");
    return std::move(listing_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const { throw InputError(SourceLocation{file_, line, 0}, what); }
  [[noreturn]] void fail(const std::string& what) const { fail(line_number_, what); }

  bool next_line() {
    if (at_ >= text_.size()) return false;
    const std::size_t end = std::min(text_.find('\n', at_), text_.size());
    line_ = trim(text_.substr(at_, end - at_));
    at_ = end + 1;
    ++line_number_;
    return true;
  }

  void read_line() {
    if (line_.empty()) return;
    if (line_.find('\0') != std::string_view::npos) fail("not text: a NUL byte");
    if (starts_with(line_, "/*")) return read_instruction();
    if (starts_with(line_, "//## File ")) return read_file_marker();
    if (starts_with(line_, "//")) return;
    if (starts_with(line_, ".target")) {
      listing_.arch = std::string(trim(line_.substr(7)));
      return;
    }
    if (starts_with(line_, ".sectioninfo")) return read_section_info();
    if (starts_with(line_, ".section")) return read_section();
    if (line_.back() == ':' && line_.find_first_of(" \t") == std::string_view::npos) return read_label();
    if (line_.front() == '.' && line_.size() > 1 && line_.find_first_of(" \t") != std::string_view::npos) return;  // .align, .type ...
    fail("unexpected text " + quote_for_message(line_));
  }

  void read_section() {
    const std::string_view rest = trim(line_.substr(8));
    const std::string_view name = rest.substr(0, rest.find(','));
    function_ = nullptr;
    if (!starts_with(name, ".text.")) return;
    const std::string function(name.substr(6));
    if (function.empty()) fail("a .text section without a function name");
    if (listing_.find(function) != nullptr) fail("function " + quote_for_message(function) + " appears twice");
    function_ = &listing_.functions.emplace_back();
    function_->name = function;
    source_line_ = 0;
  }

  void read_section_info() {
    const std::string_view key = "SHI_REGISTERS=";
    const std::size_t at = line_.find(key);
    if (at == std::string_view::npos || function_ == nullptr) return;
    const std::string_view digits = line_.substr(at + key.size(), line_.find('"', at) - at - key.size());
    int registers = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), registers);
    if (error != std::errc() || end != digits.data() + digits.size() || registers < 0 || registers > 255) {
      fail("bad register count " + quote_for_message(digits));
    }
    function_->registers = registers;
  }

  // //## File "NAME", line N[, inlined at ...]: only the first line number counts.
  void read_file_marker() {
    const std::size_t open = line_.find('"');
    const std::size_t close = open == std::string_view::npos ? open : line_.find('"', open + 1);
    if (close == std::string_view::npos) fail("unterminated file name in " + quote_for_message(line_));
    const std::string_view rest = line_.substr(close + 1);
    if (!starts_with(rest, ", line ")) fail("no line number in " + quote_for_message(line_));
    const std::string_view digits = rest.substr(7, rest.find_first_not_of("0123456789", 7) - 7);
    std::uint32_t line = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), line);
    if (error != std::errc() || digits.empty()) fail("bad line number in " + quote_for_message(line_));
    if (function_ == nullptr) fail("a line marker outside a function");
    source_line_ = line;
  }

  void read_label() {
    if (function_ == nullptr) return;  // the SYMBOLS part has none; a label before a function names nothing
    const std::string name(line_.substr(0, line_.size() - 1));
    if (!function_->labels.emplace(name, function_->code.size()).second) fail("label " + quote_for_message(name) + " appears twice");
  }

  // "/* 0x0123456789abcdef */": the word, or nullopt.
  static std::optional<std::uint64_t> word(std::string_view s) {
    s = trim(s);
    if (!starts_with(s, "/* 0x") || s.size() != 2 + 1 + 2 + 16 + 1 + 2 || s.substr(s.size() - 3) != " */") return std::nullopt;
    return hex(s.substr(5, 16), 16);
  }

  void read_instruction() {
    const std::size_t close = line_.find("*/");
    if (close == std::string_view::npos) fail("unterminated comment " + quote_for_message(line_));
    if (starts_with(line_, "/* 0x")) fail("a hex word without its instruction");
    const std::optional<std::uint64_t> offset = hex(line_.substr(2, close - 2), 8);
    if (!offset || *offset > 0xffffffffu) fail("bad instruction offset " + quote_for_message(line_.substr(0, close + 2)));
    if (function_ == nullptr) fail("an instruction outside a function");
    const std::size_t semicolon = line_.find(';', close);
    if (semicolon == std::string_view::npos) fail("no ';' after the instruction");
    Instruction in;
    in.offset = static_cast<std::uint32_t>(*offset);
    in.listing_line = line_number_;
    in.ptx_line = source_line_;
    read_text(trim(line_.substr(close + 2, semicolon - close - 2)), in);
    const std::optional<std::uint64_t> low = word(line_.substr(semicolon + 1));
    if (!low) fail("no hex word after the instruction (run nvdisasm with -hex)");
    in.low = *low;
    const int line = line_number_;
    if (!next_line()) fail(line, "the instruction's second hex word is missing");
    const std::optional<std::uint64_t> high = word(line_);
    if (!high) fail("expected the instruction's second hex word, found " + quote_for_message(line_));
    in.high = *high;
    in.control = decode_control(in.high);
    if (!function_->code.empty() && in.offset <= function_->code.back().offset) {
      fail(line, "instruction offset " + quote_for_message(line_.substr(0, close + 2)) + " does not increase");
    }
    detail::read_registers(in);
    function_->code.push_back(std::move(in));
  }

  // "@!P0 BRA `(.L_x_0)": predicate, opcode, operands.
  void read_text(std::string_view text, Instruction& in) const {
    const auto word = [&]() {
      const std::size_t end = std::min(text.find_first_of(" \t"), text.size());
      const std::string_view w = text.substr(0, end);
      text = trim(text.substr(end));
      return std::string(w);
    };
    if (!text.empty() && text.front() == '@') in.predicate = word();
    in.opcode = word();
    in.operands = std::string(text);
    if (in.opcode.empty()) fail("an instruction without an opcode");
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t at_ = 0;
  std::string_view line_;
  int line_number_ = 0;
  Listing listing_;
  Function* function_ = nullptr;
  std::uint32_t source_line_ = 0;
};

}  // namespace

Listing read_listing(std::string_view text, const std::string& file_name) { return Reader(text, file_name).read(); }

}  // namespace warpsim::sass
