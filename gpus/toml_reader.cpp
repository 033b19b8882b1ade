#include "warpsim/gpus/toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::gpus {
namespace {

// How deeply a TOML document may nest: tables in tables, counting each part of a dotted key
// (`a.b.c = 1` is 3 deep) and of a table header (`[a.b]`, `[[a.b]]` one more for the array), and
// each inline table or array a value opens. toml++ limits brackets (256, TOML_MAX_NESTED_VALUES) but
// not dotted keys and headers, and walks and frees the tree by recursion: `a.a.a...a = 1` with
// half a million parts ran it off the stack (SIGSEGV) inside toml::parse. Profiles and suites
// nest three or four deep.
constexpr int kMaxTomlNesting = 64;

// Finds the deepest point of the document without parsing it: a lexical pass over keys, headers
// and brackets, skipping strings and comments. Anything it does not understand is left to toml++,
// which reports syntax errors; this only throws InputError (at the key, header or bracket) when a
// node of the tree would be more than kMaxTomlNesting deep (the root table is 0, `a = 1` is 1).
class NestingCheck {
 public:
  NestingCheck(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  void run() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\n') {
        newline();
        if (open_.empty()) {
          statement_start_ = true;
          key_ = 0;
        }
        chain_ = 0;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r') {
        ++at_;
        continue;
      }
      if (c == '#') {
        while (at_ < text_.size() && text_[at_] != '\n') ++at_;
        continue;
      }
      if (c == '[' && open_.empty() && statement_start_) {
        header();
      } else if (c == '[' || c == '{') {
        // The new array or inline table: the value of the key just read, or an array element.
        // (Without a key, which is a syntax error for toml++ to report, it still counts a level.)
        const int depth = open_.empty() || !open_.back().array ? base() + std::max(key_, 1) : open_.back().depth + 1;
        if (depth > kMaxTomlNesting) fail(line_, column());
        open_.push_back({depth, c == '['});
        ++at_;
      } else if (c == ']' || c == '}') {
        if (!open_.empty()) open_.pop_back();
        ++at_;
      } else if (c == '=') {
        // The chain just read was a key: its value sits that many tables down.
        if (base() + chain_ > kMaxTomlNesting) fail(too_deep_line_, too_deep_column_);
        key_ = chain_;
        ++at_;
      } else if (is_bare(c) || c == '"' || c == '\'') {
        chain(base());
        continue;  // chain_ stays for an `=`
      } else {
        ++at_;  // `,` and the rest of values (`+inf`, `07:32:00`)
      }
      statement_start_ = false;
      chain_ = 0;
      if (c != '=') key_ = 0;
    }
  }

 private:
  struct Open {
    int depth;   // of the array or inline table itself
    bool array;  // its elements are one deeper; an inline table's keys add their parts
  };

  static bool is_bare(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  }

  // Where keys at this point start counting: the innermost inline table, else the [table].
  int base() const { return open_.empty() ? header_ : open_.back().depth; }

  [[noreturn]] void fail(int line, int column) const {
    throw InputError(SourceLocation{source_, line, column},
                     "tables, arrays and dotted keys nested more than " + std::to_string(kMaxTomlNesting) + " deep");
  }

  void newline() {
    ++at_;
    ++line_;
    line_start_ = at_;
  }

  int column() const { return static_cast<int>(at_ - line_start_) + 1; }

  void skip_blanks() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t')) ++at_;
  }

  std::size_t quotes_at(char quote) const {
    std::size_t n = 0;
    while (at_ + n < text_.size() && text_[at_ + n] == quote) ++n;
    return n;
  }

  // A quoted string: "..." with escapes, '...', and the multi-line """...""" and '''...''' (whose
  // closing quotes may have one or two more quotes of the text before them).
  void string() {
    const char quote = text_[at_];
    const bool multi_line = quotes_at(quote) >= 3;
    at_ += multi_line ? 3 : 1;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\\' && quote == '"' && at_ + 1 < text_.size() && text_[at_ + 1] != '\n') {
        at_ += 2;
      } else if (c == '\n') {
        if (!multi_line) return;  // unterminated: toml++ says so
        newline();
      } else if (c == quote && !multi_line) {
        ++at_;
        return;
      } else if (c == quote && quotes_at(quote) >= 3) {
        at_ += std::min<std::size_t>(quotes_at(quote), 5);
        return;
      } else {
        ++at_;
      }
    }
  }

  // Parts separated by dots: a.b."c d".e (a key), or a value such as 1.5, true or "text". Its
  // length is kept in chain_ for an `=` that may follow; as a key below `base`, the part that would
  // be too deep is kept in too_deep_line_ and too_deep_column_.
  void chain(int base) {
    chain_ = 0;
    while (at_ < text_.size()) {
      if (base + chain_ == kMaxTomlNesting) {
        too_deep_line_ = line_;
        too_deep_column_ = column();
      }
      if (text_[at_] == '"' || text_[at_] == '\'') {
        string();
      } else if (is_bare(text_[at_])) {
        while (at_ < text_.size() && is_bare(text_[at_])) ++at_;
      } else {
        return;
      }
      ++chain_;
      const std::size_t after = at_;
      skip_blanks();
      if (at_ >= text_.size() || text_[at_] != '.') {
        at_ = after;
        return;
      }
      ++at_;
      skip_blanks();
    }
  }

  // [a.b.c] or [[a.b.c]]: the table is that deep (one more for an element of an array of tables).
  void header() {
    ++at_;
    const bool array = at_ < text_.size() && text_[at_] == '[';
    if (array) ++at_;
    skip_blanks();
    chain(array ? 1 : 0);
    header_ = chain_ + (array ? 1 : 0);
    if (header_ > kMaxTomlNesting) fail(too_deep_line_, too_deep_column_);
    skip_blanks();
    for (int i = array ? 2 : 1; i > 0 && at_ < text_.size() && text_[at_] == ']'; --i) ++at_;
  }

  std::string_view text_;
  const std::string& source_;
  std::size_t at_ = 0;
  std::size_t line_start_ = 0;
  int line_ = 1;
  bool statement_start_ = true;  // at the start of a line, outside any bracket
  int header_ = 0;               // depth of the current [table]
  std::vector<Open> open_;       // arrays and inline tables being read, innermost last
  int key_ = 0;                  // parts of the key whose value comes next (after its `=`)
  int chain_ = 0;                // parts of the dotted chain just read
  int too_deep_line_ = 0;
  int too_deep_column_ = 0;
};

}  // namespace

