#include "warp_emulator_impl.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <span>
#include <limits>

#include "warpsim/ptx/access_counting.hpp"
#include "warpsim/ptx/lane_arith.hpp"
#include "warpsim/ptx/vector_loops.hpp"
#include "warpsim/ptx/relevance.hpp"
#include "warpsim/ptx/float_semantics.hpp"
#include "warpsim/ptx/integer_semantics.hpp"
#include "warpsim/ptx/opcodes.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

constexpr std::uint32_t kNoReconvergence = std::numeric_limits<std::uint32_t>::max();
constexpr std::size_t kMaxCallDepth = 1024;  // nested calls; deeper is taken as runaway recursion
// Registers of all the frames on the call stack (32 lane values each, about 256 MiB in all).
constexpr std::size_t kMaxStackRegisters = std::size_t{1} << 20;
constexpr std::uint64_t kAllocaBase = std::uint64_t{1} << 32;  // local addresses of alloca, above any __local_depot

template <typename F>
void for_lanes(std::uint32_t mask, F f) {
  while (mask != 0) {
    const int lane = std::countr_zero(mask);
    mask &= mask - 1;
    f(lane);
  }
}

}  // namespace

WarpEmulator::Impl::Impl(const DecodedModule& module, std::uint32_t entry, Dim3 grid, Dim3 block,
                         std::vector<std::optional<std::uint64_t>> param_values, EmulatorOptions options)
    : module_(module), entry_(entry), grid_(grid), block_(block), param_values_(std::move(param_values)),
      options_(options) {
  cfgs_.reserve(module.functions.size());
  relevant_ = relevant_registers(module);
  for (const DecodedFunction& f : module.functions) {
    cfgs_.emplace_back(f);
    relevant_list_.emplace_back();
    std::vector<std::uint32_t>& list = relevant_list_.back();
    const std::vector<bool>& relevant = relevant_[relevant_list_.size() - 1];
    for (std::uint32_t r = 0; r < f.register_count; ++r) {
      if (relevant[r]) list.push_back(r);
    }
  }
}

WarpEmulator::WarpEmulator(const DecodedModule& module, std::uint32_t entry, Dim3 grid, Dim3 block,
                           std::vector<std::optional<std::uint64_t>> param_values, EmulatorOptions options)
    : impl_(std::make_unique<Impl>(module, entry, grid, block, std::move(param_values), std::move(options))) {}
WarpEmulator::~WarpEmulator() = default;
WarpEmulator::WarpEmulator(WarpEmulator&&) noexcept = default;
WarpEmulator& WarpEmulator::operator=(WarpEmulator&&) noexcept = default;

std::int64_t WarpEmulator::run(Dim3 block_index, std::int64_t warp, InstructionSink& sink) {
  return impl_->run(block_index, warp, sink);
}
std::int64_t WarpEmulator::run_class(const BlockBox& box, std::int64_t warp, RepeatableSink& folder,
                                     std::vector<ClassSplit>& splits) {
  return impl_->run_class(box, warp, folder, splits);
}
UnknownBranchReport WarpEmulator::take_unknown_branches() { return impl_->take_unknown_branches(); }
GenericAsGlobalReport WarpEmulator::take_generic_as_global() { return impl_->take_generic_as_global(); }
std::int64_t WarpEmulator::take_closed_form_steps() { return impl_->take_closed_form_steps(); }
void WarpEmulator::observe_sectors(SectorObserver* observer) { impl_->observe_sectors(observer); }

void WarpEmulator::Impl::start_frame(std::uint32_t function, std::uint32_t mask, std::uint32_t call_pc) {
  const DecodedFunction& f = module_.functions[function];
  const std::size_t base = lanes_.frames.empty() ? 0 : lanes_.frames.back().register_base + module_.functions[lanes_.frames.back().function].register_count;
  if (lanes_.known.size() < base + f.register_count) {
    lanes_.known.resize(base + f.register_count);
    lanes_.values.resize(lanes_.known.size() * 32);
    symbolic_.coefficient_slot.resize(lanes_.known.size(), -1);
  }
  clear_frame_coefficients(base, f.register_count);
  std::fill(lanes_.known.begin() + static_cast<std::ptrdiff_t>(base), lanes_.known.begin() + static_cast<std::ptrdiff_t>(base + f.register_count), 0u);
  const std::int64_t threads_per_block = block_.count();
  for (const auto& [reg, special] : f.special_registers) {
    std::uint64_t* v = &lanes_.values[(base + reg) * 32];
    std::uint32_t known = 0xFFFFFFFFu;
    for (int lane = 0; lane < 32; ++lane) {
      const std::int64_t linear = lanes_.warp * 32 + lane;
      const std::int64_t tx = linear % block_.x, ty = (linear / block_.x) % block_.y, tz = linear / (block_.x * block_.y);
      std::uint64_t value = 0;
      switch (special) {
        case Special::tid_x: value = static_cast<std::uint64_t>(tx); break;
        case Special::tid_y: value = static_cast<std::uint64_t>(ty); break;
        case Special::tid_z: value = static_cast<std::uint64_t>(tz); break;
        case Special::ntid_x: value = static_cast<std::uint64_t>(block_.x); break;
        case Special::ntid_y: value = static_cast<std::uint64_t>(block_.y); break;
        case Special::ntid_z: value = static_cast<std::uint64_t>(block_.z); break;
        case Special::ctaid_x: value = static_cast<std::uint64_t>(lanes_.block_index.x); break;
        case Special::ctaid_y: value = static_cast<std::uint64_t>(lanes_.block_index.y); break;
        case Special::ctaid_z: value = static_cast<std::uint64_t>(lanes_.block_index.z); break;
        case Special::nctaid_x: value = static_cast<std::uint64_t>(grid_.x); break;
        case Special::nctaid_y: value = static_cast<std::uint64_t>(grid_.y); break;
        case Special::nctaid_z: value = static_cast<std::uint64_t>(grid_.z); break;
        case Special::laneid: value = static_cast<std::uint64_t>(lane); break;
        case Special::warpid: value = static_cast<std::uint64_t>(lanes_.warp); break;
        case Special::nwarpid: value = static_cast<std::uint64_t>((threads_per_block + 31) / 32); break;
        case Special::smid: case Special::gridid: value = 0; break;
        case Special::nsmid: value = 1; break;
        case Special::lanemask_eq: value = std::uint64_t{1} << lane; break;
        case Special::lanemask_lt: value = (std::uint64_t{1} << lane) - 1; break;
        case Special::lanemask_le: value = (std::uint64_t{2} << lane) - 1; break;
        case Special::lanemask_gt: value = truncate(~((std::uint64_t{2} << lane) - 1), 32); break;
        case Special::lanemask_ge: value = truncate(~((std::uint64_t{1} << lane) - 1), 32); break;
        case Special::warpsize: value = 32; break;
        case Special::unknown: known = 0; break;
      }
      v[lane] = value;
    }
    lanes_.known[base + reg] = known;
    // In a class emulation the block index is the box's first block plus stride x index.
    const int symbol = special == Special::ctaid_x ? 0 : special == Special::ctaid_y ? 1 : special == Special::ctaid_z ? 2 : -1;
    if (symbol >= 0 && ((symbolic_.live >> symbol) & 1)) {
      Coefficients& c = writable_coefficients(base + reg);
      c.lane[static_cast<std::size_t>(symbol)].fill(static_cast<std::uint64_t>(symbolic_.box.dims[static_cast<std::size_t>(symbol)].stride));
      c.symbols |= 1u << symbol;
    }
  }
  Frame frame;
  frame.function = function;
  frame.register_base = base;
  frame.call_pc = call_pc;
  frame.stack.push_back(StackEntry{0, kNoReconvergence, mask});
  lanes_.frames.push_back(std::move(frame));
}

