// A recursive-descent parser over the lexer's tokens, one token of lookahead beyond the current.
// Positions: a Function, Label or Instruction is where it starts (the linkage, the label name, the
// `@` of a guard or the opcode); a Declaration is where its name is; an Operand is its first token.
// `.file` time stamps, `.pragma`, `.callprototype` and `.alias` are read and dropped, and so are debug
// sections but those that name parameters (.debug_abbrev, .debug_info, .debug_str).
// Nesting is bounded (kMaxNesting): the only recursion, parse_operand -> parse_group/parse_address
// -> parse_operand, stops there with a located error instead of running off the end of the stack.
#include "warpsim/ptx_syntax/parser.hpp"

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "warpsim/ptx_syntax/lexer.hpp"
#include "warpsim/isa/cuda_source.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_file.hpp"

namespace warpsim::ptx {

const char* to_string(StateSpace space) {
  switch (space) {
    case StateSpace::reg: return "reg";
    case StateSpace::sreg: return "sreg";
    case StateSpace::param: return "param";
    case StateSpace::global: return "global";
    case StateSpace::shared: return "shared";
    case StateSpace::local: return "local";
    case StateSpace::constant: return "const";
    case StateSpace::texture: return "tex";
    case StateSpace::surface: return "surf";
    case StateSpace::generic: return "generic";
  }
  return "?";
}

namespace {

// How deeply this reader lets brackets nest, at every level it tracks: operand groups `{...}` and
// `(...)` and addresses `[...]` inside one another (parse_operand and parse_group/parse_address
// call each other, one stack frame per level), brace-scoped blocks in a function body, brackets in
// an initialiser and braces in a `.section`. nvcc nests two or three deep (a call's parameter list,
// a texture address's coordinate vector, `{ }` around a call sequence, a struct's initialiser); a
// deeper file gets an InputError at the bracket that goes past the limit, never a stack overflow.
constexpr int kMaxNesting = 64;

// The state space a declaration directive names; `.shared::cta` and `.shared::cluster` are shared.
std::optional<StateSpace> declared_space(std::string_view directive) {
  if (directive.starts_with(".shared::")) directive = ".shared";
  static constexpr std::array<std::pair<std::string_view, StateSpace>, 8> kSpaces{{
      {".reg", StateSpace::reg},       {".sreg", StateSpace::sreg},    {".param", StateSpace::param},
      {".global", StateSpace::global}, {".shared", StateSpace::shared}, {".local", StateSpace::local},
      {".const", StateSpace::constant}, {".tex", StateSpace::texture},
  }};
  for (const auto& [name, space] : kSpaces) {
    if (name == directive) return space;
  }
  return std::nullopt;
}

// Opaque handle types may start a declaration on their own: `.texref t;` means `.global .texref t;`.
bool is_handle_type(std::string_view directive) {
  return directive == ".texref" || directive == ".samplerref" || directive == ".surfref";
}

bool is_type(std::string_view directive) {
  static constexpr std::array<std::string_view, 30> kTypes{
      ".b8",   ".b16",    ".b32",     ".b64",    ".b128",   ".u8",      ".u16",    ".u32",
      ".u64",  ".s8",     ".s16",     ".s32",    ".s64",    ".f16",     ".f16x2",  ".bf16",
      ".bf16x2", ".f32",  ".f64",     ".pred",   ".tf32",   ".e4m3",    ".e5m2",   ".e4m3x2",
      ".e5m2x2", ".texref", ".samplerref", ".surfref", ".e2m1x2", ".ue8m0x2"};
  for (const auto type : kTypes) {
    if (type == directive) return true;
  }
  return false;
}

std::optional<Linkage> linkage_of(std::string_view directive) {
  if (directive == ".visible") return Linkage::visible;
  if (directive == ".extern") return Linkage::external;
  if (directive == ".weak") return Linkage::weak;
  if (directive == ".common") return Linkage::common;
  return std::nullopt;
}

// Directives between a function's signature and its body, each with a list of integers.
bool is_tuning_directive(std::string_view directive) {
  static constexpr std::array<std::string_view, 12> kTuning{
      ".maxntid",          ".reqntid",        ".minnctapersm",    ".maxnctapersm",
      ".maxnreg",          ".maxclusterrank", ".reqnctapercluster", ".explicitcluster",
      ".noreturn",         ".blocksareclusters", ".abi_preserve", ".abi_preserve_control"};
  for (const auto name : kTuning) {
    if (name == directive) return true;
  }
  return false;
}

std::string unquote(std::string_view quoted) {
  std::string out;
  out.reserve(quoted.size());
  for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
    if (quoted[i] == '\\' && i + 2 < quoted.size()) ++i;
    out += quoted[i];
  }
  return out;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : lexer_(text, file) { module_.file = file; }

