#include "warpsim/ptx/lowering_streams.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <exception>
#include <numeric>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

// A loop of at most this many items in all (count x body) reads better written out.
constexpr std::int64_t kLargestLoopWrittenOut = 4;

void write_out_small_loops(std::vector<TraceItem>& items) {
  std::vector<TraceItem> out;
  out.reserve(items.size());
  for (TraceItem& item : items) {
    if (item.kind != TraceItem::Kind::loop) {
      out.push_back(std::move(item));
      continue;
    }
    write_out_small_loops(item.body);
    if (item.count * static_cast<std::int64_t>(item.body.size()) <= kLargestLoopWrittenOut) {
      for (std::int64_t i = 0; i < item.count; ++i) out.insert(out.end(), item.body.begin(), item.body.end());
    } else {
      out.push_back(std::move(item));
    }
  }
  items = std::move(out);
}

isa::MemorySpace memory_space(StateSpace space) {
  switch (space) {
    case StateSpace::global: return isa::MemorySpace::global;
    case StateSpace::local: return isa::MemorySpace::local;
    case StateSpace::shared: return isa::MemorySpace::shared;
    case StateSpace::constant:
    case StateSpace::param: return isa::MemorySpace::constant;  // a generic address in the kernel parameters
    case StateSpace::texture:
    case StateSpace::surface: return isa::MemorySpace::texture;
    default: return isa::MemorySpace::global;  // not reached: access_of resolves generic addresses
  }
}

void build_program(const std::vector<TraceItem>& items, const LoweringOptions& options, isa::Program& program, std::vector<OpNote>& notes) {
  for (const TraceItem& item : items) {
    switch (item.kind) {
      case TraceItem::Kind::calc:
        add_calc_run(item, program, notes);
        break;
      case TraceItem::Kind::load:
      case TraceItem::Kind::store: {
        const bool load = item.kind == TraceItem::Kind::load;
        const isa::MemorySpace space = memory_space(item.space);
        const isa::Millicycles duration = space != isa::MemorySpace::global ? kInPeriodInstructionCycles
                                          : load                            ? options.load_cycles
                                                                            : options.store_cycles;
        // The emulator's 0 is an access no lane made (-1 an unknown one), the program's kNoLanes and 0.
        const std::int32_t transactions = item.transactions == 0 ? isa::kNoLanes : std::max(item.transactions, 0);
        program.add_access(load ? isa::OpKind::load : isa::OpKind::store, duration, space, transactions, 0,
                           transactions > 0 ? item.reuse : isa::CacheReuse{}, transactions > 0 ? item.lines : 0);
        if (load && item.use_distance >= 0) program.set_use_distance(item.use_distance, item.hoist);
        if (load && item.asynchronous) program.set_asynchronous();
        if (item.same_address > 0 && transactions > 0 && !isa::counts_ways(space)) program.set_atomic(item.same_address, item.hot_updates_milli);
        notes.push_back(OpNote{0, false, item.transactions, item.broadcast, {{item.line, 1}}, item.ideal, item.same_address});
        break;
      }
      case TraceItem::Kind::barrier:
        program.add(isa::OpKind::barrier, kInPeriodInstructionCycles);
        notes.push_back(OpNote{0, false, 0, false, {{item.line, 1}}});
        break;
      case TraceItem::Kind::loop:
        program.begin_repeat(item.count);
        notes.emplace_back();
        build_program(item.body, options, program, notes);
        program.end_repeat();
        notes.emplace_back();
        break;
    }
  }
}

std::size_t stream_hash(const std::vector<TraceItem>& items) {
  std::size_t h = items.size();
  for (const TraceItem& item : items) h = h * 1099511628211ULL ^ item.hash;
  return h;
}


std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<std::int64_t>::max() : r;
}

std::int64_t saturating_product(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<std::int64_t>::max() : r;
}

}  // namespace