std::int64_t WarpEmulator::Impl::run(Dim3 block_index, std::int64_t warp, InstructionSink& sink) {
  BlockBox box;
  box.dims = {IndexRange{block_index.x, 1, 1}, IndexRange{block_index.y, 1, 1}, IndexRange{block_index.z, 1, 1}};
  return run_box(box, warp, sink, nullptr, nullptr);
}

void WarpEmulator::Impl::note_backward_branch(std::uint32_t target) {
  const std::uint32_t function = lanes_.frames.back().function;
  if (target == lanes_.loop_header && function == lanes_.loop_function) {
    ++lanes_.loop_iterations;
    return;
  }
  lanes_.loop_function = function;
  lanes_.loop_header = target;
  lanes_.loop_iterations = 1;
}

EmulationPlace WarpEmulator::Impl::place(std::uint32_t pc) const {
  EmulationPlace p;
  p.block_x = lanes_.block_index.x;
  p.block_y = lanes_.block_index.y;
  p.block_z = lanes_.block_index.z;
  p.warp = lanes_.warp;
  p.at = module_.functions[lanes_.frames.back().function].code[pc].pos;
  if (lanes_.loop_header != kNoLoop) {
    p.loop = module_.functions[lanes_.loop_function].code[lanes_.loop_header].pos;
    p.iterations = lanes_.loop_iterations;
  }
  return p;
}

std::int64_t WarpEmulator::Impl::run_class(const BlockBox& box, std::int64_t warp, RepeatableSink& folder, std::vector<ClassSplit>& splits) {
  return run_box(box, warp, folder, &folder, &splits);
}

