// Execution pipes (docs/model.md, "Instruction-level timing"): which functional unit of an SM
// sub-partition runs an instruction. The PTX lowering sorts every instruction into one (or, for
// an instruction ptxas expands, several); `calc` ops of a program carry the count per pipe and
// the pipes along their longest dependency chain; the pipes model prices them per architecture
// (gpus/pipes/*.toml).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace warpsim::isa {

// One enumerator per class of the CUDA C++ Programming Guide's table "Throughput of Native
// Arithmetic Instructions" that a PTX instruction can land on, plus the tensor cores per input
// type and branches. The order is the order of the .kp vocabulary and of every report.
enum class Pipe : std::uint8_t {
  fp32,         // FADD/FMUL/FFMA and float compare/min/max (32-bit float add, multiply, multiply-add)
  fp64,         // DADD/DMUL/DFMA (64-bit float add, multiply, multiply-add)
  fp16,         // HADD2/HMUL2/HFMA2, f16 and bf16, scalar or packed pairs: one warp-instruction each
  int32,        // integer add, subtract, compare, min/max, logic, shift, select, move
  imad,         // integer multiply and multiply-add (IMAD; 64-bit as the sequences ptxas emits)
  bits,         // population count, count leading zeros, bit reverse, find first set (FLO/POPC/BREV)
  conv,         // conversions between types (F2F, F2I, I2F) the guide lists apart
  sfu,          // MUFU: rcp, rsqrt, sqrt.approx, sin, cos, ex2, lg2, tanh (and inside div/sqrt)
  shfl,         // warp shuffle, vote, match, redux
  tensor_f16,   // mma/wmma/wgmma with f16 or bf16 inputs: counts 256 dense FMAs per unit
  tensor_tf32,  // tf32 inputs, same unit
  tensor_i8,    // s8/u8 (and s4/u4, b1) inputs, same unit
  tensor_fp8,   // e4m3/e5m2 inputs, same unit
  tensor_f64,   // f64 inputs, same unit
  control,      // branches, calls, returns, exits: issue only
};
inline constexpr std::size_t kPipeCount = 15;
// Work units of the tensor pipes, in dense multiply-adds per warp.
inline constexpr std::int64_t kTensorUnitFmas = 256;

inline bool is_tensor(Pipe pipe) { return pipe >= Pipe::tensor_f16 && pipe <= Pipe::tensor_f64; }

// "fp32", "fp64", "fp16", "int", "imad", "bits", "conv", "sfu", "shfl", "tensor_f16", ...,
// "control": the words of the .kp vocabulary and of the architecture tables.
const char* to_string(Pipe pipe);
std::optional<Pipe> pipe_named(std::string_view word);
inline Pipe pipe_at(std::size_t index) { return static_cast<Pipe>(index); }

// Per pipe, a count: warp-instructions (tensor pipes: work units of kTensorUnitFmas).
using PipeCounts = std::array<std::int64_t, kPipeCount>;

// What a calc op of n warp-instructions holds for the pipes model: how much each pipe works,
// and the longest chain of dependent instructions in it, as the number of instructions of each
// pipe along that chain (the model prices it with the architecture's latencies). A calc op
// without a mix is timed by its duration alone, as before.
struct CalcMix {
  std::int64_t issue = 0;  // warp-instructions issued (SASS); 0 with an empty work: no mix
  PipeCounts work{};       // per pipe: warp-instructions, or tensor units
  PipeCounts chain{};      // per pipe: instructions on the longest dependent chain
  bool operator==(const CalcMix&) const = default;
  bool empty() const;
  // What `issue` defaults to in the .kp vocabulary: the work of every pipe but the tensor ones.
  std::int64_t implied_issue() const;
};
// The largest count a mix may hold (per pipe, and issue).
inline constexpr std::int64_t kMaxMixCount = std::int64_t{1} << 30;

}  // namespace warpsim::isa
