// What the charts share: tick positions and labels of a linear axis, and the series palette
// (line_chart.cpp, bar_chart.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace warpsim::sim::report {

// Ticks at 1-2-5 steps from `low` to `high`, about six of them.
std::vector<double> linear_ticks(double low, double high);
// "100000", not "1e+05"; "0.6", not "0.6000000000000001".
std::string tick_label(double value);
// The i-th colour of the palette (repeating).
const char* palette_colour(std::size_t i);

}  // namespace warpsim::sim::report
