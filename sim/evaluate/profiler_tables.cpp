#include "warpsim/evaluate/profiler_tables.hpp"

#include <cctype>
#include <cmath>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::evaluate {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(text.substr(start, end - start));
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  for (auto& line : lines) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
  }
  return lines;
}

bool starts_with_word(const std::string& text, const std::string& word) {
  return text.rfind(word, 0) == 0 && (text.size() == word.size() || text[word.size()] == ' ' || text[word.size()] == '(');
}

// A header row: CSV fields with a "Name" column and a time column.
bool is_header(const std::string& line) {
  if (line.find("Name") == std::string::npos) return false;
  std::vector<std::string> fields;
  try {
    fields = report::parse_csv(line, "").header;
  } catch (const InputError&) {
    return false;
  }
  bool name = false, time = false;
  for (const std::string& f : fields) {
    name = name || f == "Name";
    time = time || f.rfind("Time", 0) == 0 || f == "Duration" || starts_with_word(f, "Avg") || starts_with_word(f, "Med") ||
           f == "Average";
  }
  return name && time;
}

bool ends_table(const std::string& line) {
  return line.find_first_not_of(" \t") == std::string::npos || line.rfind("==", 0) == 0;
}

// nvprof's units row: no field is a number ("", "%", "us", "GB/s", ...).
bool is_units_row(const std::vector<std::string>& fields) {
  for (const std::string& f : fields) {
    if (!f.empty() && (std::isdigit(static_cast<unsigned char>(f[0])) || f[0] == '-' || f[0] == '.')) return false;
  }
  return true;
}

}  // namespace

int ProfilerTable::find(const std::string& name) const {
  for (std::size_t i = 0; i < csv.header.size(); ++i) {
    if (starts_with_word(csv.header[i], name)) return static_cast<int>(i);
  }
  return -1;
}

double ProfilerTable::microseconds(std::size_t row, int column, const std::string& default_unit) const {
  const std::string& header = csv.header[column];
  std::string unit = default_unit;
  int line = header_line;
  if (!units.empty()) {
    unit = units[column];
    line = units_line;
  } else if (const auto open = header.rfind('('); open != std::string::npos && header.back() == ')') {
    unit = header.substr(open + 1, header.size() - open - 2);
  }
  const double value = number(row, column);
  if (unit == "s") return value * 1e6;
  if (unit == "ms") return value * 1e3;
  if (unit == "us") return value;
  if (unit == "ns") return value / 1e3;
  throw InputError(SourceLocation{csv.source, line, 0},
                   "column " + quote_for_message(header) + " has unit " + quote_for_message(unit) + ", not s, ms, us or ns");
}

double ProfilerTable::number(std::size_t row, int column) const {
  std::string text;
  for (const char c : csv.rows[row][column]) {
    if (c != ',' && c != ' ') text += c;
  }
  const double value = report::parse_number(text).value_or(-1);
  if (!std::isfinite(value) || value < 0) {
    throw InputError(SourceLocation{csv.source, csv.lines[row], 0},
                     csv.header[column] + " " + quote_for_message(csv.rows[row][column]) + " is not a non-negative number");
  }
  return value;
}

std::vector<ProfilerTable> find_profiler_tables(const std::string& text, const std::string& source) {
  const std::vector<std::string> lines = split_lines(text);
  std::vector<ProfilerTable> tables;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!is_header(lines[i])) continue;
    std::size_t end = i + 1;
    while (end < lines.size() && !ends_table(lines[end])) ++end;
    // The table alone, every other line left blank so that parse_csv counts lines as the file does.
    std::string only(i, '\n');
    for (std::size_t k = i; k < end; ++k) only += lines[k] + '\n';
    ProfilerTable table;
    table.csv = report::parse_csv(only, source);
    table.header_line = static_cast<int>(i) + 1;
    if (!table.csv.rows.empty() && is_units_row(table.csv.rows.front())) {
      table.units = table.csv.rows.front();
      table.units_line = table.csv.lines.front();
      table.csv.rows.erase(table.csv.rows.begin());
      table.csv.lines.erase(table.csv.lines.begin());
    }
    tables.push_back(std::move(table));
    i = end;
  }
  return tables;
}

}  // namespace warpsim::sim::evaluate
