#include "warpsim/workload/ptxas_cache.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace warpsim::sim::workload {
namespace {

constexpr const char* kHeader = "warpsim cache 1";

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

std::filesystem::path entry_path(const std::string& kind, const std::string& key) {
  return std::filesystem::path(cache_directory()) / kind / (content_hash(key) + ".txt");
}

}  // namespace

std::string cache_directory() {
  if (std::string dir = environment("WARPSIM_CACHE_DIR"); !dir.empty()) return dir;
  if (const std::string xdg = environment("XDG_CACHE_HOME"); !xdg.empty()) return xdg + "/warpsim";
  if (const std::string home = environment("HOME"); !home.empty()) return home + "/.cache/warpsim";
  return {};
}

std::string content_hash(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(hash));
  return digits;
}

std::optional<std::string> cache_find(const std::string& kind, const std::string& key) {
  if (cache_directory().empty()) return std::nullopt;
  std::ifstream in(entry_path(kind, key), std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  const std::string expected = std::string(kHeader) + '\n' + key + '\n';
  const std::string content = text.str();
  if (!content.starts_with(expected)) return std::nullopt;  // another key with the same hash, or an old format
  return content.substr(expected.size());
}

void cache_store(const std::string& kind, const std::string& key, const std::string& value) {
  if (cache_directory().empty()) return;
  const std::filesystem::path path = entry_path(kind, key);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) return;
  static std::atomic<unsigned> writes{0};  // threads of one process write files of their own
  const std::filesystem::path temporary =
      path.string() + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(writes.fetch_add(1));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << kHeader << '\n' << key << '\n' << value;
    if (!out) return;
  }
  std::filesystem::rename(temporary, path, error);
  if (error) std::filesystem::remove(temporary, error);
}

}  // namespace warpsim::sim::workload
