// The output of `warpsim evaluate`: per-experiment, per-workload and overall errors (eq. 15-19)
// and the time-ratio errors (eq. 21, 22), as a text table (percentages rounded), JSON or CSV
// (full precision, errors as fractions).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "warpsim/evaluate/join.hpp"
#include "warpsim/evaluate/metrics.hpp"

namespace warpsim::sim::evaluate {

struct Evaluation {
  std::string predicted_source;
  std::string measured_source;
  std::string x;  // the x-axis column
  JoinedData data;
  Summary summary;                   // of data.experiments
  std::optional<RatioSummary> ratio;  // when a pair of workloads was compared
};

std::string render_evaluation_text(const Evaluation& evaluation);
nlohmann::ordered_json evaluation_json(const Evaluation& evaluation);
// One row per experiment, workload, ratio experiment and the overall figures, told apart by the
// first column, `level`: experiment, workload, overall, ratio, ratio_overall.
std::string render_evaluation_csv(const Evaluation& evaluation);

}  // namespace warpsim::sim::evaluate
