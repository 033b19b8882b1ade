#include "warpsim/calibrate/calibrate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <nlopt.hpp>
#include <stdexcept>

namespace warpsim::sim::calibrate {
namespace {

// The optimiser works on u = log(1 + x), x in cycles: a step in u is a relative step in x.
double to_search(double cycles) { return std::log1p(cycles); }
double from_search(double u) { return std::expm1(u); }

// Share of the budget for the global pass; the rest polishes.
constexpr double kGlobalShare = 0.6;
// First step of the local polish in u (about 10 % of the value).
constexpr double kLocalStep = 0.1;

// E as a function of the fitted t_m and durations (in search coordinates), t_p exact or fixed.
class Objective {
 public:
  Objective(const CalibrationProblem& problem, PointPredictor& predictor, std::int64_t budget)
      : problem_(problem), predictor_(predictor), budget_(budget) {
    for (const FitParameter& p : problem.fit) {
      if (p.kind == ParameterKind::tp) {
        tp_ = &p;
      } else {
        dims_.push_back(&p);
      }
    }
  }

  std::size_t dimensions() const { return dims_.size(); }
  const std::vector<const FitParameter*>& dims() const { return dims_; }
  const FitParameter* tp() const { return tp_; }
  std::int64_t evaluations() const { return evaluations_; }
  std::int64_t trials() const { return static_cast<std::int64_t>(memo_.size()); }
  bool exhausted() const { return evaluations_ >= budget_; }
  const std::vector<isa::Millicycles>& best_key() const { return best_key_; }

  // The fitted values in millicycles, rounded and kept inside the bounds.
  std::vector<isa::Millicycles> key_of(const double* u) const {
    std::vector<isa::Millicycles> key;
    for (std::size_t i = 0; i < dims_.size(); ++i) {
      const auto lower = static_cast<isa::Millicycles>(std::ceil(dims_[i]->lower * 1000 - 1e-6));
      const auto upper = static_cast<isa::Millicycles>(std::floor(dims_[i]->upper * 1000 + 1e-6));
      key.push_back(std::clamp(static_cast<isa::Millicycles>(std::llround(from_search(u[i]) * 1000)), lower, upper));
    }
    return key;
  }

  std::vector<double> search_point(const std::vector<isa::Millicycles>& key) const {
    std::vector<double> u;
    for (const isa::Millicycles x : key) u.push_back(to_search(isa::to_cycles(x)));
    return u;
  }

  // The start values with the fitted ones replaced.
  ModelValues values_of(const std::vector<isa::Millicycles>& key) const {
    ModelValues v;
    v.tp_us = problem_.start_tp_us.value_or(0);
    v.tm = problem_.start_tm;
    v.durations = problem_.start_durations;
    for (std::size_t i = 0; i < dims_.size(); ++i) {
      if (dims_[i]->kind == ParameterKind::tm) {
        v.tm = key[i];
      } else {
        if (v.durations.size() <= dims_[i]->duration) v.durations.resize(dims_[i]->duration + 1);
        v.durations[dims_[i]->duration] = key[i];
      }
    }
    return v;
  }

  // The t_p to use with these times: the exact best when fitted, else the fixed one.
  double tp_for(const AffineTimes& times) const {
    return tp_ ? best_tp(predictor_.points(), times, tp_->lower, tp_->upper) : problem_.start_tp_us.value_or(0);
  }

  double evaluate(const std::vector<isa::Millicycles>& key) {
    ++evaluations_;
    const auto found = memo_.find(key);
    if (found != memo_.end()) return found->second;
    const AffineTimes times = predictor_.predict_affine(values_of(key));
    const double e = mean_error(predictor_.points(), times, tp_for(times));
    memo_.emplace(key, e);
    if (e < best_) {
      best_ = e;
      best_key_ = key;
    }
    return e;
  }

  // NLopt's callback: never lets an exception through the C library.
  static double callback(unsigned n, const double* u, double* /*gradient*/, void* data) {
    auto* self = static_cast<Objective*>(data);
    if (self->error_) throw nlopt::forced_stop();
    try {
      return self->evaluate(self->key_of(u));
    } catch (...) {
      (void)n;
      self->error_ = std::current_exception();
      throw nlopt::forced_stop();
    }
  }

