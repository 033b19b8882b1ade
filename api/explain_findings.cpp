// Explain's findings (docs/explain.md, "Findings"): each cause the prediction shows, re-simulated
// with that cause removed. A line's accesses are priced as their `ideal` (coalesced sectors,
// conflict-free passes), colliding atomics as one lane per address, local accesses as register
// moves, FP64 work on the FP32 pipe, diverged instructions at the share of lanes they keep; the
// launch at each occupancy step or at larger blocks; the last partial wave at a full wave's rate;
// a small grid's work spread over every SM at the kernel's occupancy.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "explain.hpp"
#include "explain_parts.hpp"
#include "limits.hpp"
#include "simulate_on.hpp"
#include "warpsim/core/memory_timing.hpp"
#include "warpsim/report/number_format.hpp"
#include "warpsim/workload/model_spec.hpp"
#include "warpsim/workload/ptx_workload_model.hpp"

namespace warpsim::api {
namespace {

using sim::report::shortest;

constexpr double kLeast = 1.05;     // the smallest speed-up a finding reports
constexpr std::size_t kLinesPerKind = 3;  // the worst lines of one kind, each re-simulated
constexpr std::size_t kOccupancySteps = 8;  // the occupancy steps re-simulated (registers, shared memory)
constexpr auto kFp64 = static_cast<std::size_t>(isa::Pipe::fp64);
constexpr auto kFp32 = static_cast<std::size_t>(isa::Pipe::fp32);

std::string one_decimal(double value) { return shortest(std::round(value * 10) / 10); }

// One place's accesses (or instructions) over the whole launch: every warp, loops multiplied out.
struct LineTally {
  std::set<int> ptx_lines;             // the PTX lines of the place (one CUDA line may have several)
  double accesses = 0, transactions = 0, ideal = 0;
  double same = 0, hot = 0;            // atomics: lanes on one address, updates to the busiest (summed over accesses)
  double misses = 0;                   // global: sectors read from DRAM (the cache's hits taken out)
  bool shared = false;                 // atomics: on shared memory
  double instructions = 0, idle = 0;   // calcs: instructions, and the lanes divergence left idle (in instructions)
};

class Advisor {
 public:
  Advisor(const ExplainInputs& in, const FindingInputs& f, const gpus::Profile& gpu, const SimulateResult& result)
      : in_(in), f_(f), gpu_(gpu), result_(result), occupancy_(sim::occupancy::active_blocks(gpu, in.resources)) {
    if (!in.source_path.empty() && f.kernel != nullptr) cuda_ = cuda_lines(in.source_path);
  }

  std::vector<Finding> run() {
    if (f_.kernel != nullptr) {
      memory_lines();
      divergence();
      fp64();
      occupancy();
    }
    block_size();
    tail();
    too_few_warps();
    std::stable_sort(found_.begin(), found_.end(), [](const Finding& a, const Finding& b) { return a.speedup > b.speedup; });
    return found_;
  }

 private:
  using Edit = std::function<void(std::size_t program, std::size_t op, isa::Op&, isa::CalcMix*)>;

  const isa::Program& program(std::size_t id) const { return f_.timed ? (*f_.timed)[id] : f_.kernel->programs[id].program; }

  // visit(program, op index, op, its note, how often the launch's warps execute it).
  template <class Visit>
  void for_each_op(Visit visit) const {
    for (std::size_t id = 0; id < f_.kernel->programs.size(); ++id) {
      const isa::Program& p = program(id);
      const std::vector<ptx::OpNote>& notes = f_.kernel->programs[id].notes;
      std::vector<double> weight{static_cast<double>(f_.kernel->programs[id].warps)};
      for (std::size_t i = 0; i < p.ops().size(); ++i) {
        const isa::Op& op = p.ops()[i];
        if (op.kind == isa::OpKind::repeat) {
          weight.push_back(weight.back() * static_cast<double>(op.count));
        } else if (op.kind == isa::OpKind::end) {
          weight.pop_back();
        } else if (i < notes.size()) {
          visit(id, i, op, notes[i], weight.back());
        }
      }
    }
  }

