#include "warpsim/ptx/decode.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "warpsim/ptx/float_semantics.hpp"
#include "warpsim/ptx/opcodes.hpp"
#include "warpsim/ptx/pipe_classes.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

// Every PTX fundamental type. The emulator computes b/u/s, f16, f32, f64 and bf16 (also in pairs);
// tf32 and the fp8/fp6/fp4 formats are parsed only so that nothing on them passes for f32.
std::optional<ScalarType> parse_type(std::string_view text) {
  if (text == "pred") return ScalarType{TypeKind::pred, 1};
  std::uint8_t elements = 1;
  if (text.ends_with("x2") || text.ends_with("x4")) {
    elements = static_cast<std::uint8_t>(text.back() - '0');
    text.remove_suffix(2);
  }
  if (text.size() < 2) return std::nullopt;  // ldmatrix's .x4 is a count, not a type
  const auto type = [&](TypeKind kind, int element_bits) {
    return ScalarType{kind, static_cast<std::uint8_t>(element_bits * elements), elements};
  };
  if (text == "bf16") return type(TypeKind::bf, 16);
  if (text == "tf32") return type(TypeKind::narrow_float, 32);
  if (text == "ue8m0" || text == "s2f6") return type(TypeKind::narrow_float, 8);
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (text.size() == 4 && text[0] == 'e' && digit(text[1]) && text[2] == 'm' && digit(text[3])) {
    return type(TypeKind::narrow_float, text == "e2m1" ? 4 : 8);  // fp4 packs two to a byte
  }
  if (elements != 1 && text.substr(1) != "16") return std::nullopt;  // f16x2, and u16x2/s16x2 (not computed)
  TypeKind kind;
  switch (text[0]) {
    case 'b': kind = TypeKind::b; break;
    case 'u': kind = TypeKind::u; break;
    case 's': kind = TypeKind::s; break;
    case 'f': kind = TypeKind::f; break;
    default: return std::nullopt;
  }
  const std::string_view digits = text.substr(1);
  if (digits == "8") return ScalarType{kind, 8};
  if (digits == "16") return type(kind, 16);
  if (digits == "32") return ScalarType{kind, 32};
  if (digits == "64") return ScalarType{kind, 64};
  if (digits == "128") return ScalarType{TypeKind::b, 64};  // b128: wider than the emulator tracks
  return std::nullopt;
}

std::optional<StateSpace> parse_space(std::string_view text) {
  const std::string_view base = text.substr(0, text.find("::"));
  if (base == "global") return StateSpace::global;
  if (base == "shared") return StateSpace::shared;
  if (base == "local") return StateSpace::local;
  if (base == "const") return StateSpace::constant;
  if (base == "param") return StateSpace::param;
  return std::nullopt;
}

std::optional<Compare> parse_compare(std::string_view text) {
  static const std::pair<std::string_view, Compare> names[] = {
      {"eq", Compare::eq},   {"ne", Compare::ne},   {"lt", Compare::lt},   {"le", Compare::le},
      {"gt", Compare::gt},   {"ge", Compare::ge},   {"lo", Compare::lo},   {"ls", Compare::ls},
      {"hi", Compare::hi},   {"hs", Compare::hs},   {"equ", Compare::equ}, {"neu", Compare::neu},
      {"ltu", Compare::ltu}, {"leu", Compare::leu}, {"gtu", Compare::gtu}, {"geu", Compare::geu},
      {"num", Compare::num}, {"nan", Compare::nan}};
  for (const auto& [name, compare] : names) {
    if (name == text) return compare;
  }
  return std::nullopt;
}

struct SpecialName {
  std::string_view name;
  Special special;
};

std::optional<Special> parse_special(std::string_view name) {
  static const SpecialName names[] = {
      {"%tid.x", Special::tid_x},           {"%tid.y", Special::tid_y},         {"%tid.z", Special::tid_z},
      {"%ntid.x", Special::ntid_x},         {"%ntid.y", Special::ntid_y},       {"%ntid.z", Special::ntid_z},
      {"%ctaid.x", Special::ctaid_x},       {"%ctaid.y", Special::ctaid_y},     {"%ctaid.z", Special::ctaid_z},
      {"%nctaid.x", Special::nctaid_x},     {"%nctaid.y", Special::nctaid_y},   {"%nctaid.z", Special::nctaid_z},
      {"%laneid", Special::laneid},         {"%warpid", Special::warpid},       {"%nwarpid", Special::nwarpid},
      {"%smid", Special::smid},             {"%nsmid", Special::nsmid},         {"%gridid", Special::gridid},
      {"%lanemask_eq", Special::lanemask_eq}, {"%lanemask_lt", Special::lanemask_lt},
      {"%lanemask_le", Special::lanemask_le}, {"%lanemask_gt", Special::lanemask_gt},
      {"%lanemask_ge", Special::lanemask_ge}, {"WARP_SZ", Special::warpsize}};
  for (const auto& entry : names) {
    if (entry.name == name) return entry.special;
  }
  static const std::string_view unknown_prefixes[] = {"%clock", "%globaltimer", "%envreg", "%pm", "%cluster",
                                                      "%nclusterid", "%is_explicit_cluster", "%total_smem_size",
                                                      "%dynamic_smem_size", "%aggr_smem_size", "%reserved_smem",
                                                      "%current_graph_exec", "%ctaid", "%tid", "%ntid", "%nctaid"};
  for (const std::string_view prefix : unknown_prefixes) {
    if (name.starts_with(prefix)) return Special::unknown;
  }
  return std::nullopt;
}