  Module parse() {
    advance();
    if (tok_.kind == TokenKind::end) fail({1, 1}, "no PTX in file");
    while (tok_.kind != TokenKind::end) parse_module_item();
    return std::move(module_);
  }

 private:
  // ---- tokens -------------------------------------------------------------------------------

  void advance() {
    prev_ = tok_;
    if (ahead_) {
      tok_ = *ahead_;
      ahead_.reset();
    } else {
      tok_ = lexer_.next();
    }
  }

  const Token& peek() {
    if (!ahead_) ahead_ = lexer_.next();
    return *ahead_;
  }

  [[noreturn]] void fail(Position pos, const std::string& what) const {
    throw InputError(SourceLocation{lexer_.file(), pos.line, pos.column}, what);
  }

  // "expected X, found 'y'" at the current token; at the end of the text, at the last token.
  [[noreturn]] void unexpected(const std::string& expected) const {
    if (tok_.kind == TokenKind::end) fail(prev_.pos, "unexpected end of file: expected " + expected);
    fail(tok_.pos, "expected " + expected + ", found " + quote_for_message(tok_.text));
  }

  void expect(char c, const std::string& expected) {
    if (!tok_.is(c)) unexpected(expected);
    advance();
  }

  // The `;` that ends a statement. When it is missing at the end of a line, the place to point at
  // is just after the statement's last token, not the start of the next line.
  void expect_semicolon(const char* after_what) {
    if (tok_.is(';')) return advance();
    const std::string expected = std::string("';' after ") + after_what;
    if (tok_.kind != TokenKind::end && tok_.pos.line != prev_.pos.line) {
      fail({prev_.pos.line, prev_.pos.column + static_cast<int>(prev_.text.size())}, "expected " + expected);
    }
    unexpected(expected);
  }

  std::string_view expect_identifier(const char* expected) {
    if (tok_.kind != TokenKind::identifier) unexpected(expected);
    const std::string_view text = tok_.text;
    advance();
    return text;
  }

  std::uint64_t expect_unsigned(const std::string& expected) {
    if (tok_.kind != TokenKind::integer) unexpected(expected);
    const std::uint64_t value = *integer_value(tok_.text);
    advance();
    return value;
  }

  // A non-negative count, index or size that must fit `Int`.
  template <typename Int>
  Int expect_count(const std::string& expected) {
    const Position pos = tok_.pos;
    const std::uint64_t value = expect_unsigned(expected);
    if (value > static_cast<std::uint64_t>(std::numeric_limits<Int>::max())) fail(pos, "number too large");
    return static_cast<Int>(value);
  }

  std::vector<std::int64_t> integer_list() {
    std::vector<std::int64_t> values{expect_count<std::int64_t>("a number")};
    while (tok_.is(',')) {
      advance();
      values.push_back(expect_count<std::int64_t>("a number"));
    }
    return values;
  }

  // ---- module scope -------------------------------------------------------------------------