  // The launch re-simulated with `edit` applied to every program (null: as timed) at `launch`.
  double retimed_us(const Edit& edit, const sim::grid::Launch& launch) const {
    std::vector<isa::Program> edited;
    if (edit) {
      for (std::size_t id = 0; id < f_.kernel->programs.size(); ++id) {
        edited.push_back(program(id).with_ops_edited([&](std::size_t i, isa::Op& op, isa::CalcMix* mix) { edit(id, i, op, mix); }));
      }
    }
    const sim::workload::ModelSpec spec =
        sim::workload::make_model_spec(f_.model, gpu_, launch, f_.tm, f_.annotated, f_.max_warp_instructions);
    // time_lowered_kernel's empty list stands for the kernel's own programs.
    const std::vector<isa::Program>& programs = edit ? edited : f_.timed ? *f_.timed : edited;
    return sim::workload::time_lowered_kernel(gpu_, launch, f_.tp_us, *f_.kernel, spec, programs).time_us;
  }

  // Reports the finding when its re-simulated time is at least kLeast faster.
  void report(Finding finding, double time_us) {
    if (time_us <= 0 || result_.time_us / time_us < kLeast) return;
    finding.time_us = time_us;
    finding.speedup = result_.time_us / time_us;
    found_.push_back(std::move(finding));
  }

  // Where a finding is: the CUDA line the PTX line's `.loc` names (nvcc -lineinfo), else the PTX line.
  LineKey place_of(int ptx_line) const {
    const auto it = cuda_.find(ptx_line);
    return it != cuda_.end() ? it->second : LineKey{"", ptx_line};
  }

  // A finding at a place, with its first PTX line, its CUDA line and its SASS where known.
  Finding at_line(std::string kind, const LineKey& place, const std::set<int>& ptx_lines) const {
    Finding finding;
    finding.kind = std::move(kind);
    finding.file = in_.source_path;
    finding.line = ptx_lines.empty() ? place.second : *ptx_lines.begin();
    if (!place.first.empty()) {
      finding.source_file = place.first;
      finding.source_line = place.second;
      const std::vector<std::string> text = file_lines(finding.source_file);
      if (finding.source_line >= 1 && static_cast<std::size_t>(finding.source_line) <= text.size()) {
        finding.source_text = trimmed(text[static_cast<std::size_t>(finding.source_line) - 1]);
      }
    }
    if (in_.sass) {
      for (const sass::Function& fn : in_.sass->functions) {
        for (std::size_t i = 0; i < fn.padding_start(); ++i) {
          const sass::Instruction& s = fn.code[i];
          if (!ptx_lines.contains(static_cast<int>(s.ptx_line))) continue;
          finding.sass.push_back(sass_text(s));
        }
      }
    }
    return finding;
  }

  std::string place(const Finding& finding) const {
    if (finding.source_line > 0) return std::filesystem::path(finding.source_file).filename().string() + ":" + std::to_string(finding.source_line);
    return "PTX line " + std::to_string(finding.line);
  }