std::int64_t WarpEmulator::Impl::run_box(const BlockBox& box, std::int64_t warp, InstructionSink& sink, RepeatableSink* folder,
                                         std::vector<ClassSplit>* splits) {
  symbolic_.box = box;
  lanes_.block_index = Dim3{box.dims[0].start, box.dims[1].start, box.dims[2].start};
  symbolic_.splits = splits;
  loops_.folder = folder;
  symbolic_.live = 0;
  symbolic_.allocated = (1u << kBlockSymbols) - 1;
  for (int d = 0; d < kBlockSymbols; ++d) {
    symbolic_.symbols[static_cast<std::size_t>(d)] = Symbol{false, d, box.dims[static_cast<std::size_t>(d)].count, 1, 0};
    if (box.dims[static_cast<std::size_t>(d)].count > 1) symbolic_.live |= 1u << d;
  }
  std::fill(symbolic_.coefficient_slot.begin(), symbolic_.coefficient_slot.end(), -1);
  symbolic_.coefficient_pool.clear();
  symbolic_.free_slots.clear();
  loops_.trackers.clear();
  loops_.runs.clear();
  lanes_.warp = warp;
  lanes_.frames.clear();
  lanes_.param_store.clear();
  lanes_.loop_exit_counts.clear();
  lanes_.alloca_top = kAllocaBase;
  const std::int64_t lanes = std::min<std::int64_t>(32, block_.count() - warp * 32);
  lanes_.alive = lanes >= 32 ? 0xFFFFFFFFu : (std::uint32_t{1} << lanes) - 1;
  start_frame(entry_, lanes_.alive, 0);
  lanes_.steps = 0;
  lanes_.loop_header = kNoLoop;
  lanes_.loop_iterations = 0;
  while (!lanes_.frames.empty()) {
    Frame& frame = lanes_.frames.back();
    const DecodedFunction& f = module_.functions[frame.function];
    const auto exit_pc = static_cast<std::uint32_t>(f.code.size());
    if (frame.stack.empty()) {  // every lane of this frame exited
      lanes_.frames.pop_back();
      drop_runs_from(lanes_.frames.size() + 1);
      continue;
    }
    StackEntry& e = frame.stack.back();
    e.mask &= lanes_.alive;
    if (e.mask == 0 || e.pc == e.reconverge) {
      frame.stack.pop_back();
      continue;
    }
    if (e.pc >= exit_pc) {
      if (frame.stack.size() > 1) {  // lanes that left early wait for the rest at the exit
        frame.stack.pop_back();
        continue;
      }
      // The function returns: copy return values to the caller's slots.
      const std::uint32_t call_pc = frame.call_pc;
      lanes_.frames.pop_back();
      drop_runs_from(lanes_.frames.size() + 1);
      if (lanes_.frames.empty()) break;
      const DecodedInstruction& call = module_.functions[lanes_.frames.back().function].code[call_pc];
      const DecodedFunction& callee = f;
      for (std::size_t i = 0; i < call.call_returns.size(); ++i) copy_param(callee.return_slots[i], call.call_returns[i]);
      continue;
    }
    if ((++lanes_.steps & 0xFFFF) == 0) {
      if (options_.report_place) options_.report_place(place(e.pc));
      if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) throw Interrupted{place(e.pc)};
      if (sink.held_items() > options_.max_trace_items) {
        const DecodedInstruction& at = f.code[e.pc];
        throw InputError(SourceLocation{module_.file, at.pos.line, at.pos.column},
                         "warp " + std::to_string(warp) + "'s instructions fold into no loops: after " +
                             std::to_string(lanes_.steps) + " instructions its trace holds more than " +
                             std::to_string(options_.max_trace_items) +
                             " items (the limit, about 1 GB); its loops differ from one iteration to the next "
                             "(smaller trip counts, through --param, lower it)");
      }
    }
    if (lanes_.steps > options_.max_steps_per_warp) {
      const DecodedInstruction& at = f.code[e.pc];
      throw InputError(SourceLocation{module_.file, at.pos.line, at.pos.column},
                       "warp " + std::to_string(warp) + " ran more than " + std::to_string(options_.max_steps_per_warp) +
                           " instructions (the limit; raise it with --max-steps)");
    }
    const DecodedInstruction& in = f.code[e.pc];
    const std::uint32_t active = e.mask;
    std::uint32_t gtrue = active, gunknown = 0;
    if (in.has_guard) {
      const std::size_t r = frame.register_base + in.guard_reg;
      const std::uint32_t known = lanes_.known[r] & active;
      std::uint32_t truth = 0;
      for_lanes(known, [&](int lane) {
        if ((lanes_.values[r * 32 + static_cast<std::size_t>(lane)] != 0) != in.guard_negated) truth |= std::uint32_t{1} << lane;
      });
      gtrue = truth;
      gunknown = active & ~known;
    }
    const std::uint32_t executing = gtrue | gunknown;
    // Lanes alive but off this path: a divergent branch left them idle (not a guard's lanes).
    Divergence idle;
    if (active != lanes_.alive) idle = {1000 - std::popcount(active) * 1000 / std::max(1, std::popcount(lanes_.alive)), e.branch_line};
    if (symbolic()) observe(in, gtrue, gunknown);
    switch (in.opcode) {
      case Opcode::bra:
      case Opcode::ret:
      case Opcode::trap: {
        sink.instruction(in, nullptr, idle);
        if (gunknown != 0) note_unknown_branch(in);
        const std::uint32_t taken = gtrue | unknown_lanes_taking(e.pc, gunknown);
        const std::uint32_t target = in.opcode == Opcode::bra ? in.target : exit_pc;
        const std::uint32_t fall = e.pc + 1;
        const bool backwards = target <= e.pc;
        if (taken != 0 && backwards) note_backward_branch(target);
        if (taken == active) {
          e.pc = target;
          if (backwards && loops_.folder != nullptr) loop_arrival();
        } else if (taken == 0) {
          e.pc = fall;
        } else {
          const std::uint32_t rpc = cfgs_[frame.function].reconvergence_point(e.pc);
          e.pc = rpc;
          frame.stack.push_back(StackEntry{target, rpc, taken, in.pos.line});
          frame.stack.push_back(StackEntry{fall, rpc, active & ~taken, in.pos.line});
        }
        break;
      }
      case Opcode::brx: {
        sink.instruction(in, nullptr, idle);
        const Arg& index = in.srcs[0];
        const std::uint32_t rpc = cfgs_[frame.function].reconvergence_point(e.pc);
        std::vector<std::uint32_t> lanes_to(in.branch_table.size(), 0);
        bool unknown_index = false;  // one decision for the warp, however many lanes it covers
        for_lanes(active, [&](int lane) {
          std::uint64_t i = 0;
          if (index.kind == Arg::Kind::imm) {
            i = index.imm;
          } else if (index.kind == Arg::Kind::reg && (lanes_.known[frame.register_base + index.reg] >> lane & 1)) {
            i = lanes_.values[(frame.register_base + index.reg) * 32 + static_cast<std::size_t>(lane)];
          } else {
            unknown_index = true;
          }
          if (i >= lanes_to.size()) {  // out of its table (undefined in PTX): target 0, noted as an unknown decision
            unknown_index = true;
            i = 0;
          }
          lanes_to[i] |= std::uint32_t{1} << lane;
        });
        if (unknown_index) note_unknown_branch(in);
        e.pc = rpc;
        for (std::size_t t = lanes_to.size(); t-- > 0;) {
          if (lanes_to[t] != 0) frame.stack.push_back(StackEntry{in.branch_table[t], rpc, lanes_to[t], in.pos.line});
        }
        break;
      }
      case Opcode::exit:
        sink.instruction(in, nullptr, idle);
        if (gunknown != 0) note_unknown_branch(in);
        lanes_.alive &= ~(gtrue | (options_.unknown_branch == UnknownBranchPolicy::taken ? gunknown : 0));
        ++e.pc;
        break;
      case Opcode::call: {
        sink.instruction(in, nullptr, idle);
        if (lanes_.frames.size() > kMaxCallDepth) {  // this call would be nested lanes_.frames.size() deep
          throw InputError(SourceLocation{module_.file, in.pos.line, in.pos.column},
                           "calls nested deeper than " + std::to_string(kMaxCallDepth) + " (recursion?)");
        }
        ++e.pc;
        const std::uint32_t call_pc = e.pc - 1;
        const DecodedFunction& callee = module_.functions[in.target];
        for (std::size_t i = 0; i < in.call_args.size(); ++i) copy_param(in.call_args[i], callee.param_slots[i]);
        if (frame.register_base + module_.functions[frame.function].register_count + callee.register_count > kMaxStackRegisters) {
          throw InputError(SourceLocation{module_.file, in.pos.line, in.pos.column},
                           "the call stack would hold more than " + std::to_string(kMaxStackRegisters) + " registers (" +
                               std::to_string(lanes_.frames.size()) + " nested calls; recursion?)");
        }
        start_frame(in.target, executing, call_pc);  // invalidates `frame` and `e`
        break;
      }
      default: {
        if (is_memory_access(in.opcode) && in.space != StateSpace::param) {
          const Access access = access_of(in, executing);
          sink.instruction(in, &access, idle);
        } else {
          sink.instruction(in, nullptr, idle);
        }
        ++e.pc;
        if (symbolic()) {
          capture_sources(in);
          execute(in, active, gtrue, gunknown);
          propagate(in, executing);
        } else {
          execute(in, active, gtrue, gunknown);
        }
        break;
      }
    }
  }
  while (!loops_.runs.empty()) drop_run();
  return lanes_.steps;
}

