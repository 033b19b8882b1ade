// Reading a CSV file with a header row (RFC 4180 quoting), for `warpsim plot`; quoting fields to write one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::sim::report {

struct CsvTable {
  std::string source;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  // source line of each row

  // Index of a column; throws InputError listing the columns when there is none (with `why` the
  // column is needed, when given).
  std::size_t column(const std::string& name, const std::string& why = {}) const;
};

// A field for CSV output, quoted (RFC 4180) when it holds a comma, quote or line break.
std::string csv_field(const std::string& text);

// The number a whole cell spells ("8", "8.0", "1e-3", also "inf"), or nothing.
std::optional<double> parse_number(std::string_view text);

// Throws InputError (file and line) for an unreadable file, an empty one, unterminated quotes or
// rows whose field count differs from the header's.
CsvTable read_csv(const std::string& path);
CsvTable parse_csv(const std::string& text, const std::string& source);

}  // namespace warpsim::sim::report
