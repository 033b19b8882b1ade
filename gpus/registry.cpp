// Built-in profiles are the gpus/*.toml files, embedded at build time, so the executable works
// from any directory; a path selects any other profile.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <span>
#include <utility>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_list.hpp"
#include "warpsim/isa/text_file.hpp"

namespace warpsim::gpus {
std::span<const std::pair<std::string_view, std::string_view>> embedded_files();

namespace {
std::string id_of(std::string_view path) { return std::filesystem::path(path).stem().string(); }
}  // namespace

bool is_profile_path(const std::string& id_or_path) {
  return id_or_path.find('/') != std::string::npos || id_or_path.ends_with(".toml");
}

std::vector<std::string> builtin_profile_ids() {
  std::vector<std::string> ids;
  for (const auto& [path, text] : embedded_files()) ids.push_back(id_of(path));
  std::sort(ids.begin(), ids.end());
  return ids;
}

Profile load_profile(const std::string& id_or_path) {
  if (is_profile_path(id_or_path)) {
    return parse_profile(read_text_file(id_or_path), id_or_path, id_of(id_or_path));
  }
  std::string id = id_or_path;  // ids are lower case; RTX2080 means rtx2080
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const auto& [path, text] : embedded_files()) {
    if (id_of(path) == id) return parse_profile(text, "gpus/" + std::string(path), id);
  }
  throw InputError("unknown GPU " + quote_for_message(id_or_path) + " (built-in: " + join_commas(builtin_profile_ids()) +
                   "; or give a path to a .toml profile)");
}

}  // namespace warpsim::gpus
