// libFuzzer harness: nvdisasm listing text -> sass::read_listing, then pipe_of on every
// instruction for every compute capability. A listing that reads must hold together (aborts
// otherwise): offsets increasing, labels within the code, register ranges within R0..R254, the
// control bits those of the second word, tensor units and access widths non-negative.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/sass/listing.hpp"
#include "warpsim/sass/opcode_class.hpp"

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "sass_listing_fuzzer: %s\n", what);
    std::abort();
  }
}

void check_ranges(const std::vector<warpsim::sass::RegisterRange>& ranges) {
  for (const auto& r : ranges) check(r.first >= 0 && r.count >= 1 && r.first + r.count <= 255, "a register range outside R0..R254");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace warpsim::sass;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Listing listing;
  try {
    listing = read_listing(text, "fuzz.sass");
  } catch (const warpsim::InputError&) {
    return 0;  // rejected: the normal answer to bad text
  }
  check(!listing.functions.empty(), "a listing without functions was accepted");
  for (const Function& f : listing.functions) {
    check(listing.find(f.name) == &f, "find() misses a function or names two");
    check(f.padding_start() <= f.code.size(), "padding starts past the code");
    for (const auto& [label, index] : f.labels) check(index <= f.code.size(), "a label past the code");
    for (std::size_t i = 0; i < f.code.size(); ++i) {
      const Instruction& in = f.code[i];
      check(i == 0 || in.offset > f.code[i - 1].offset, "offsets do not increase");
      check(in.control == decode_control(in.high), "control bits differ from the second word's");
      check(!in.opcode.empty(), "an empty opcode");
      check_ranges(in.writes);
      check_ranges(in.reads);
      check(in.predicate_writes < 128 && in.predicate_reads < 128, "a predicate above P6");
      for (const int cc : {70, 75, 80, 86, 89, 90, 100, 120}) {
        const OpcodeClass c = pipe_of(in, cc);
        check(c.units >= 0 && c.access_bits >= 0, "negative units or width");
      }
    }
  }
  return 0;
}