  // The lines whose accesses of one kind show the cause, worst first (by the excess they carry).
  static std::vector<LineKey> worst(const std::map<LineKey, LineTally>& lines, const std::function<double(const LineTally&)>& excess) {
    std::vector<std::pair<double, LineKey>> ranked;
    for (const auto& [line, t] : lines) {
      if (const double e = excess(t); e > 0) ranked.emplace_back(e, line);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<LineKey> out;
    for (std::size_t i = 0; i < ranked.size() && i < kLinesPerKind; ++i) out.push_back(ranked[i].second);
    return out;
  }

  static int line_of(const ptx::OpNote& note) { return note.source.empty() ? 0 : note.source.front().line; }

  using EditLines = std::function<Edit(const std::set<int>&, isa::MemorySpace, const std::function<void(isa::Op&, const ptx::OpNote&)>&)>;
  using Describe = std::function<std::string(Finding&, const LineTally&, const std::string&)>;

  // One kind of access cause (bank conflicts, uncoalesced): each of the worst lines re-simulated
  // alone, and, where several lines show it, all of them at once (a fix usually mends them all),
  // placed at the line whose fix alone gains most.
  void lines_of_kind(const std::map<LineKey, LineTally>& lines, const std::string& kind, isa::MemorySpace space, const EditLines& edit_lines,
                     const std::function<void(isa::Op&, const ptx::OpNote&)>& change, const Describe& describe) {
    const auto excess = [](const LineTally& t) { return t.transactions - t.ideal * 1.25; };
    std::set<int> every;
    LineTally all;
    std::size_t places = 0;
    for (const auto& [line, t] : lines) {
      if (excess(t) <= 0) continue;
      ++places;
      every.insert(t.ptx_lines.begin(), t.ptx_lines.end());
      all.accesses += t.accesses;
      all.transactions += t.transactions;
      all.ideal += t.ideal;
    }
    const std::vector<LineKey> ranked = worst(lines, excess);
    double fastest = result_.time_us;
    LineKey best_line = ranked.empty() ? LineKey{} : ranked.front();
    for (const LineKey& line : ranked) {
      const LineTally& t = lines.at(line);
      Finding finding = at_line(kind, line, t.ptx_lines);
      finding.change = "that line's " + describe(finding, t, place(finding));
      const double time_us = retimed_us(edit_lines(t.ptx_lines, space, change), f_.launch);
      if (time_us < fastest) std::tie(fastest, best_line) = std::pair{time_us, line};
      report(std::move(finding), time_us);
    }
    if (places < 2) return;
    Finding finding = at_line(kind, best_line, lines.at(best_line).ptx_lines);  // where the fix gains most
    finding.change = "the " + std::to_string(places) + " lines' " + describe(finding, all, place(finding) + " and " + std::to_string(places - 1) + " other lines");
    const double time_us = retimed_us(edit_lines(every, space, change), f_.launch);
    if (time_us < fastest * 0.98) report(std::move(finding), time_us);  // only where the lines together gain more than the worst alone
  }

  void memory_lines() {
    std::map<LineKey, LineTally> shared, global, atomics, local;
    const sim::core::MemoryTiming* memory = in_.engine.memory;
    const auto hit_rate = [memory](const isa::Op& op) { return memory != nullptr ? sim::core::cache_hit_rate(op.reuse, memory->cache_bytes_per_block) : 0.0; };
    for_each_op([&](std::size_t, std::size_t, const isa::Op& op, const ptx::OpNote& note, double weight) {
      if (!isa::is_memory(op.kind) || op.transactions <= 0) return;
      const LineKey line = place_of(line_of(note));
      const auto tally = [&](LineTally& t) {
        t.ptx_lines.insert(line_of(note));
        t.accesses += weight;
        t.transactions += weight * op.transactions;
        t.ideal += weight * (note.ideal > 0 ? note.ideal : op.transactions);
      };
      const bool atomic = note.same_address > 1 || op.hot_updates_milli > 1000;
      // Only the accesses that show the cause: an access of the line already at its ideal is not evidence.
      const bool excess = note.ideal > 0 && op.transactions > note.ideal;
      if (op.space == isa::MemorySpace::shared && excess && !atomic) tally(shared[line]);
      if (op.space == isa::MemorySpace::global && op.same_address == 0 && excess) {
        tally(global[line]);
        global[line].misses += weight * op.transactions * (1 - hit_rate(op));
      }
      if (op.space == isa::MemorySpace::local) tally(local[line]);
      if (atomic) {
        LineTally& t = atomics[line];
        t.shared = t.shared || op.space == isa::MemorySpace::shared;
        t.ptx_lines.insert(line_of(note));
        t.accesses += weight;
        t.same += weight * note.same_address;
        t.hot += weight * op.hot_updates_milli / 1000.0;
      }
    });
    const auto edit_lines = [this](const std::set<int>& lines, isa::MemorySpace space, const std::function<void(isa::Op&, const ptx::OpNote&)>& change) -> Edit {
      return [this, lines, space, change](std::size_t id, std::size_t i, isa::Op& op, isa::CalcMix*) {
        const ptx::OpNote& note = f_.kernel->programs[id].notes[i];
        if (isa::is_memory(op.kind) && op.space == space && op.transactions > 0 && lines.contains(line_of(note))) change(op, note);
      };
    };
    const auto conflict_free = [](isa::Op& op, const ptx::OpNote& note) {
      if (note.ideal > 0 && note.same_address <= 1) op.transactions = note.ideal;
    };
    // Coalesced: the ideal sectors, with as many read from DRAM as before where they fit (a strided
    // access whose lines stay in the cache for the next iterations already reads only what it
    // needs): each place's misses spread evenly over its coalesced sectors.
    std::map<int, double> miss_share;  // PTX line -> the share of its coalesced sectors that miss
    for (const auto& [line, t] : global) {
      for (const int l : t.ptx_lines) miss_share[l] = t.ideal > 0 ? std::min(1.0, t.misses / t.ideal) : 1.0;
    }
    const auto coalesced = [&miss_share](isa::Op& op, const ptx::OpNote& note) {
      if (note.ideal <= 0 || note.ideal >= op.transactions) return;
      op.transactions = note.ideal;
      op.lines = 0;
      op.reuse = {static_cast<std::int32_t>(std::lround(1000 * (1 - miss_share[line_of(note)]))), 0};
    };
    lines_of_kind(shared, "bank_conflicts", isa::MemorySpace::shared, edit_lines, conflict_free,
                  [&](Finding& f, const LineTally& t, const std::string& where) {
                    const double ways = t.transactions / t.accesses, ideal = t.ideal / t.accesses;
                    f.evidence = {{"passes_per_access", ways}, {"conflict_free_passes", ideal}, {"conflict_degree", ways / ideal},
                                  {"accesses", t.accesses}};
                    f.message = "Shared-memory bank conflicts at " + where + ": " + one_decimal(ways / ideal) + "-way (" + one_decimal(ways) +
                                " passes per access where " + one_decimal(ideal) +
                                " would do); pad the array or change the index so lanes hit different banks.";
                    return std::string("shared accesses priced conflict-free");
                  });
    lines_of_kind(global, "uncoalesced", isa::MemorySpace::global, edit_lines, coalesced,
                  [&](Finding& f, const LineTally& t, const std::string& where) {
                    const double sectors = t.transactions / t.accesses, ideal = t.ideal / t.accesses;
                    f.evidence = {{"sectors_per_request", sectors}, {"coalesced_sectors_per_request", ideal}, {"requests", t.accesses}};
                    f.message = "Uncoalesced global access at " + where + ": " + one_decimal(sectors) + " sectors per request where " +
                                one_decimal(ideal) +
                                " would do; make neighbouring threads read neighbouring addresses (a structure of arrays, or a tile in shared memory).";
                    return std::string("global accesses priced as coalesced (as few sectors from DRAM as before, or fewer)");
                  });
    for (const LineKey& line : worst(atomics, [](const LineTally& t) { return t.same + t.hot - t.accesses; })) {
      const LineTally& t = atomics[line];
      Finding finding = at_line("atomic_contention", line, t.ptx_lines);
      finding.evidence = {{"lanes_on_one_address", t.same / t.accesses}, {"updates_to_busiest_address_per_access", t.hot / t.accesses},
                          {"accesses", t.accesses}};
      finding.message = "Atomics collide on one address at " + place(finding) + ": " + one_decimal(t.same / t.accesses) +
                        " lanes of a warp on one address" + (t.hot > t.accesses ? ", every warp updating the same one" : "") +
                        (t.shared ? " (shared memory); aggregate within the warp first (__reduce_add_sync, __match_any_sync), or give each warp its own copy."
                                  : "; aggregate in the warp or the block first (a shuffle reduction, privatised bins in shared memory).");
      finding.change = "that line's atomics priced with one lane per address and no other warp on it (an upper bound: a fix keeps some)";
      // Aggregated in the warp (a leader adds its lanes' sum): one update where `same` lanes made
      // theirs, other warps still on the address. The first step of most fixes, as evidence.
      const auto edit = [this, lines = t.ptx_lines](bool aggregated) -> Edit {
        return [this, lines, aggregated](std::size_t id, std::size_t i, isa::Op& op, isa::CalcMix*) {
          const ptx::OpNote& note = f_.kernel->programs[id].notes[i];
          if (!isa::is_memory(op.kind) || !lines.contains(line_of(note))) return;
          if (op.space == isa::MemorySpace::shared && note.same_address > 1 && note.ideal > 0) {
            op.transactions = aggregated ? std::max(note.ideal, (op.transactions + note.same_address - 1) / note.same_address) : note.ideal;
          } else if (op.same_address > 0) {
            op.hot_updates_milli = aggregated ? op.hot_updates_milli / op.same_address : 0;
            op.same_address = 1;
          }
        };
      };
      const double aggregated_us = retimed_us(edit(true), f_.launch);
      finding.evidence.emplace_back("speedup_if_warp_aggregated", result_.time_us / aggregated_us);
      report(std::move(finding), retimed_us(edit(false), f_.launch));
    }
    if (!local.empty()) {
      double accesses = 0, sectors = 0;
      for (const auto& [line, t] : local) {
        accesses += t.accesses;
        sectors += t.transactions;
      }
      const LineKey hottest = worst(local, [](const LineTally& t) { return t.transactions; }).front();
      Finding finding = at_line("local_memory", hottest, local[hottest].ptx_lines);
      std::int64_t spills = 0;
      if (in_.sass) {
        for (const sass::Function& fn : in_.sass->functions) {
          for (std::size_t i = 0; i < fn.padding_start(); ++i) spills += fn.code[i].opcode.starts_with("LDL") || fn.code[i].opcode.starts_with("STL");
        }
      }
      finding.evidence = {{"local_accesses", accesses}, {"local_sectors", sectors}, {"lines", static_cast<double>(local.size())}};
      if (in_.sass) finding.evidence.emplace_back("sass_local_instructions", static_cast<double>(spills));
      finding.message = "Local memory (a register spill or a per-thread array indexed at run time) at " + place(finding) + " and " +
                        std::to_string(local.size() - 1) + " other lines: " + shortest(std::round(sectors / accesses * 10) / 10) +
                        " sectors per access; index the array with constants (unrolled) or use fewer registers so it stays in registers.";
      finding.change = "every local access made a register move (one issue, no memory)";
      report(std::move(finding), retimed_us(
                                     [](std::size_t, std::size_t, isa::Op& op, isa::CalcMix*) {
                                       if (isa::is_memory(op.kind) && op.space == isa::MemorySpace::local) op.kind = isa::OpKind::calc;
                                     },
                                     f_.launch));
    }
  }

  // Each calc's share of lanes divergence left idle (over its instructions), 0 when converged.
  static double idle_share(const ptx::OpNote& note) {
    double instructions = 0, idle = 0;
    for (const ptx::LineCount& l : note.source) {
      instructions += static_cast<double>(l.instructions);
      idle += static_cast<double>(l.idle_milli) / 1000.0;
    }
    return instructions > 0 ? idle / instructions : 0;
  }

  void divergence() {
    std::map<LineKey, LineTally> lines;
    double instructions = 0, idle = 0;
    for_each_op([&](std::size_t, std::size_t, const isa::Op& op, const ptx::OpNote& note, double weight) {
      if (op.kind != isa::OpKind::calc) return;
      for (const ptx::LineCount& l : note.source) {
        instructions += weight * static_cast<double>(l.instructions);
        if (l.idle_milli == 0) continue;
        // The idle lanes' time goes to the branch that split them off (else to their own line).
        LineTally& t = lines[place_of(l.branch_line != 0 ? l.branch_line : l.line)];
        t.ptx_lines.insert(l.branch_line != 0 ? l.branch_line : l.line);
        t.instructions += weight * static_cast<double>(l.instructions);
        t.idle += weight * static_cast<double>(l.idle_milli) / 1000.0;
        idle += weight * static_cast<double>(l.idle_milli) / 1000.0;
      }
    });
    if (idle <= 0) return;
    const std::vector<LineKey> hottest = worst(lines, [](const LineTally& t) { return t.idle; });
    Finding finding = at_line("branch_divergence", hottest.front(), lines[hottest.front()].ptx_lines);
    const LineTally& t = lines[hottest.front()];
    finding.evidence = {{"idle_lane_share", idle / instructions}, {"idle_lane_share_after_branch", t.idle / t.instructions},
                        {"diverged_instructions", t.instructions}, {"instructions", instructions}};
    finding.message = "Branch divergence at " + place(finding) + ": the lanes of a warp take different paths, leaving " +
                      percent(t.idle / t.instructions) + " of them idle over the " + one_decimal(t.instructions / std::max(1.0, instructions) * 100) +
                      "% of instructions issued under it; make the condition the same for the 32 threads of a warp "
                      "(branch on the warp index, or sort the work).";
    finding.change = "every diverged instruction issued for the share of its warp's lanes it keeps";
    report(std::move(finding), retimed_us(
                                   [this](std::size_t id, std::size_t i, isa::Op& op, isa::CalcMix* mix) {
                                     if (op.kind != isa::OpKind::calc || mix == nullptr) return;
                                     const double keep = 1 - idle_share(f_.kernel->programs[id].notes[i]);
                                     if (keep >= 1) return;
                                     const auto scaled = [keep](std::int64_t n) { return static_cast<std::int64_t>(std::ceil(static_cast<double>(n) * keep)); };
                                     mix->issue = std::max<std::int64_t>(scaled(mix->issue), mix->empty() ? 0 : 1);
                                     for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
                                       mix->work[p] = scaled(mix->work[p]);
                                       mix->chain[p] = std::min(mix->chain[p], std::max<std::int64_t>(mix->work[p], 0));
                                     }
                                     op.duration = std::max<isa::Millicycles>(isa::kMillicyclesPerCycle,
                                                                              static_cast<isa::Millicycles>(static_cast<double>(op.duration) * keep));
                                   },
                                   f_.launch));
  }

