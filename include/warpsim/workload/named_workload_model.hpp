// A named DWT workload (dwt_matrix, ...) as a WorkloadModel: axes K and N; d1, d2, ... are the
// memory instructions of its .kp program (workloads/dwt/*.kp) in program order.
#pragma once

#include <map>
#include <memory>
#include <shared_mutex>

#include "warpsim/workload/named_workload.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::workload {

class NamedWorkloadModel final : public WorkloadModel {
 public:
  explicit NamedWorkloadModel(const NamedWorkload& workload);
  const std::string& name() const override { return name_; }
  const std::string& kernel() const override { return kernel_; }
  std::vector<std::string> axes() const override { return {"K", "N"}; }
  std::vector<std::string> duration_names() const override;
  std::vector<isa::Millicycles> own_durations() const override;
  std::optional<isa::Millicycles> own_tm() const override;
  Prediction predict(const gpus::Profile& gpu, const Point& point, const ModelOverrides& overrides,
                     CoreTimeCache& cache) const override;
  std::unique_ptr<PreparedModel> prepare(const gpus::Profile& gpu, const ModelOverrides& overrides,
                                         CoreTimeCache& cache) const override;

  const NamedWorkload& workload() const { return workload_; }
  // The bound program for K, made once per K (a sweep asks for the same few again and again).
  // Values of K that give the same program (the lattice's does not depend on K) share one, so
  // its address identifies it in the T_c cache. Lives as long as the model.
  const isa::Program& program_for(std::int64_t K) const;

 private:
  const NamedWorkload& workload_;
  std::string name_;
  std::string kernel_;
  mutable std::shared_mutex programs_mutex_;
  mutable std::map<std::int64_t, std::shared_ptr<const isa::Program>> programs_;
};

}  // namespace warpsim::sim::workload
