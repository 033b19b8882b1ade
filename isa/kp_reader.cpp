#include <algorithm>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "warpsim/isa/cuda_source.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"
#include "warpsim/isa/text_file.hpp"

namespace warpsim::isa {
namespace {

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (const char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

class KpParser {
 public:
  KpParser(std::string_view text, const std::string& source)
      : text_(text), program_(std::filesystem::path(source).stem().string(), source) {}

  Program parse() {
    int line_number = 0;
    std::size_t pos = 0;
    while (pos <= text_.size()) {
      const std::size_t newline = text_.find('\n', pos);
      std::string_view line = text_.substr(pos, newline == std::string_view::npos
                                                    ? std::string_view::npos
                                                    : newline - pos);
      ++line_number;
      if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
      parse_line(split_words(line), line_number);
      if (newline == std::string_view::npos) break;
      pos = newline + 1;
    }
    program_.finish(line_number);
    return std::move(program_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw InputError(SourceLocation{program_.source(), line, 0}, what);
  }

  void expect_operands(const std::vector<std::string_view>& words, std::size_t count, int line,
                       const char* usage) const {
    if (words.size() != count + 1) {
      fail(line, std::string(words.size() <= count ? "missing operand" : "unexpected extra operand") +
                     ": expected '" + usage + "'");
    }
  }

  Millicycles cycles_operand(std::string_view word, int line) const {
    try {
      return parse_cycles(word);
    } catch (const std::invalid_argument& e) {
      fail(line, quote_for_message(word) + ": " + e.what());
    }
  }

  void parse_header(std::string_view keyword, const std::vector<std::string_view>& words, int line) {
    if (seen_instruction_) fail(line, std::string("'") + std::string(keyword) + "' must come before the first instruction");
    if (keyword == "kernel") {
      expect_operands(words, 1, line, "kernel NAME");
      if (seen_kernel_) fail(line, "a second 'kernel' line");
      if (!is_identifier(words[1])) fail(line, quote_for_message(words[1]) + " is not a kernel name (letters, digits, _)");
      program_.set_name(std::string(words[1]));
      seen_kernel_ = true;
    } else {
      expect_operands(words, 1, line, "tm CYCLES");
      if (program_.default_tm()) fail(line, "a second 'tm' line");
      program_.set_default_tm(cycles_operand(words[1], line));
    }
  }

  void parse_line(const std::vector<std::string_view>& words, int line) {
    if (words.empty()) return;
    const std::string_view keyword = words[0];
    if (keyword == "kernel" || keyword == "tm") return parse_header(keyword, words, line);
    seen_instruction_ = true;
    if (keyword == "calc") {
      parse_calc(words, line);
    } else if (keyword == "load" || keyword == "store") {
      // `use=N` closes a load's line: the instructions it lets pass before its value is used.
      std::vector<std::string_view> access = words;
      // `use=N [hoist=H]` close a load's line: the instructions it lets pass before its value is
      // used, and those before it it could issue ahead of.
      std::optional<std::int32_t> use;
      std::int32_t hoist = 0;
      if (keyword == "load" && access.size() > 3 && access.back().substr(0, 6) == "hoist=" &&
          access[access.size() - 2].substr(0, 4) == "use=") {
        hoist = whole_count(access.back().substr(6), access.back(), line, 0);
        access.pop_back();
      }
      if (keyword == "load" && access.size() > 2 && access.back().substr(0, 4) == "use=") {
        use = whole_count(access.back().substr(4), access.back(), line, 0);
        access.pop_back();
      }
      // `async` before them: a cp.async copy, which the warp does not wait for until its use.
      const bool asynchronous = keyword == "load" && access.size() > 2 && access.back() == "async";
      if (asynchronous) access.pop_back();
      // `same=N hot=F` before that: an atomic (lanes on its busiest address; updates to the launch's).
      std::optional<std::pair<std::int32_t, std::int32_t>> atomic;
      if (access.size() > 4 && access.back().substr(0, 4) == "hot=" && access[access.size() - 2].substr(0, 5) == "same=") {
        atomic = {whole_count(access[access.size() - 2].substr(5), access[access.size() - 2], line),
                  thousandths_up_to(access.back().substr(4), access.back(), line, 32)};
        access.resize(access.size() - 2);
      }
      parse_access(keyword == "load" ? OpKind::load : OpKind::store, access, line);
      if (atomic) program_.set_atomic(atomic->first, atomic->second, line);
      if (use) program_.set_use_distance(*use, hoist, line);
      if (asynchronous) program_.set_asynchronous(line);
    } else if (keyword == "bar") {
      if (words.size() > 2) fail(line, "unexpected extra operand: expected 'bar [CYCLES]'");
      program_.add(OpKind::barrier, words.size() == 2 ? positive_cycles(words[1], keyword, line) : 1000, line);
    } else if (keyword == "repeat") {
      // The paper writes `repeat N times`; the trailing word is accepted.
      const bool paper_style = words.size() == 3 && words[2] == "times";
      if (!paper_style) expect_operands(words, 1, line, "repeat COUNT");
      parse_repeat(words[1], line);
    } else if (keyword == "end") {
      if (words.size() == 2 && words[1] == "repeat") return program_.end_repeat(line);
      expect_operands(words, 0, line, "end");
      program_.end_repeat(line);
    } else {
      fail(line, "unknown keyword " + quote_for_message(keyword) +
                     " (expected kernel, tm, calc, load, store, bar, repeat or end)");
    }
  }

  Millicycles positive_cycles(std::string_view word, std::string_view keyword, int line) const {
    const Millicycles duration = cycles_operand(word, line);
    if (duration == 0) fail(line, std::string(keyword) + " duration must be positive");
    return duration;
  }

  // calc CYCLES [issue=N] [PIPE=N ...] [chain PIPE=N ...]: pipes in their order, each at most once.
  void parse_calc(const std::vector<std::string_view>& words, int line) {
    if (words.size() < 2) fail(line, "missing operand: expected 'calc CYCLES [issue=N] [PIPE=N ...] [chain PIPE=N ...]'");
    const Millicycles duration = positive_cycles(words[1], words[0], line);
    CalcMix mix;
    bool issue_given = false, in_chain = false;
    std::size_t next_pipe = 0;  // pipes come in order, so each at most once
    for (std::size_t i = 2; i < words.size(); ++i) {
      const std::string_view word = words[i];
      if (word == "chain" && !in_chain) {
        in_chain = true;
        next_pipe = 0;
        continue;
      }
      const std::size_t eq = word.find('=');
      const std::string_view key = word.substr(0, eq == std::string_view::npos ? word.size() : eq);
      if (eq == std::string_view::npos) {
        fail(line, "unexpected extra operand " + quote_for_message(word) +
                       ": expected 'calc CYCLES [issue=N] [PIPE=N ...] [chain PIPE=N ...]'");
      }
      const std::int64_t value = whole_count(word.substr(eq + 1), word, line, key == "issue" ? 0 : 1);
      if (key == "issue" && !issue_given && !in_chain && next_pipe == 0) {
        mix.issue = value;
        issue_given = true;
        continue;
      }
      const std::optional<Pipe> pipe = pipe_named(key);
      if (!pipe || static_cast<std::size_t>(*pipe) < next_pipe) {
        fail(line, quote_for_message(word) + (pipe ? ": pipes come in the order fp32, fp64, fp16, int, imad, bits, conv, sfu, shfl, "
                                                     "tensor_f16, tensor_tf32, tensor_i8, tensor_fp8, tensor_f64, control, each once"
                                               : ": not a pipe (fp32, fp64, fp16, int, imad, bits, conv, sfu, shfl, tensor_f16, "
                                                 "tensor_tf32, tensor_i8, tensor_fp8, tensor_f64, control)"));
      }
      next_pipe = static_cast<std::size_t>(*pipe) + 1;
      (in_chain ? mix.chain : mix.work)[static_cast<std::size_t>(*pipe)] = value;
    }
    if (!issue_given) mix.issue = mix.implied_issue();
    if (words.size() == 2) return program_.add(OpKind::calc, duration, line);
    program_.add_calc(duration, mix, line);
  }

  // load|store CYCLES [SPACE [sectors=N [lines=N] | ways=N] [reuse=F distance=BYTES]]
  void parse_access(OpKind kind, const std::vector<std::string_view>& words, int line) {
    const std::string usage =
        std::string(to_string(kind)) + " CYCLES [global|local|shared|const|tex [sectors=N [lines=N]|ways=N] [reuse=F distance=BYTES]]";
    if (words.size() < 2 || words.size() > 7) {
      fail(line, std::string(words.size() < 2 ? "missing operand" : "unexpected extra operand") + ": expected '" + usage + "'");
    }
    const Millicycles duration = positive_cycles(words[1], words[0], line);
    if (words.size() == 2) return program_.add(kind, duration, line);
    const std::optional<MemorySpace> space = memory_space_named(words[2]);
    if (!space) fail(line, quote_for_message(words[2]) + " is not a memory space (global, local, shared, const, tex)");
    const std::string_view count_key = counts_ways(*space) ? "ways=" : "sectors=";
    std::int32_t transactions = 0;
    std::int32_t lines = 0;
    std::optional<std::int32_t> reuse_permille;
    std::optional<std::int64_t> distance;
    for (std::size_t i = 3; i < words.size(); ++i) {
      const std::string_view word = words[i];
      const auto value_of = [&](std::string_view key) { return word.substr(0, key.size()) == key ? std::optional(word.substr(key.size())) : std::nullopt; };
      if (const auto count = value_of(count_key); count && transactions == 0 && !reuse_permille && !distance) {
        transactions = whole_count(*count, word, line, 0);
        if (transactions == 0) transactions = kNoLanes;  // an access no lane made
      } else if (const auto n = value_of("lines="); n && transactions > 0 && lines == 0 && !counts_ways(*space) && !reuse_permille && !distance) {
        lines = whole_count(*n, word, line);
      } else if (const auto fraction = value_of("reuse="); fraction && !reuse_permille && !counts_ways(*space)) {
        reuse_permille = thousandths(*fraction, word, line);
      } else if (const auto bytes = value_of("distance="); bytes && !distance && !counts_ways(*space)) {
        distance = byte_count(*bytes, word, line);
      } else {
        fail(line, quote_for_message(word) + ": a " + std::string(words[2]) + " access takes " + std::string(count_key) + "N" +
                       (counts_ways(*space) ? "" : " [lines=N], then reuse=F distance=BYTES") + ", each at most once");
      }
    }
    if (reuse_permille.has_value() != distance.has_value()) fail(line, "reuse= and distance= go together");
    program_.add_access(kind, duration, *space, transactions, line, CacheReuse{reuse_permille.value_or(0), distance.value_or(0)},
                        lines);
  }

  // A fraction in [0, 1] with at most three decimals, in thousandths.
  std::int32_t thousandths(std::string_view text, std::string_view word, int line) const {
    return thousandths_up_to(text, word, line, 1, "reuse must be a fraction in [0, 1] with at most 3 decimals");
  }
  std::int32_t thousandths_up_to(std::string_view text, std::string_view word, int line, std::int32_t most,
                                 const char* what = "hot= must be a number of updates in [0, 32] with at most 3 decimals") const {
    const std::size_t dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    const std::string_view decimals = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
    const auto digits = [](std::string_view d) { return std::all_of(d.begin(), d.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }); };
    const bool ok = !whole.empty() && whole.size() <= 2 && digits(whole) && digits(decimals) && decimals.size() <= 3 &&
                    (dot == std::string_view::npos || !decimals.empty());
    std::int32_t value = 0;
    for (std::size_t i = 0; ok && i < whole.size(); ++i) value = value * 10 + (whole[i] - '0');
    value *= 1000;
    for (std::size_t i = 0; ok && i < decimals.size(); ++i) value += (decimals[i] - '0') * (i == 0 ? 100 : i == 1 ? 10 : 1);
    if (!ok || value > most * 1000) fail(line, quote_for_message(word) + ": " + what);
    return value;
  }

  std::int64_t byte_count(std::string_view digits, std::string_view word, int line) const {
    std::int64_t value = 0;
    bool ok = !digits.empty();
    for (const char c : digits) {
      if (!std::isdigit(static_cast<unsigned char>(c)) || value > kMaxReuseDistance) {
        ok = false;
        break;
      }
      value = value * 10 + (c - '0');
    }
    if (!ok || value > kMaxReuseDistance) fail(line, quote_for_message(word) + ": distance must be a whole number of bytes in [0, 2^50]");
    return value;
  }

  std::int32_t whole_count(std::string_view digits, std::string_view word, int line, std::int64_t least = 1) const {
    std::int64_t value = 0;
    for (const char c : digits) {
      if (!std::isdigit(static_cast<unsigned char>(c)) || value > kMaxTransactions) break;
      value = value * 10 + (c - '0');
    }
    const bool digits_only = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!digits_only || value < least || value > kMaxTransactions) {
      fail(line, quote_for_message(word) + ": the count must be a whole number in [" + std::to_string(least) + ", 2^30]");
    }
    return static_cast<std::int32_t>(value);
  }

  void parse_repeat(std::string_view word, int line) {
    if (is_identifier(word)) return program_.begin_repeat(std::string(word), line);
    std::int64_t count = 0;
    for (const char c : word) {
      if (!std::isdigit(static_cast<unsigned char>(c))) {
        fail(line, quote_for_message(word) +
                       " is neither a non-negative whole count nor a parameter name");
      }
      if (count > kMaxLoopCount) break;
      count = count * 10 + (c - '0');
    }
    program_.begin_repeat(count, line);
  }

  std::string_view text_;
  Program program_;
  bool seen_instruction_ = false;
  bool seen_kernel_ = false;
};

}  // namespace

Program parse_kp(std::string_view text, const std::string& source) {
  return KpParser(text, source).parse();
}

Program load_kp_file(const std::string& path) {
  const std::string text = read_text_file(path);
  reject_cuda_source(path, text);
  return parse_kp(text, path);
}

}  // namespace warpsim::isa
