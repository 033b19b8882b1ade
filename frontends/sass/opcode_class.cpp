// pipe_of: an instruction's row of the opcode table (opcode_table.cpp) on one compute
// capability, with what its modifiers and operands add: tensor work from the MMA shape, the
// access width of memory, and ptxas's constants written as HFMA2.MMA.
#include <string>

#include "opcode_table.hpp"
#include "warpsim/sass/opcode_class.hpp"

namespace warpsim::sass {
namespace {

using detail::OpcodeRow;

// The modifiers of an opcode, one at a time: "LDG.E.128" gives "E", then "128".
template <class F>
void each_modifier(std::string_view opcode, F&& f) {
  for (std::size_t at = opcode.find('.'); at != std::string_view::npos;) {
    const std::size_t next = opcode.find('.', at + 1);
    f(opcode.substr(at + 1, next == std::string_view::npos ? std::string_view::npos : next - at - 1));
    at = next;
  }
}

bool has_modifier(std::string_view opcode, std::string_view word) {
  bool found = false;
  each_modifier(opcode, [&](std::string_view m) { found = found || m == word; });
  return found;
}

std::int64_t digits(std::string_view text) {
  std::int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9' || value > 100000) return 0;
    value = value * 10 + (c - '0');
  }
  return value;
}

// Dense multiply-adds per warp of an MMA from its shape modifier: m16n8kK ("16816", "1688",
// "16832") or m8n8kK ("884", "8816") up to sm_89, MxNxK ("8x8x4") from sm_90. Warpgroup MMA
// (HGMMA.64x128x16) is shared by the 4 warps of a warpgroup.
std::int64_t mma_fmas(std::string_view opcode) {
  std::string_view shape;
  each_modifier(opcode, [&](std::string_view m) {
    if (shape.empty() && !m.empty() && m.front() >= '0' && m.front() <= '9') shape = m;
  });
  if (const std::size_t x = shape.find('x'); x != std::string_view::npos) {
    const std::size_t y = shape.find('x', x + 1);
    if (y == std::string_view::npos) return 0;
    const std::int64_t fmas = digits(shape.substr(0, x)) * digits(shape.substr(x + 1, y - x - 1)) * digits(shape.substr(y + 1));
    const std::string_view base = opcode.substr(0, opcode.find('.'));
    const bool warpgroup = base.size() >= 4 && base.substr(base.size() - 4) == "GMMA";
    return warpgroup ? fmas / 4 : fmas;
  }
  if (shape.size() >= 3 && shape.substr(0, 3) == "168") return 16 * 8 * digits(shape.substr(3));
  if (shape.size() >= 2 && shape.substr(0, 2) == "88") return 8 * 8 * digits(shape.substr(2));
  return 0;
}

// The input type of an MMA decides its tensor pipe (the guide's table lists them apart).
isa::Pipe mma_pipe(std::string_view opcode, isa::Pipe row_pipe) {
  if (row_pipe != isa::Pipe::tensor_f16) return row_pipe;
  if (has_modifier(opcode, "TF32")) return isa::Pipe::tensor_tf32;
  if (has_modifier(opcode, "E4M3") || has_modifier(opcode, "E5M2")) return isa::Pipe::tensor_fp8;
  return row_pipe;
}

// The bit of kComputeCapabilities for `cc`: the nearest lower one listed, -1 below sm_75.
int cc_bit(int cc) {
  int bit = -1;
  for (int i = 0; i < static_cast<int>(std::size(detail::kComputeCapabilities)); ++i) {
    if (detail::kComputeCapabilities[i] <= cc) bit = i;
  }
  return bit;
}

}  // namespace

namespace detail {

// Bits per thread of a memory access from its modifiers: .U8/.S8, .U16/.S16, .64, .128 (and
// .F64, .U64 of atomics); LDSM/STSM move 1, 2 or 4 registers (.M88.4). 32 otherwise.
int access_bits(std::string_view opcode) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  int bits = 32;
  const bool matrix = base == "LDSM" || base == "STSM";
  each_modifier(opcode, [&](std::string_view m) {
    if (m == "U8" || m == "S8" || m == "8") bits = 8;
    if (m == "U16" || m == "S16" || m == "16") bits = matrix ? bits : 16;
    if (m == "64" || m == "F64" || m == "U64" || m == "S64") bits = 64;
    if (m == "128") bits = 128;
    if (matrix && (m == "2" || m == "4")) bits = 32 * (m[0] - '0');
  });
  return bits;
}

}  // namespace detail

OpcodeClass pipe_of(const Instruction& in, int compute_capability) {
  const OpcodeRow* row = detail::find_row(in.opcode);
  const int bit = cc_bit(compute_capability);
  if (row == nullptr || bit < 0 || ((row->ccs >> bit) & 1) == 0) return {};
  OpcodeClass c;
  c.kind = row->kind;
  c.move = row->move;
  c.variable_latency = row->variable_latency;
  c.integer_alias = row->integer_alias;
  if (c.kind == OpcodeKind::arithmetic) {
    c.pipe = mma_pipe(in.opcode, row->pipe);
    c.units = 1;
    if (isa::is_tensor(row->pipe)) c.units = mma_fmas(in.opcode) / isa::kTensorUnitFmas;
    // HFMA2.MMA R, -RZ, RZ, a, b writes the constant pair a, b: ptxas's move of a constant.
    c.move = c.move || (in.base() == "HFMA2" && in.operands.find("-RZ, RZ") != std::string::npos);
  }
  if (c.kind == OpcodeKind::memory) {
    c.access_bits = detail::access_bits(in.opcode);
    c.store = row->dests == detail::Dests::none;
  }
  return c;
}

const char* to_string(OpcodeKind kind) {
  switch (kind) {
    case OpcodeKind::arithmetic: return "arithmetic";
    case OpcodeKind::memory: return "memory";
    case OpcodeKind::barrier: return "barrier";
    case OpcodeKind::control: return "control";
    case OpcodeKind::uniform: return "uniform";
    case OpcodeKind::special_register: return "special_register";
    case OpcodeKind::unknown: break;
  }
  return "unknown";
}

}  // namespace warpsim::sass
