// libFuzzer harness: an architecture pipe table (TOML, gpus/pipes/) -> parse_pipe_table.
// InputError is the expected answer to a bad table; any other exception, crash, sanitizer report
// or hang is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "warpsim/gpus/pipe_table.hpp"
#include "warpsim/isa/input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const warpsim::gpus::PipeTable table = warpsim::gpus::parse_pipe_table(text, "fuzz.toml");
    (void)table.throughput_of(warpsim::isa::Pipe::fp32);
  } catch (const warpsim::InputError&) {
    // Rejected with a located message: the normal answer.
  }
  return 0;
}