  void rethrow_error() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  const CalibrationProblem& problem_;
  PointPredictor& predictor_;
  std::int64_t budget_;
  const FitParameter* tp_ = nullptr;
  std::vector<const FitParameter*> dims_;
  std::map<std::vector<isa::Millicycles>, double> memo_;
  std::int64_t evaluations_ = 0;
  double best_ = std::numeric_limits<double>::infinity();
  std::vector<isa::Millicycles> best_key_;
  std::exception_ptr error_;
};

// One NLopt run with its share of the budget; the objective keeps the best point itself, so a
// stop for any reason (budget, tolerance, round-off) just ends the stage.
void run_stage(Objective& objective, nlopt::algorithm algorithm, std::vector<double> start, std::int64_t evaluations) {
  const std::size_t n = objective.dimensions();
  if (evaluations <= 0) return;
  nlopt::opt opt(algorithm, static_cast<unsigned>(n));
  std::vector<double> lower, upper, step;
  for (const FitParameter* p : objective.dims()) {
    lower.push_back(to_search(p->lower));
    upper.push_back(to_search(p->upper));
    step.push_back(std::min(kLocalStep, (upper.back() - lower.back()) / 4));
  }
  opt.set_lower_bounds(lower);
  opt.set_upper_bounds(upper);
  opt.set_min_objective(&Objective::callback, &objective);
  opt.set_maxeval(static_cast<int>(std::min<std::int64_t>(evaluations, std::numeric_limits<int>::max())));
  if (algorithm == nlopt::LN_SBPLX) {
    opt.set_initial_step(step);
    opt.set_xtol_abs(1e-7);
  }
  for (std::size_t i = 0; i < n; ++i) start[i] = std::clamp(start[i], lower[i], upper[i]);
  double value = 0;
  try {
    opt.optimize(start, value);
  } catch (const nlopt::forced_stop&) {
  } catch (const nlopt::roundoff_limited&) {
  } catch (const std::runtime_error&) {  // nlopt::FAILURE: the best point so far stands
  }
  objective.rethrow_error();
}

FitResult full_result(PointPredictor& predictor, ModelValues values) {
  FitResult r;
  r.accuracy = accuracy(predictor.points(), predictor.predict(values));
  r.values = std::move(values);
  return r;
}

}  // namespace

CalibrationResult calibrate(const CalibrationProblem& problem, const CalibrateOptions& options) {
  if (!problem.model || !problem.gpu) throw std::invalid_argument("calibrate: no model or GPU");
  if (problem.data.points.empty()) throw std::invalid_argument("calibrate: no measured points");
  if (!problem.start_tp_us && !fits(problem.fit, ParameterKind::tp)) {
    throw std::invalid_argument("calibrate: t_p is neither fitted nor given");
  }
  for (const FitParameter& p : problem.fit) {
    if (p.kind == ParameterKind::duration &&
        (p.duration >= problem.start_durations.size() || !problem.start_durations[p.duration])) {
      throw std::invalid_argument("calibrate: no starting value for " + p.name());
    }
  }
  const auto started = std::chrono::steady_clock::now();
  PointPredictor predictor(*problem.model, *problem.gpu, problem.data, problem.section, problem.timing_model);
  const std::int64_t budget = std::max<std::int64_t>(options.max_evaluations, 1);
  Objective objective(problem, predictor, budget);
  CalibrationResult result;

  // Before: the starting values (with the best t_p when none was given).
  std::vector<isa::Millicycles> start_key;
  for (const FitParameter* p : objective.dims()) {
    start_key.push_back(p->kind == ParameterKind::tm ? problem.start_tm : *problem.start_durations[p->duration]);
  }
  ModelValues before = objective.values_of(start_key);
  if (!problem.start_tp_us) before.tp_us = objective.tp_for(predictor.predict_affine(before));
  result.before = full_result(predictor, before);
  objective.evaluate(objective.key_of(objective.search_point(start_key).data()));

  if (objective.dimensions() > 0) {
    nlopt::srand(options.seed);
    const auto global = static_cast<std::int64_t>(kGlobalShare * static_cast<double>(budget - 1));
    run_stage(objective, nlopt::GN_DIRECT_L, objective.search_point(objective.best_key()), global);
    run_stage(objective, nlopt::LN_SBPLX, objective.search_point(objective.best_key()), budget - objective.evaluations());
    result.method = "NLopt GN_DIRECT_L then LN_SBPLX on log(1 + x)";
  } else {
    result.method = "t_p only (exact weighted median)";
  }

  ModelValues after = objective.values_of(objective.best_key());
  if (objective.tp()) {
    const double tp = objective.tp_for(predictor.predict_affine(after));
    after.tp_us = std::clamp(std::round(tp * 1e4) / 1e4, objective.tp()->lower, objective.tp()->upper);
  }
  result.after = full_result(predictor, after);
  result.evaluations = objective.evaluations();
  result.trials = objective.trials();
  result.simulations = predictor.cache().misses();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace warpsim::sim::calibrate
