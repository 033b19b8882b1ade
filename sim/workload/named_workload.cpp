#include "sim/workload/named_workload.hpp"

#include <map>
#include <mutex>
#include <string>

#include "isa/input_error.hpp"
#include "isa/kp_format.hpp"
#include "sim/core/simulate_core.hpp"

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

std::int64_t checked_elements(const NamedWorkload& workload, const DwtPoint& point) {
  if (!workload.two_dimensional) return point.N;
  std::int64_t elements = 0;
  if (__builtin_mul_overflow(point.N, point.N + point.K - 2, &elements)) {
    throw InputError(std::string(workload.name) + ": N = " + std::to_string(point.N) + " is too large");
  }
  return elements;
}

}  // namespace

std::span<const NamedWorkload> named_workloads() { return kWorkloads; }

const NamedWorkload& find_workload(std::string_view name) {
  for (const NamedWorkload& workload : kWorkloads) {
    if (workload.name == name) return workload;
  }
  std::string known;
  for (const NamedWorkload& workload : kWorkloads) known += (known.empty() ? "" : ", ") + std::string(workload.name);
  throw InputError("unknown workload " + quote_for_message(name) + " (known: " + known + ")");
}

isa::Program workload_program(const NamedWorkload& workload, std::int64_t K) {
  const isa::Program& program = parsed_program(workload.program_file);
  isa::ParameterValues values;
  for (const std::string& name : program.parameters()) values[name] = K;  // K is the only one
  return program.bind(values);
}

const isa::Program& PredictionCache::program(const NamedWorkload& workload, std::int64_t K) {
  const auto key = std::pair{&workload, K};
  auto it = programs_.find(key);
  if (it == programs_.end()) it = programs_.emplace(key, workload_program(workload, K)).first;
  return it->second;
}

isa::Millicycles PredictionCache::core_time(const NamedWorkload& workload, std::int64_t K, std::int64_t warps,
                                            isa::Millicycles tm) {
  const isa::Program& bound = program(workload, K);
  const auto key = std::tuple{&bound, warps, tm};
  auto it = core_times_.find(key);
  if (it == core_times_.end()) it = core_times_.emplace(key, core::simulate_core(bound, warps, tm)).first;
  return it->second;
}

Prediction predict(const NamedWorkload& workload, const gpus::Profile& gpu, const DwtPoint& point,
                   const gpus::CalibrationChoice& calibration, PredictionCache* cache) {
  const std::string what(workload.name);
  if (point.K < 2 || point.K % 2 != 0 || point.K > isa::kMaxLoopCount) {
    throw InputError(what + ": K = " + std::to_string(point.K) + " must be an even filter length >= 2");
  }
  if (point.N < 1) throw InputError(what + ": N = " + std::to_string(point.N) + " must be positive");
  Prediction prediction;
  prediction.elements = checked_elements(workload, point);
  if (workload.lattice && prediction.elements % 2 != 0) {
    throw InputError(what + ": the lattice works on element pairs, so the size " +
                     std::to_string(prediction.elements) + " must be even");
  }
  prediction.total_threads = workload.lattice ? prediction.elements / 2 : prediction.elements;
  prediction.launches = (workload.two_dimensional ? 2 : 1) * (workload.lattice ? point.K / 2 + 1 : 1);
  prediction.launch = grid::suggest_launch(gpu, prediction.total_threads);

  PredictionCache local_cache;
  PredictionCache& memo = cache ? *cache : local_cache;
  prediction.calibration =
      gpus::resolve_calibration(gpu, workload.kernel, calibration, memo.program(workload, point.K).default_tm());
  const isa::Millicycles tm = prediction.calibration.tm;
  prediction.per_launch = grid::time_grid(gpu, prediction.launch, prediction.calibration.tp_us, [&](std::int64_t warps) {
    return memo.core_time(workload, point.K, warps, tm);
  });
  prediction.time_us = static_cast<double>(prediction.launches) * prediction.per_launch.time_us;
  return prediction;
}

}  // namespace warpsim::sim::workload
