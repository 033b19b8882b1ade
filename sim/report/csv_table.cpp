#include "warpsim/report/csv_table.hpp"

#include <charconv>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/isa/text_list.hpp"

namespace warpsim::sim::report {

std::size_t CsvTable::column(const std::string& name, const std::string& why) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  throw InputError(SourceLocation{source, 1, 0}, "no column " + quote_for_message(name) + " (" +
                                                     (why.empty() ? "" : why + "; ") + "columns: " + join_commas(header) + ")");
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

std::optional<double> parse_number(std::string_view text) {
  double value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

CsvTable parse_csv(const std::string& text, const std::string& source) {
  CsvTable table;
  table.source = source;
  std::vector<std::string> record(1);
  int line = 1, record_line = 1;
  bool quoted = false, any = false;
  const auto finish_record = [&] {
    if (record.size() == 1 && record[0].empty()) {  // blank line
      return;
    }
    if (table.header.empty()) {
      table.header = record;
    } else {
      if (record.size() != table.header.size()) {
        throw InputError(SourceLocation{source, record_line, 0},
                         std::to_string(record.size()) + " fields where the header has " +
                             std::to_string(table.header.size()));
      }
      table.rows.push_back(record);
      table.lines.push_back(record_line);
    }
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    any = true;
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        record.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        record.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.emplace_back();
    } else if (c == '\n') {
      finish_record();
      record.assign(1, std::string());
      record_line = ++line;
    } else if (c != '\r') {
      record.back() += c;
    }
  }
  if (quoted) throw InputError(SourceLocation{source, record_line, 0}, "unterminated quoted field");
  finish_record();
  if (!any || table.header.empty()) throw InputError(SourceLocation{source}, "empty CSV file (no header)");
  return table;
}

CsvTable read_csv(const std::string& path) { return parse_csv(read_text_file(path), path); }

}  // namespace warpsim::sim::report