void add_calc_run(const TraceItem& item, isa::Program& program, std::vector<OpNote>& notes, const CalcOpLimits& limits) {
  const auto add = [&](std::int64_t instructions, bool opens_period, const isa::CalcMix& mix) {
    program.add_calc(opens_period ? calc_period_duration(instructions) : instructions * isa::kMillicyclesPerCycle, mix);
    notes.push_back(OpNote{instructions, opens_period, 0, false, item.source});
  };
  std::int64_t most = item.mix.issue;
  for (std::size_t p = 0; p < isa::kPipeCount; ++p) most = std::max({most, item.mix.work[p], item.mix.chain[p]});
  if (most <= limits.counts && item.count <= limits.instructions) {
    add(item.count, item.opens_period, item.mix);
    return;
  }
  // The fewest ops of at most half the limits each; R takes up to ops - 1 more of each count than
  // P, which fits while ops - 1 is at most the other half.
  const auto ops_for = [](std::int64_t n, std::int64_t limit) { return n / (limit / 2) + (n % (limit / 2) != 0 ? 1 : 0); };
  const std::int64_t ops = std::max(ops_for(most, limits.counts), ops_for(item.count, limits.instructions));
  if (ops - 1 > limits.counts - limits.counts / 2 || ops - 1 > limits.instructions - limits.instructions / 2) {
    const int first = item.source.empty() ? 0 : item.source.front().line;
    const int last = item.source.empty() ? 0 : item.source.back().line;
    throw InputError(SourceLocation{program.source(), first, 0},
                     "kernel " + program.name() + ": lines " + std::to_string(first) + " to " + std::to_string(last) + " run " +
                         std::to_string(std::max(most, item.count)) +
                         " instructions (PTX, SASS issued, or on one pipe) with no memory access between them, more than " +
                         "warpsim can time as one stretch (about 2^58): run fewer loop iterations (a smaller trip count, " +
                         "or a lower --max-steps)");
  }
  const auto piece = [&](std::int64_t n) { return n / ops; };
  const auto rest = [&](std::int64_t n) { return n - (ops - 1) * (n / ops); };
  isa::CalcMix p_mix, r_mix;
  p_mix.issue = piece(item.mix.issue);
  r_mix.issue = rest(item.mix.issue);
  for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
    p_mix.work[p] = piece(item.mix.work[p]);
    r_mix.work[p] = rest(item.mix.work[p]);
    p_mix.chain[p] = piece(item.mix.chain[p]);
    r_mix.chain[p] = rest(item.mix.chain[p]);
  }
  add(rest(item.count), item.opens_period, r_mix);
  if (ops == 2) {
    add(piece(item.count), false, p_mix);
    return;
  }
  program.begin_repeat(ops - 1);
  notes.emplace_back();
  add(piece(item.count), false, p_mix);
  program.end_repeat();
  notes.emplace_back();
}

std::uint32_t StreamTable::add(std::vector<TraceItem>&& stream, std::int64_t first_warp, std::int64_t warps) {
  std::vector<std::uint32_t>& candidates = by_hash_[stream_hash(stream)];
  auto id = static_cast<std::uint32_t>(streams_.size());
  for (const std::uint32_t c : candidates) {
    if (streams_[c] == stream) id = c;
  }
  if (id == streams_.size()) {
    candidates.push_back(id);
    streams_.push_back(std::move(stream));
    first_warp_.push_back(first_warp);
    warps_.push_back(0);
  }
  first_warp_[id] = std::min(first_warp_[id], first_warp);
  warps_[id] = saturating_add(warps_[id], warps);
  return id;
}

void StreamTable::Merged::add(std::int64_t first, std::int64_t warps, const OccurrenceReport& r) {
  if (r.count == 0) return;
  if (first_warp < 0 || first < first_warp) {
    first_warp = first;
    report.first = r.first;
  }
  report.count = saturating_add(report.count, saturating_product(r.count, warps));
}

void StreamTable::account(std::int64_t first_warp, std::int64_t warps, std::int64_t steps, const UnknownBranchReport& unknown,
                          const GenericAsGlobalReport& generic) {
  instructions_ = saturating_add(instructions_, saturating_product(steps, warps));
  unknown_.add(first_warp, warps, unknown);
  generic_.add(first_warp, warps, generic);
}

void StreamTable::fail(std::int64_t first_warp, std::exception_ptr error) {
  if (error_first_warp_ >= 0 && error_first_warp_ <= first_warp) return;
  error_first_warp_ = first_warp;
  error_ = std::move(error);
}

void StreamTable::rethrow_error() const {
  if (error_) std::rethrow_exception(error_);
}

std::vector<std::uint32_t> StreamTable::finish(const LoweringOptions& options, const std::string& name, const std::string& file,
                                               LoweredKernel& into) {
  std::vector<std::uint32_t> order(streams_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return first_warp_[a] < first_warp_[b]; });
  std::vector<std::uint32_t> new_id(streams_.size());
  for (std::uint32_t rank = 0; rank < order.size(); ++rank) new_id[order[rank]] = rank;
  // Each stream becomes its program on its own (a sampled curand launch has 256 streams of 10^5
  // items, seconds in one thread); an error is rethrown for the first program in order, so the
  // message does not depend on the scheduling.
  into.programs.assign(order.size(), WarpProgram{});
  std::vector<std::exception_ptr> errors(order.size());
  tbb::parallel_for(std::size_t{0}, order.size(), [&](std::size_t rank) {
    const std::uint32_t id = order[rank];
    WarpProgram& p = into.programs[rank];
    p.warps = warps_[id];
    p.first_warp = first_warp_[id];
    p.program = isa::Program(name, file);
    try {
      write_out_small_loops(streams_[id]);
      build_program(streams_[id], options, p.program, p.notes);
      p.program.finish();
      std::vector<TraceItem>().swap(streams_[id]);  // its memory back now: traces and programs both peak otherwise
    } catch (...) {
      errors[rank] = std::current_exception();
    }
  });
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  into.emulated_instructions = instructions_;
  into.unknown_branches = unknown_.report;
  into.generic_as_global = generic_.report;
  return new_id;
}

void WarpRuns::run_block(WarpEmulator& emulator, TraceFolder& folder, const Dim3& block, std::int64_t warps) {
  for (std::int64_t w = 0; w < warps; ++w) {
    emulator.take_unknown_branches();
    emulator.take_generic_as_global();
    steps.push_back(emulator.run(block, w, folder));
    streams.push_back(folder.finish());
    unknown.push_back(emulator.take_unknown_branches());
    generic.push_back(emulator.take_generic_as_global());
  }
}

}  // namespace warpsim::ptx
