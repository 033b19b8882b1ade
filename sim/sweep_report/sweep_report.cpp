#include "warpsim/sweep_report/sweep_report.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <nlohmann/json.hpp>
#include <variant>

#include "warpsim/report/csv_table.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/sweep_columns.hpp"
#include "warpsim/report/text_table.hpp"

namespace warpsim::sim::report {

using Cell = std::variant<std::monostate, std::string, std::int64_t, double>;

struct SweepColumn {
  std::string name;
  std::function<Cell(const driver::SweepRow&)> value;
  int text_decimals = -1;  // doubles in text tables; -1: the column is not in the text table
};

namespace {

using Column = SweepColumn;

const std::vector<Column>& columns() {
  using Row = driver::SweepRow;
  static const std::vector<Column> list = {
      {"gpu", [](const Row& r) -> Cell { return r.gpu->id; }, 0},
      {"workload", [](const Row& r) -> Cell { return r.workload->name(); }, 0},
      {"", nullptr, 0},  // the axes go here
      {"blocks", [](const Row& r) -> Cell { return r.prediction.launch.blocks; }, 0},
      {"threads", [](const Row& r) -> Cell { return r.prediction.launch.threads_per_block; }, 0},
      {"time_us", [](const Row& r) -> Cell { return r.prediction.time_us; }, 3},
      {"launches", [](const Row& r) -> Cell { return r.prediction.launches; }, 0},
      {"launch_time_us", [](const Row& r) -> Cell { return r.prediction.per_launch.time_us; }, -1},
      {"cycles_per_launch", [](const Row& r) -> Cell { return r.prediction.per_launch.cycles; }, -1},
      {"elements", [](const Row& r) -> Cell { return r.prediction.elements; }, -1},
      {"total_threads", [](const Row& r) -> Cell { return r.prediction.total_threads; }, -1},
      {"blocks_per_sm", [](const Row& r) -> Cell { return r.prediction.per_launch.plan.blocks_per_sm; }, -1},
      {"active_blocks_per_sm",
       [](const Row& r) -> Cell { return r.prediction.per_launch.plan.active_blocks_per_sm; }, -1},
      {"warps_per_core_package",
       [](const Row& r) -> Cell { return r.prediction.per_launch.plan.warps_per_core_package; }, 0},
      {"full_runs", [](const Row& r) -> Cell { return r.prediction.per_launch.plan.full_runs; }, 0},
      {"remaining_blocks",
       [](const Row& r) -> Cell { return r.prediction.per_launch.plan.remaining_blocks; }, -1},
      {"full_run_cycles",
       [](const Row& r) -> Cell { return isa::to_cycles(r.prediction.per_launch.full_run_cycles); }, -1},
      {"remaining_run_cycles",
       [](const Row& r) -> Cell { return isa::to_cycles(r.prediction.per_launch.remaining_run_cycles); }, -1},
      {"tp_us", [](const Row& r) -> Cell { return r.prediction.calibration.tp_us; }, -1},
      {"tm", [](const Row& r) -> Cell { return isa::to_cycles(r.prediction.calibration.tm); }, -1},
  };
  // The result columns must be the ones sweep_result_columns() names for readers of our CSV.
  static const bool agrees = [] {
    std::vector<std::string> names;
    for (std::size_t i = 3; i < list.size(); ++i) names.push_back(list[i].name);
    if (names != sweep_result_columns()) throw std::logic_error("sweep_report: columns differ from sweep_result_columns()");
    return true;
  }();
  (void)agrees;
  return list;
}

// The columns for these axes: each axis reads the row's point (nothing when it lacks the axis).
// Copied columns come first, read from the row's cells; sweep columns of the same name give way.
std::vector<Column> columns_with(const std::vector<std::string>& axes, const std::vector<std::string>& copied) {
  std::vector<Column> out;
  for (std::size_t i = 0; i < copied.size(); ++i) {
    out.push_back({copied[i], [i](const driver::SweepRow& r) -> Cell {
                     if (r.cells == nullptr || (*r.cells)[i].empty()) return std::monostate{};
                     return (*r.cells)[i];
                   }, 0});
  }
  const auto is_copied = [&](const std::string& name) { return std::find(copied.begin(), copied.end(), name) != copied.end(); };
  for (const Column& column : columns()) {
    if (column.value) {
      if (!is_copied(column.name)) out.push_back(column);
      continue;
    }
    for (const std::string& axis : axes) {
      if (is_copied(axis)) continue;
      out.push_back({axis, [axis](const driver::SweepRow& r) -> Cell {
                       for (const auto& [name, value] : r.point) {
                         if (name == axis) return value;
                       }
                       return std::monostate{};
                     }, 0});
    }
  }
  return out;
}

std::string cell_text(const Cell& cell, int decimals) {
  if (std::holds_alternative<std::monostate>(cell)) return {};
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  const double d = std::get<double>(cell);
  return decimals > 0 ? fixed(d, decimals) : shortest(d);
}

}  // namespace

std::vector<std::string> sweep_columns(const std::vector<std::string>& axes) {
  std::vector<std::string> names;
  for (const Column& column : columns_with(axes, {})) names.push_back(column.name);
  return names;
}

namespace {

nlohmann::ordered_json row_json(const driver::SweepRow& row, const std::vector<Column>& columns) {
  nlohmann::ordered_json object;
  for (const Column& column : columns) {
    std::visit(
        [&](const auto& v) {
          if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) {
            object[column.name] = nullptr;
          } else {
            object[column.name] = v;
          }
        },
        column.value(row));
  }
  return object;
}

}  // namespace