  void fp64() {
    if (in_.engine.pipes == nullptr || in_.engine.pipes->occupancy[kFp32] <= 0) return;
    const double rate = static_cast<double>(in_.engine.pipes->occupancy[kFp64]) / static_cast<double>(in_.engine.pipes->occupancy[kFp32]);
    if (rate < 4) return;  // FP64 at a quarter of FP32's rate or better: not a low rate
    std::map<LineKey, LineTally> lines;
    double work = 0;
    for_each_op([&](std::size_t id, std::size_t i, const isa::Op& op, const ptx::OpNote& note, double weight) {
      const isa::CalcMix* mix = program(id).mix_of(op);
      if (op.kind != isa::OpKind::calc || mix == nullptr || mix->work[kFp64] == 0) return;
      (void)i;
      work += weight * static_cast<double>(mix->work[kFp64]);
      for (const ptx::LineCount& l : note.source) {
        LineTally& t = lines[place_of(l.line)];
        t.ptx_lines.insert(l.line);
        t.instructions += weight * static_cast<double>(l.instructions);
      }
    });
    if (work <= 0) return;
    const std::vector<LineKey> hottest = worst(lines, [](const LineTally& t) { return t.instructions; });
    Finding finding = at_line("fp64", hottest.front(), lines[hottest.front()].ptx_lines);
    finding.evidence = {{"fp64_warp_instructions", work}, {"fp64_cost_over_fp32", rate}};
    finding.message = "FP64 arithmetic on " + gpu_.id + ", whose FP64 pipe runs at 1/" + shortest(std::round(rate)) +
                      " of FP32's (the most at " + place(finding) + "); use float where the precision allows (and float literals: 2.0f).";
    finding.change = "every FP64 instruction priced on the FP32 pipe";
    report(std::move(finding), retimed_us(
                                   [](std::size_t, std::size_t, isa::Op&, isa::CalcMix* mix) {
                                     if (mix == nullptr || mix->work[kFp64] == 0) return;
                                     mix->work[kFp32] = std::min(mix->work[kFp32] + mix->work[kFp64], isa::kMaxMixCount);
                                     mix->chain[kFp32] = std::min(mix->chain[kFp32] + mix->chain[kFp64], isa::kMaxMixCount);
                                     mix->work[kFp64] = 0;
                                     mix->chain[kFp64] = 0;
                                   },
                                   f_.launch));
  }