toml::table TomlReader::parse(std::string_view text) const {
  NestingCheck(text, source_).run();
  try {
    return toml::parse(text, source_);
  } catch (const toml::parse_error& e) {
    throw InputError(SourceLocation{source_, static_cast<int>(e.source().begin.line),
                                    static_cast<int>(e.source().begin.column)},
                     std::string(e.description()));
  }
}

void TomlReader::fail(const toml::node* node, const std::string& what) const {
  SourceLocation where{source_};
  if (node) {
    where.line = static_cast<int>(node->source().begin.line);
    where.column = static_cast<int>(node->source().begin.column);
  }
  throw InputError(where, what);
}

SourceLocation TomlReader::text_start(const toml::node& node) const {
  const int quote = node.is_string() ? 1 : 0;
  return {source_, static_cast<int>(node.source().begin.line), static_cast<int>(node.source().begin.column) + quote};
}

std::string TomlReader::text(const toml::node& node, const std::string& key) const {
  const auto* s = node.as_string();
  if (!s) fail(&node, key + " must be a string");
  return s->get();
}

bool TomlReader::boolean(const toml::node& node, const std::string& key) const {
  const auto* b = node.as_boolean();
  if (!b) fail(&node, key + " must be true or false");
  return b->get();
}

double TomlReader::number(const toml::node& node, const std::string& key) const {
  if (const auto* i = node.as_integer()) return static_cast<double>(i->get());
  if (const auto* f = node.as_floating_point()) {
    if (!std::isfinite(f->get())) fail(&node, key + " must be a finite number");
    return f->get();
  }
  fail(&node, key + " must be a number");
}

std::int64_t TomlReader::whole_number(const toml::node& node, const std::string& key) const {
  const auto* i = node.as_integer();
  if (!i) fail(&node, key + " must be a whole number");
  return i->get();
}

std::int64_t TomlReader::whole_number(const toml::node& node, const std::string& key, std::int64_t minimum,
                                      std::int64_t maximum) const {
  const std::int64_t value = whole_number(node, key);
  if (value < minimum || value > maximum) {
    fail(&node, key + " = " + std::to_string(value) + " is out of range [" + std::to_string(minimum) + ", " +
                    std::to_string(maximum) + "]");
  }
  return value;
}

const toml::table& TomlReader::table(const toml::node& node, const std::string& what) const {
  const auto* t = node.as_table();
  if (!t) fail(&node, what);
  return *t;
}

const toml::array& TomlReader::non_empty_list(const toml::node& node, const std::string& key) const {
  const auto* array = node.as_array();
  if (!array || array->empty()) fail(&node, key + " must be a non-empty list");
  return *array;
}

}  // namespace warpsim::gpus