// Passing an argument or a return value: the values stored in slot `from` (at every offset)
// replace whatever slot `to` held.
void WarpEmulator::Impl::copy_param(std::int32_t from, std::int32_t to) {
  if (from == to) return;
  const auto source = lanes_.param_store.find(from);
  if (source == lanes_.param_store.end()) {
    lanes_.param_store.erase(to);
    return;
  }
  std::vector<Slot> copy = source->second;  // copied first: inserting `to` may rehash
  lanes_.param_store[to] = std::move(copy);
}

std::uint32_t WarpEmulator::Impl::unknown_lanes_taking(std::uint32_t pc, std::uint32_t unknown) {
  if (unknown == 0) return 0;
  const std::uint32_t function = lanes_.frames.back().function;
  const ControlFlowGraph::LoopExit exit = cfgs_[function].loop_exit(pc);
  if (exit == ControlFlowGraph::LoopExit::none) return options_.unknown_branch == UnknownBranchPolicy::taken ? unknown : 0;
  const std::uint64_t key = std::uint64_t{function} << 32 | pc;
  auto it = std::find_if(lanes_.loop_exit_counts.begin(), lanes_.loop_exit_counts.end(), [&](const auto& c) { return c.first == key; });
  if (it == lanes_.loop_exit_counts.end()) it = lanes_.loop_exit_counts.insert(lanes_.loop_exit_counts.end(), {key, 0});
  // Kept modulo N, all that decides the exit, so that a loop around this one comes back to the
  // same state each iteration (and can run in closed form).
  it->second = (it->second + 1) % options_.unknown_loop_trips;
  const bool leave = it->second == 0;
  return leave == (exit == ControlFlowGraph::LoopExit::taken) ? unknown : 0;
}

void WarpEmulator::Impl::note_unknown_branch(const DecodedInstruction& in) {
  if (unknown_branches_.count++ == 0) unknown_branches_.first = in.pos;
}

// A generic access whose space its address does not tell: it counts as global.
void WarpEmulator::Impl::note_generic_as_global(const DecodedInstruction& in, Access& access) {
  access.space = StateSpace::global;
  if (generic_as_global_.count++ == 0) generic_as_global_.first = in.pos;
}


Access WarpEmulator::Impl::access_of(const DecodedInstruction& in, std::uint32_t lanes) {
  Access access = counted_access(in, lanes);
  const bool atomic = in.opcode == Opcode::atom || in.opcode == Opcode::red;
  if (atomic && access.transactions > 0) note_atomic(in, lanes, access);
  const ReuseTable* reuse = options_.reuse;
  if (reuse != nullptr && !reuse->empty() && (access.space == StateSpace::global || access.space == StateSpace::local)) {
    if (const auto it = reuse->find(instruction_key()); it != reuse->end()) {
      access.reuse = it->second.reuse;
      if (atomic && access.same_address > 0) access.hot_updates_milli = it->second.hot_updates_milli;
    }
  }
  return access;
}

void WarpEmulator::Impl::note_sectors(const DecodedInstruction& in, std::span<const std::uint64_t> sectors, Access& access) {
  access.transactions = static_cast<std::int32_t>(sectors.size());
  access.lines = lines_of_sectors(sectors);
  if (sector_observer_ != nullptr && !sectors.empty() && (access.space == StateSpace::global || access.space == StateSpace::local)) {
    sector_observer_->sectors(in, instruction_key(), sectors);
  }
}

WARPSIM_VECTOR_LOOPS std::size_t WarpEmulator::Impl::lane_addresses(const DecodedInstruction& in, std::uint32_t lanes, LaneAddresses& out) const {
  const Arg& base = in.address.base;
  const auto offset = static_cast<std::uint64_t>(in.address.offset);
  if (base.kind != Arg::Kind::reg) {
    const std::size_t n = static_cast<std::size_t>(std::popcount(lanes));
    std::fill_n(out.begin(), n, base.imm + offset);
    return n;
  }
  const std::uint64_t* row = &lanes_.values[(lanes_.frames.back().register_base + base.reg) * 32];
  if (lanes == 0xFFFFFFFFu) {  // the whole warp: a loop the compiler vectorises
    for (std::size_t lane = 0; lane < 32; ++lane) out[lane] = row[lane] + offset;
    return 32;
  }
  std::size_t n = 0;
  for_lanes(lanes, [&](int lane) { out[n++] = row[lane] + offset; });
  return n;
}

void WarpEmulator::Impl::note_atomic(const DecodedInstruction& in, std::uint32_t lanes, Access& access) {
  LaneAddresses addresses;
  const std::size_t n = lane_addresses(in, lanes, addresses);
  if (n == 0) return;
  if (sector_observer_ != nullptr && access.space == StateSpace::global) {
    sector_observer_->atomic_addresses(instruction_key(), std::span(addresses.data(), n));
  }
  const std::int32_t most = most_lanes_on_one_address(std::span(addresses.data(), n));
  if (access.space == StateSpace::shared) {
    access.transactions = std::max(access.transactions, most);  // the bank updates one address's lanes one after another
    access.broadcast = false;
    access.same_address = most;  // for explain's findings; the program's shared ways already hold it
  } else if (access.space == StateSpace::global || access.space == StateSpace::local) {
    access.same_address = most;
  }
}

