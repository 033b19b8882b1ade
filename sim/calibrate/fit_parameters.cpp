#include "warpsim/calibrate/fit_parameters.hpp"

#include <charconv>
#include <cmath>

#include "warpsim/isa/text_list.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/time.hpp"
#include "warpsim/report/csv_table.hpp"

namespace warpsim::sim::calibrate {
namespace {


// d1 -> 1; 0 for anything else (d0, d, dx, d01 is accepted as 1).
std::size_t duration_number(std::string_view name) {
  if (name.size() < 2 || name[0] != 'd') return 0;
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(name.data() + 1, name.data() + name.size(), value);
  if (error != std::errc() || end != name.data() + name.size()) return 0;
  return value;
}

double parse_bound(std::string_view text, const std::string& entry) {
  const std::optional<double> value = report::parse_number(text);
  if (!value || !std::isfinite(*value)) {
    throw InputError("--bounds " + quote_for_message(entry) + ": " + quote_for_message(text) + " is not a number");
  }
  return *value;
}

}  // namespace

std::string FitParameter::name() const {
  switch (kind) {
    case ParameterKind::tp: return "tp";
    case ParameterKind::tm: return "tm";
    case ParameterKind::duration: return "d" + std::to_string(duration + 1);
  }
  return "?";
}

const char* FitParameter::unit() const { return kind == ParameterKind::tp ? "us" : "cycles"; }

std::vector<FitParameter> parse_fit_list(std::string_view list, std::size_t duration_count, double tp_upper_us) {
  const std::string available = duration_count == 0 ? std::string("no durations")
                                : duration_count == 1 ? std::string("d1")
                                                      : "d1 .. d" + std::to_string(duration_count);
  std::vector<FitParameter> parameters;
  for (const std::string& name : split_commas(list)) {
    if (name.empty()) throw InputError("--fit " + quote_for_message(list) + ": an empty entry (expected e.g. tm,tp,d1)");
    FitParameter p;
    if (name == "tp") {
      p = {ParameterKind::tp, 0, 0, tp_upper_us};
    } else if (name == "tm") {
      p = {ParameterKind::tm, 0, 0, kMaxFittedTm};
    } else if (const std::size_t number = duration_number(name); number > 0) {
      if (number > duration_count) {
        throw InputError("--fit: " + std::string(name) + " is not a duration of this workload (it has " +
                         std::to_string(duration_count) + " memory instruction" + (duration_count == 1 ? "" : "s") +
                         ": " + available + ")");
      }
      p = {ParameterKind::duration, number - 1, kMinFittedDuration, kMaxFittedDuration};
    } else {
      throw InputError("--fit: unknown parameter " + quote_for_message(name) + " (expected tp, tm, " + available + ")");
    }
    if (fits(parameters, p.kind, p.duration)) {
      throw InputError("--fit: " + p.name() + " is given twice");
    }
    parameters.push_back(p);
  }
  return parameters;
}

void apply_bounds(std::vector<FitParameter>& parameters, std::string_view text) {
  const double max_cycles = isa::to_cycles(isa::kMaxDuration);
  for (const std::string& entry_view : split_commas(text)) {
    const std::string entry(entry_view);
    const std::size_t equals = entry.find('=');
    const std::size_t colon = entry.find(':', equals == std::string::npos ? 0 : equals);
    if (equals == std::string::npos || colon == std::string::npos) {
      throw InputError("--bounds " + quote_for_message(entry) + ": expected NAME=LOWER:UPPER, e.g. tm=0:100");
    }
    const std::string name = entry.substr(0, equals);
    FitParameter* target = nullptr;
    for (FitParameter& p : parameters) {
      if (p.name() == name) target = &p;
    }
    if (!target) {
      throw InputError("--bounds " + quote_for_message(entry) + ": " + quote_for_message(name) +
                       " is not fitted (--fit " + describe(parameters) + ")");
    }
    const double lower = parse_bound(std::string_view(entry).substr(equals + 1, colon - equals - 1), entry);
    const double upper = parse_bound(std::string_view(entry).substr(colon + 1), entry);
    if (lower < 0) throw InputError("--bounds " + quote_for_message(entry) + ": the lower bound cannot be negative");
    if (!(lower < upper)) throw InputError("--bounds " + quote_for_message(entry) + ": the lower bound must be below the upper");
    if (target->kind == ParameterKind::duration && lower < 0.001) {
      throw InputError("--bounds " + quote_for_message(entry) + ": a duration is at least 0.001 cycles");
    }
    if (target->kind != ParameterKind::tp && upper > max_cycles) {
      throw InputError("--bounds " + quote_for_message(entry) + ": at most 10^9 cycles");
    }
    target->lower = lower;
    target->upper = upper;
  }
}

bool fits(const std::vector<FitParameter>& parameters, ParameterKind kind, std::size_t duration) {
  for (const FitParameter& p : parameters) {
    if (p.kind == kind && (kind != ParameterKind::duration || p.duration == duration)) return true;
  }
  return false;
}

std::string describe(const std::vector<FitParameter>& parameters) {
  std::string text;
  for (const FitParameter& p : parameters) text += (text.empty() ? "" : ",") + p.name();
  return text;
}

}  // namespace warpsim::sim::calibrate