// A float literal (0f3F800000) as an operand of `type`; nullopt for pairs and narrow formats,
// which take none: the operand is then unknown rather than wrong.
std::optional<std::uint64_t> immediate_bits(double value, ScalarType type) {
  if (type.elements == 1) {
    if (const std::optional<FloatFormat> format = float_format(type)) return float_bits(value, *format);
  }
  if (type.is_float()) return std::nullopt;
  // An untyped operand (mov.b32 %r1, 0f3F800000): the literal's own bits.
  if (type.bits == 32) return std::bit_cast<std::uint32_t>(static_cast<float>(value));
  return std::bit_cast<std::uint64_t>(value);
}

// Integer rounding of cvt, or nullopt for another modifier.
std::optional<IntegerRounding> parse_integer_rounding(std::string_view text) {
  if (text == "rni") return IntegerRounding::nearest_even;
  if (text == "rzi") return IntegerRounding::zero;
  if (text == "rmi") return IntegerRounding::down;
  if (text == "rpi") return IntegerRounding::up;
  return std::nullopt;
}

std::optional<PermuteMode> parse_permute_mode(std::string_view text) {
  static const std::pair<std::string_view, PermuteMode> names[] = {
      {"f4e", PermuteMode::f4e}, {"b4e", PermuteMode::b4e}, {"rc8", PermuteMode::rc8},
      {"ecl", PermuteMode::ecl}, {"ecr", PermuteMode::ecr}, {"rc16", PermuteMode::rc16}};
  for (const auto& [name, mode] : names) {
    if (name == text) return mode;
  }
  return std::nullopt;
}

struct Symbol {
  StateSpace space;
  std::uint64_t address;  // in its state space
};

class ModuleDecoder {
 public:
  explicit ModuleDecoder(const Module& module) : module_(module) { result_.file = module.file; }

  // Every function, or (entry given) the entry and what it calls, transitively.
  DecodedModule run(std::optional<std::uint32_t> entry = std::nullopt) {
    // A name can be declared (a prototype) before it is defined: calls go to the definition.
    for (std::size_t i = 0; i < module_.functions.size(); ++i) {
      const auto [it, inserted] = function_index_.emplace(module_.functions[i].name, static_cast<std::uint32_t>(i));
      if (!inserted && module_.functions[i].has_body) it->second = static_cast<std::uint32_t>(i);
    }
    for (const Declaration& d : module_.globals) add_symbol(d, module_symbols_);
    // Parameter slots of every function first, so calls can name the callee's slots.
    for (const Function& f : module_.functions) {
      DecodedFunction decoded;
      decoded.name = f.name;
      decoded.is_entry = f.is_entry;
      for (const Declaration& p : f.params) decoded.param_slots.push_back(add_param_slot(p));
      for (const Declaration& r : f.returns) decoded.return_slots.push_back(add_param_slot(r));
      result_.functions.push_back(std::move(decoded));
    }
    if (!entry) {
      for (std::size_t i = 0; i < module_.functions.size(); ++i) decode_function(module_.functions[i], result_.functions[i]);
      return std::move(result_);
    }
    std::vector<bool> decoded(module_.functions.size(), false);
    std::vector<std::uint32_t> pending{*entry};
    decoded[*entry] = true;
    while (!pending.empty()) {
      const std::uint32_t f = pending.back();
      pending.pop_back();
      decode_function(module_.functions[f], result_.functions[f]);
      for (const DecodedInstruction& in : result_.functions[f].code) {
        if (in.opcode != Opcode::call || in.target >= decoded.size() || decoded[in.target]) continue;
        decoded[in.target] = true;
        pending.push_back(in.target);
      }
    }
    return std::move(result_);
  }

 private:
  [[noreturn]] void fail(Position pos, const std::string& what) const {
    throw InputError(SourceLocation{module_.file, pos.line, pos.column}, what);
  }

  void warn(Position pos, std::string message) { result_.warnings.push_back(Warning{pos, std::move(message)}); }

  std::int32_t add_param_slot(const Declaration& d) {
    ParamSlot slot;
    slot.name = d.name;
    slot.type = parse_type(d.type).value_or(ScalarType{TypeKind::b, 64});
    slot.is_array = !d.array_dims.empty();
    slot.is_pointer = d.is_pointer;
    result_.param_slots.push_back(std::move(slot));
    return static_cast<std::int32_t>(result_.param_slots.size() - 1);
  }