const InputContents* WarpEmulator::Impl::stated_buffer(std::uint64_t address, std::uint64_t& offset) const {
  // The buffer whose base is the nearest at or below the address, within the 2^36 bytes each
  // pointer parameter's synthetic base leaves it (kPointerParamBase).
  const InputContents* found = nullptr;
  std::uint64_t nearest = 0;
  for (std::size_t i = 0; i < options_.inputs->size() && i < param_values_.size(); ++i) {
    const std::optional<InputContents>& contents = (*options_.inputs)[i];
    const std::optional<std::uint64_t>& base = param_values_[i];
    if (!contents || !base || *base > address || address - *base >= kPointerParamBase) continue;
    if (found == nullptr || *base > nearest) {
      found = &*contents;
      nearest = *base;
    }
  }
  offset = address - nearest;
  return found;
}

std::uint64_t WarpEmulator::Impl::instruction_key() const {
  const Frame& frame = lanes_.frames.back();
  return std::uint64_t{frame.function} << 32 | frame.stack.back().pc;
}

Access WarpEmulator::Impl::counted_access(const DecodedInstruction& in, std::uint32_t lanes) {
  Access access;
  access.kind = in.opcode == Opcode::st || in.opcode == Opcode::red || in.writes_global ? AccessKind::store
                : in.opcode == Opcode::atom                         ? AccessKind::atomic
                                                                    : AccessKind::load;
  access.space = in.space;
  if (in.opcode == Opcode::tex || in.opcode == Opcode::surface) {
    access.space = StateSpace::texture;
    access.transactions = -1;
    return access;
  }
  const Frame& frame = lanes_.frames.back();
  std::uint64_t bytes = static_cast<std::uint64_t>(std::max(1, in.type.bytes() * in.vector_width));
  if (in.opcode == Opcode::cp_async) {  // the copy's size operand
    const Arg* size = in.srcs.empty() ? nullptr : &in.srcs[0];
    const bool known = size != nullptr && (size->kind == Arg::Kind::imm ||
                                           (size->kind == Arg::Kind::reg && (lanes_.known[frame.register_base + size->reg] & lanes) == lanes));
    if (!known || lanes == 0) {
      access.transactions = lanes == 0 ? 0 : -1;
      return access;
    }
    bytes = size->kind == Arg::Kind::imm ? size->imm : lanes_.values[(frame.register_base + size->reg) * 32 + static_cast<std::size_t>(std::countr_zero(lanes))];
    bytes = std::max<std::uint64_t>(bytes, 1);
    const Arg& base = in.address.base;
    if (std::popcount(lanes) == 1 && (base.kind == Arg::Kind::imm || (lanes_.known[frame.register_base + base.reg] & lanes) != 0)) {
      // A bulk copy issued by one lane (the usual case): the sectors its byte range spans.
      LaneAddresses one;
      lane_addresses(in, lanes, one);
      const std::uint64_t a = one[0];
      access.transactions = static_cast<std::int32_t>(std::min<std::uint64_t>(((a + bytes - 1) >> 5) - (a >> 5) + 1, 1u << 30));
      access.lines = static_cast<std::int32_t>(std::min<std::uint64_t>(((a + bytes - 1) >> 7) - (a >> 7) + 1, 1u << 30));
      return access;
    }
    if (bytes > 32) {
      access.transactions = -1;  // several lanes copying large blocks: not counted
      return access;
    }
  }
  if (in.unknown_footprint) {
    access.transactions = lanes == 0 ? 0 : -1;
    if (access.space == StateSpace::generic) note_generic_as_global(in, access);
    return access;
  }
  const Arg& base = in.address.base;
  const std::uint32_t known = base.kind == Arg::Kind::reg ? lanes_.known[frame.register_base + base.reg] : 0xFFFFFFFFu;
  if ((lanes & ~known) != 0) {
    access.transactions = -1;
    if (access.space == StateSpace::generic) note_generic_as_global(in, access);
    return access;
  }
  LaneAddresses addresses;  // of the active lanes, in lane order
  const std::size_t n = lane_addresses(in, lanes, addresses);
  const std::span<std::uint64_t> active(addresses.data(), n);
  if (n > 0 && access.space == StateSpace::generic) access.space = space_of_generic(addresses[0]);
  if (access.space == StateSpace::generic) note_generic_as_global(in, access);  // no lane active
  if (access.space == StateSpace::shared) {
    count_bank_passes(active, bytes, access);
  } else if (access.space == StateSpace::constant || access.space == StateSpace::param) {  // param: through a generic address
    access.transactions = distinct_words(active);
  } else {
    SectorBuffer sectors;
    const std::size_t distinct = distinct_sectors(active, bytes, sectors);
    note_sectors(in, std::span(sectors.data(), distinct), access);
    if (access.space == StateSpace::global && n > 0) {
      const auto [low, high] = std::minmax_element(active.begin(), active.end());
      access.ideal = coalesced_sectors(access.transactions, n, bytes, *low, *high);
    }
  }
  return access;
}

const std::uint64_t* WarpEmulator::Impl::lane_row(const Arg& arg, std::size_t base, std::array<std::uint64_t, 32>& spread) const {
  if (arg.kind == Arg::Kind::reg) return &lanes_.values[(base + arg.reg) * 32];
  spread.fill(arg.imm);
  return spread.data();
}

