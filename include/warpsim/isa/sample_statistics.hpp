// The statistics sampled predictions state their uncertainty with (docs/ptx.md, "Sampling"):
// a sample's mean and deviation, Student's t and Fisher's F.
#pragma once

#include <vector>

namespace warpsim::isa {

// The mean of `draws` and their sample standard deviation (n - 1); the deviation is 0 for fewer
// than 2 draws.
struct SampleMoments {
  double mean = 0, deviation = 0;
};
SampleMoments sample_moments(const std::vector<double>& draws);

// Student's t: the value below which `probability` of the distribution lies, with `degrees`
// degrees of freedom (at least 1); 0.975 for a two-sided 95% interval.
double student_t_quantile(double probability, double degrees);
// The F distribution's quantile with (numerator, denominator) degrees of freedom.
double fisher_f_quantile(double probability, double numerator, double denominator);

// The half-width of the 95% prediction interval for one more draw of what `draws` are draws of
// (Student's t: t(n-1) sd sqrt(1 + 1/n)): a sampled launch states its time with it, the real
// launch being one more arrangement of its blocks. 0 for fewer than 2 draws.
double prediction_half_width(const std::vector<double>& draws);

}  // namespace warpsim::isa