  void parse_module_item() {
    if (tok_.kind != TokenKind::directive) {
      if (tok_.is('}')) fail(tok_.pos, "unbalanced '}'");
      unexpected("a directive");
    }
    const Token start = tok_;
    const std::string_view name = tok_.text;
    if (name == ".version") return parse_version();
    if (name == ".target") return parse_target();
    if (name == ".address_size") return parse_address_size();
    if (name == ".file") return parse_file();
    if (name == ".loc") return parse_loc();
    if (name == ".section") return read_section();
    if (name == ".pragma") return skip_pragma();
    if (name == ".alias") return skip_alias();

    Linkage linkage = Linkage::none;
    while (tok_.kind == TokenKind::directive) {
      const auto given = linkage_of(tok_.text);
      if (!given) break;
      linkage = *given;
      advance();
    }
    if (tok_.is_directive(".entry") || tok_.is_directive(".func")) return parse_function(linkage, start.pos);
    if (starts_declaration()) {
      parse_declarations(module_.globals, linkage);
      return;
    }
    if (linkage != Linkage::none) unexpected("'.entry', '.func' or a variable after the linkage");
    fail(start.pos, "unknown directive " + quote_for_message(name));
  }

  void parse_version() {
    advance();
    const std::string_view text = tok_.text;
    const std::size_t dot = text.find('.');
    if (tok_.kind != TokenKind::floating || dot == std::string_view::npos || text.find_first_of("eE") != std::string_view::npos) {
      unexpected("a version like 9.0");
    }
    const auto major = integer_value(text.substr(0, dot));
    const auto minor = integer_value(text.substr(dot + 1));
    if (!major || !minor || *major > 99 || *minor > 99) fail(tok_.pos, "bad version " + quote_for_message(text));
    module_.version_major = static_cast<int>(*major);
    module_.version_minor = static_cast<int>(*minor);
    advance();
  }

  void parse_target() {
    advance();
    module_.targets.emplace_back(expect_identifier("a target like sm_90"));
    while (tok_.is(',')) {
      advance();
      module_.targets.emplace_back(expect_identifier("a target like sm_90"));
    }
  }

  void parse_address_size() {
    advance();
    const Position pos = tok_.pos;
    const std::uint64_t size = expect_unsigned("32 or 64");
    if (size != 32 && size != 64) fail(pos, "address size must be 32 or 64");
    module_.address_size = static_cast<int>(size);
  }

  // .file 1 "/path/x.cu"   or   .file 1 "/path/x.cu", 1700000000, 1234 (time stamp and size).
  void parse_file() {
    advance();
    const auto index = expect_count<std::uint16_t>("a file number");
    if (tok_.kind != TokenKind::string) unexpected("a file name in quotes");
    if (module_.files.size() <= index) module_.files.resize(std::size_t{index} + 1);
    module_.files[index] = unquote(tok_.text);
    advance();
    if (tok_.is(',')) {
      advance();
      expect_unsigned("a time stamp");
      expect(',', "',' before the file size");
      expect_unsigned("a file size");
    }
  }

  // .loc FILE LINE COLUMN [, function_name LABEL] [, inlined_at FILE LINE COLUMN]
  void parse_loc() {
    advance();
    const int file = expect_count<int>("a file number");
    const int line = expect_count<int>("a line number");
    expect_count<int>("a column number");
    int inlined_file = 0, inlined_line = 0;
    while (tok_.is(',')) {
      advance();
      const std::string_view word = expect_identifier("'function_name' or 'inlined_at'");
      if (word == "function_name") {
        expect_identifier("a function name label");
      } else if (word == "inlined_at") {
        inlined_file = expect_count<int>("a file number");
        inlined_line = expect_count<int>("a line number");
        expect_count<int>("a column number");
      } else {
        fail(prev_.pos, "unknown .loc attribute " + quote_for_message(word));
      }
    }
    debug_file_ = file;
    debug_line_ = line;
    inlined_file_ = inlined_file;
    inlined_line_ = inlined_line;
  }

