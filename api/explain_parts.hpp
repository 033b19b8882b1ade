// The parts of an explanation (explain.cpp puts them together): hot lines and occupancy curves.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "explain.hpp"

namespace warpsim::api {

// Each instruction's warp-time put on its lines (a calc's spread over its PTX lines by their
// instructions), most time first; `source_lines` receives the CUDA lines of the PTX's `.loc`.
std::vector<HotLine> hot_lines(const ExplainInputs& in, const sim::core::WarpTime& time, std::vector<HotLine>& source_lines);

// The SASS instructions of the hot PTX lines of `file` (the .ptx), each with its line's time split
// evenly over the SASS instructions that name it, most time first.
std::vector<HotSass> hot_sass(const std::vector<HotLine>& ptx_lines, const std::string& file, const sass::Listing& listing);

using LineKey = std::pair<std::string, int>;  // file, line

// PTX line -> the CUDA file and line of the `.loc` in force there (none without nvcc -lineinfo); a
// toolkit function inlined (atomicAdd) maps to the kernel line that called it (`inlined_at`).
std::map<int, LineKey> cuda_lines(const std::string& ptx_path);

// The text without its leading and trailing blanks.
std::string trimmed(const std::string& text);

// A SASS instruction as the listing shows it: "@P0 FFMA R29, R29, R27, R28".
std::string sass_text(const sass::Instruction& instruction);

// A file's lines, or none where it cannot be read (a CUDA source not on this machine).
std::vector<std::string> file_lines(const std::string& path);

// Occupancy against block size, registers per thread and shared memory per block, the others
// held at the kernel's; points where the kernel could not run are left out.
std::vector<OccupancyCurve> occupancy_curves(const gpus::Profile& gpu, const sim::occupancy::KernelResources& kernel);

}  // namespace warpsim::api
