#include "warpsim/isa/cuda_source.hpp"

#include <algorithm>
#include <filesystem>

#include "warpsim/isa/input_error.hpp"

namespace warpsim {
namespace {

bool is_cuda_line(std::string_view line) {
  line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
  if (line.starts_with("#include <") || line.starts_with("#include \"")) return true;
  if (line.starts_with("*") || line.starts_with("/*")) return false;      // inside a block comment
  const std::size_t comment = std::min(line.find("//"), line.find('#'));  // PTX and .kp comments
  return line.find("__global__") < comment;
}

bool looks_like_cuda(const std::string& path, std::string_view text) {
  if (is_cuda_path(path)) return true;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (is_cuda_line(text.substr(start, end - start))) return true;
    start = end + 1;
  }
  return false;
}

// nvcc picks the language by extension: anything but .cu needs `-x cu`.
std::string nvcc_command(const std::string& path) {
  std::filesystem::path output(path);
  const bool is_cu = output.extension() == ".cu";
  output.replace_extension(output.extension() == ".ptx" ? ".nvcc.ptx" : ".ptx");
  return std::string("nvcc -ptx -arch=sm_75 ") + (is_cu ? "" : "-x cu ") + path + " -o " +
         output.string();
}

}  // namespace

bool is_cuda_path(const std::string& path) {
  return path.ends_with(".cu") || path.ends_with(".cuh");
}

void reject_cuda_source(const std::string& path, std::string_view text) {
  if (!looks_like_cuda(path, text)) return;
  throw InputError(SourceLocation{path, 1, 0},
                   "this is CUDA source, not PTX: run `" + nvcc_command(path) + "` first");
}

}  // namespace warpsim
