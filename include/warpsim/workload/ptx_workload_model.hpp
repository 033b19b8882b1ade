// A PTX kernel as a WorkloadModel: each point is lowered (frontends/ptx) for the launch the
// policy gives and the kernel parameters named by `parameter_axes`, then timed with per-warp
// programs (grid::time_grid_mixed). d1 is the duration of every global load, d2 of every store.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "warpsim/ptx/lowering.hpp"
#include "warpsim/core/simulate_core.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/workload/cuda_compile.hpp"
#include "warpsim/workload/launch_policy.hpp"
#include "warpsim/workload/lowering_cache.hpp"
#include "warpsim/workload/model_spec.hpp"
#include "warpsim/workload/ptx_source.hpp"
#include "warpsim/workload/ptxas_registers.hpp"
#include "warpsim/workload/sass_stream.hpp"
#include "warpsim/workload/timing_model.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::workload {

// An expression over axes whose value a kernel parameter takes at every point.
struct ParameterAxis {
  std::string axis;       // "N", or an expression such as "N / 2"
  std::string parameter;  // a position ("0"), a PTX name, or a C++ name (-G builds): docs/ptx.md
  SourceLocation at{};    // where `axis` starts in a suite, for errors
  std::string label{};    // how errors name the binding; empty: "axis <axis>" (a point list: "param:3")
};

// T_k of a lowered launch under `spec` (make_model_spec for this launch): Algorithm 1 when every
// warp runs one program, else the per-SM generalisation (grid::time_grid_mixed). `retimed`, when
// not empty, replaces the programs (the same ops with other load/store durations).
grid::GridTiming time_lowered_kernel(const gpus::Profile& gpu, const grid::Launch& launch, double tp_us,
                                     const ptx::LoweredKernel& kernel, const ModelSpec& spec,
                                     const std::vector<isa::Program>& retimed = {});

// Whether any of the kernel's programs carries memory annotations (make_model_spec's `annotated`).
bool has_memory_annotations(const ptx::LoweredKernel& kernel);

class PtxWorkloadModel final : public WorkloadModel {
 public:
  // `name` labels outputs (empty: the kernel's short name). `options.kernel` selects the entry;
  // its grid and block are set per point, its parameters are the fixed ones (`simulate --param`)
  // and the axes' are added per point. Throws InputError when an axis names no parameter of the
  // kernel, or two axes name the same one. Lowered launches come from `cache` (null:
  // LoweringCache::process_wide()). Registers per thread (memory model): `registers`, resolved
  // once per GPU architecture. A kernel from CUDA source (`cuda.path` not empty) is `source` as
  // compiled for one architecture, and compiled again (compile_cuda) for each GPU's.
  PtxWorkloadModel(std::string name, PtxSource source, ptx::LoweringOptions options, const LaunchPolicy& launch,
                   std::vector<ParameterAxis> parameter_axes, std::shared_ptr<LoweringCache> cache = nullptr,
                   RegisterChoice registers = {}, CudaOrigin cuda = {});
  const std::string& name() const override { return name_; }
  const std::string& kernel() const override { return kernel_; }
  std::vector<std::string> axes() const override;
  std::vector<std::string> duration_names() const override { return {"d1 (every global load)", "d2 (every global store)"}; }
  std::vector<isa::Millicycles> own_durations() const override { return {options_.load_cycles, options_.store_cycles}; }
  Prediction predict(const gpus::Profile& gpu, const Point& point, const ModelOverrides& overrides,
                     CoreTimeCache& cache) const override;

 private:
  std::string name_;
  std::string kernel_;  // short name, e.g. mtx_mul_vec
  PtxSource source_;
  ptx::LoweringOptions options_;
  LaunchFormula launch_;
  std::vector<ParameterAxis> parameter_axes_;
  std::vector<PointExpression> parameter_values_;  // parsed parameter_axes_[i].axis
  Sourced registers_for(const gpus::Profile& gpu, const PtxSource& source) const;  // ptxas at most once per compute capability
  const PtxSource& source_for(const gpus::Profile& gpu) const;  // source_, or the CUDA compiled for the GPU
  // The SASS stream for the GPU's architecture: ptxas and nvdisasm at most once per compute capability.
  std::shared_ptr<const SassStream> sass_for(const gpus::Profile& gpu, const PtxSource& source) const;

  std::shared_ptr<LoweringCache> lowerings_;
  RegisterChoice registers_;
  mutable std::mutex registers_mutex_;
  mutable std::map<std::string, Sourced> registers_by_arch_;  // by compute capability
  mutable std::map<std::string, std::shared_ptr<const SassStream>> sass_by_arch_;  // by compute capability (registers_mutex_)
  CudaOrigin cuda_;
  mutable std::mutex sources_mutex_;
  mutable std::map<std::string, PtxSource> sources_by_arch_;  // CUDA: by compute capability
};

}  // namespace warpsim::sim::workload