// The common integer instructions over all 32 lanes at once (the compiler vectorises these
// loops); results are kept only for `lanes`. False when the instruction needs the general path.
WARPSIM_VECTOR_LOOPS bool WarpEmulator::Impl::fast_integer_op(const DecodedInstruction& in, std::size_t base, std::uint32_t lanes, std::uint32_t executing) {
  if (in.dsts.size() != 1 || in.dsts[0].kind != Arg::Kind::reg || in.srcs.empty() || in.srcs.size() > 3) return false;
  const bool low_product = in.mul_mode == MulMode::lo;
  const bool wide32 = in.mul_mode == MulMode::wide && in.type.bits == 32;
  switch (in.opcode) {
    case Opcode::mov: case Opcode::add: case Opcode::sub: case Opcode::and_: case Opcode::or_: case Opcode::xor_: break;
    case Opcode::mul: case Opcode::mad: if (!low_product && !wide32) return false; break;
    case Opcode::rem: case Opcode::div: if (in.type.bits != 32) return false; break;
    default: return false;
  }
  std::array<std::array<std::uint64_t, 32>, 3> spread;
  std::array<const std::uint64_t*, 3> operand{spread[0].data(), spread[1].data(), spread[2].data()};
  for (std::size_t i = 0; i < in.srcs.size(); ++i) {
    if (!plain_operand(in.srcs[i])) return false;
    operand[i] = lane_row(in.srcs[i], base, spread[i]);
  }
  std::array<std::uint64_t, 32> r;
  const std::uint64_t* const a = operand[0];
  const std::uint64_t* const b = operand[1];
  const std::uint64_t* const c = operand[2];
  switch (in.opcode) {
    case Opcode::mov: std::copy_n(a, 32, r.begin()); break;
    case Opcode::add: for (int l = 0; l < 32; ++l) r[l] = a[l] + b[l]; break;
    case Opcode::sub: for (int l = 0; l < 32; ++l) r[l] = a[l] - b[l]; break;
    case Opcode::and_: for (int l = 0; l < 32; ++l) r[l] = a[l] & b[l]; break;
    case Opcode::or_: for (int l = 0; l < 32; ++l) r[l] = a[l] | b[l]; break;
    case Opcode::xor_: for (int l = 0; l < 32; ++l) r[l] = a[l] ^ b[l]; break;
    case Opcode::mul:
    case Opcode::mad: {
      std::array<std::uint64_t, 32> x1, x2;
      std::copy_n(a, 32, x1.begin());
      std::copy_n(b, 32, x2.begin());
      if (wide32) {  // 32 x 32 -> 64 bits: extend the operands, then an ordinary product
        for (int l = 0; l < 32; ++l) {
          x1[l] = in.type.is_signed() ? static_cast<std::uint64_t>(sign_extend(a[l], 32)) : truncate(a[l], 32);
          x2[l] = in.type.is_signed() ? static_cast<std::uint64_t>(sign_extend(b[l], 32)) : truncate(b[l], 32);
        }
      }
      for (int l = 0; l < 32; ++l) r[l] = x1[l] * x2[l] + (in.opcode == Opcode::mad ? c[l] : 0);
      break;
    }
    case Opcode::rem:
    case Opcode::div: {
      r.fill(0);  // the lanes skipped below are not kept
      for (int l = 0; l < 32; ++l) {
        if (((lanes >> l) & 1) == 0) continue;
        if (static_cast<std::uint32_t>(b[l]) == 0) return false;  // undefined: the general path says unknown
        if (in.type.is_signed()) {
          const auto x = static_cast<std::int32_t>(a[l]), y = static_cast<std::int32_t>(b[l]);
          if (y == -1) return false;
          r[l] = static_cast<std::uint64_t>(static_cast<std::int64_t>(in.opcode == Opcode::rem ? x % y : x / y));
        } else {
          const auto x = static_cast<std::uint32_t>(a[l]), y = static_cast<std::uint32_t>(b[l]);
          r[l] = in.opcode == Opcode::rem ? x % y : x / y;
        }
      }
      break;
    }
    default: return false;
  }
  const Frame& frame = lanes_.frames.back();
  const std::size_t row = (base + in.dsts[0].reg) * 32;
  const int bits = width(module_.functions[frame.function].register_types[in.dsts[0].reg]);
  const std::uint64_t keep = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  std::uint64_t* const out = &lanes_.values[row];
  for (int l = 0; l < 32; ++l) out[l] = (lanes >> l) & 1 ? r[l] & keep : out[l];  // a select, not a branch
  lanes_.known[base + in.dsts[0].reg] = (lanes_.known[base + in.dsts[0].reg] & ~executing) | lanes;
  return true;
}