nlohmann::ordered_json sweep_row_json(const driver::SweepRow& row, const std::vector<std::string>& axes) {
  return row_json(row, columns_with(axes, {}));
}

SweepWriter::SweepWriter(SweepFormat format, std::vector<std::string> axes, std::vector<std::string> copied)
    : format_(format), columns_(columns_with(axes, copied)) {}
SweepWriter::~SweepWriter() = default;

std::string SweepWriter::begin() {
  switch (format_) {
    case SweepFormat::csv: {
      std::string header;
      for (const Column& column : columns_) header += (header.empty() ? "" : ",") + csv_field(column.name);
      return header + '\n';
    }
    case SweepFormat::json: return "[";
    case SweepFormat::text: return {};
  }
  return {};
}

std::string SweepWriter::add(const driver::SweepRow& row) { return add_formatted(format(row)); }

std::string SweepWriter::format(const driver::SweepRow& row) const {
  switch (format_) {
    case SweepFormat::csv: {
      std::string line;
      for (const Column& column : columns_) line += (line.empty() ? "" : ",") + csv_field(cell_text(column.value(row), -1));
      return line + '\n';
    }
    case SweepFormat::json: {
      // The array as nlohmann's dump(2) lays it out: objects indented by 2, fields by 4.
      std::string indented;
      for (const char c : row_json(row, columns_).dump(2)) indented += c == '\n' ? std::string("\n  ") : std::string(1, c);
      return indented;
    }
    case SweepFormat::text: {  // each cell as LENGTH:TEXT
      std::string cells;
      for (const Column& column : columns_) {
        if (column.text_decimals < 0) continue;
        const std::string cell = cell_text(column.value(row), column.text_decimals);
        cells += std::to_string(cell.size()) + ':' + cell;
      }
      return cells;
    }
  }
  return {};
}

std::string SweepWriter::add_formatted(const std::string& piece) {
  ++rows_;
  switch (format_) {
    case SweepFormat::csv: return piece;
    case SweepFormat::json: return (rows_ == 1 ? "\n  " : ",\n  ") + piece;
    case SweepFormat::text: {
      std::vector<std::string> cells;
      for (std::size_t at = 0; at < piece.size();) {
        const std::size_t colon = piece.find(':', at);
        const std::size_t length = std::stoul(piece.substr(at, colon - at));
        cells.push_back(piece.substr(colon + 1, length));
        at = colon + 1 + length;
      }
      text_rows_.push_back(std::move(cells));
      return {};
    }
  }
  return {};
}

std::string SweepWriter::finish() {
  switch (format_) {
    case SweepFormat::csv: return {};
    case SweepFormat::json: return rows_ == 0 ? "]\n" : "\n]\n";
    case SweepFormat::text: {
      std::vector<std::string> headers;
      for (const Column& column : columns_) {
        if (column.text_decimals >= 0) headers.push_back(column.name);
      }
      TextTable table(headers);
      for (auto& cells : text_rows_) table.add_row(std::move(cells));
      text_rows_.clear();
      return table.render();
    }
  }
  return {};
}

std::string render_sweep(const std::vector<driver::SweepRow>& rows, SweepFormat format, const std::vector<std::string>& axes) {
  SweepWriter writer(format, axes);
  std::string out = writer.begin();
  for (const driver::SweepRow& row : rows) out += writer.add(row);
  return out + writer.finish();
}

}  // namespace warpsim::sim::report