  // `.section .debug_info { .b8 1, 17 .b32 .debug_abbrev $L__str0: .b8 0 }`: DWARF data. The
  // sections that name parameters are kept as bytes; the others, and any section holding
  // something other than data and labels, are dropped.
  void read_section() {
    advance();
    if (tok_.kind != TokenKind::directive && tok_.kind != TokenKind::identifier) unexpected("a section name");
    DebugSection section;
    section.name = std::string(tok_.text);
    bool keep = section.name == ".debug_abbrev" || section.name == ".debug_info" || section.name == ".debug_str";
    advance();
    if (!tok_.is('{')) unexpected("'{' to open the section");
    const Position open = tok_.pos;
    advance();
    int width = 0;  // bytes per value of the current .bN directive
    for (int depth = 1;; advance()) {
      if (tok_.kind == TokenKind::end) fail(open, "unterminated section: no '}' for this '{'");
      if (tok_.is('}') && --depth == 0) break;
      if (tok_.is('{') && depth == kMaxNesting) fail(tok_.pos, "braces nested more than " + std::to_string(kMaxNesting) + " deep in the section");
      if (tok_.is('{')) ++depth;
      keep = keep && depth == 1 && read_section_item(section, width);
    }
    advance();
    if (keep) module_.debug_sections.push_back(std::move(section));
  }

  // One token of a section's data at tok_ (a value may take three: `.debug_loc + 242`). False for
  // anything that is not `.b8`-`.b64`, a value, a comma or a label.
  bool read_section_item(DebugSection& section, int& width) {
    if (tok_.kind == TokenKind::directive && (tok_.text == ".b8" || tok_.text == ".b16" || tok_.text == ".b32" ||
                                              tok_.text == ".b64")) {
      width = tok_.text == ".b8" ? 1 : tok_.text == ".b16" ? 2 : tok_.text == ".b32" ? 4 : 8;
      return true;
    }
    if (tok_.is(',')) return width > 0;
    if (tok_.kind == TokenKind::identifier && peek().is(':')) {
      section.labels.emplace_back(std::string(tok_.text), section.bytes.size());
      advance();
      return true;
    }
    if (width == 0) return false;
    std::uint64_t value = 0;
    if (tok_.kind == TokenKind::integer) {
      const std::optional<std::uint64_t> number = integer_value(tok_.text);
      if (!number) return false;
      value = *number;
    } else if (tok_.kind == TokenKind::identifier || tok_.kind == TokenKind::directive) {
      DebugSection::Symbol symbol{section.bytes.size(), std::string(tok_.text), 0};
      if (peek().is('+')) {
        advance();
        if (peek().kind != TokenKind::integer) return false;
        advance();
        symbol.addend = static_cast<std::int64_t>(integer_value(tok_.text).value_or(0));
      }
      section.symbols.push_back(std::move(symbol));
    } else {
      return false;
    }
    for (int i = 0; i < width; ++i) section.bytes.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
    return true;
  }

  void skip_pragma() {
    advance();
    if (tok_.kind != TokenKind::string) unexpected("a pragma in quotes");
    advance();
    while (tok_.is(',')) {
      advance();
      if (tok_.kind != TokenKind::string) unexpected("a pragma in quotes");
      advance();
    }
    expect_semicolon("the pragma");
  }

  void skip_alias() {
    advance();
    expect_identifier("an alias name");
    expect(',', "',' after the alias name");
    expect_identifier("the aliased function");
    expect_semicolon("the alias");
  }

  // ---- declarations -------------------------------------------------------------------------

  bool starts_declaration() const {
    return tok_.kind == TokenKind::directive && (declared_space(tok_.text) || is_handle_type(tok_.text));
  }

  // A state space, attributes, a type and then one or more names:
  //   .shared .align 16 .b8 smem[1024];   .reg .b32 %r<12>;   .reg .pred p, q;
  void parse_declarations(std::vector<Declaration>& into, Linkage linkage) {
    const Declaration head = parse_declaration_head(linkage);
    into.push_back(parse_variable(head, true));
    while (tok_.is(',')) {
      advance();
      into.push_back(parse_variable(head, true));
    }
    expect_semicolon("the declaration");
  }