void WarpEmulator::Impl::execute(const DecodedInstruction& in, std::uint32_t active, std::uint32_t gtrue, std::uint32_t gunknown) {
  Frame& frame = lanes_.frames.back();
  const std::size_t base = frame.register_base;
  const std::uint32_t executing = gtrue | gunknown;
  const auto known_of = [&](const Arg& a) -> std::uint32_t {
    switch (a.kind) {
      case Arg::Kind::reg: return lanes_.known[base + a.reg];
      case Arg::Kind::imm: return 0xFFFFFFFFu;
      default: return 0;
    }
  };
  const auto read = [&](const Arg& a, int lane) -> std::uint64_t {
    std::uint64_t v = a.kind == Arg::Kind::reg ? lanes_.values[(base + a.reg) * 32 + static_cast<std::size_t>(lane)] : a.imm;
    return a.negated ? (v == 0 ? 1 : 0) : v;
  };
  // Writes lane values computed by `compute(lane, value&) -> known?` into destination `d`.
  const auto write = [&](const Arg& d, std::uint32_t inputs_known, auto compute) {
    if (d.kind != Arg::Kind::reg) return;
    const std::size_t r = base + d.reg;
    const int bits = width(module_.functions[frame.function].register_types[d.reg]);
    std::uint32_t known = lanes_.known[r] & ~executing;  // lanes not executing keep their values
    for_lanes(gtrue & inputs_known, [&](int lane) {
      std::uint64_t v = 0;
      if (compute(lane, v)) {
        lanes_.values[r * 32 + static_cast<std::size_t>(lane)] = truncate(v, bits);
        known |= std::uint32_t{1} << lane;
      }
    });
    lanes_.known[r] = known;
  };
  const auto unknown_destinations = [&] {
    for (const Arg& d : in.dsts) {
      if (d.kind == Arg::Kind::reg) lanes_.known[base + d.reg] &= ~executing;
    }
  };
  std::uint32_t inputs = 0xFFFFFFFFu;
  for (const Arg& s : in.srcs) inputs &= known_of(s);
  const Arg none{};
  const Arg& a = in.srcs.size() > 0 ? in.srcs[0] : none;
  const Arg& b = in.srcs.size() > 1 ? in.srcs[1] : none;
  const Arg& c = in.srcs.size() > 2 ? in.srcs[2] : none;

  switch (in.opcode) {
    case Opcode::ld:
    case Opcode::ldu: {
      if (options_.inputs != nullptr && (in.space == StateSpace::global || in.space == StateSpace::generic) && !in.unknown_footprint) {
        // A load from a buffer whose contents the user stated: each element's value, per lane.
        const auto bytes = static_cast<std::uint64_t>(in.type.bytes());
        const std::uint32_t address_known = known_of(in.address.base);
        for (std::size_t k = 0; k < in.dsts.size(); ++k) {
          write(in.dsts[k], address_known, [&](int lane, std::uint64_t& v) {
            const std::uint64_t address = read(in.address.base, lane) + static_cast<std::uint64_t>(in.address.offset) + k * bytes;
            std::uint64_t offset = 0;
            const InputContents* contents = stated_buffer(address, offset);
            const std::optional<std::uint64_t> value = contents == nullptr ? std::nullopt : contents->value_at(offset, in.type);
            if (value) v = *value;
            return value.has_value();
          });
        }
        return;
      }
      if (in.space != StateSpace::param || in.dsts.size() != 1) return unknown_destinations();
      const std::int32_t slot = in.address.param_slot;
      const DecodedFunction& entry = module_.functions[entry_];
      const auto kernel_param = std::find(entry.param_slots.begin(), entry.param_slots.end(), slot);
      if (frame.function == entry_ && kernel_param != entry.param_slots.end()) {
        const auto i = static_cast<std::size_t>(kernel_param - entry.param_slots.begin());
        const std::optional<std::uint64_t> value = in.address.offset == 0 ? param_values_[i] : std::nullopt;
        return write(in.dsts[0], value ? 0xFFFFFFFFu : 0u, [&](int, std::uint64_t& v) {
          v = *value;
          return true;
        });
      }
      const auto stored = lanes_.param_store.find(slot);
      for (const Slot& s : stored == lanes_.param_store.end() ? std::vector<Slot>{} : stored->second) {
        if (s.offset == in.address.offset) {
          return write(in.dsts[0], s.known, [&](int lane, std::uint64_t& v) {
            v = s.values[static_cast<std::size_t>(lane)];
            return true;
          });
        }
      }
      return unknown_destinations();
    }
    case Opcode::st: {
      if (in.space != StateSpace::param || in.srcs.size() != 1) return;
      std::vector<Slot>& slots = lanes_.param_store[in.address.param_slot];
      Slot* target = nullptr;
      for (Slot& s : slots) {
        if (s.offset == in.address.offset) target = &s;
      }
      if (target == nullptr) {
        slots.emplace_back().offset = in.address.offset;
        target = &slots.back();
      }
      // A value nothing reads back into a relevant register (relevance.hpp) is stored unknown, as
      // such registers are: a loop passing a helper a new float each time then has the same param
      // state at its head, and runs in closed form. Unknown lanes hold 0 (snapshots compare slots whole).
      const bool observed = a.kind != Arg::Kind::reg || relevant_[frame.function][a.reg];
      const std::uint32_t known = observed ? known_of(a) & gtrue : 0u;
      for_lanes(executing, [&](int lane) {
        target->values[static_cast<std::size_t>(lane)] = (known >> lane & 1) != 0 ? read(a, lane) : 0;
      });
      target->known = (target->known & ~executing) | known;
      return;
    }
    case Opcode::setp:
    case Opcode::set: {
      const ScalarType t = in.src_type;
      const bool has_c = in.srcs.size() > 2;
      if (in.opcode == Opcode::setp && !t.is_float() && !has_c && in.dsts.size() == 1 && in.srcs.size() == 2 &&
          plain_operand(a) && plain_operand(b)) {  // the commonest: all lanes compared at once
        std::array<std::uint64_t, 32> spread_a, spread_b;
        const std::uint32_t holds = compare_integer_lanes(in.compare, lane_row(a, base, spread_a), lane_row(b, base, spread_b), t);
        return write(in.dsts[0], inputs, [&](int lane, std::uint64_t& v) {
          v = holds >> lane & 1;
          return true;
        });
      }
      const auto outcome = [&](int lane, bool second) {
        bool r = t.is_float() ? compare_floats(in.compare, float_operand(in, read(a, lane), t),
                                              float_operand(in, read(b, lane), t))
                              : compare_integers(in.compare, read(a, lane), read(b, lane), t);
        if (second) r = !r;
        return has_c ? combine_predicates(in.bool_op, r, read(c, lane) != 0) : r;
      };
      for (std::size_t i = 0; i < in.dsts.size() && i < 2; ++i) {
        const bool second = i == 1;
        write(in.dsts[i], inputs, [&](int lane, std::uint64_t& v) {
          const bool r = outcome(lane, second);
          const std::uint64_t all_ones = truncate(~std::uint64_t{0}, width(in.type));
          v = in.opcode == Opcode::setp ? r : r ? (in.type.is_float() ? float_one(in.type) : all_ones) : 0;
          return true;
        });
      }
      return;
    }
    case Opcode::selp:
      return write(in.dsts[0], known_of(c), [&](int lane, std::uint64_t& v) {
        const bool pick_a = read(c, lane) != 0;
        if (!((known_of(pick_a ? a : b) >> lane) & 1)) return false;
        v = read(pick_a ? a : b, lane);
        return true;
      });
    case Opcode::slct:
      return write(in.dsts[0], inputs, [&](int lane, std::uint64_t& v) {
        const bool pick_a = in.src_type.is_float() ? float_operand(in, read(c, lane), in.src_type) >= 0
                                                   : sign_extend(read(c, lane), 32) >= 0;
        v = read(pick_a ? a : b, lane);
        return true;
      });
    case Opcode::cvt:
      return write(in.dsts[0], inputs,
                   [&](int lane, std::uint64_t& v) { return convert(in, read(a, lane), read(b, lane), v); });
    case Opcode::cvta:
      return write(in.dsts[0], inputs, [&](int lane, std::uint64_t& v) {
        const std::uint64_t x = read(a, lane);
        v = in.to_space ? x - window_base(in.space) : x + window_base(in.space);
        return true;
      });
    case Opcode::shfl: {
      std::array<std::uint64_t, 32> result{};
      std::array<bool, 32> in_range{};
      std::uint32_t result_known = 0;
      for_lanes(gtrue & known_of(b) & known_of(c), [&](int lane) {
        const std::uint64_t bval = read(b, lane) & 31, cval = read(c, lane) & 31, mask = (read(c, lane) >> 8) & 31;
        const std::uint64_t self = static_cast<std::uint64_t>(lane);
        const std::uint64_t max_lane = (self & mask) | (cval & ~mask), min_lane = self & mask;
        std::int64_t j = 0;
        bool ok = false;
        switch (in.shfl_mode) {
          case ShflMode::up: j = lane - static_cast<std::int64_t>(bval); ok = j >= static_cast<std::int64_t>(max_lane); break;
          case ShflMode::down: j = lane + static_cast<std::int64_t>(bval); ok = j <= static_cast<std::int64_t>(max_lane); break;
          case ShflMode::bfly: j = lane ^ static_cast<std::int64_t>(bval); ok = j <= static_cast<std::int64_t>(max_lane); break;
          case ShflMode::idx: j = static_cast<std::int64_t>(min_lane | (bval & ~mask)); ok = j <= static_cast<std::int64_t>(max_lane); break;
        }
        if (!ok) j = lane;
        const auto src = static_cast<int>(j & 31);
        in_range[static_cast<std::size_t>(lane)] = ok;
        if (((known_of(a) >> src) & 1) && ((gtrue >> src) & 1)) {
          result[static_cast<std::size_t>(lane)] = read(a, src);
          result_known |= std::uint32_t{1} << lane;
        }
      });
      write(in.dsts[0], result_known, [&](int lane, std::uint64_t& v) {
        v = result[static_cast<std::size_t>(lane)];
        return true;
      });
      if (in.dsts.size() > 1) {
        write(in.dsts[1], known_of(b) & known_of(c), [&](int lane, std::uint64_t& v) {
          v = in_range[static_cast<std::size_t>(lane)];
          return true;
        });
      }
      return;
    }
    case Opcode::vote: {
      const std::uint32_t participating = gtrue;
      if ((participating & ~known_of(a)) != 0 || gunknown != 0) return unknown_destinations();
      std::uint32_t ballot = 0;
      for_lanes(participating, [&](int lane) {
        if (read(a, lane) != 0) ballot |= std::uint32_t{1} << lane;
      });
      std::uint64_t r = 0;
      switch (in.vote_mode) {
        case VoteMode::ballot: r = ballot; break;
        case VoteMode::all: r = ballot == participating; break;
        case VoteMode::any: r = ballot != 0; break;
        case VoteMode::uni: r = ballot == 0 || ballot == participating; break;
      }
      return write(in.dsts[0], 0xFFFFFFFFu, [&](int, std::uint64_t& v) {
        v = r;
        return true;
      });
    }
    case Opcode::alloca: {  // local memory for the frame: a known address in the local space
      const std::uint64_t address = lanes_.alloca_top;
      const std::uint64_t size = in.srcs[0].kind == Arg::Kind::imm ? in.srcs[0].imm : 0;
      lanes_.alloca_top += (std::min<std::uint64_t>(size, kWindowSize / 4) + 15) / 16 * 16;
      return write(in.dsts[0], 0xFFFFFFFFu, [&](int, std::uint64_t& v) {
        v = address;
        return true;
      });
    }
    case Opcode::isspacep:  // is the generic address in the named space?
      return write(in.dsts[0], known_of(a), [&](int lane, std::uint64_t& v) {
        v = space_of_generic(read(a, lane)) == in.space ? 1 : 0;
        return true;
      });
    case Opcode::mapa:  // another block's shared memory in the cluster: the same shared address here
      return write(in.dsts[0], known_of(a), [&](int lane, std::uint64_t& v) {
        v = read(a, lane);
        return true;
      });
    case Opcode::activemask:
      return write(in.dsts[0], 0xFFFFFFFFu, [&](int, std::uint64_t& v) {
        v = active;
        return true;
      });
    case Opcode::mov: {
      if (in.vector_width == 1) break;  // a plain move, below
      // Packing (mov.b32 %r1, {%h0, %h1}) or unpacking (mov.b32 {%h0, %h1}, %r1): element 0 is the low bits.
      const int part = width(in.type) / in.vector_width;
      if (in.srcs.size() > 1) {
        return write(in.dsts[0], inputs, [&](int lane, std::uint64_t& v) {
          v = 0;
          for (std::size_t i = 0; i < in.srcs.size(); ++i) {
            v |= truncate(read(in.srcs[i], lane), part) << (static_cast<int>(i) * part);
          }
          return true;
        });
      }
      for (std::size_t i = 0; i < in.dsts.size(); ++i) {
        write(in.dsts[i], inputs, [&](int lane, std::uint64_t& v) {
          v = truncate(read(a, lane) >> (static_cast<int>(i) * part), part);
          return true;
        });
      }
      return;
    }
    case Opcode::other_calc:
      for (const std::int32_t slot : in.call_returns) {
        lanes_.param_store.erase(slot);
      }
      return unknown_destinations();
    default: break;
  }
  if (in.dsts.empty()) return;
  if (in.type.is_float()) {
    return write(in.dsts[0], inputs, [&](int lane, std::uint64_t& v) {
      return float_arithmetic(in, read(a, lane), read(b, lane), read(c, lane), v);
    });
  }
  if (in.opcode == Opcode::bfi) {
    return write(in.dsts[0], inputs, [&](int lane, std::uint64_t& v) {
      const std::uint64_t pos = read(c, lane) & 0xFF, len = read(in.srcs[3], lane) & 0xFF;
      if (len == 0 || pos >= 64) { v = read(b, lane); return true; }
      const std::uint64_t field = (len >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << len) - 1) << pos;
      v = (read(b, lane) & ~field) | ((read(a, lane) << pos) & field);
      return true;
    });
  }
  for (std::size_t i = 1; i < in.dsts.size(); ++i) {
    if (in.dsts[i].kind == Arg::Kind::reg) lanes_.known[base + in.dsts[i].reg] &= ~executing;
  }
  if (fast_integer_op(in, base, gtrue & inputs, executing)) return;
  write(in.dsts[0], inputs, [&](int lane, std::uint64_t& v) { return integer_result(in, read(a, lane), read(b, lane), read(c, lane), v); });
}



}  // namespace warpsim::ptx
