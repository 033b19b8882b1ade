// Reading a whole text file, with the failure as an InputError that names the file.
#pragma once

#include <cstdint>
#include <string>

namespace warpsim {

inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{256} << 20;  // 256 MiB

// Throws InputError for a missing, unreadable, non-regular or oversized file.
std::string read_text_file(const std::string& path);

}  // namespace warpsim
