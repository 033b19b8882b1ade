#include "warpsim/workload/workload_model.hpp"

#include <algorithm>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::workload {

std::int64_t point_value(const Point& point, std::string_view name) {
  for (const auto& [axis, value] : point) {
    if (same_axis_name(axis, name)) return value;
  }
  throw InputError("no value for " + quote_for_message(name) + " at the point " +
                   (point.empty() ? std::string("(no axes)") : describe_point(point)) + ": add an axis " + std::string(name));
}

std::string describe_point(const Point& point) {
  std::string text;
  for (const auto& [axis, value] : point) text += (text.empty() ? "" : " ") + axis + "=" + std::to_string(value);
  return text;
}

namespace {

class PointByPoint final : public PreparedModel {
 public:
  PointByPoint(const WorkloadModel& model, const gpus::Profile& gpu, const ModelOverrides& overrides, CoreTimeCache& cache)
      : model_(model), gpu_(gpu), overrides_(overrides), cache_(cache) {}
  void predict(const Point& point, Prediction& into) override { into = model_.predict(gpu_, point, overrides_, cache_); }

 private:
  const WorkloadModel& model_;
  const gpus::Profile& gpu_;
  const ModelOverrides& overrides_;
  CoreTimeCache& cache_;
};

}  // namespace

std::unique_ptr<PreparedModel> WorkloadModel::prepare(const gpus::Profile& gpu, const ModelOverrides& overrides,
                                                      CoreTimeCache& cache) const {
  return std::make_unique<PointByPoint>(*this, gpu, overrides, cache);
}

}  // namespace warpsim::sim::workload
