#include "sim/report/sweep_report.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <variant>

#include "sim/report/number_format.hpp"
#include "sim/report/text_table.hpp"

namespace warpsim::sim::report {
namespace {

using Cell = std::variant<std::string, std::int64_t, double>;

struct Column {
  std::string name;
  std::function<Cell(const driver::SweepRow&)> value;
  int text_decimals = -1;  // doubles in text tables; -1: the column is not in the text table
};

const std::vector<Column>& columns() {
  using Row = driver::SweepRow;
  static const std::vector<Column> list = {
      {"gpu", [](const Row& r) -> Cell { return r.gpu->id; }, 0},
      {"workload", [](const Row& r) -> Cell { return std::string(r.workload->name); }, 0},
      {"K", [](const Row& r) -> Cell { return r.point.K; }, 0},
      {"N", [](const Row& r) -> Cell { return r.point.N; }, 0},
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
  return list;
}

std::string cell_text(const Cell& cell, int decimals) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  const double d = std::get<double>(cell);
  return decimals > 0 ? fixed(d, decimals) : shortest(d);
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

}  // namespace

const std::vector<std::string>& sweep_columns() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Column& column : columns()) out.push_back(column.name);
    return out;
  }();
  return names;
}

nlohmann::ordered_json sweep_row_json(const driver::SweepRow& row) {
  nlohmann::ordered_json object;
  for (const Column& column : columns()) {
    std::visit([&](const auto& v) { object[column.name] = v; }, column.value(row));
  }
  return object;
}

std::string render_sweep(const std::vector<driver::SweepRow>& rows, SweepFormat format) {
  switch (format) {
    case SweepFormat::csv: {
      std::string out;
      for (const Column& column : columns()) out += (out.empty() ? "" : ",") + column.name;
      out += '\n';
      for (const auto& row : rows) {
        std::string line;
        for (const Column& column : columns()) {
          line += (line.empty() ? "" : ",") + csv_field(cell_text(column.value(row), -1));
        }
        out += line + '\n';
      }
      return out;
    }
    case SweepFormat::json: {
      nlohmann::ordered_json array = nlohmann::ordered_json::array();
      for (const auto& row : rows) array.push_back(sweep_row_json(row));
      return array.dump(2) + '\n';
    }
    case SweepFormat::text: {
      std::vector<std::string> headers;
      for (const Column& column : columns()) {
        if (column.text_decimals >= 0) headers.push_back(column.name);
      }
      TextTable table(headers);
      for (const auto& row : rows) {
        std::vector<std::string> cells;
        for (const Column& column : columns()) {
          if (column.text_decimals >= 0) cells.push_back(cell_text(column.value(row), column.text_decimals));
        }
        table.add_row(std::move(cells));
      }
      return table.render();
    }
  }
  return {};
}

}  // namespace warpsim::sim::report
