#include "warpsim/workload/ptx_source.hpp"

#include <functional>
#include <string_view>

#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/isa/cuda_source.hpp"
#include "warpsim/isa/text_file.hpp"

namespace warpsim::sim::workload {

PtxSource load_ptx_source(const std::string& path) {
  const std::string text = read_text_file(path);
  reject_cuda_source(path, text);  // a .cu file: one line saying to run nvcc -ptx
  PtxSource source;
  source.path = path;
  source.module = std::make_shared<const ptx::Module>(ptx::parse_ptx(text, path));
  // Within one process only (the hash is not stable across builds): enough for a cache's key.
  source.identity =
      path + '\n' + std::to_string(text.size()) + '\n' + std::to_string(std::hash<std::string_view>{}(text));
  return source;
}

}  // namespace warpsim::sim::workload
