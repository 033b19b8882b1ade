#include "gpus/toml_reader.hpp"

#include <cmath>

#include "isa/input_error.hpp"

namespace warpsim::gpus {

toml::table TomlReader::parse(std::string_view text) const {
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
