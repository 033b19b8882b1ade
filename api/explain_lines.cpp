// Hot lines for `warpsim explain`: each instruction's warp-time on its PTX (or .kp) line, and on
// the CUDA line a PTX `.loc` names (nvcc -lineinfo).
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "explain_parts.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/ptx_syntax/parser.hpp"

namespace warpsim::api {
namespace {

std::vector<HotLine> ranked(const std::map<LineKey, double>& millicycles, double total) {
  std::map<std::string, std::vector<std::string>> files;
  std::vector<HotLine> lines;
  for (const auto& [key, ms] : millicycles) {
    if (ms <= 0) continue;
    HotLine h;
    h.file = key.first;
    h.line = key.second;
    h.warp_cycles = ms / 1000.0;
    h.share = total > 0 ? ms / total : 0;
    auto [it, added] = files.try_emplace(key.first);
    if (added) it->second = file_lines(key.first);
    if (key.second >= 1 && static_cast<std::size_t>(key.second) <= it->second.size()) h.text = trimmed(it->second[key.second - 1]);
    lines.push_back(std::move(h));
  }
  std::stable_sort(lines.begin(), lines.end(), [](const HotLine& a, const HotLine& b) { return a.warp_cycles > b.warp_cycles; });
  return lines;
}

// A `.file` name as found here: itself, else the file of that name beside the PTX (nvcc writes
// the path it compiled from, often on another machine or in a scratch folder).
std::string resolved(const std::string& name, const std::string& ptx_path) {
  std::error_code error;
  if (std::filesystem::is_regular_file(name, error)) return name;
  const std::filesystem::path beside = std::filesystem::path(ptx_path).parent_path() / std::filesystem::path(name).filename();
  return std::filesystem::is_regular_file(beside, error) ? beside.string() : name;
}

// A header of the CUDA toolkit (nvcc names them by its install path: .../targets/<arch>/include/).
bool toolkit_header(const std::string& path) {
  return path.find("/targets/") != std::string::npos && path.find("/include/") != std::string::npos;
}

}  // namespace

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::map<int, LineKey> cuda_lines(const std::string& ptx_path) {
  std::map<int, LineKey> at;
  ptx::Module module;
  try {
    module = ptx::parse_ptx(read_text_file(ptx_path), ptx_path);
  } catch (const InputError&) {
    return at;  // simulate read it a moment ago; nothing to map if it changed since
  }
  for (const ptx::Function& function : module.functions) {
    for (const ptx::Statement& statement : function.body) {
      const auto* instruction = std::get_if<ptx::Instruction>(&statement);
      if (instruction == nullptr || instruction->debug_line <= 0) continue;
      auto file = static_cast<std::size_t>(instruction->debug_file);
      if (file >= module.files.size() || module.files[file].empty()) continue;
      int line = instruction->debug_line;
      // A toolkit function inlined (atomicAdd, __shfl_sync): the line of the kernel that called it.
      const auto caller = static_cast<std::size_t>(instruction->inlined_file);
      if (toolkit_header(module.files[file]) && instruction->inlined_line > 0 && caller < module.files.size() && !module.files[caller].empty()) {
        file = caller;
        line = instruction->inlined_line;
      }
      at[instruction->pos.line] = {resolved(module.files[file], ptx_path), line};
    }
  }
  return at;
}

std::vector<std::string> file_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::error_code error;
  if (path.empty() || !std::filesystem::is_regular_file(path, error)) return lines;
  try {
    std::istringstream in(read_text_file(path));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  } catch (const InputError&) {
    lines.clear();
  }
  return lines;
}

std::vector<HotLine> hot_lines(const ExplainInputs& in, const sim::core::WarpTime& time, std::vector<HotLine>& source_lines) {
  std::map<LineKey, double> by_line;  // millicycles, spread over a calc's lines
  double total = 0;
  for (const auto& [op, ms] : time.per_op) total += static_cast<double>(ms);
  std::map<const isa::Op*, const isa::Program*> program_of;
  std::set<const isa::Program*> seen;  // a package's warps mostly share a few programs
  for (const isa::Program* program : in.package) {
    if (!seen.insert(program).second) continue;
    for (const isa::Op& op : program->ops()) program_of.emplace(&op, program);
  }
  for (const auto& [op, ms] : time.per_op) {
    const isa::Program* program = program_of.at(op);
    const std::vector<ptx::OpNote>* notes = in.notes_of ? in.notes_of(program) : nullptr;
    if (notes == nullptr) {
      by_line[{in.source_path, op->line}] += static_cast<double>(ms);
      continue;
    }
    const ptx::OpNote& note = (*notes)[static_cast<std::size_t>(op - program->ops().data())];
    std::int64_t instructions = 0;
    for (const ptx::LineCount& l : note.source) instructions += l.instructions;
    if (instructions == 0) {  // the paper's period opener: no instruction of its own
      by_line[{in.source_path, 0}] += static_cast<double>(ms);
      continue;
    }
    for (const ptx::LineCount& l : note.source) {
      by_line[{in.source_path, l.line}] += static_cast<double>(ms) * static_cast<double>(l.instructions) / static_cast<double>(instructions);
    }
  }
  source_lines.clear();
  if (in.notes_of) {
    const std::map<int, LineKey> cuda = cuda_lines(in.source_path);
    if (!cuda.empty()) {
      std::map<LineKey, double> by_cuda_line;
      for (const auto& [key, ms] : by_line) {
        const auto it = cuda.find(key.second);
        if (it != cuda.end()) by_cuda_line[it->second] += ms;
      }
      source_lines = ranked(by_cuda_line, total);
    }
  }
  return ranked(by_line, total);
}

}  // namespace warpsim::api
