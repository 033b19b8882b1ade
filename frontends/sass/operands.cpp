// Which operands an instruction writes: the leading ones its opcode's row says (Dests), the
// others it reads, addresses ([R2.64+0x10]) always read. Widths: a register's own `.64`, a
// memory access's data width (LDS.128: 4 registers), and the row's 64-bit pairs (DFMA,
// IMAD.WIDE). MMA fragments are not widened: each register operand counts as one register.
#include <algorithm>
#include <string_view>
#include <vector>

#include "opcode_table.hpp"
#include "operands.hpp"

namespace warpsim::sass::detail {
namespace {

bool is_word_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// The number after `prefix` in a whole token ("R12" with "R": 12), or -1.
int numbered(std::string_view token, std::string_view prefix) {
  if (token.size() <= prefix.size() || token.size() > prefix.size() + 3 || token.substr(0, prefix.size()) != prefix) return -1;
  int n = 0;
  for (const char c : token.substr(prefix.size())) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

// The operands split at commas outside brackets.
std::vector<std::string_view> split(std::string_view text) {
  std::vector<std::string_view> pieces;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      std::string_view piece = text.substr(start, i - start);
      while (!piece.empty() && piece.front() == ' ') piece.remove_prefix(1);
      while (!piece.empty() && piece.back() == ' ') piece.remove_suffix(1);
      pieces.push_back(piece);
      start = i + 1;
    } else if (text[i] == '[' || text[i] == '{') {
      ++depth;
    } else if ((text[i] == ']' || text[i] == '}') && depth > 0) {
      --depth;
    }
  }
  return pieces;
}

bool plain_predicate(std::string_view piece) { return piece == "PT" || (numbered(piece, "P") >= 0 && numbered(piece, "P") <= 6); }
bool plain_register(std::string_view piece) {
  const std::string_view name = piece.substr(0, piece.find('.'));
  return numbered(name, "R") >= 0 || name == "RZ" || numbered(name, "UR") >= 0 || name == "URZ";
}

// How many leading operands are written (`first` of them), and whether a predicate run after
// the destination register holds carry-outs (IADD3 R4, P0, R2...) or VOTE's PT.
std::vector<bool> written(const std::vector<std::string_view>& pieces, Dests dests) {
  std::vector<bool> out(pieces.size(), false);
  std::size_t i = 0;
  if (dests == Dests::predicates) {
    for (; i < pieces.size() && i < 2 && plain_predicate(pieces[i]); ++i) out[i] = true;
  } else if (dests == Dests::first) {
    for (; i + 1 < pieces.size() && plain_predicate(pieces[i]); ++i) out[i] = true;  // SHFL's PT
    if (i < pieces.size() && plain_register(pieces[i])) {
      out[i++] = true;
      std::size_t end = i;
      while (end < pieces.size() && plain_predicate(pieces[end])) ++end;
      if (end == pieces.size() && end > i) --end;  // the last operand is a source (VOTE R0, PT, P0)
      for (; i < end; ++i) out[i] = true;
    }
  }
  return out;
}

void add_unique(std::vector<RegisterRange>& list, RegisterRange range) {
  for (const RegisterRange& r : list) {
    if (r == range) return;
  }
  list.push_back(range);
}
void add_unique(std::vector<int>& list, int reg) {
  for (const int r : list) {
    if (r == reg) return;
  }
  list.push_back(reg);
}

}  // namespace

void read_registers(Instruction& in) {
  const OpcodeRow* row = find_row(in.opcode);
  const Dests dests = row != nullptr ? row->dests : Dests::first;
  const Wide wide = row != nullptr ? row->wide : Wide::none;
  const int data_registers = row != nullptr && row->kind == OpcodeKind::memory ? std::max(1, access_bits(in.opcode) / 32) : 1;
  std::string_view guard = in.predicate;  // "@P0", "@!P1"
  while (!guard.empty() && (guard.front() == '@' || guard.front() == '!')) guard.remove_prefix(1);
  if (const int p = numbered(guard, "P"); p >= 0 && p <= 6) in.predicate_reads |= static_cast<std::uint8_t>(1u << p);
  const std::vector<std::string_view> pieces = split(in.operands);
  const std::vector<bool> writes = written(pieces, dests);
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const std::string_view piece = pieces[k];
    int depth = 0;
    for (std::size_t i = 0; i < piece.size(); ++i) {
      depth += piece[i] == '[' ? 1 : piece[i] == ']' ? -1 : 0;
      const bool starts = is_word_char(piece[i]) && (i == 0 || (!is_word_char(piece[i - 1]) && piece[i - 1] != '.'));
      if (!starts) continue;
      std::size_t end = i;
      while (end < piece.size() && is_word_char(piece[end])) ++end;
      const std::string_view token = piece.substr(i, end - i);
      const bool negated = i > 0 && piece[i - 1] == '!';
      const bool write = writes[k] && depth == 0 && !negated;
      if (const int r = numbered(token, "R"); r >= 0 && r <= 254) {
        int count = 1;
        if (piece.substr(end, 3) == ".64" && (end + 3 == piece.size() || !is_word_char(piece[end + 3]))) {
          count = 2;
        } else if (depth == 0) {
          const bool addend = wide == Wide::dest_and_addend && (write || k + 1 == pieces.size());
          count = wide == Wide::all || addend ? 2 : data_registers;
        }
        add_unique(write ? in.writes : in.reads, RegisterRange{r, std::min(count, 255 - r)});
      } else if (const int u = numbered(token, "UR"); u >= 0 && u <= 62) {
        add_unique(write ? in.uniform_writes : in.uniform_reads, u);
      } else if (const int p = numbered(token, "P"); p >= 0 && p <= 6) {
        (write ? in.predicate_writes : in.predicate_reads) |= static_cast<std::uint8_t>(1u << p);
      }
      i = end - 1;
    }
  }
}

}  // namespace warpsim::sass::detail