  void add_symbol(const Declaration& d, std::unordered_map<std::string, Symbol>& into) {
    if (d.space == StateSpace::reg || d.space == StateSpace::param) return;
    std::uint64_t& next = next_address_[static_cast<std::size_t>(d.space)];
    const std::uint64_t align = static_cast<std::uint64_t>(std::max<std::int64_t>(d.alignment, 16));
    next = (next + align - 1) / align * align;
    std::uint64_t base = next;
    if (d.space == StateSpace::global) base += kGlobalSymbolBase;
    into[d.name] = Symbol{d.space, base};
    next += static_cast<std::uint64_t>(std::max<std::int64_t>(declaration_bytes(d), 1));
  }

  void decode_function(const Function& f, DecodedFunction& out) {
    registers_.clear();
    local_symbols_.clear();
    local_params_.clear();
    labels_.clear();
    out_ = &out;
    for (std::size_t i = 0; i < f.params.size(); ++i) local_params_[f.params[i].name] = out.param_slots[i];
    for (std::size_t i = 0; i < f.returns.size(); ++i) local_params_[f.returns[i].name] = out.return_slots[i];
    for (const Declaration& d : f.locals) {
      if (d.space == StateSpace::reg) {
        const ScalarType type = parse_type(d.type).value_or(ScalarType{TypeKind::b, 64});
        // Each register costs the emulator 32 lane values; a declared count far beyond what nvcc
        // emits would take its memory and time before the first instruction runs.
        const std::int64_t declared = d.range_count >= 0 ? d.range_count : 1;
        if (out.register_count + declared > kMaxRegistersPerFunction) {
          fail(d.pos, "function " + quote_for_message(f.name) + " declares more than " +
                          std::to_string(kMaxRegistersPerFunction) + " registers (a fixed limit)");
        }
        if (d.range_count >= 0) {
          for (int i = 0; i < d.range_count; ++i) add_register(d.name + std::to_string(i), type);
        } else {
          add_register(d.name, type);
        }
      } else if (d.space == StateSpace::param) {
        if (!local_params_.contains(d.name)) local_params_[d.name] = add_param_slot(d);
      } else {
        add_symbol(d, local_symbols_);
      }
    }
    std::uint32_t index = 0;
    for (const Statement& s : f.body) {
      if (const auto* label = std::get_if<Label>(&s)) {
        labels_[label->name] = index;
      } else {
        ++index;
      }
    }
    for (const auto& [name, targets] : f.branch_targets) branch_tables_[name] = targets;
    std::vector<std::vector<std::uint32_t>> reads;  // per instruction: the registers it reads
    for (const Statement& s : f.body) {
      if (const auto* instruction = std::get_if<Instruction>(&s)) {
        DecodedInstruction d = decode(*instruction);
        d.pipes = pipe_use(d);
        reads.push_back(registers_read(*instruction, d));
        out.code.push_back(std::move(d));
      }
    }
    set_use_distances(out, reads);
    branch_tables_.clear();
  }

  // The registers an instruction reads, from its operands as written (the decoded sources leave
  // out those of instructions without semantics): every register named except in the
  // destination operand, the first of most instructions, plus the guard.
  std::vector<std::uint32_t> registers_read(const Instruction& in, const DecodedInstruction& d) const {
    std::vector<std::uint32_t> reads;
    if (d.has_guard) reads.push_back(d.guard_reg);
    const auto add = [&](const std::string& name) {
      if (const auto it = registers_.find(name); it != registers_.end()) reads.push_back(it->second);
    };
    const auto collect = [&](const auto& self, const Operand& o) -> void {
      if (o.kind == Operand::Kind::vector || o.kind == Operand::Kind::pair) {
        for (const Operand& e : o.elements) self(self, e);
      } else if (o.kind == Operand::Kind::name || o.kind == Operand::Kind::address) {
        add(o.text);
      }
    };
    const bool reads_first = in.opcode == "bar" || in.opcode == "barrier" || in.opcode == "bra" || in.opcode == "brx" ||
                             in.opcode == "call" || in.opcode == "ret" || in.opcode == "exit";
    for (std::size_t i = 0; i < in.operands.size(); ++i) {
      const Operand& o = in.operands[i];
      const bool destination = i == 0 && !reads_first && o.kind != Operand::Kind::address;
      if (!destination) collect(collect, o);
    }
    return reads;
  }

  std::uint32_t add_register(const std::string& name, ScalarType type) {
    const auto [it, inserted] = registers_.emplace(name, out_->register_count);
    if (inserted) {
      out_->register_types.push_back(type);
      ++out_->register_count;
    }
    return it->second;
  }

  const Symbol* find_symbol(const std::string& name) const {
    if (const auto it = local_symbols_.find(name); it != local_symbols_.end()) return &it->second;
    if (const auto it = module_symbols_.find(name); it != module_symbols_.end()) return &it->second;
    return nullptr;
  }

