#include "warpsim/isa/sample_statistics.hpp"

#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace warpsim::isa {

SampleMoments sample_moments(const std::vector<double>& draws) {
  SampleMoments m;
  if (draws.empty()) return m;
  const auto n = static_cast<double>(draws.size());
  for (const double x : draws) m.mean += x / n;
  if (draws.size() < 2) return m;
  double squares = 0;
  for (const double x : draws) squares += (x - m.mean) * (x - m.mean);
  m.deviation = std::sqrt(squares / (n - 1));
  return m;
}

double student_t_quantile(double probability, double degrees) {
  return boost::math::quantile(boost::math::students_t(degrees), probability);
}

double fisher_f_quantile(double probability, double numerator, double denominator) {
  return boost::math::quantile(boost::math::fisher_f(numerator, denominator), probability);
}

double prediction_half_width(const std::vector<double>& draws) {
  if (draws.size() < 2) return 0;
  const auto n = static_cast<double>(draws.size());
  return student_t_quantile(0.975, n - 1) * sample_moments(draws).deviation * std::sqrt(1 + 1 / n);
}

}  // namespace warpsim::isa
