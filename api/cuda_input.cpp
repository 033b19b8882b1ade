#include "cuda_input.hpp"

#include "warpsim/workload/cuda_compile.hpp"

namespace warpsim::api {

KernelInput kernel_input(const std::string& path, const std::string& compute_capability, const std::string& nvcc_flags,
                         bool use_cache) {
  if (!sim::workload::is_cuda_source(path)) {
    if (!nvcc_flags.empty()) throw InputError("--nvcc-flags is for a CUDA source kernel (.cu), not " + quote_for_message(path));
    return {path, std::nullopt};
  }
  const sim::workload::NvccOptions options{sim::workload::split_nvcc_flags(nvcc_flags), use_cache};
  const sim::workload::CompiledCuda c = sim::workload::compile_cuda(path, compute_capability, options);
  return {c.ptx_path, CompiledSource{c.command, c.cached, c.arch, c.note}};
}

nlohmann::ordered_json compiled_json(const CompiledSource& compiled) {
  nlohmann::ordered_json out;
  out["command"] = compiled.command;
  out["cached"] = compiled.cached;
  out["arch"] = compiled.arch;
  if (!compiled.note.empty()) out["note"] = compiled.note;
  return out;
}

std::string compiled_text(const CompiledSource& compiled) {
  std::string text = "compiled: " + compiled.command + (compiled.cached ? " (cached)" : "") + '\n';
  if (!compiled.note.empty()) text += "compiled for " + compiled.arch + ": " + compiled.note + '\n';
  return text;
}

}  // namespace warpsim::api
