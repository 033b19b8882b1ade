// Every entry of every committed PTX kernel (workloads/, tests/ptx/cases/, tests/ptx/regressions/)
// at some parameter values and launch shapes: the sweep that the PTX fast-path and paper-timing
// tests share.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "warpsim/ptx/kernel_params.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "support/sanitizer_sample.hpp"

namespace warpsim::testing_support {

// The committed .ptx files under `source_dir`, sorted; those whose path contains `skip` (when not
// empty) are left out.
inline std::vector<std::filesystem::path> committed_ptx(const std::string& source_dir, const std::string& skip = "") {
  std::vector<std::filesystem::path> files;
  for (const char* dir : {"/workloads", "/tests/ptx/cases", "/tests/ptx/regressions"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(source_dir + dir)) {
      if (entry.path().extension() == ".ptx" && (skip.empty() || entry.path().string().find(skip) == std::string::npos)) {
        files.push_back(entry.path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Calls visit(module, options, value, grid, block) for each entry of each file, each value (given
// to every scalar parameter) and each (grid, block); in the sanitizer build for a sample of them
// (support/sanitizer_sample.hpp).
template <typename Visit>
void for_each_committed_launch(const std::vector<std::filesystem::path>& files, const std::vector<std::int64_t>& values,
                               const std::vector<std::pair<ptx::Dim3, ptx::Dim3>>& launches, Visit&& visit) {
  std::int64_t index = 0;
  for (const std::filesystem::path& file : files) {
    const ptx::Module module = ptx::load_ptx_file(file.string());
    for (const ptx::Function& f : module.functions) {
      if (!f.is_entry || !f.has_body) continue;
      for (const std::int64_t value : values) {
        ptx::ParameterEntries params;
        for (const ptx::KernelParameter& p : ptx::describe_parameters(f)) {
          if (!p.is_pointer && !p.is_aggregate) params.emplace_back(p.ptx_name, std::to_string(value));
        }
        for (const auto& [grid, block] : launches) {
          ptx::LoweringOptions options;
          options.kernel = f.name;
          options.grid = grid;
          options.block = block;
          options.parameters = params;
          if (sampled(index++)) visit(file, module, options, value);
        }
      }
    }
  }
}

}  // namespace warpsim::testing_support
