// What a sweep reads and writes: the points of a suite or a point list, and the writer of its
// output. Shared by warpsim::sweep and the CLI's MPI sweep (every rank reads the input).
#pragma once

#include <memory>
#include <optional>

#include "warpsim/point_list/point_list.hpp"
#include "warpsim/driver/suite.hpp"
#include "warpsim/sweep_report/sweep_report.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim::api {

struct SweepSetup {
  explicit SweepSetup(const SweepRequest& request, Format format);  // loads and checks; throws Error
  const sim::driver::SweepPoints& points() const;

  std::optional<sim::driver::Suite> suite;
  std::unique_ptr<sim::driver::SweepPoints> suite_points;
  std::optional<sim::driver::PointList> point_list;
  std::optional<sim::report::SweepWriter> writer;
};

}  // namespace warpsim::api
