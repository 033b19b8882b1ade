// Reading TOML (profiles, suites) with every error located at FILE:LINE:COL.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::gpus {

class TomlReader {
 public:
  explicit TomlReader(std::string source) : source_(std::move(source)) {}

  const std::string& source() const { return source_; }

  // Parses a document; a syntax error becomes an InputError at its line and column.
  toml::table parse(std::string_view text) const;

  // Throws InputError at the node's position (the file alone when `node` is null).
  [[noreturn]] void fail(const toml::node* node, const std::string& what) const;

  // Where the node's text starts: past the opening quote of a string (whose escapes and
  // multi-line forms this does not follow), else the value itself.
  SourceLocation text_start(const toml::node& node) const;

  // Typed values; `key` names the value in the message when the type is wrong.
  std::string text(const toml::node& node, const std::string& key) const;
  bool boolean(const toml::node& node, const std::string& key) const;
  double number(const toml::node& node, const std::string& key) const;  // integer or finite float
  std::int64_t whole_number(const toml::node& node, const std::string& key) const;
  std::int64_t whole_number(const toml::node& node, const std::string& key, std::int64_t minimum,
                            std::int64_t maximum) const;
  const toml::table& table(const toml::node& node, const std::string& what) const;
  const toml::array& non_empty_list(const toml::node& node, const std::string& key) const;

 private:
  std::string source_;
};

}  // namespace warpsim::gpus