  // A register, special register, immediate, symbol address or function, as a value.
  Arg value(const Operand& o, ScalarType type) {
    Arg arg;
    switch (o.kind) {
      case Operand::Kind::integer: arg.kind = Arg::Kind::imm; arg.imm = o.integer; return arg;
      case Operand::Kind::floating: {
        const std::optional<std::uint64_t> bits = immediate_bits(o.floating, type);
        arg.kind = bits ? Arg::Kind::imm : Arg::Kind::sink;
        arg.imm = bits.value_or(0);
        return arg;
      }
      case Operand::Kind::sink: arg.kind = Arg::Kind::sink; return arg;
      case Operand::Kind::name: break;
      default: fail(o.pos, "expected a register or an immediate value");
    }
    arg.negated = o.negated;
    if (const auto it = registers_.find(o.text); it != registers_.end()) {
      arg.kind = Arg::Kind::reg;
      arg.reg = it->second;
      return arg;
    }
    if (const std::optional<Special> special = parse_special(o.text)) {
      const bool known = registers_.contains(o.text);
      arg.kind = Arg::Kind::reg;
      arg.reg = add_register(o.text, ScalarType{TypeKind::u, 32});
      if (!known) {
        out_->special_registers.emplace_back(arg.reg, *special);
        out_->special_register_names.push_back(o.text);
      }
      return arg;
    }
    if (const Symbol* symbol = find_symbol(o.text)) {
      arg.kind = Arg::Kind::imm;
      arg.imm = symbol->address + static_cast<std::uint64_t>(o.offset);
      return arg;
    }
    if (const auto it = function_index_.find(o.text); it != function_index_.end()) {
      arg.kind = Arg::Kind::imm;
      arg.imm = it->second;
      return arg;
    }
    if (o.text.starts_with('%')) fail(o.pos, "undeclared register " + quote_for_message(o.text));
    if (const auto it = local_params_.find(o.text); it != local_params_.end()) {
      // The address of a parameter in the param space (cvta.param makes it generic): 1 MiB apart.
      addressed_param_ = it->second;
      arg.kind = Arg::Kind::imm;
      arg.imm = (static_cast<std::uint64_t>(it->second) << 20) + static_cast<std::uint64_t>(o.offset);
      return arg;
    }
    fail(o.pos, "undefined name " + quote_for_message(o.text));
  }

  // Destinations: a register, a vector of registers, a pair, or the sink.
  void destinations(const Operand& o, std::vector<Arg>& into) {
    if (o.kind == Operand::Kind::vector || o.kind == Operand::Kind::pair) {
      for (const Operand& e : o.elements) destinations(e, into);
      return;
    }
    if (o.kind != Operand::Kind::name && o.kind != Operand::Kind::sink) fail(o.pos, "expected a destination register");
    Arg arg = value(o, {});
    if (arg.kind == Arg::Kind::imm) fail(o.pos, "expected a destination register, not " + quote_for_message(o.text));
    into.push_back(arg);
  }

  Address address(const Operand& o) {
    if (o.kind != Operand::Kind::address) fail(o.pos, "expected an address such as [%rd1+8]");
    Address a;
    a.offset = o.offset;
    if (o.text.empty()) {
      a.base.kind = Arg::Kind::imm;
      return a;
    }
    if (const auto it = local_params_.find(o.text); it != local_params_.end()) {
      a.param_slot = it->second;
      a.base.kind = Arg::Kind::imm;
      return a;
    }
    Operand base = o;
    base.kind = Operand::Kind::name;
    base.offset = 0;
    a.base = value(base, {});
    return a;
  }

  std::uint32_t label(const Operand& o) {
    if (o.kind != Operand::Kind::name) fail(o.pos, "expected a label");
    const auto it = labels_.find(o.text);
    if (it == labels_.end()) fail(o.pos, "undefined label " + quote_for_message(o.text));
    return it->second;
  }

  DecodedInstruction decode(const Instruction& in) {
    DecodedInstruction d;
    d.pos = in.pos;
    d.text = in.opcode;
    for (const std::string& m : in.modifiers) d.text += "." + m;
    if (in.guard) {
      Operand guard;
      guard.pos = in.pos;
      guard.text = in.guard->predicate;
      const Arg g = value(guard, {});
      if (g.kind != Arg::Kind::reg) fail(in.pos, "guard " + quote_for_message(in.guard->predicate) + " is not a predicate register");
      d.has_guard = true;
      d.guard_reg = g.reg;
      d.guard_negated = in.guard->negated;
    }
    const OpcodeInfo* info = find_opcode(in.opcode);
    if (info == nullptr) {
      warn(in.pos, "unknown opcode " + quote_for_message(d.text) + " kept as a calc instruction");
      return without_semantics(in, Modelling::unknown_opcode, in.opcode, d);
    }
    if (info->opcode_class == OpcodeClass::unmodelled) {
      return without_semantics(in, Modelling::unmodelled, in.opcode, d);
    }
    if (info->opcode_class == OpcodeClass::plain) return without_semantics(in, Modelling::modelled, "", d);
    read_modifiers(in, *info, d);
    if (d.modelling == Modelling::unmodelled || d.opcode == Opcode::other_calc) {
      return without_semantics(in, d.modelling, d.modelling_name, d);
    }
    if (info->operands >= 0 && static_cast<int>(in.operands.size()) != info->operands) {
      fail(in.pos, "'" + d.text + "' takes " + std::to_string(info->operands) + " operand" +
                       (info->operands == 1 ? "" : "s") + ", not " + std::to_string(in.operands.size()));
    }
    addressed_param_ = -1;
    decode_operands(in, d);
    d.addressed_param = addressed_param_;
    return d;
  }

