// libFuzzer harness: GPU profile TOML -> parse_profile. InputError is the expected answer to a
// bad profile; any other exception, crash, sanitizer report or hang is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const warpsim::gpus::Profile profile = warpsim::gpus::parse_profile(text, "fuzz.toml", "fuzz");
    (void)profile.core_packages_per_sm();
  } catch (const warpsim::InputError&) {
    // Rejected with a located message: the normal answer.
  }
  return 0;
}
