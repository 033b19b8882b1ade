// The tables in a profiler's CSV output (nvprof, nsys stats), for profiler_import: where each
// one is, its header, its unit row, and the scale of its time columns to microseconds.
#pragma once

#include <string>
#include <vector>

#include "warpsim/report/csv_table.hpp"

namespace warpsim::sim::evaluate {

struct ProfilerTable {
  report::CsvTable csv;            // header and data rows, with their lines in the whole file
  std::vector<std::string> units;  // nvprof's units row ("", "%", "us", ...); empty when none
  int header_line = 0;
  int units_line = 0;

  // Index of the first column whose name is `name` or starts with `name` followed by a space or
  // '(' ("Avg" finds "Avg (ns)"); -1 when none.
  int find(const std::string& name) const;
  // The cell as a non-negative number (thousands separators allowed); InputError at its line.
  double number(std::size_t row, int column) const;
  // The cell as microseconds, in the column's unit: from the units row, else a "(ns)"-style
  // suffix of its name, else `default_unit`; InputError when there is none or it is not a time.
  double microseconds(std::size_t row, int column, const std::string& default_unit) const;
};

// Every table of the output: a header row naming a "Name" column and a time column (one
// starting with "Time", "Duration", "Avg", "Med"), up to the next blank or `==` line. Lines
// outside tables (nvprof's `==PID==` lines, nsys's "Processing [...]" lines) are skipped.
std::vector<ProfilerTable> find_profiler_tables(const std::string& text, const std::string& source);

}  // namespace warpsim::sim::evaluate