  // An instruction the emulator computes nothing for: one calc instruction whose first operand's
  // registers get unknown values.
  DecodedInstruction without_semantics(const Instruction& in, Modelling modelling, const std::string& name,
                                       DecodedInstruction& d) {
    d.opcode = Opcode::other_calc;
    d.modelling = modelling;
    d.modelling_name = name;
    if (!in.operands.empty()) generic_destinations(in.operands.front(), d);
    return std::move(d);
  }

  void mark_unmodelled(DecodedInstruction& d, std::string name) {
    d.modelling = Modelling::unmodelled;
    d.modelling_name = std::move(name);
  }

  // For instructions the emulator does not model: whatever registers the first operand names
  // get unknown values.
  void generic_destinations(const Operand& o, DecodedInstruction& d) {
    if (o.kind == Operand::Kind::vector || o.kind == Operand::Kind::pair) {
      for (const Operand& e : o.elements) generic_destinations(e, d);
    } else if (o.kind == Operand::Kind::name && registers_.contains(o.text)) {
      d.dsts.push_back(Arg{Arg::Kind::reg, false, registers_.at(o.text), 0});
    }
  }

  void read_modifiers(const Instruction& in, const OpcodeInfo& info, DecodedInstruction& d) {
    d.opcode = info.opcode;
    std::vector<ScalarType> types;
    std::vector<std::string_view> type_names;
    for (const std::string& m : in.modifiers) {
      if (const auto type = parse_type(m)) {
        types.push_back(*type);
        type_names.push_back(m);
      } else if (const auto space = parse_space(m)) {
        d.space = *space;
      } else if (m == "v2" || m == "v4" || m == "v8") {
        d.vector_width = static_cast<std::uint8_t>(m[1] - '0');
      } else if (const auto compare = parse_compare(m); compare && (d.opcode == Opcode::setp || d.opcode == Opcode::set)) {
        d.compare = *compare;
      } else if (m == "and" || m == "or" || m == "xor") {
        d.bool_op = m == "and" ? BoolOp::and_ : m == "or" ? BoolOp::or_ : BoolOp::xor_;
      } else if (m == "hi") {
        d.mul_mode = MulMode::hi;
      } else if (m == "wide") {
        d.mul_mode = MulMode::wide;
      } else if (m == "to") {
        d.to_space = true;
      } else if (m == "up" || m == "down" || m == "bfly" || m == "idx") {
        d.shfl_mode = m == "up" ? ShflMode::up : m == "down" ? ShflMode::down : m == "bfly" ? ShflMode::bfly : ShflMode::idx;
      } else if (m == "all" || m == "any" || m == "uni" || m == "ballot") {
        if (d.opcode == Opcode::vote) {
          d.vote_mode = m == "all" ? VoteMode::all : m == "any" ? VoteMode::any : m == "uni" ? VoteMode::uni : VoteMode::ballot;
        }
      } else if (m == "ftz") {
        d.flush_subnormals = true;
      } else if (m == "sat") {
        d.saturate = true;
      } else if (const auto rounding = parse_integer_rounding(m)) {
        d.integer_rounding = *rounding;
      } else if (const auto mode = parse_permute_mode(m); mode && d.opcode == Opcode::prmt) {
        d.permute_mode = *mode;
      } else if (d.opcode == Opcode::shf && (m == "l" || m == "r" || m == "clamp")) {
        (m == "clamp" ? d.shift_clamp : d.shift_left) = m != "r";
      } else if (in.opcode == "wmma" && m == "store") {
        d.opcode = Opcode::st;
      }
    }
    const auto named = [&](std::string_view m) {
      return std::find(in.modifiers.begin(), in.modifiers.end(), m) != in.modifiers.end();
    };
    if (in.opcode == "cp" && !named("async")) d.opcode = Opcode::other_calc;
    if (in.opcode == "wmma") {
      if (!named("load") && d.opcode != Opcode::st) d.opcode = Opcode::other_calc;  // wmma.mma is an unmodelled form
      d.unknown_footprint = true;
    }
    if (!types.empty()) d.type = types.front();
    d.src_type = types.size() > 1 ? types[1] : d.type;
    if (d.opcode == Opcode::setp || d.opcode == Opcode::set) d.src_type = types.empty() ? d.type : types.back();
    if (d.opcode == Opcode::atom) d.atomic_returns = true;
    if (d.opcode == Opcode::ld && d.space == StateSpace::generic && in.opcode == "ldu") d.space = StateSpace::global;
    if (std::string form = unmodelled_form(in, info, d, types, type_names); !form.empty()) {
      mark_unmodelled(d, std::move(form));
    }
  }

