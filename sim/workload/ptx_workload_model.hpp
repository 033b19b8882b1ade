// A PTX kernel as a WorkloadModel: each point is lowered (frontends/ptx) for the launch the
// policy gives and the kernel parameters named by `parameter_axes`, then timed with per-warp
// programs (grid::time_grid_mixed). d1 is the duration of every global load, d2 of every store.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "frontends/ptx/ast.hpp"
#include "frontends/ptx/lowering.hpp"
#include "sim/workload/launch_policy.hpp"
#include "sim/workload/workload_model.hpp"

namespace warpsim::sim::workload {

// An axis whose value a kernel parameter takes at every point.
struct ParameterAxis {
  std::string axis;       // "N"
  std::string parameter;  // a position ("0"), a PTX name, or a C++ name (-G builds): docs/ptx.md
};

class PtxWorkloadModel final : public WorkloadModel {
 public:
  // `name` labels outputs (empty: the kernel's short name). `options.kernel` selects the entry;
  // its grid, block and parameters are set per point. Throws InputError when an axis names no
  // parameter of the kernel, or two axes name the same one.
  PtxWorkloadModel(std::string name, std::shared_ptr<const ptx::Module> module, ptx::LoweringOptions options,
                   LaunchPolicy launch, std::vector<ParameterAxis> parameter_axes);
  const std::string& name() const override { return name_; }
  const std::string& kernel() const override { return kernel_; }
  std::vector<std::string> axes() const override;
  std::vector<std::string> duration_names() const override { return {"d1 (every global load)", "d2 (every global store)"}; }
  Prediction predict(const gpus::Profile& gpu, const Point& point, const ModelOverrides& overrides,
                     CoreTimeCache& cache) const override;

 private:
  // The kernel lowered for a launch and parameters (with the frontend's own load/store cycles)
  // and its warning lines, kept so a calibration's trials re-time the same warp programs instead
  // of lowering again.
  struct Lowered {
    ptx::LoweredKernel kernel;
    std::vector<std::string> warnings;
  };
  std::shared_ptr<const Lowered> lowered_for(const ptx::LoweringOptions& options) const;

  std::string name_;
  std::string kernel_;  // short name, e.g. mtx_mul_vec
  std::shared_ptr<const ptx::Module> module_;
  ptx::LoweringOptions options_;
  LaunchPolicy launch_;
  std::vector<ParameterAxis> parameter_axes_;
  mutable std::mutex lowered_mutex_;
  mutable std::map<std::vector<std::string>, std::shared_ptr<const Lowered>> lowered_;
  mutable std::int64_t lowered_warps_ = 0;  // warps held in lowered_, bounded (kMaxKeptWarps)
};

}  // namespace warpsim::sim::workload