  // The launch with `resources` in place of the kernel's: its occupancy, or 0 when it cannot run.
  std::int64_t blocks_with(const sim::occupancy::KernelResources& resources) const {
    return sim::occupancy::active_blocks(gpu_, resources).active_blocks_per_sm;
  }

  // Each occupancy step the kernel reaches as `value` (registers per thread, or shared bytes per
  // block) goes down from `from` in `stride`s: the value where it starts and its blocks per SM.
  std::vector<std::pair<std::int64_t, std::int64_t>> steps(std::int64_t from, std::int64_t stride, std::int64_t lowest,
                                                           const std::function<sim::occupancy::KernelResources(std::int64_t)>& with) const {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    std::int64_t blocks = blocks_with(with(from));
    for (std::int64_t v = from - stride; v >= lowest && out.size() < kOccupancySteps; v -= stride) {
      const std::int64_t b = blocks_with(with(v));
      if (b > blocks) out.emplace_back(v, blocks = b);
    }
    return out;
  }

  // The occupancy finding: every step re-simulated, the fastest kept (of equal times the first).
  void occupancy_step(const std::string& kind, const std::string& resource, std::int64_t value,
                      const std::vector<std::pair<std::int64_t, std::int64_t>>& candidates, const sim::occupancy::Occupancy& now,
                      const std::string& unit, const std::string& how) {
    std::optional<std::pair<double, std::size_t>> best;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      sim::grid::Launch launch = f_.launch;
      launch.resident_blocks_limit = candidates[i].second;
      const double time_us = retimed_us({}, launch);
      if (!best || time_us < best->first * 0.99) best = {time_us, i};
    }
    if (!best) return;
    const auto [v, blocks] = candidates[best->second];
    Finding finding;
    finding.kind = kind;
    finding.evidence = {{resource, static_cast<double>(value)}, {resource + "_then", static_cast<double>(v)},
                        {"active_warps_per_sm", static_cast<double>(now.active_blocks_per_sm * now.warps_per_block)},
                        {"active_warps_per_sm_then", static_cast<double>(blocks * now.warps_per_block)},
                        {"max_warps_per_sm", static_cast<double>(now.max_warps_per_sm)}};
    finding.message = "Occupancy limited by " + (kind == "occupancy_registers" ? std::string("registers") : std::string("shared memory")) + ": " +
                      std::to_string(value) + " " + unit + " allow " + std::to_string(now.active_blocks_per_sm) + " blocks per SM (" +
                      std::to_string(now.active_blocks_per_sm * now.warps_per_block) + " of " + std::to_string(now.max_warps_per_sm) +
                      " warps); at " + std::to_string(v) + " " + std::to_string(blocks) + " fit (" + how + ").";
    finding.change = resource + " " + std::to_string(v) + " (" + std::to_string(blocks) + " blocks per SM; every step up to " +
                     std::to_string(candidates.back().first) + " re-simulated, the fastest kept)";
    report(std::move(finding), best->first);
  }

