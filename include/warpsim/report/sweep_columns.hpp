// The names of a sweep's result columns, in output order (after gpu, workload and the axes).
// Separate from sweep_report so that readers of sweep CSV files (evaluate) need not link the
// simulator to tell results from parameters.
#pragma once

#include <string>
#include <vector>

namespace warpsim::sim::report {

// blocks, threads, time_us, launches, ...: what sweep_report writes for every row.
const std::vector<std::string>& sweep_result_columns();

}  // namespace warpsim::sim::report
