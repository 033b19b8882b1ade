// libFuzzer harness: .kp text -> parse_kp. A program that parses must survive the round trip
// to_kp -> parse_kp with the same meaning (aborts otherwise), and binding it with no parameter
// values, then counting it, may only throw InputError. Anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/isa/program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace warpsim::isa;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Program program;
  try {
    program = parse_kp(text, "fuzz.kp");
  } catch (const warpsim::InputError&) {
    return 0;  // rejected: the normal answer to bad text
  }
  const std::string written = to_kp(program);
  try {
    const Program again = parse_kp(written, "fuzz-roundtrip.kp");
    if (!again.same_meaning(program)) {
      std::fprintf(stderr, "kp_fuzzer: to_kp round trip changed the program; to_kp wrote:\n%s\n", written.c_str());
      std::abort();
    }
  } catch (const warpsim::InputError& e) {
    std::fprintf(stderr, "kp_fuzzer: parse_kp rejects what to_kp wrote (%s):\n%s\n", e.describe().c_str(), written.c_str());
    std::abort();
  }
  try {
    const Program bound = program.bind({});
    (void)bound.dynamic_counts();
  } catch (const warpsim::InputError&) {
    // An unbound parameter, or counts that overflow: the normal answer.
  }
  return 0;
}