  void occupancy() {
    const sim::occupancy::KernelResources kernel = in_.resources;
    const sim::occupancy::Occupancy& now = occupancy_;
    const std::int64_t resident = std::min(result_.plan.blocks_per_sm, now.active_blocks_per_sm);
    if (resident < now.active_blocks_per_sm || now.active_blocks_per_sm == 0) return;  // the grid, not the kernel, sets the blocks
    if (now.limited_by == sim::occupancy::Limit::registers) {
      const auto with = [&](std::int64_t r) { sim::occupancy::KernelResources k = kernel; k.registers_per_thread = r; return k; };
      occupancy_step("occupancy_registers", "registers_per_thread", kernel.registers_per_thread,
                     steps(kernel.registers_per_thread, 1, 16, with), now, "registers per thread",
                     "__launch_bounds__ or -maxrregcount, if ptxas can do it without spilling");
    }
    if (now.limited_by == sim::occupancy::Limit::shared_memory) {
      const std::int64_t total = kernel.static_smem_bytes + kernel.dynamic_smem_bytes;
      const auto with = [&](std::int64_t bytes) {
        sim::occupancy::KernelResources k = kernel;
        k.static_smem_bytes = bytes;
        k.dynamic_smem_bytes = 0;
        return k;
      };
      occupancy_step("occupancy_shared_memory", "shared_bytes_per_block", total, steps(total, 128, 0, with), now,
                     "bytes of shared memory per block", "a smaller tile, or fewer stages");
    }
  }

