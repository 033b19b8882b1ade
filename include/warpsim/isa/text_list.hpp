// Comma-separated lists on command lines and in suites ("K,N", "64,2,1", "tm,tp,d1"), and the
// comma-joined lists in messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpsim {

// Every part between commas, empty parts included ("a,,b" -> a, "", b; "" -> one empty part).
std::vector<std::string> split_commas(std::string_view text);

// "a, b, c" (what a message lists), or `none` when there are no names.
template <typename Names>
std::string join_commas(const Names& names, std::string_view none = "") {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text.empty() ? std::string(none) : text;
}

// The parts as names; throws InputError "WHAT 'TEXT': an empty name" when one is empty.
std::vector<std::string> split_names(std::string_view text, const std::string& what);

}  // namespace warpsim
