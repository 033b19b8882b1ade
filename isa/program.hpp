// A kernel program (MODEL.md section 1): calc/load/store instructions with durations, and loop
// segments `repeat COUNT ... end`. Loops are kept as segments in one flat list, never expanded,
// so a loop of 2^20 iterations costs two list entries.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "isa/time.hpp"

namespace warpsim::isa {

enum class OpKind : std::uint8_t { calc, load, store, repeat, end };

inline bool is_instruction(OpKind kind) { return kind <= OpKind::store; }
inline bool is_memory(OpKind kind) { return kind == OpKind::load || kind == OpKind::store; }
const char* to_string(OpKind kind);

struct Op {
  OpKind kind = OpKind::calc;
  Millicycles duration = 0;     // instructions: > 0
  std::int64_t count = 0;       // repeat: iterations, once bound
  std::string count_parameter;  // repeat: parameter name, empty when the count is literal
  std::uint32_t partner = 0;    // repeat <-> its end, as indices into ops()
  int line = 0;                 // source line, 0 when built in code

  bool same_meaning(const Op& other) const;  // equal, ignoring source lines
};

using ParameterValues = std::map<std::string, std::int64_t, std::less<>>;

// Dynamic counts with every loop multiplied out (a bound program).
struct DynamicCounts {
  std::int64_t instructions = 0;
  std::int64_t calcs = 0;
  std::int64_t loads = 0;
  std::int64_t stores = 0;
  Millicycles calc_time = 0;
  Millicycles memory_duration = 0;  // sum of load and store durations
};

inline constexpr int kMaxLoopDepth = 64;
inline constexpr std::int64_t kMaxLoopCount = std::int64_t{1} << 40;

class Program {
 public:
  Program() = default;
  Program(std::string name, std::string source) : name_(std::move(name)), source_(std::move(source)) {}

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  // The file the program came from, for messages; empty when built in code.
  const std::string& source() const { return source_; }
  // A default t_m carried by the program (`tm` line of a .kp file).
  const std::optional<Millicycles>& default_tm() const { return default_tm_; }
  void set_default_tm(std::optional<Millicycles> tm) { default_tm_ = tm; }

  // Building, in program order. Each throws InputError (at `line`) on a malformed program.
  void add(OpKind kind, Millicycles duration, int line = 0);
  void begin_repeat(std::int64_t count, int line = 0);
  void begin_repeat(std::string parameter, int line = 0);
  void end_repeat(int line = 0);
  // Checks that every repeat is closed; call once when building is done.
  void finish(int line = 0);

  const std::vector<Op>& ops() const { return ops_; }
  bool empty() const { return ops_.empty(); }
  int max_loop_depth() const { return max_loop_depth_; }
  // The largest literal or bound repeat count (0 without loops).
  std::int64_t max_loop_count() const;
  // Parameter names used as loop counts, sorted, each once.
  std::vector<std::string> parameters() const;
  bool is_bound() const;

  // A copy with every parameter replaced by its value. Throws InputError for a parameter without
  // a value, a value given for a name the program does not use, and negative or huge counts.
  Program bind(const ParameterValues& values) const;

  // Requires a bound program. Throws InputError when a count overflows 64 bits.
  DynamicCounts dynamic_counts() const;

  bool same_meaning(const Program& other) const;

 private:
  [[noreturn]] void fail(int line, const std::string& what) const;
  void push_repeat(Op op);

  std::string name_;
  std::string source_;
  std::optional<Millicycles> default_tm_;
  std::vector<Op> ops_;
  std::vector<std::uint32_t> open_repeats_;
  int max_loop_depth_ = 0;
};

}  // namespace warpsim::isa