  // Block size: limited by the GPU's blocks per SM, a 1-D launch re-simulated at larger blocks
  // with the same threads (as launch --search), the fastest kept.
  void block_size() {
    const sim::occupancy::Occupancy& now = occupancy_;
    const SimulateRequest& base = f_.request;
    const bool one_d = base.grid.y == 1 && base.grid.z == 1 && base.block.y == 1 && base.block.z == 1;
    if (now.limited_by != sim::occupancy::Limit::blocks || !one_d || now.active_blocks_per_sm == 0) return;
    if (result_.plan.blocks_per_sm < now.active_blocks_per_sm) return;  // the grid leaves room already
    const std::int64_t total = result_.blocks * result_.threads;
    std::optional<std::pair<double, std::int64_t>> best;
    for (std::int64_t t = result_.threads * 2; t <= gpu_.max_threads_per_block; t *= 2) {
      SimulateRequest request = base;
      request.explain = false;
      request.timeline = request.trace = false;
      request.block = {t, 1, 1};
      request.grid = {(total + t - 1) / t, 1, 1};
      try {
        const SimulateResult r = simulate_on(request, gpu_);
        if (!best || r.time_us < best->first) best = {r.time_us, t};
      } catch (const InputError&) {
        continue;  // a block size this kernel cannot run at (its registers or shared memory)
      }
    }
    if (!best) return;
    Finding finding;
    finding.kind = "occupancy_block_size";
    finding.evidence = {{"threads_per_block", static_cast<double>(result_.threads)}, {"best_threads_per_block", static_cast<double>(best->second)},
                        {"active_warps_per_sm", static_cast<double>(now.active_blocks_per_sm * now.warps_per_block)},
                        {"max_warps_per_sm", static_cast<double>(now.max_warps_per_sm)}};
    finding.message = "Occupancy limited by the block size: blocks of " + std::to_string(result_.threads) + " threads reach the GPU's " +
                      std::to_string(now.active_blocks_per_sm) + " blocks per SM at " + std::to_string(now.active_blocks_per_sm * now.warps_per_block) +
                      " of " + std::to_string(now.max_warps_per_sm) + " warps; launch " + std::to_string(best->second) + " threads per block.";
    finding.change = "the same threads in blocks of " + std::to_string(best->second) + " (the fastest of the larger powers of two)";
    report(std::move(finding), best->first);
  }

