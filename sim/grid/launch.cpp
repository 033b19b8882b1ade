#include "warpsim/grid/launch.hpp"

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::grid {
void validate_launch(const gpus::Profile& gpu, const Launch& launch) {
  if (launch.blocks < 1) throw InputError("launch needs at least one block");
  if (launch.blocks > kMaxBlocks) {
    throw InputError("launch of " + std::to_string(launch.blocks) +
                     " blocks exceeds the CUDA grid limit of 2^31-1 blocks");
  }
  if (launch.threads_per_block < 1) throw InputError("launch needs at least one thread per block");
  if (launch.threads_per_block > gpu.max_threads_per_block) {
    throw InputError("block of " + std::to_string(launch.threads_per_block) + " threads exceeds " +
                     gpu.id + "'s limit of " + std::to_string(gpu.max_threads_per_block));
  }
  // ceil(N_t / warp size) > L_w/sm  <=>  N_t > L_w/sm * warp size: no division on the way through.
  std::int64_t most_threads = 0;
  if (!__builtin_mul_overflow(gpu.max_warps_per_sm, gpu.warp_size, &most_threads) && launch.threads_per_block > most_threads) {
    const std::int64_t warps_per_block = ceil_div(launch.threads_per_block, gpu.warp_size);
    throw InputError("a block of " + std::to_string(warps_per_block) + " warps cannot fit on an SM of " +
                     gpu.id + " (at most " + std::to_string(gpu.max_warps_per_sm) + " warps)");
  }
}

int heuristic_rule(const gpus::Profile& gpu, std::int64_t total_threads) {
  const std::int64_t even_sms = gpu.sm_count + gpu.sm_count % 2;  // N_sm'
  const std::int64_t n_min = gpu.warp_size;                       // N_t/w
  const std::int64_t n_max = gpu.max_threads_per_block;           // L_t/b
  // per_sm = N / N_sm' compared without division: per_sm < N_min  <=>  N < N_min * N_sm'.
  if (total_threads < n_min) return 1;
  if (total_threads < n_min * even_sms) return 2;
  if (total_threads <= n_max * even_sms) return 3;
  return 4;
}

Launch suggest_launch(const gpus::Profile& gpu, std::int64_t total_threads) {
  if (total_threads < 1) throw InputError("the launch heuristic needs at least one thread");
  const std::int64_t even_sms = gpu.sm_count + gpu.sm_count % 2;
  Launch launch;
  switch (heuristic_rule(gpu, total_threads)) {
    case 1: launch = {1, total_threads}; break;
    case 2: launch = {ceil_div(total_threads, gpu.warp_size), gpu.warp_size}; break;
    case 3: launch = {even_sms, ceil_div(total_threads, even_sms)}; break;
    default:
      launch = {ceil_div(total_threads, gpu.max_threads_per_block), gpu.max_threads_per_block};
      break;
  }
  if (launch.blocks > kMaxBlocks) {
    throw InputError(std::to_string(total_threads) + " threads need " + std::to_string(launch.blocks) +
                     " blocks, above the CUDA grid limit of 2^31-1");
  }
  return launch;
}

Dimensions parse_dimension_list(const std::string& text, const std::string& what) {
  std::int64_t factors[3] = {1, 1, 1};
  int count = 0;
  std::int64_t product = 1;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = text.find(',', pos);
    const std::string part = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    std::int64_t value = 0;
    bool ok = !part.empty() && part.size() <= 18;
    for (const char c : part) ok = ok && c >= '0' && c <= '9';
    if (ok) value = std::stoll(part);
    if (!ok || value < 1) {
      throw InputError(what + " " + quote_for_message(text) +
                       ": expected a positive whole number or X,Y,Z");
    }
    if (count == 3) throw InputError(what + " " + quote_for_message(text) + ": at most three dimensions");
    factors[count++] = value;
    if (__builtin_mul_overflow(product, value, &product)) {
      throw InputError(what + " " + quote_for_message(text) + " is too large");
    }
    if (comma == std::string::npos) return Dimensions{factors[0], factors[1], factors[2]};
    pos = comma + 1;
  }
}

std::int64_t parse_dimensions(const std::string& text, const std::string& what) {
  return parse_dimension_list(text, what).count();
}

}  // namespace warpsim::sim::grid
