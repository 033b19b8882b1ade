// libFuzzer harness: PTX text -> parse_ptx. InputError is the expected answer to bad text; any
// other exception, crash, sanitizer report or hang is a finding (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/isa/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const warpsim::ptx::Module module = warpsim::ptx::parse_ptx(text, "fuzz.ptx");
    (void)module;
  } catch (const warpsim::InputError&) {
    // Rejected with a located message: the normal answer to bad input.
  }
  return 0;
}
