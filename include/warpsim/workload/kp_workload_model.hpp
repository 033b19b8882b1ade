// A .kp kernel program as a WorkloadModel: its parameters (repeat counts) and the launch
// policy's axes are the point's axes; one launch; d1, d2, ... are its memory instructions.
#pragma once

#include "warpsim/isa/program.hpp"
#include "warpsim/workload/launch_policy.hpp"
#include "warpsim/workload/workload_model.hpp"

namespace warpsim::sim::workload {

class KpWorkloadModel final : public WorkloadModel {
 public:
  // `name` labels the outputs; the kernel (calibration section) is the program's name.
  KpWorkloadModel(std::string name, isa::Program program, const LaunchPolicy& launch);
  const std::string& name() const override { return name_; }
  const std::string& kernel() const override { return program_.name(); }
  std::vector<std::string> axes() const override;
  std::vector<std::string> duration_names() const override;
  std::vector<isa::Millicycles> own_durations() const override;
  std::optional<isa::Millicycles> own_tm() const override { return program_.default_tm(); }
  Prediction predict(const gpus::Profile& gpu, const Point& point, const ModelOverrides& overrides,
                     CoreTimeCache& cache) const override;

 private:
  std::string name_;
  isa::Program program_;
  LaunchFormula launch_;
};

}  // namespace warpsim::sim::workload
