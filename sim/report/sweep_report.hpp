// Sweep results as CSV, JSON or a text table. One column list serves all three.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/driver/suite.hpp"

namespace warpsim::sim::report {

enum class SweepFormat { text, csv, json };

// Column names in output order; CSV's header starts gpu,workload,K,N,blocks,threads,time_us.
const std::vector<std::string>& sweep_columns();

// One row as a JSON object with the sweep columns as keys.
nlohmann::ordered_json sweep_row_json(const driver::SweepRow& row);

std::string render_sweep(const std::vector<driver::SweepRow>& rows, SweepFormat format);

}  // namespace warpsim::sim::report