  // Everything before the name. The current token is the state space (or a bare handle type).
  Declaration parse_declaration_head(Linkage linkage) {
    Declaration head;
    head.linkage = linkage;
    if (const auto space = declared_space(tok_.text)) {
      head.space = *space;
      advance();
    } else {
      head.space = StateSpace::global;  // a bare .texref/.samplerref/.surfref
    }
    while (tok_.kind == TokenKind::directive) {
      const std::string_view word = tok_.text;
      const Position pos = tok_.pos;
      advance();
      if (word == ".align") {
        head.alignment = expect_count<std::int64_t>("an alignment in bytes");
        if (head.alignment == 0 || (head.alignment & (head.alignment - 1)) != 0) fail(prev_.pos, "alignment must be a power of two");
      } else if (word == ".v2" || word == ".v4" || word == ".v8") {
        head.vector_width = word[2] - '0';
      } else if (word == ".ptr") {
        head.is_pointer = true;
      } else if (head.is_pointer && declared_space(word)) {
        head.pointer_space = declared_space(word);
      } else if (word == ".attribute") {
        skip_parenthesised("'(' after .attribute");
      } else if (is_type(word)) {
        if (!head.type.empty()) fail(pos, "declaration has two types");
        head.type = word.substr(1);
      } else {
        fail(pos, "unknown directive " + quote_for_message(word) + " in a declaration");
      }
    }
    if (head.type.empty()) unexpected("a type like .b32");
    return head;
  }

  void skip_parenthesised(const char* expected) {
    if (!tok_.is('(')) unexpected(expected);
    const Position open = tok_.pos;
    while (!tok_.is(')')) {
      if (tok_.kind == TokenKind::end) fail(open, "unterminated '(': no ')' for it");
      advance();
    }
    advance();
  }

  // The name and what follows it: `<N>`, `[dims]`, `= initializer`.
  Declaration parse_variable(const Declaration& head, bool allow_initializer) {
    Declaration declaration = head;
    declaration.pos = tok_.pos;
    declaration.name = expect_identifier("a variable name");
    if (tok_.is('<')) {
      advance();
      declaration.range_count = expect_count<int>("a register count");
      expect('>', "'>' after the register count");
    }
    while (tok_.is('[')) {
      advance();
      declaration.array_dims.push_back(tok_.is(']') ? 0 : expect_count<std::int64_t>("an array size"));
      expect(']', "']' after the array size");
    }
    if (allow_initializer && tok_.is('=')) {
      advance();
      skip_initializer();
      declaration.has_initializer = true;
    }
    return declaration;
  }

  // Initialisers only matter to a loader the simulator does not have: check their brackets
  // balance and move on to the `,` or `;` after them.
  void skip_initializer() {
    std::vector<Token> open;
    bool empty = true;
    while (!open.empty() || !(tok_.is(',') || tok_.is(';'))) {
      if (tok_.kind == TokenKind::end) {
        if (!open.empty()) fail(open.back().pos, "unterminated " + quote_for_message(open.back().text) + " in the initializer");
        unexpected("';' after the initializer");
      }
      if (tok_.is('{') || tok_.is('(')) {
        if (open.size() == static_cast<std::size_t>(kMaxNesting)) fail(tok_.pos, "brackets nested more than " + std::to_string(kMaxNesting) + " deep in the initializer");
        open.push_back(tok_);
      }
      if (tok_.is('}') || tok_.is(')')) {
        if (open.empty() || open.back().text[0] != (tok_.is('}') ? '{' : '(')) {
          fail(tok_.pos, "unbalanced " + quote_for_message(tok_.text) + " in the initializer");
        }
        open.pop_back();
      }
      advance();
      empty = false;
    }
    if (empty) unexpected("an initial value");
  }

