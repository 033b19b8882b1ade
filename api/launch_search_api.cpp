// warpsim::search_block_size: the 1-D launch of N threads simulated at every block size the GPU
// allows (multiples of the warp size), the fastest marked, beside Algorithm 3's choice. Seed
// paper 000 picks the block size the same way: its time is a cost function of the block size,
// minimised over the legal sizes.
#include <algorithm>
#include <optional>
#include <utility>

#include "views.hpp"
#include "warpsim/gpus/profile.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/grid/launch_rejected.hpp"
#include "warpsim/ptx/emulator.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/report/text_table.hpp"
#include "warpsim/warpsim.hpp"
#include "warpsim/workload/timing_model.hpp"

namespace warpsim {
namespace {

// One launch simulated as `simulate` does; a launch that cannot run gets its reason instead.
struct Simulated {
  BlockCandidate candidate;
  std::optional<SimulateResult> result;
};

// What a PTX kernel under the memory-aware model takes of an SM, the same at every block size:
// once one size has run, these tell which others cannot, without lowering them for nothing.
struct KernelResources {
  std::int64_t registers_per_thread = 0, static_shared_bytes = 0;
};

// Why the launch cannot run, as simulate would say it (the same checks in the same order), or nothing.
std::optional<std::string> rejection(const gpus::Profile& gpu, const KernelResources& kernel, std::int64_t blocks,
                                     std::int64_t threads) {
  try {
    const sim::grid::Launch launch{blocks, threads};
    sim::grid::validate_launch(gpu, launch);
    sim::workload::with_occupancy(gpu, launch, Model::memory, kernel.registers_per_thread,
                                  kernel.static_shared_bytes);
  } catch (const InputError& error) {
    return error.describe();
  }
  return std::nullopt;
}

Simulated simulate_launch(SimulateRequest request, std::int64_t blocks, std::int64_t threads, const gpus::Profile& gpu,
                          std::optional<KernelResources>& resources) {
  Simulated out;
  out.candidate.threads = threads;
  out.candidate.blocks = blocks;
  if (resources) {
    if (std::optional<std::string> reason = rejection(gpu, *resources, blocks, threads)) {
      out.candidate.reason = std::move(*reason);
      return out;
    }
  }
  request.grid = Dim3{blocks, 1, 1};
  request.block = Dim3{threads, 1, 1};
  try {
    SimulateResult result = simulate(request);
    out.candidate.time_us = result.time_us;
    out.candidate.cycles = result.cycles;
    out.candidate.active_blocks_per_sm = result.plan.active_blocks_per_sm;
    out.candidate.active_warps_per_sm = result.plan.active_blocks_per_sm * result.plan.warps_per_block;
    if (result.ptx && result.ptx->registers_per_thread) {  // PTX under the memory-aware model
      resources = KernelResources{*result.ptx->registers_per_thread, result.ptx->static_shared_bytes};
    }
    out.result = std::move(result);
  } catch (const sim::grid::LaunchRejected& rejected) {
    out.candidate.reason = rejected.describe();
  }
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

nlohmann::ordered_json launch_json(const BlockCandidate& c) {
  nlohmann::ordered_json out;
  out["threads"] = c.threads;
  out["blocks"] = c.blocks;
  if (c.time_us) {
    out["time_us"] = *c.time_us;
  } else {
    out["time_us"] = nullptr;
  }
  return out;
}

// The table without the spaces an empty last column leaves at the ends of lines.
std::string without_trailing_spaces(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::size_t last = end;
    while (last > start && text[last - 1] == ' ') --last;
    out.append(text, start, last - start);
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string time_text(const BlockCandidate& c) { return c.time_us ? sim::report::fixed(*c.time_us, 3) + " us" : "cannot run"; }

}  // namespace

BlockSizeSearch search_block_size(const BlockSearchRequest& request) {
  const gpus::Profile gpu = gpus::load_profile(request.simulation.gpu);
  BlockSizeSearch search;
  search.gpu = gpu.id;
  search.total_threads = request.total_threads;
  search.model = request.simulation.model;
  // Algorithm 3 first: it refuses a thread count that no launch can hold (0, or too many blocks).
  search.algorithm3_plan = plan_launch(request.simulation.gpu, request.total_threads);

  SimulateRequest base = request.simulation;
  if (base.program.empty()) {  // the paper's own kernel, the one Algorithm 3 was made for
    base.program = kDefaultSearchProgram;
    const bool has_k = std::any_of(base.params.begin(), base.params.end(), [](const auto& p) { return p.first == "K"; });
    if (!has_k) base.params.emplace_back("K", std::to_string(kDefaultSearchFilterLength));
  }
  base.timeline = base.trace = false;
  base.control = Control{nullptr, request.control.cancel, request.control.activity};  // the search reports progress, not each lowering

  std::vector<std::int64_t> sizes;
  for (std::int64_t threads = gpu.warp_size; threads <= gpu.max_threads_per_block; threads += gpu.warp_size) {
    sizes.push_back(threads);
  }
  if (sizes.empty()) {
    throw InputError("GPU " + quote_for_message(gpu.id) + ": no block size to try (warp size " +
                     std::to_string(gpu.warp_size) + ", max_threads_per_block " + std::to_string(gpu.max_threads_per_block) + ")");
  }
  const LaunchPlan& plan = search.algorithm3_plan;
  const auto is_candidate = [&](std::int64_t threads, std::int64_t blocks) {
    return threads % gpu.warp_size == 0 && threads <= gpu.max_threads_per_block &&
           blocks == sim::grid::ceil_div(request.total_threads, threads);
  };
  const bool algorithm3_is_candidate = is_candidate(plan.threads, plan.blocks);
  const std::int64_t total = static_cast<std::int64_t>(sizes.size()) + (algorithm3_is_candidate ? 0 : 1);
  std::int64_t done = 0;
  const auto step = [&] {
    if (request.control.cancel && *request.control.cancel) throw Cancelled{};
    if (request.control.progress) request.control.progress(++done, total);
  };

  std::vector<std::optional<SimulateResult>> results;
  std::optional<KernelResources> resources;  // known after the first PTX launch that runs
  for (const std::int64_t threads : sizes) {
    Simulated s = simulate_launch(base, sim::grid::ceil_div(request.total_threads, threads), threads, gpu, resources);
    if (s.candidate.threads == plan.threads && s.candidate.blocks == plan.blocks) search.algorithm3 = s.candidate;
    search.candidates.push_back(std::move(s.candidate));
    results.push_back(std::move(s.result));
    step();
  }
  if (!algorithm3_is_candidate) {
    search.algorithm3 = simulate_launch(base, plan.blocks, plan.threads, gpu, resources).candidate;
    step();
  }

  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < search.candidates.size(); ++i) {
    const std::optional<double>& time = search.candidates[i].time_us;
    if (time && (!best || *time < *search.candidates[*best].time_us)) best = i;  // equal: the smaller block stays
  }
  if (!best) {
    const BlockCandidate& first = search.candidates.front();
    throw InputError("no block size of " + std::to_string(sizes.front()) + " to " + std::to_string(sizes.back()) +
                     " threads can run on " + quote_for_message(gpu.id) + ": at " + std::to_string(first.threads) +
                     " threads, " + first.reason);
  }
  search.best = *best;
  search.candidates[*best].best = true;
  const SimulateResult& fastest = *results[*best];
  search.kernel = fastest.kernel;
  if (fastest.ptx) {
    search.registers_per_thread = fastest.ptx->registers_per_thread;
    search.registers_source = fastest.ptx->registers_source;
    search.static_shared_bytes = fastest.ptx->static_shared_bytes;
  }
  search.warnings = fastest.warnings;
  return search;
}

nlohmann::ordered_json to_json(const BlockSizeSearch& s) {
  nlohmann::ordered_json out;
  out["gpu"] = s.gpu;
  out["kernel"] = s.kernel;
  out["total_threads"] = s.total_threads;
  out["model"] = to_string(s.model);
  if (s.registers_per_thread) {
    out["registers_per_thread"] = *s.registers_per_thread;
    out["registers_source"] = s.registers_source;
    out["static_shared_bytes"] = s.static_shared_bytes;
  }
  out["best"] = launch_json(s.candidates.at(s.best));
  nlohmann::ordered_json algorithm3;
  algorithm3["threads"] = s.algorithm3.threads;
  algorithm3["blocks"] = s.algorithm3.blocks;
  algorithm3["rule"] = s.algorithm3_plan.rule;
  algorithm3.update(launch_json(s.algorithm3));  // adds time_us
  if (!s.algorithm3.time_us) algorithm3["reason"] = s.algorithm3.reason;
  out["algorithm3"] = std::move(algorithm3);
  nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
  for (const BlockCandidate& c : s.candidates) {
    nlohmann::ordered_json row = launch_json(c);
    if (c.time_us) {
      row["cycles"] = sim::report::number_json(c.cycles);
      row["active_blocks_per_sm"] = c.active_blocks_per_sm;
      row["active_warps_per_sm"] = c.active_warps_per_sm;
    } else {
      row["cycles"] = nullptr;
      row["active_blocks_per_sm"] = nullptr;
      row["active_warps_per_sm"] = nullptr;
    }
    row["best"] = c.best;
    if (!c.time_us) row["reason"] = c.reason;
    candidates.push_back(std::move(row));
  }
  out["candidates"] = std::move(candidates);
  return out;
}

std::string to_text(const BlockSizeSearch& s) {
  std::string text = "block sizes for " + s.kernel + " on " + s.gpu + ", N = " + std::to_string(s.total_threads) +
                     " threads, " + to_string(s.model) + " model";
  if (s.registers_per_thread) {
    text += ", registers per thread " + std::to_string(*s.registers_per_thread) + " (" + s.registers_source +
            "), static shared memory " + std::to_string(s.static_shared_bytes) + " bytes";
  }
  text += "\n";
  std::vector<std::string> headers{"best", "threads", "blocks", "time_us", "cycles", "active_blocks_per_sm", "active_warps_per_sm"};
  if (std::any_of(s.candidates.begin(), s.candidates.end(), [](const BlockCandidate& c) { return !c.time_us; })) {
    headers.emplace_back("reason");
  }
  sim::report::TextTable table(std::move(headers));  // add_row drops the reason when it has no column
  for (const BlockCandidate& c : s.candidates) {
    if (c.time_us) {
      table.add_row({c.best ? "*" : "", std::to_string(c.threads), std::to_string(c.blocks), sim::report::fixed(*c.time_us, 3),
                     sim::report::shortest(c.cycles), std::to_string(c.active_blocks_per_sm),
                     std::to_string(c.active_warps_per_sm), ""});
    } else {
      table.add_row({"", std::to_string(c.threads), std::to_string(c.blocks), "", "", "", "", c.reason});
    }
  }
  text += without_trailing_spaces(table.render());
  const BlockCandidate& best = s.candidates.at(s.best);
  text += "best: " + std::to_string(best.threads) + " threads x " + std::to_string(best.blocks) + " blocks, " +
          time_text(best) + "\n";
  text += "Algorithm 3 (rule " + std::to_string(s.algorithm3_plan.rule) + "): " + std::to_string(s.algorithm3.threads) +
          " threads x " + std::to_string(s.algorithm3.blocks) + " blocks, " + time_text(s.algorithm3);
  if (s.algorithm3.time_us && *best.time_us > 0) {
    text += " (" + sim::report::fixed(*s.algorithm3.time_us / *best.time_us, 3) + "x the best)";
  } else if (!s.algorithm3.time_us) {
    text += ": " + s.algorithm3.reason;
  }
  return text + "\n";
}

std::string to_csv(const BlockSizeSearch& s) {
  std::string csv = "gpu,kernel,total_threads,threads,blocks,time_us,cycles,active_blocks_per_sm,active_warps_per_sm,best,reason\n";
  const std::string prefix = csv_field(s.gpu) + "," + csv_field(s.kernel) + "," + std::to_string(s.total_threads) + ",";
  for (const BlockCandidate& c : s.candidates) {
    csv += prefix + std::to_string(c.threads) + "," + std::to_string(c.blocks) + ",";
    if (c.time_us) {
      csv += sim::report::shortest(*c.time_us) + "," + sim::report::shortest(c.cycles) + "," +
             std::to_string(c.active_blocks_per_sm) + "," + std::to_string(c.active_warps_per_sm) + ",";
    } else {
      csv += ",,,,";
    }
    csv += std::string(c.best ? "true" : "false") + "," + csv_field(c.reason) + "\n";
  }
  return csv;
}

}  // namespace warpsim
