// Reading a CSV file with a header row (RFC 4180 quoting), for `warpsim plot`.
#pragma once

#include <string>
#include <vector>

namespace warpsim::sim::report {

struct CsvTable {
  std::string source;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;  // source line of each row

  // Index of a column; throws InputError listing the columns when there is none.
  std::size_t column(const std::string& name) const;
};

// Throws InputError (file and line) for an unreadable file, an empty one, unterminated quotes or
// rows whose field count differs from the header's.
CsvTable read_csv(const std::string& path);
CsvTable parse_csv(const std::string& text, const std::string& source);

}  // namespace warpsim::sim::report