  // `( .param .b32 a, .param .u64 .ptr.global.align 1 b )`; also for a .func's return values.
  std::vector<Declaration> parse_parameters() {
    std::vector<Declaration> params;
    advance();  // (
    if (tok_.is(')')) {
      advance();
      return params;
    }
    while (true) {
      if (!(tok_.is_directive(".param") || tok_.is_directive(".reg"))) unexpected("a parameter like '.param .b32 name'");
      params.push_back(parse_variable(parse_declaration_head(Linkage::none), false));
      if (tok_.is(')')) break;
      expect(',', "',' or ')' after the parameter");
    }
    advance();
    return params;
  }

  // ---- functions ----------------------------------------------------------------------------

  void parse_function(Linkage linkage, Position start) {
    Function function;
    function.pos = start;
    function.linkage = linkage;
    function.is_entry = tok_.is_directive(".entry");
    advance();
    if (!function.is_entry && tok_.is('(')) function.returns = parse_parameters();
    function.name = expect_identifier("a function name");
    if (tok_.is('(')) function.params = parse_parameters();
    while (tok_.kind == TokenKind::directive) {
      if (tok_.text == ".pragma") {
        skip_pragma();
      } else if (is_tuning_directive(tok_.text)) {
        std::string name(tok_.text.substr(1));
        advance();
        function.tuning.emplace_back(std::move(name), tok_.kind == TokenKind::integer ? integer_list() : std::vector<std::int64_t>{});
      } else {
        fail(tok_.pos, "unknown directive " + quote_for_message(tok_.text));
      }
    }
    if (tok_.is(';')) {
      advance();
    } else if (tok_.is('{')) {
      function.has_body = true;
      parse_body(function);
    } else {
      unexpected("'{' or ';' after the function header");
    }
    module_.functions.push_back(std::move(function));
  }

  // The body with its brace-scoped blocks flattened: declarations into locals, statements in order.
  // The body's own braces are the first of the kMaxNesting levels.
  void parse_body(Function& function) {
    debug_file_ = 0;
    debug_line_ = 0;
    inlined_file_ = 0;
    inlined_line_ = 0;
    std::vector<Position> open{tok_.pos};
    advance();
    while (!open.empty()) {
      if (tok_.kind == TokenKind::end) fail(open.back(), "unterminated '{': end of file before its '}'");
      if (tok_.is('{')) {
        if (open.size() == static_cast<std::size_t>(kMaxNesting)) fail(tok_.pos, "blocks nested more than " + std::to_string(kMaxNesting) + " deep");
        open.push_back(tok_.pos);
        advance();
      } else if (tok_.is('}')) {
        open.pop_back();
        advance();
      } else if (tok_.kind == TokenKind::directive) {
        parse_body_directive(function);
      } else if (tok_.kind == TokenKind::identifier && peek().is(':')) {
        parse_label(function);
      } else if (tok_.is('@') || tok_.kind == TokenKind::identifier) {
        function.body.emplace_back(parse_instruction());
      } else {
        unexpected("an instruction");
      }
    }
  }

  void parse_body_directive(Function& function) {
    if (starts_declaration()) return parse_declarations(function.locals, Linkage::none);
    if (tok_.text == ".loc") return parse_loc();
    if (tok_.text == ".pragma") return skip_pragma();
    fail(tok_.pos, "unknown directive " + quote_for_message(tok_.text));
  }

  // `name:` before an instruction, or before `.branchtargets` / `.calltargets` / `.callprototype`.
  void parse_label(Function& function) {
    const Token name = tok_;
    advance();
    advance();  // :
    if (tok_.is_directive(".branchtargets")) {
      advance();
      std::vector<std::string> targets{std::string(expect_identifier("a label"))};
      while (tok_.is(',')) {
        advance();
        targets.emplace_back(expect_identifier("a label"));
      }
      expect_semicolon("the branch targets");
      function.branch_targets.emplace_back(std::string(name.text), std::move(targets));
    } else if (tok_.is_directive(".callprototype") || tok_.is_directive(".calltargets")) {
      const Token directive = tok_;
      while (!tok_.is(';')) {
        if (tok_.kind == TokenKind::end) fail(directive.pos, "unexpected end of file: no ';' after " + std::string(directive.text));
        advance();
      }
      advance();
    } else {
      function.body.emplace_back(Label{name.pos, std::string(name.text)});
    }
  }