  // The name under which an instruction of a modelled opcode is not modelled ("add.cc",
  // "div.approx", "cvt.e4m3x2", "setp.f16x2", "add.f32.f16", "add.sat"), or "" when it is.
  static std::string unmodelled_form(const Instruction& in, const OpcodeInfo& info, const DecodedInstruction& d,
                                     const std::vector<ScalarType>& types,
                                     const std::vector<std::string_view>& type_names) {
    const auto form = [&](std::string_view part) { return in.opcode + "." + std::string(part); };
    for (const std::string& m : in.modifiers) {
      if (is_unmodelled_form(in.opcode, m)) return form(m);
    }
    if (info.opcode_class != OpcodeClass::emulated) return "";
    for (const std::string& m : in.modifiers) {
      if (is_unmodelled_modifier(m)) return form(m);
    }
    const bool compare = d.opcode == Opcode::setp || d.opcode == Opcode::set;
    for (std::size_t i = 0; i < types.size(); ++i) {
      // Not computed: fp8, fp6, fp4 and tf32 values, integer pairs, and comparisons of pairs (two results each).
      const bool pair = types[i].elements > 1;
      if (types[i].kind == TypeKind::narrow_float || (pair && (compare || !float_format(types[i])))) {
        return form(type_names[i]);
      }
    }
    const bool mixed = std::any_of(types.begin(), types.end(), [&](ScalarType t) { return t != types.front(); });
    if (mixed && !compare && d.opcode != Opcode::cvt && d.opcode != Opcode::slct) {
      std::string name = in.opcode;
      for (const std::string_view t : type_names) name += "." + std::string(t);
      return name;  // mixed precision: add.f32.f16
    }
    if (d.saturate && d.opcode != Opcode::cvt && !d.type.is_float()) return form("sat");  // saturating integers
    return "";
  }

  void decode_operands(const Instruction& in, DecodedInstruction& d) {
    const std::vector<Operand>& ops = in.operands;
    switch (d.opcode) {
      case Opcode::ld:
      case Opcode::ldu:
        // A third operand is a cache policy (ld.global.L2::cache_hint) or a wmma stride.
        if (ops.size() < 2 || ops.size() > 3) fail(in.pos, "'" + d.text + "' takes 2 or 3 operands, not " + std::to_string(ops.size()));
        if (in.opcode == "wmma") {
          generic_destinations(ops[0], d);
        } else {
          destinations(ops[0], d.dsts);
        }
        d.address = address(ops[1]);
        if (d.address.param_slot >= 0) d.space = StateSpace::param;
        return;
      case Opcode::st:
        if (ops.size() < 2 || ops.size() > 3) fail(in.pos, "'" + d.text + "' takes 2 or 3 operands, not " + std::to_string(ops.size()));
        d.address = address(ops[0]);
        if (d.address.param_slot >= 0) d.space = StateSpace::param;
        if (in.opcode != "wmma") sources(ops[1], d);
        return;
      case Opcode::alloca:
        if (ops.size() < 2 || ops.size() > 3) fail(in.pos, "'" + d.text + "' takes 2 or 3 operands, not " + std::to_string(ops.size()));
        destinations(ops[0], d.dsts);
        d.srcs.push_back(value(ops[1], {TypeKind::u, 64}));
        return;
      case Opcode::atom:
        if (ops.size() < 3) fail(in.pos, "'" + d.text + "' takes a destination, an address and operands");
        destinations(ops[0], d.dsts);
        d.address = address(ops[1]);
        return;
      case Opcode::red:
        if (ops.size() < 2) fail(in.pos, "'" + d.text + "' takes an address and an operand");
        d.address = address(ops[0]);
        return;
      case Opcode::cp_async: decode_copy(in, d); return;
      case Opcode::tex:
      case Opcode::surface:
        d.space = StateSpace::texture;
        if (!ops.empty() && ops[0].kind != Operand::Kind::address) {
          generic_destinations(ops[0], d);
        }
        return;
      case Opcode::bra: d.target = label(ops[0]); return;
      case Opcode::brx:
        d.srcs.push_back(value(ops[0], {TypeKind::u, 32}));
        decode_branch_table(ops[1], d);
        return;
      case Opcode::call: decode_call(in, d); return;
      case Opcode::ret:
      case Opcode::exit:
      case Opcode::trap: return;
      case Opcode::bar: d.block_barrier = waits_for_block(in); return;
      case Opcode::activemask: destinations(ops[0], d.dsts); return;
      case Opcode::setp:
      case Opcode::set:
        if (ops.size() != 3 && ops.size() != 4) fail(in.pos, "'" + d.text + "' takes 3 or 4 operands, not " + std::to_string(ops.size()));
        destinations(ops[0], d.dsts);
        for (std::size_t i = 1; i < ops.size(); ++i) {
          d.srcs.push_back(value(ops[i], i == 3 ? ScalarType{TypeKind::pred, 1} : d.src_type));
        }
        return;
      case Opcode::shfl:
        if (ops.size() != 4 && ops.size() != 5) fail(in.pos, "'" + d.text + "' takes 4 or 5 operands, not " + std::to_string(ops.size()));
        destinations(ops[0], d.dsts);
        for (std::size_t i = 1; i < 4; ++i) d.srcs.push_back(value(ops[i], d.type));
        return;
      case Opcode::vote:
        if (ops.size() != 2 && ops.size() != 3) fail(in.pos, "'" + d.text + "' takes 2 or 3 operands, not " + std::to_string(ops.size()));
        destinations(ops[0], d.dsts);
        d.srcs.push_back(value(ops[1], {TypeKind::pred, 1}));
        return;
      case Opcode::cvt:
      case Opcode::cvta:
        if (ops.size() == 3 && d.opcode == Opcode::cvt && d.type.elements == 2) {  // cvt.rn.f16x2.f32 d, a, b
          destinations(ops[0], d.dsts);
          d.srcs.push_back(value(ops[1], d.src_type));
          d.srcs.push_back(value(ops[2], d.src_type));
          return;
        }
        if (ops.size() != 2) fail(in.pos, "'" + d.text + "' takes 2 operands, not " + std::to_string(ops.size()));
        destinations(ops[0], d.dsts);
        d.srcs.push_back(value(ops[1], d.src_type));
        return;
      default:
        if (is_vector_move(d, ops)) {  // mov.b32 %r1, {%h0, %h1} packs; mov.b32 {%h0, %h1}, %r1 unpacks
          destinations(ops[0], d.dsts);
          const Operand& from = ops[1];
          if (from.kind == Operand::Kind::vector) {
            for (const Operand& e : from.elements) d.srcs.push_back(value(e, d.type));
          } else {
            d.srcs.push_back(value(from, d.type));
          }
          const Operand& vector = from.kind == Operand::Kind::vector ? from : ops[0];
          d.vector_width = static_cast<std::uint8_t>(vector.elements.size());
          return;
        }
        if (ops[0].kind == Operand::Kind::vector || (ops.size() > 1 && ops[1].kind == Operand::Kind::vector)) {
          generic_destinations(ops[0], d);  // other vector operands: values not tracked
          d.opcode = Opcode::other_calc;
          mark_unmodelled(d, in.opcode + " (vector operand)");
          return;
        }
        destinations(ops[0], d.dsts);
        for (std::size_t i = 1; i < ops.size(); ++i) {
          const bool predicate_operand = (d.opcode == Opcode::selp && i == 3);
          d.srcs.push_back(value(ops[i], predicate_operand ? ScalarType{TypeKind::pred, 1} : d.type));
        }
        return;
    }
  }

