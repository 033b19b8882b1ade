// libFuzzer harness: point-list CSV -> parse_point_list (what `sweep --points` runs on a file's
// text). GPU ids resolve to the built-in profiles, kernels to the named workloads or to .kp and
// .ptx paths against the working directory; InputError is the expected answer to a bad list. A
// list that parses must give every row its GPU, workload and cells (aborts otherwise).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/point_list/point_list.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const warpsim::sim::driver::PointList list = warpsim::sim::driver::parse_point_list(text, "fuzz.csv");
    for (const warpsim::sim::driver::PointRow& row : list.rows) {
      if (row.gpu == nullptr || row.workload == nullptr || row.workload->model == nullptr ||
          row.cells.size() != list.columns.size()) {
        std::fprintf(stderr, "point_list_fuzzer: row on line %d is incomplete\n", row.line);
        std::abort();
      }
    }
  } catch (const warpsim::InputError&) {
    // Rejected with a located message: the normal answer.
  }
  return 0;
}