  Instruction parse_instruction() {
    Instruction instruction;
    instruction.pos = tok_.pos;
    instruction.debug_file = debug_file_;
    instruction.debug_line = debug_line_;
    instruction.inlined_file = inlined_file_;
    instruction.inlined_line = inlined_line_;
    if (tok_.is('@')) {
      advance();
      Guard guard;
      if (tok_.is('!')) {
        guard.negated = true;
        advance();
      }
      guard.predicate = expect_identifier("a predicate after '@'");
      instruction.guard = std::move(guard);
    }
    if (tok_.kind != TokenKind::identifier || tok_.text[0] == '%') unexpected("an instruction");
    instruction.opcode = tok_.text;
    advance();
    while (tok_.kind == TokenKind::directive) {
      instruction.modifiers.emplace_back(tok_.text.substr(1));
      advance();
    }
    if (!tok_.is(';') && starts_operand()) {
      instruction.operands.push_back(parse_operand());
      while (tok_.is(',')) {
        advance();
        instruction.operands.push_back(parse_operand());
      }
    }
    expect_semicolon("instruction");
    return instruction;
  }

  // ---- operands -----------------------------------------------------------------------------

  bool starts_operand() const {
    return tok_.kind == TokenKind::identifier || tok_.kind == TokenKind::integer ||
           tok_.kind == TokenKind::floating || tok_.is('-') || tok_.is('!') || tok_.is('[') ||
           tok_.is('{') || tok_.is('(');
  }

  // One operand. Groups and addresses hold operands of their own, so this recursion goes as deep
  // as they nest: at most kMaxNesting (enter_group).
  Operand parse_operand() {
    if (tok_.is('[')) return parse_address();
    if (tok_.is('{')) return parse_group(Operand::Kind::vector, '}');
    if (tok_.is('(')) return parse_group(Operand::Kind::list, ')');
    if (tok_.is('!')) {
      Operand operand;
      operand.pos = tok_.pos;
      advance();
      operand.negated = true;
      operand.text = expect_identifier("a predicate after '!'");
      return operand;
    }
    if (tok_.is('-') || tok_.kind == TokenKind::integer || tok_.kind == TokenKind::floating) return parse_number();
    if (tok_.kind != TokenKind::identifier) unexpected("an operand");
    Operand operand = parse_name();
    if (!tok_.is('|')) return finish_name(std::move(operand));
    // setp/shfl's second destination: %r14|%p2 (elect.sync writes _|%p1). A longer chain a|b|c
    // is one pair of three, read in a loop rather than by recursion.
    Operand pair;
    pair.kind = Operand::Kind::pair;
    pair.pos = operand.pos;
    pair.elements.push_back(std::move(operand));
    while (tok_.is('|')) {
      advance();
      if (tok_.kind != TokenKind::identifier) unexpected("a predicate after '|'");
      Operand next = parse_name();
      pair.elements.push_back(tok_.is('|') ? std::move(next) : finish_name(std::move(next)));
    }
    return pair;
  }

  // A name or the sink `_` (the current token is an identifier).
  Operand parse_name() {
    Operand operand;
    operand.pos = tok_.pos;
    if (tok_.text == "_") {
      operand.kind = Operand::Kind::sink;
    } else {
      operand.text = tok_.text;
    }
    advance();
    return operand;
  }

  // A name's offset, `name+8`, when one follows.
  Operand finish_name(Operand operand) {
    if (operand.kind != Operand::Kind::sink && (tok_.is('+') || tok_.is('-'))) operand.offset = parse_offset();
    return operand;
  }

