// The committed SASS fixtures (tests/sass/fixtures/, scripts/sass-fixtures.sh), read once each.
#pragma once

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "support/source_dir.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/sass/listing.hpp"

namespace warpsim::sass::testing {

inline const std::string kFixtures = testing_support::kSourceDir + "/tests/sass/fixtures";

inline const Listing& fixture(const std::string& name) {
  static std::map<std::string, Listing> read;
  auto it = read.find(name);
  if (it == read.end()) it = read.emplace(name, read_listing(read_text_file(kFixtures + "/" + name), name)).first;
  return it->second;
}

// Every fixture's file name, sorted.
inline std::vector<std::string> fixture_names() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures)) {
    if (entry.path().extension() == ".sass") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace warpsim::sass::testing
