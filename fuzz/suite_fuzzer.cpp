// libFuzzer harness: sweep suite TOML -> parse_suite (what load_suite runs on a file's text).
// GPU ids resolve to the built-in profiles; InputError is the expected answer to a bad suite;
// any other exception, crash, sanitizer report or hang is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/driver/suite.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const warpsim::sim::driver::Suite suite = warpsim::sim::driver::parse_suite(text, "fuzz.toml");
    (void)suite.point_count();
  } catch (const warpsim::InputError&) {
    // Rejected with a located message: the normal answer.
  }
  return 0;
}
