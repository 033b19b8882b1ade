#include "warpsim/workload/named_workload.hpp"

#include <map>
#include <mutex>
#include <string>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/workload/named_workload_model.hpp"

namespace warpsim::sim::workload {
std::span<const std::pair<std::string_view, std::string_view>> embedded_files();

namespace {

constexpr NamedWorkload kWorkloads[] = {
    {"dwt_matrix", "dwt/matrix.kp", "dwt_matrix", false, false,
     "matrix DWT, eq. 17: one launch of N threads"},
    {"dwt_lattice", "dwt/lattice.kp", "dwt_lattice", true, false,
     "lattice DWT, eq. 18: K/2+1 launches of N/2 threads"},
    {"dwt2d_matrix", "dwt/matrix.kp", "dwt_matrix", false, true,
     "2D row-column matrix DWT: 2 x dwt_matrix(N*(N+K-2), K)"},
    {"dwt2d_lattice", "dwt/lattice.kp", "dwt_lattice", true, true,
     "2D row-column lattice DWT: 2 x dwt_lattice(N*(N+K-2), K)"},
};

const isa::Program& parsed_program(std::string_view file) {
  static std::mutex mutex;
  static std::map<std::string, isa::Program, std::less<>> cache;
  const std::lock_guard lock(mutex);
  if (const auto it = cache.find(file); it != cache.end()) return it->second;
  for (const auto& [path, text] : embedded_files()) {
    if (path == file) {
      return cache.emplace(std::string(file), isa::parse_kp(text, "workloads/" + std::string(path)))
          .first->second;
    }
  }
  throw std::logic_error("workload program not embedded: " + std::string(file));
}

}  // namespace

const NamedWorkload& find_workload(std::string_view name) {
  for (const NamedWorkload& workload : kWorkloads) {
    if (workload.name == name) return workload;
  }
  std::string known;
  for (const NamedWorkload& workload : kWorkloads) known += (known.empty() ? "" : ", ") + std::string(workload.name);
  throw InputError("unknown workload " + quote_for_message(name) + " (known: " + known + ")");
}

const isa::Program* builtin_kernel_program(std::string_view kernel) {
  for (const NamedWorkload& workload : kWorkloads) {
    if (workload.kernel == kernel) return &parsed_program(workload.program_file);
  }
  return nullptr;
}

isa::Program workload_program(const NamedWorkload& workload, std::int64_t K) {
  const isa::Program& program = parsed_program(workload.program_file);
  isa::ParameterValues values;
  for (const std::string& name : program.parameters()) values[name] = K;  // K is the only one
  return program.bind(values);
}

Prediction predict(const NamedWorkload& workload, const gpus::Profile& gpu, const DwtPoint& point,
                   const gpus::CalibrationChoice& calibration) {
  CoreTimeCache cache;
  return NamedWorkloadModel(workload).predict(gpu, {{"K", point.K}, {"N", point.N}},
                                              ModelOverrides{calibration.tp_us, calibration.tm, {}, {}}, cache);
}

}  // namespace warpsim::sim::workload
