#include "warpsim/ptx/sass_costs.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "warpsim/ptx/cfg.hpp"
#include "warpsim/ptx/opcodes.hpp"
#include "warpsim/ptx/pipe_classes.hpp"
#include "warpsim/sass/opcode_class.hpp"

namespace warpsim::ptx {
namespace {

// What one SASS instruction costs the pipes model.
struct SassCost {
  PipeUse use;          // one issue; work and chain on its pipe (tensor: its units)
  bool memory = false;  // a load, store or atomic: an access item of its own when its PTX line is one
};

SassCost cost_of(const sass::Instruction& instruction, int compute_capability) {
  const sass::OpcodeClass c = sass::pipe_of(instruction, compute_capability);
  SassCost cost;
  cost.use.issue = 1;
  cost.memory = c.kind == sass::OpcodeKind::memory;
  // Instructions with no arithmetic pipe (branches, barriers, uniform datapath, special registers,
  // memory) issue on the control pipe: an issue slot, no throughput of their own.
  const isa::Pipe pipe = c.kind == sass::OpcodeKind::arithmetic ? c.pipe : isa::Pipe::control;
  const auto p = static_cast<std::size_t>(pipe);
  // One warp-instruction on its pipe; a tensor instruction its units of kTensorUnitFmas.
  cost.use.work[p] = isa::is_tensor(pipe) ? std::max<std::int64_t>(1, c.units) : 1;
  cost.use.chain[p] = 1;
  return cost;
}

bool is_access(const DecodedInstruction& d) { return is_memory_access(d.opcode) && d.space != StateSpace::param; }

bool ends_sass_block(const sass::Instruction& s) {
  const std::string_view op = s.opcode;
  for (const std::string_view branch : {"BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "CALL", "BPT"}) {
    if (op.starts_with(branch) && (op.size() == branch.size() || op[branch.size()] == '.')) return true;
  }
  return false;
}

// The instruction index of the label a branch or call at `s` names (`(.L_x_0)`), if it has one.
std::optional<std::size_t> label_target(const sass::Function& function, std::size_t s) {
  const sass::Instruction& in = function.code[s];
  const std::size_t open = in.operands.find("`(");
  const std::size_t close = open == std::string::npos ? open : in.operands.find(')', open);
  if (close == std::string::npos) return std::nullopt;
  const auto it = function.labels.find(in.operands.substr(open + 2, close - open - 2));
  if (it == function.labels.end() || it->second >= function.code.size()) return std::nullopt;
  return it->second;
}

// round(n / d) for n >= 0, d > 0, halves up.
std::int64_t rounded(std::int64_t n, std::int64_t d) { return (2 * n + d) / (2 * d); }

// A SASS instruction: its function in the listing and its index there.
struct SassRef {
  const sass::Function* function = nullptr;
  std::uint32_t index = 0;
};
// A PTX instruction: its function in the module and its index there.
struct PtxRef {
  std::uint32_t function = 0;
  std::uint32_t index = 0;
};

// Which PTX instruction each SASS instruction of the listing came from: the one on the line its
// marker names (an inlined function's lines name the callee's), or, for a line no instruction
// starts on, the next instruction; SASS with no line goes with the instruction before it.
class Attribution {
 public:
  Attribution(const DecodedModule& module, const sass::Listing& listing, SassCoverage& coverage) {
    std::map<int, PtxRef> by_line;
    for (std::uint32_t f = 0; f < module.functions.size(); ++f) {
      const std::vector<DecodedInstruction>& code = module.functions[f].code;
      for (std::uint32_t i = 0; i < code.size(); ++i) by_line.emplace(code[i].pos.line, PtxRef{f, i});
    }
    sass_of_.resize(module.functions.size());
    for (std::uint32_t f = 0; f < module.functions.size(); ++f) sass_of_[f].resize(module.functions[f].code.size());
    for (const sass::Function& function : listing.functions) {
      // Only the functions the lowering decoded (the kernel and what it calls): another kernel's
      // SASS is not this one's.
      const std::optional<std::uint32_t> own = decoded(module, function.name);
      if (!own) continue;
      std::vector<PtxRef>& owners = owners_[&function];
      const std::size_t end = function.padding_start();
      coverage.sass_instructions += static_cast<std::int64_t>(end);
      const std::vector<bool> in_subroutine = subroutine_instructions(function, end);
      PtxRef current{*own, 0};
      for (std::uint32_t s = 0; s < end; ++s) {
        const auto line = static_cast<int>(function.code[s].ptx_line);
        const auto at = line > 0 ? by_line.lower_bound(line) : by_line.end();
        if (line <= 0) {
          ++coverage.without_line;
        } else if (at != by_line.end()) {
          current = at->second;  // the markers name instruction lines; another line: the next instruction
        }
        owners.push_back(current);
        if (!in_subroutine[s]) sass_of_[current.function][current.index].push_back(SassRef{&function, s});
      }
      // A subroutine ptxas calls (CALL.REL to a label of the function: __internal division and
      // the like) runs once per call: its instructions go with each calling PTX instruction.
      for (std::uint32_t s = 0; s < end; ++s) {
        const std::optional<std::size_t> entry = call_target(function, s);
        if (!entry) continue;
        for (std::size_t b = *entry; b < end; ++b) {
          sass_of_[owners[s].function][owners[s].index].push_back(SassRef{&function, static_cast<std::uint32_t>(b)});
          if (function.code[b].base() == "RET") break;
        }
      }
    }
  }

  const std::vector<SassRef>& sass_of(std::uint32_t function, std::uint32_t index) const { return sass_of_[function][index]; }
  bool any_in(std::uint32_t function) const {
    return std::any_of(sass_of_[function].begin(), sass_of_[function].end(), [](const auto& v) { return !v.empty(); });
  }
  PtxRef owner(const SassRef& s) const { return owners_.at(s.function)[s.index]; }

 private:
  std::vector<std::vector<std::vector<SassRef>>> sass_of_;  // [function][instruction]
  std::map<const sass::Function*, std::vector<PtxRef>> owners_;

  // The subroutine a CALL.REL at `s` enters, as an instruction index of the function.
  static std::optional<std::size_t> call_target(const sass::Function& function, std::size_t s) {
    if (function.code[s].base() != "CALL") return std::nullopt;
    return label_target(function, s);
  }

  // The instructions of the subroutines the function calls: from each CALL target to its RET.
  static std::vector<bool> subroutine_instructions(const sass::Function& function, std::size_t end) {
    std::vector<bool> inside(end, false);
    for (std::size_t s = 0; s < end; ++s) {
      const std::optional<std::size_t> entry = call_target(function, s);
      for (std::size_t b = entry.value_or(end); b < end; ++b) {
        inside[b] = true;
        if (function.code[b].base() == "RET") break;
      }
    }
    return inside;
  }

  static std::optional<std::uint32_t> decoded(const DecodedModule& module, const std::string& name) {
    for (std::uint32_t f = 0; f < module.functions.size(); ++f) {
      if (module.functions[f].name == name && !module.functions[f].code.empty()) return f;
    }
    return std::nullopt;
  }
};

class FunctionPricer {
 public:
  FunctionPricer(DecodedFunction& function, std::uint32_t index, const Attribution& attribution, int compute_capability,
                 SassCoverage& coverage)
      : function_(function), index_(index), attribution_(attribution), compute_capability_(compute_capability),
        coverage_(coverage) {
    for (const DecodedInstruction& in : function_.code) table_.push_back(in.pipes);
    // Inside a loop: between a backward branch's target and the branch.
    in_loop_.assign(function_.code.size(), false);
    for (std::uint32_t j = 0; j < function_.code.size(); ++j) {
      const DecodedInstruction& in = function_.code[j];
      if (in.opcode != Opcode::bra || in.target > j) continue;
      for (std::uint32_t k = in.target; k <= j; ++k) in_loop_[k] = true;
    }
  }

  void price() {
    const ControlFlowGraph cfg(function_);
    for (const BasicBlock& block : cfg.blocks()) {
      ++coverage_.blocks;
      if (!price_block(block)) ++coverage_.unmapped_blocks;
    }
  }

 private:
  DecodedFunction& function_;
  std::uint32_t index_;
  const Attribution& attribution_;
  int compute_capability_;
  SassCoverage& coverage_;
  std::vector<PipeUse> table_;
  std::vector<bool> in_loop_;

  const std::vector<SassRef>& sass_of(std::uint32_t i) const { return attribution_.sass_of(index_, i); }
  static const sass::Instruction& at(const SassRef& s) { return s.function->code[s.index]; }

  // How many copies ptxas made of a block: the most SASS instructions of one opcode that a PTX
  // instruction the table prices as one SASS instruction has (an FMA of a loop unrolled 4 times
  // has 4 FFMAs); 1 when no such instruction has any.
  std::int64_t copies_of(const BasicBlock& block) const {
    std::int64_t copies = 1;
    // Only loops are unrolled; elsewhere a repeated opcode is the prologue's or ptxas's own moves.
    if (!in_loop_[block.first]) return copies;
    for (std::uint32_t i = block.first; i <= block.last; ++i) {
      if (table_[i].issue != 1 || function_.code[i].opcode == Opcode::bra) continue;
      std::map<std::string_view, std::int64_t> per_opcode;
      for (const SassRef& s : sass_of(i)) {
        // The instruction's own work (arithmetic, memory); not the moves and uniform-datapath
        // constants ptxas puts beside it (two UMOVs beside a DFMA are not two copies).
        const sass::OpcodeClass c = sass::pipe_of(at(s), compute_capability_);
        const bool own = (c.kind == sass::OpcodeKind::arithmetic && !c.move) || c.kind == sass::OpcodeKind::memory;
        if (own) copies = std::max(copies, ++per_opcode[at(s).opcode]);
      }
    }
    return copies;
  }

  // False when the block has work by the table and no SASS names it: it keeps the table's prices.
  bool price_block(const BasicBlock& block) {
    bool named = false, has_work = false;
    for (std::uint32_t i = block.first; i <= block.last; ++i) {
      named = named || !sass_of(i).empty();
      has_work = has_work || (table_[i].issue > 0 && function_.code[i].opcode != Opcode::bra);
    }
    if (!named) return !has_work;
    const std::int64_t copies = copies_of(block);
    if (copies > 1) ++coverage_.unrolled_blocks;
    // The block's SASS spread over its PTX instructions in order, each share rounded so that the
    // block's total is its SASS over its copies (rounded), whatever the split.
    PipeUse before{}, after{};
    before.issue = after.issue = 0;
    for (std::uint32_t i = block.first; i <= block.last; ++i) {
      DecodedInstruction& in = function_.code[i];
      if (is_access(in)) {
        // A cp.async copy keeps its distance to its wait: LDGSTS is waited on by DEPBAR, not a scoreboard.
        if (is_load_for_use_distance(in) && in.opcode != Opcode::cp_async) set_load_distances(i);
        continue;  // timed as its access item (one issue); its SASS memory instruction is that item
      }
      PipeUse total{};
      total.issue = 0;
      for (const SassRef& s : sass_of(i)) {
        const PipeUse u = cost_of(at(s), compute_capability_).use;
        const bool tensor = std::any_of(u.work.begin() + static_cast<std::ptrdiff_t>(isa::Pipe::tensor_f16),
                                        u.work.begin() + static_cast<std::ptrdiff_t>(isa::Pipe::tensor_f64) + 1,
                                        [](std::int64_t w) { return w > 0; });
        total.issue += tensor ? u.issue : 0;  // the tensor instructions (the others issue as their work)
        for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
          total.work[p] += u.work[p];
          total.chain[p] += u.chain[p];
        }
      }
      // `issue` carries the tensor instructions alone (each other SASS instruction is one unit of
      // work on its pipe), so a share's issue is its non-tensor work plus its tensor instructions:
      // never work without an issue slot.
      PipeUse share{};
      after.issue += total.issue;
      std::int64_t issue = 0;
      bool tensor_work = false;
      for (std::size_t p = 0; p < isa::kPipeCount; ++p) {
        after.work[p] += total.work[p];
        share.work[p] = rounded(after.work[p], copies) - rounded(before.work[p], copies);
        share.chain[p] = share.work[p] > 0 ? std::max<std::int64_t>(1, rounded(total.chain[p], copies)) : 0;
        if (isa::is_tensor(isa::pipe_at(p))) {
          tensor_work = tensor_work || share.work[p] > 0;
        } else {
          issue += share.work[p];
        }
      }
      const std::int64_t tensor_issue = rounded(after.issue, copies) - rounded(before.issue, copies);
      share.issue = static_cast<std::int32_t>(issue + std::max<std::int64_t>(tensor_issue, tensor_work ? 1 : 0));
      before = after;
      in.pipes = share;
    }
    return true;
  }

  // A load's distance to its first use in the SASS, averaged over its copies: the SASS
  // instructions between it and the first that waits on the scoreboard it sets (or the end of its
  // SASS block), those of them from earlier PTX instructions being its hoist.
  void set_load_distances(std::uint32_t i) {
    std::int64_t gaps = 0, hoisted = 0, loads = 0;
    for (const SassRef& k : sass_of(i)) {
      const sass::Instruction& load = at(k);
      if (cost_of(load, compute_capability_).memory == false || load.control.write_barrier < 0) continue;
      const auto [gap, before] = distance_to_use(*k.function, k.index, i);
      gaps += gap;
      hoisted += before;
      ++loads;
    }
    if (loads == 0) return;  // no SASS load with a scoreboard: the PTX-order distances stay
    DecodedInstruction& in = function_.code[i];
    in.hoist = static_cast<std::int32_t>(rounded(hoisted, loads));
    in.use_distance = static_cast<std::int32_t>(std::max<std::int64_t>(0, rounded(gaps, loads) - in.hoist));
    ++coverage_.loads;
  }

  // The SASS instructions from the load at `k` to the first that waits on its scoreboard (or the
  // end of its SASS block), and how many of them come from PTX instructions before it: the ones
  // ptxas hoisted it above. (A load ptxas moved into the previous iteration, software pipelining,
  // would need the count to go on from the loop head; none of our listings has one.)
  std::pair<std::int64_t, std::int64_t> distance_to_use(const sass::Function& function, std::size_t k, std::uint32_t i) const {
    const int barrier = function.code[k].control.write_barrier;
    const std::size_t end = function.padding_start();
    std::int64_t gap = 0, before = 0;
    for (std::size_t j = k + 1; j < end && !starts_block(function, j); ++j) {
      if (function.code[j].control.waits_on(barrier)) break;
      ++gap;
      const PtxRef o = attribution_.owner(SassRef{&function, static_cast<std::uint32_t>(j)});
      if (o.function == index_ && o.index < i) ++before;
      if (ends_sass_block(function.code[j])) break;
    }
    return {gap, before};
  }

  static bool starts_block(const sass::Function& function, std::size_t index) {
    for (const auto& [label, target] : function.labels) {
      if (target == index) return true;
    }
    return false;
  }
};

}  // namespace

SassCoverage apply_sass_costs(DecodedModule& module, const sass::Listing& listing, int compute_capability) {
  SassCoverage coverage;
  const Attribution attribution(module, listing, coverage);
  for (std::uint32_t f = 0; f < module.functions.size(); ++f) {
    DecodedFunction& function = module.functions[f];
    if (function.code.empty()) continue;
    if (!attribution.any_in(f)) {
      ++coverage.functions_missing;
      continue;
    }
    FunctionPricer(function, f, attribution, compute_capability, coverage).price();
  }
  return coverage;
}

}  // namespace warpsim::ptx
