#include <algorithm>
#include <string>

#include "warpsim/isa/kp_format.hpp"

namespace warpsim::isa {
namespace {

// 875 -> "0.875", 500 -> "0.5", 1000 -> "1".
std::string thousandths(std::int32_t permille) {
  if (permille % 1000 == 0) return std::to_string(permille / 1000);
  std::string digits = std::to_string(permille % 1000);
  digits.insert(0, 3 - digits.size(), '0');
  while (digits.back() == '0') digits.pop_back();
  return std::to_string(permille / 1000) + '.' + digits;
}

// " issue=N fp32=8 int=4 chain fp32=2": issue only where it differs from what it defaults to.
std::string mix_words(const CalcMix& mix) {
  std::string out;
  if (mix.issue != mix.implied_issue() || mix.empty()) out += " issue=" + std::to_string(mix.issue);
  const auto counts = [&](const PipeCounts& n) {
    for (std::size_t p = 0; p < kPipeCount; ++p) {
      if (n[p] > 0) out += ' ' + std::string(to_string(pipe_at(p))) + '=' + std::to_string(n[p]);
    }
  };
  counts(mix.work);
  if (std::any_of(mix.chain.begin(), mix.chain.end(), [](std::int64_t n) { return n > 0; })) {
    out += " chain";
    counts(mix.chain);
  }
  return out;
}

}  // namespace

std::string to_kp(const Program& program) {
  std::string out;
  if (!program.name().empty()) out += "kernel " + program.name() + '\n';
  if (program.default_tm()) out += "tm " + format_cycles(*program.default_tm()) + '\n';
  int depth = 0;
  for (const Op& op : program.ops()) {
    if (op.kind == OpKind::end) --depth;
    out.append(static_cast<std::size_t>(depth) * 2, ' ');
    switch (op.kind) {
      case OpKind::repeat:
        out += "repeat " + (op.count_parameter.empty() ? std::to_string(op.count) : op.count_parameter);
        ++depth;
        break;
      case OpKind::end: out += "end"; break;
      default:
        out += std::string(to_string(op.kind)) + ' ' + format_cycles(op.duration);
        if (const CalcMix* mix = program.mix_of(op)) out += mix_words(*mix);
        if (op.space != MemorySpace::unspecified) {
          out += ' ' + std::string(to_string(op.space));
          if (op.transactions != 0) out += (counts_ways(op.space) ? " ways=" : " sectors=") + std::to_string(std::max(op.transactions, 0));
          if (op.lines > 0) out += " lines=" + std::to_string(op.lines);
          if (op.reuse != CacheReuse{}) {
            out += " reuse=" + thousandths(op.reuse.permille) + " distance=" + std::to_string(op.reuse.distance_bytes);
          }
        }
        if (op.same_address > 0) out += " same=" + std::to_string(op.same_address) + " hot=" + thousandths(op.hot_updates_milli);
        if (op.asynchronous) out += " async";
        if (op.use_distance >= 0) out += " use=" + std::to_string(op.use_distance);
        if (op.hoist > 0) out += " hoist=" + std::to_string(op.hoist);
        break;
    }
    out += '\n';
  }
  return out;
}

}  // namespace warpsim::isa
