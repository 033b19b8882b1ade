// Comma-separated lists on command lines and in suites: "K,N", "64,2,1", "tm,tp,d1".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace warpsim {

// Every part between commas, empty parts included ("a,,b" -> a, "", b; "" -> one empty part).
std::vector<std::string> split_commas(std::string_view text);

// The parts as names; throws InputError "WHAT 'TEXT': an empty name" when one is empty.
std::vector<std::string> split_names(std::string_view text, const std::string& what);

}  // namespace warpsim
