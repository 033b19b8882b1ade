// Sweep results as CSV, JSON or a text table. One column list serves all three.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "warpsim/driver/sweep.hpp"

namespace warpsim::sim::report {

enum class SweepFormat { text, csv, json };

struct SweepColumn;  // a column's name and how to read it from a row (sweep_report.cpp)

// Column names in output order: gpu, workload, the axes, then blocks, threads, time_us, ...
std::vector<std::string> sweep_columns(const std::vector<std::string>& axes);

// One row as a JSON object with the sweep columns as keys (null for an axis the row lacks).
nlohmann::ordered_json sweep_row_json(const driver::SweepRow& row, const std::vector<std::string>& axes);

// Writes rows as they come, so a sweep of millions of points needs constant memory in CSV and
// JSON (a text table is aligned, so it keeps its rows until finish()). Numbers in CSV and JSON
// carry full precision; text rounds.
class SweepWriter {
 public:
  // `copied`: a point list's input columns, written first from each row's cells (empty: null in
  // JSON); the sweep columns follow, less those of the same names.
  SweepWriter(SweepFormat format, std::vector<std::string> axes, std::vector<std::string> copied = {});
  ~SweepWriter();
  std::string begin();                          // CSV header, JSON "["
  std::string add(const driver::SweepRow& row);  // one CSV line or JSON object; "" for text
  // add() in two halves, for rows formatted in one process and written by another (MPI,
  // docs/cluster.md): format() gives the row's piece whatever its position (a CSV line, a JSON
  // object, text cells encoded), add_formatted() places it and returns what add() would.
  std::string format(const driver::SweepRow& row) const;
  std::string add_formatted(const std::string& piece);
  std::string finish();                         // JSON "]", or the whole text table

 private:
  SweepFormat format_;
  std::vector<SweepColumn> columns_;
  std::int64_t rows_ = 0;
  std::vector<std::vector<std::string>> text_rows_;
};

// All rows at once (begin + add... + finish).
std::string render_sweep(const std::vector<driver::SweepRow>& rows, SweepFormat format, const std::vector<std::string>& axes);

}  // namespace warpsim::sim::report