  // A signed integer or floating constant.
  Operand parse_number() {
    Operand operand;
    operand.pos = tok_.pos;
    const bool negative = tok_.is('-');
    if (negative) advance();
    if (tok_.kind == TokenKind::integer) {
      operand.kind = Operand::Kind::integer;
      const std::uint64_t magnitude = *integer_value(tok_.text);
      operand.integer = negative ? 0 - magnitude : magnitude;
    } else if (tok_.kind == TokenKind::floating) {
      operand.kind = Operand::Kind::floating;
      const double magnitude = *floating_value(tok_.text);
      operand.floating = negative ? -magnitude : magnitude;
    } else {
      unexpected("a number after '-'");
    }
    advance();
    return operand;
  }

  // `+8`, `+-8` or `-8` after a name, as two's complement.
  std::int64_t parse_offset() {
    const char sign = tok_.text[0];
    advance();
    bool negative = sign == '-';
    if (sign == '+' && tok_.is('-')) {
      negative = true;
      advance();
    }
    if (tok_.kind != TokenKind::integer) unexpected(std::string("an offset after '") + sign + "'");
    const std::uint64_t magnitude = *integer_value(tok_.text);
    advance();
    return static_cast<std::int64_t>(negative ? 0 - magnitude : magnitude);
  }

  // [%rd1], [%rd1+8], [sym-4], [1024], and the texture form [tex, {%f1, %f2}].
  Operand parse_address() {
    const GroupLevel level = enter_group();
    Operand address;
    address.kind = Operand::Kind::address;
    address.pos = tok_.pos;
    advance();
    if (tok_.kind == TokenKind::integer) {
      address.offset = static_cast<std::int64_t>(*integer_value(tok_.text));
      advance();
    } else if (tok_.kind == TokenKind::identifier && tok_.text != "_") {
      address.text = tok_.text;
      const Position base = tok_.pos;
      advance();
      if (tok_.is('+') || tok_.is('-')) {
        address.offset = parse_offset();
      } else if (tok_.is(',')) {
        Operand first;
        first.pos = base;
        first.text = address.text;
        address.elements.push_back(std::move(first));
        while (tok_.is(',')) {
          advance();
          address.elements.push_back(parse_operand());
        }
      }
    } else {
      unexpected("an address");
    }
    address.integer = static_cast<std::uint64_t>(address.offset);
    expect(']', "']' to close the address");
    return address;
  }

  // {a, b, _, d} and (a, b); a call's parameter list may be empty.
  Operand parse_group(Operand::Kind kind, char close) {
    const GroupLevel level = enter_group();
    Operand group;
    group.kind = kind;
    group.pos = tok_.pos;
    advance();
    if (!(kind == Operand::Kind::list && tok_.is(close))) {
      group.elements.push_back(parse_operand());
      while (tok_.is(',')) {
        advance();
        group.elements.push_back(parse_operand());
      }
    }
    expect(close, std::string("',' or '") + close + "'");
    return group;
  }

  // One level of operand groups (at the current token, the opening bracket), left again when the
  // group is read or the parse throws.
  class GroupLevel {
   public:
    explicit GroupLevel(int& depth) : depth_(depth) { ++depth_; }
    GroupLevel(const GroupLevel&) = delete;
    GroupLevel& operator=(const GroupLevel&) = delete;
    ~GroupLevel() { --depth_; }

   private:
    int& depth_;
  };

  [[nodiscard]] GroupLevel enter_group() {
    if (group_depth_ == kMaxNesting) fail(tok_.pos, "operand groups nested more than " + std::to_string(kMaxNesting) + " deep");
    return GroupLevel(group_depth_);
  }

  Lexer lexer_;
  Token tok_;
  Token prev_;
  std::optional<Token> ahead_;
  Module module_;
  int debug_file_ = 0;
  int debug_line_ = 0;
  int inlined_file_ = 0;
  int inlined_line_ = 0;
  int group_depth_ = 0;  // operand groups and addresses being read, one inside the other
};

}  // namespace

Module parse_ptx(std::string_view text, const std::string& file) { return Parser(text, file).parse(); }

Module load_ptx_file(const std::string& path) {
  const std::string text = read_text_file(path);
  reject_cuda_source(path, text);
  return parse_ptx(text, path);
}

}  // namespace warpsim::ptx
