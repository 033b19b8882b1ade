#include "figure_change.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "warpsim/gpus/profile_figures.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::api {
namespace {

const std::pair<const char*, const char*> kAliases[] = {{"sms", "sm_count"}, {"dram_bandwidth_gbs", "memory_bandwidth_gbs"}};

double parse_number(const std::string& text, const std::string& what) {
  double value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(value)) {
    throw InputError(what + ": " + quote_for_message(text) + " is not a number (expected a number, xK or P%)");
  }
  return value;
}

}  // namespace

std::vector<std::string> changeable_figure_names() {
  std::vector<std::string> names{kRegistersFigure, kSharedFigure};
  for (std::string& name : gpus::changeable_figures()) names.push_back(std::move(name));
  return names;
}

ParsedChange parse_change(const std::string& text) {
  const std::string what = "--set " + quote_for_message(text);
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0) throw InputError(what + ": expected FIGURE=VALUE");
  ParsedChange change;
  change.figure = text.substr(0, equals);
  change.given = text.substr(equals + 1);
  for (const auto& [alias, figure] : kAliases) {
    if (change.figure == alias) change.figure = figure;
  }
  const std::vector<std::string> names = changeable_figure_names();
  if (std::find(names.begin(), names.end(), change.figure) == names.end()) {
    std::string known;
    for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
    throw InputError(what + ": no figure " + quote_for_message(change.figure) + " (known: " + known + ")");
  }
  std::string number = change.given;
  if (number.starts_with('x')) {
    change.form = ChangeForm::multiply;
    number.erase(0, 1);
  } else if (number.ends_with('%')) {
    change.form = ChangeForm::percent;
    number.pop_back();
  }
  change.number = parse_number(number, what);
  if (change.number < 0) throw InputError(what + ": the value cannot be negative");
  if (change.number == 0 && change.form == ChangeForm::multiply) throw InputError(what + ": x0 leaves nothing: K must be more than 0");
  if (change.number == 0 && change.form == ChangeForm::percent) throw InputError(what + ": 0% leaves nothing: P must be more than 0");
  return change;
}

double changed_value(const ParsedChange& change, double baseline, bool whole_number) {
  switch (change.form) {
    case ChangeForm::replace:
      return change.number;
    case ChangeForm::multiply:
      return whole_number ? std::round(baseline * change.number) : baseline * change.number;
    case ChangeForm::percent:
      return whole_number ? std::round(baseline * change.number / 100) : baseline * change.number / 100;
  }
  return change.number;
}

}  // namespace warpsim::api
