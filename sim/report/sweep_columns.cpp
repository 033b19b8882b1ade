#include "warpsim/report/sweep_columns.hpp"

namespace warpsim::sim::report {

const std::vector<std::string>& sweep_result_columns() {
  static const std::vector<std::string> names = {
      "blocks",          "threads",          "time_us",       "launches",           "launch_time_us",
      "cycles_per_launch", "elements",       "total_threads", "blocks_per_sm",      "active_blocks_per_sm",
      "warps_per_core_package", "full_runs", "remaining_blocks", "full_run_cycles", "remaining_run_cycles",
      "tp_us",           "tm"};
  return names;
}

}  // namespace warpsim::sim::report
