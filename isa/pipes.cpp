#include "warpsim/isa/pipes.hpp"

#include <algorithm>

namespace warpsim::isa {
namespace {

constexpr std::array<const char*, kPipeCount> kPipeNames{
    "fp32", "fp64", "fp16", "int", "imad", "bits", "conv", "sfu", "shfl",
    "tensor_f16", "tensor_tf32", "tensor_i8", "tensor_fp8", "tensor_f64", "control"};
static_assert(static_cast<std::size_t>(Pipe::control) + 1 == kPipeCount);

}  // namespace

const char* to_string(Pipe pipe) { return kPipeNames[static_cast<std::size_t>(pipe)]; }

std::optional<Pipe> pipe_named(std::string_view word) {
  for (std::size_t i = 0; i < kPipeCount; ++i) {
    if (word == kPipeNames[i]) return pipe_at(i);
  }
  return std::nullopt;
}

bool CalcMix::empty() const {
  const auto zero = [](std::int64_t n) { return n == 0; };
  return issue == 0 && std::all_of(work.begin(), work.end(), zero) && std::all_of(chain.begin(), chain.end(), zero);
}

std::int64_t CalcMix::implied_issue() const {
  std::int64_t total = 0;
  for (std::size_t p = 0; p < kPipeCount; ++p) {
    if (!is_tensor(pipe_at(p))) total += work[p];
  }
  return total;
}

}  // namespace warpsim::isa
