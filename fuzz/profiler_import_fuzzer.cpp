// libFuzzer harness: profiler CSV text (nvprof or nsys, chosen by the first byte) -> read_profile,
// what `warpsim import` runs on a file's text. InputError is the expected answer to a bad file; a
// time it returns must be finite and non-negative (aborts otherwise).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/evaluate/profiler_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace warpsim::sim::evaluate;
  if (size == 0) return 0;
  const Profiler from = data[0] % 2 == 0 ? Profiler::nvprof : Profiler::nsys;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const KernelTime time = read_profile(text, "fuzz.csv", from, "");
    const bool bad_launch = time.launch_us && !(std::isfinite(*time.launch_us) && *time.launch_us >= 0);
    if (!std::isfinite(time.time_us) || time.time_us < 0 || bad_launch) {
      std::fprintf(stderr, "profiler_import_fuzzer: time %g, launch %g\n", time.time_us, time.launch_us.value_or(0));
      std::abort();
    }
  } catch (const warpsim::InputError&) {
    // Rejected with a located message: the normal answer.
  }
  return 0;
}
