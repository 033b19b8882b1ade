// A parsed PTX file and what identifies its text, so that lowerings of the same file are shared
// (LoweringCache) however many models or suites load it.
#pragma once

#include <memory>
#include <string>

#include "warpsim/ptx_syntax/ast.hpp"

namespace warpsim::sim::workload {

struct PtxSource {
  std::shared_ptr<const ptx::Module> module;
  // The path (it appears in the lowered programs and messages), the size and a hash of the text.
  std::string identity;
  std::string path = {};  // as given (ptxas reads it)
};

// Reads and parses a .ptx file (InputError for a file that cannot be read or is not PTX).
PtxSource load_ptx_source(const std::string& path);

}  // namespace warpsim::sim::workload
