// libFuzzer harness: CSV text -> parse_csv (what read_csv runs on a file's text). InputError is
// the expected answer to a bad table; anything else is a finding. A table that parses must be
// rectangular: every row as wide as the header, one source line per row (aborts otherwise).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/report/csv_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const warpsim::sim::report::CsvTable table = warpsim::sim::report::parse_csv(text, "fuzz.csv");
    if (table.lines.size() != table.rows.size()) {
      std::fprintf(stderr, "csv_fuzzer: %zu rows but %zu line numbers\n", table.rows.size(), table.lines.size());
      std::abort();
    }
    for (const auto& row : table.rows) {
      if (row.size() != table.header.size()) {
        std::fprintf(stderr, "csv_fuzzer: a row has %zu fields, the header %zu\n", row.size(), table.header.size());
        std::abort();
      }
    }
    if (!table.header.empty()) (void)table.column(table.header.front());
  } catch (const warpsim::InputError&) {
    // Rejected with a located message: the normal answer.
  }
  return 0;
}