  // A mov between one register and a vector of 2 or 4 equal parts of it (element 0 the low bits).
  static bool is_vector_move(const DecodedInstruction& d, const std::vector<Operand>& ops) {
    if (d.opcode != Opcode::mov || ops.size() != 2) return false;
    const bool packs = ops[1].kind == Operand::Kind::vector, unpacks = ops[0].kind == Operand::Kind::vector;
    if (packs == unpacks) return false;
    const std::size_t parts = (packs ? ops[1] : ops[0]).elements.size();
    return (parts == 2 || parts == 4) && d.type.bits % parts == 0 && d.type.bits / parts >= 8;
  }

  // bar.sync a, barrier.sync.aligned a, bar.red.popc.u32 d, a, p: every thread of the block waits
  // there. Not bar.warp.sync (one warp's lanes), bar.arrive (does not wait), nor a form with a
  // thread count (b: a subset of the block may meet there).
  static bool waits_for_block(const Instruction& in) {
    bool red = false;
    for (const std::string& m : in.modifiers) {
      if (m == "warp" || m == "arrive") return false;
      red = red || m == "red";
    }
    return in.operands.size() == (red ? 3u : 1u);
  }

  // cp.async [dst], [src], size...: the global side is the access. Its spaces are named in order
  // (destination first): cp.async.ca.shared.global loads, cp.async.bulk.global.shared::cta and
  // cp.reduce.async.bulk.global... store. The group, wait and mbarrier forms are calc.
  void decode_copy(const Instruction& in, DecodedInstruction& d) {
    const std::vector<Operand>& ops = in.operands;
    if (ops.size() < 2 || ops[0].kind != Operand::Kind::address || ops[1].kind != Operand::Kind::address) {
      d.opcode = Opcode::other_calc;  // commit_group, wait_group N, wait_all: N kept, for a copy's wait
      if (ops.size() == 1 && ops[0].kind == Operand::Kind::integer) d.srcs.push_back(value(ops[0], {TypeKind::u, 32}));
      return;
    }
    std::vector<StateSpace> spaces;
    for (const std::string& m : in.modifiers) {
      if (const auto space = parse_space(m)) spaces.push_back(*space);
    }
    const bool to_global = !spaces.empty() && spaces.front() == StateSpace::global;
    const bool from_global = spaces.size() > 1 && spaces[1] == StateSpace::global;
    if (!to_global && !from_global) {
      d.opcode = Opcode::other_calc;  // shared to shared (clusters): not counted as an access
      mark_unmodelled(d, "cp (shared to shared)");
      return;
    }
    d.writes_global = to_global;
    d.space = StateSpace::global;
    const Operand& side = ops[to_global ? 0 : 1];
    if (!side.elements.empty()) {  // [tensorMap, {coordinates}]: a tensor tile, footprint unknown
      d.unknown_footprint = true;
      d.address.base.kind = Arg::Kind::sink;
    } else {
      d.address = address(side);
    }
    if (ops.size() > 2 && ops[2].kind != Operand::Kind::address) d.srcs.push_back(value(ops[2], {TypeKind::u, 32}));
  }