  // The last partial wave: its blocks at the rate of a full wave.
  void tail() {
    const GridPlan& p = result_.plan;
    if (p.remaining_blocks <= 0 || p.full_runs <= 0 || result_.full_run_cycles <= 0) return;
    // Algorithm 1 runs each SM's blocks in runs of N_ab: the last run holds the remaining ones.
    const double per_run = static_cast<double>(p.active_blocks_per_sm);
    const double waves = static_cast<double>(p.full_runs) + static_cast<double>(p.remaining_blocks) / per_run;
    const double cycles = waves * result_.full_run_cycles;
    const double time_us = result_.tp_us + cycles / result_.clock_mhz;
    Finding finding;
    finding.kind = "tail_effect";
    finding.evidence = {{"waves", waves}, {"blocks_per_sm_per_wave", per_run}, {"last_wave_blocks_per_sm", static_cast<double>(p.remaining_blocks)},
                        {"last_wave_cycles", result_.remaining_run_cycles}, {"full_wave_cycles", result_.full_run_cycles}};
    finding.message = "Tail effect: " + shortest(std::round(waves * 100) / 100) + " waves of " + shortest(per_run) +
                      " blocks per SM, the last running " + std::to_string(p.remaining_blocks) +
                      " per SM at about a full wave's time; size the grid to whole waves (or a grid-stride loop over " +
                      std::to_string(std::max<std::int64_t>(p.full_runs, 1)) + ").";
    finding.change = "the last wave's blocks at the rate of a full wave (the same work in " + shortest(std::round(waves * 100) / 100) + " waves' time)";
    report(std::move(finding), time_us);
  }

  // Latency-bound because the launch holds fewer warps than the GPU could: the same work over
  // every SM at the kernel's occupancy. Core package 0 is simulated with as many warps as one
  // scheduler then holds (its own warps repeated), priced for that fuller launch, each warp doing
  // its share of the work.
  void too_few_warps() {
    if (!result_.limits || result_.limits->limiter != "latency" || in_.package.empty()) return;
    const sim::occupancy::Occupancy& o = occupancy_;
    const GridPlan& plan = result_.plan;
    const std::int64_t allowed = o.active_blocks_per_sm * o.warps_per_block;  // per SM
    const std::int64_t resident = std::min(plan.blocks_per_sm, o.active_blocks_per_sm) * o.warps_per_block;
    const double warps = static_cast<double>(result_.blocks * plan.warps_per_block);
    const double capacity = static_cast<double>(allowed * gpu_.sm_count);  // warps the GPU holds at once
    if (resident >= allowed || warps >= capacity || plan.core_packages_per_sm <= 0) return;
    const std::size_t per_scheduler = static_cast<std::size_t>((allowed + plan.core_packages_per_sm - 1) / plan.core_packages_per_sm);
    if (per_scheduler <= in_.package.size()) return;
    std::vector<const isa::Program*> more;
    for (std::size_t i = 0; i < per_scheduler; ++i) more.push_back(in_.package[i % in_.package.size()]);
    sim::grid::Launch fuller = f_.launch;
    fuller.blocks = o.active_blocks_per_sm * gpu_.sm_count;
    const sim::workload::ModelSpec spec = sim::workload::make_model_spec(f_.model, gpu_, fuller, f_.tm, f_.annotated, f_.max_warp_instructions);
    const double cycles = static_cast<double>(sim::core::simulate_core(more, in_.tm, spec.core_options())) / 1000.0 * (warps / capacity);
    const double time_us = result_.tp_us + cycles / result_.clock_mhz;
    Finding finding;
    finding.kind = "too_few_warps";
    finding.evidence = {{"warps_per_scheduler", static_cast<double>(in_.package.size())},
                        {"warps_per_scheduler_allowed", static_cast<double>(per_scheduler)},
                        {"launch_warps", warps}, {"warps_the_gpu_holds", capacity}};
    finding.message = "Latency-bound with too few warps: the launch's " + shortest(warps) + " warps leave the schedulers " +
                      std::to_string(in_.package.size()) + " each to hide latency, where the kernel's occupancy allows " +
                      std::to_string(per_scheduler) + " on every SM; launch more threads (more blocks, less work each) or give each thread independent work.";
    finding.change = "the same work spread over " + shortest(capacity) + " warps (every SM at the kernel's occupancy, " +
                     std::to_string(per_scheduler) + " per scheduler)";
    report(std::move(finding), time_us);
  }

  const ExplainInputs& in_;
  const FindingInputs& f_;
  const gpus::Profile& gpu_;
  const SimulateResult& result_;
  const sim::occupancy::Occupancy occupancy_;  // the kernel's, as simulated
  std::map<int, LineKey> cuda_;
  std::vector<Finding> found_;
};

}  // namespace

std::vector<Finding> findings(const ExplainInputs& in, const FindingInputs& f, const gpus::Profile& gpu, const SimulateResult& result) {
  return Advisor(in, f, gpu, result).run();
}

}  // namespace warpsim::api