  void sources(const Operand& o, DecodedInstruction& d) {
    if (o.kind == Operand::Kind::vector) {
      for (const Operand& e : o.elements) d.srcs.push_back(value(e, d.type));
    } else {
      d.srcs.push_back(value(o, d.type));
    }
  }

  void decode_branch_table(const Operand& o, DecodedInstruction& d) {
    const auto it = branch_tables_.find(o.text);
    if (it == branch_tables_.end()) fail(o.pos, "undefined branch table " + quote_for_message(o.text));
    for (const std::string& name : it->second) {
      Operand target;
      target.pos = o.pos;
      target.text = name;
      d.branch_table.push_back(label(target));
    }
  }

  std::int32_t param_slot(const Operand& o) {
    const auto it = local_params_.find(o.text);
    if (it == local_params_.end()) fail(o.pos, "undeclared parameter " + quote_for_message(o.text));
    return it->second;
  }

  // call[.uni] [(ret...),] callee [, (arg...)] [, prototype];
  void decode_call(const Instruction& in, DecodedInstruction& d) {
    std::size_t i = 0;
    const std::vector<Operand>& ops = in.operands;
    if (i < ops.size() && ops[i].kind == Operand::Kind::list) {
      for (const Operand& r : ops[i].elements) d.call_returns.push_back(param_slot(r));
      ++i;
    }
    if (i >= ops.size() || ops[i].kind != Operand::Kind::name) fail(in.pos, "call needs a function to call");
    const Operand& callee = ops[i++];
    if (const auto it = function_index_.find(callee.text); it != function_index_.end()) {
      d.target = it->second;
    } else if (registers_.contains(callee.text)) {
      d.opcode = Opcode::other_calc;  // an indirect call: the callee is unknown
      d.modelling = Modelling::external_call;  // no name: indirect
      warn(in.pos, "indirect call through " + callee.text + " is counted as one calc instruction");
    } else {
      fail(callee.pos, "undefined function " + quote_for_message(callee.text));
    }
    if (i < ops.size() && ops[i].kind == Operand::Kind::list) {
      for (const Operand& a : ops[i].elements) d.call_args.push_back(param_slot(a));
      ++i;
    }
    if (d.opcode == Opcode::call) {
      const Function& f = module_.functions[d.target];
      if (!f.has_body) {
        d.opcode = Opcode::other_calc;  // an external function (vprintf, malloc): one calc instruction
        d.modelling = Modelling::external_call;
        d.modelling_name = f.name;
        warn(in.pos, "call to external function " + quote_for_message(f.name) + " is counted as one calc instruction");
      } else if (d.call_args.size() != f.params.size() || d.call_returns.size() != f.returns.size()) {
        fail(in.pos, "call to " + quote_for_message(f.name) + " passes " + std::to_string(d.call_args.size()) +
                         " arguments and " + std::to_string(d.call_returns.size()) + " return values; it takes " +
                         std::to_string(f.params.size()) + " and " + std::to_string(f.returns.size()));
      }
    }
  }

  const Module& module_;
  DecodedModule result_;
  DecodedFunction* out_ = nullptr;
  std::unordered_map<std::string, std::uint32_t> function_index_;
  std::unordered_map<std::string, Symbol> module_symbols_;
  std::unordered_map<std::string, Symbol> local_symbols_;
  std::unordered_map<std::string, std::int32_t> local_params_;
  std::unordered_map<std::string, std::uint32_t> registers_;
  std::unordered_map<std::string, std::uint32_t> labels_;
  std::unordered_map<std::string, std::vector<std::string>> branch_tables_;
  std::int32_t addressed_param_ = -1;  // set by value() when an operand names a parameter's address
  std::uint64_t next_address_[static_cast<std::size_t>(StateSpace::generic) + 1] = {};
};

}  // namespace

std::int64_t declaration_bytes(const Declaration& d) {
  const std::optional<ScalarType> type = parse_type(d.type);
  const std::int64_t element = d.type == "b128" ? 16 : type ? type->bytes() : 4;
  std::int64_t bytes = element * d.vector_width;
  for (const std::int64_t dim : d.array_dims) bytes *= std::max<std::int64_t>(dim, 1);
  return bytes;
}

DecodedModule decode_module(const Module& module) { return ModuleDecoder(module).run(); }

DecodedModule decode_kernel(const Module& module, std::uint32_t entry) { return ModuleDecoder(module).run(entry); }

}  // namespace warpsim::ptx
