// What an input buffer of a kernel holds, as the user states it (`--input PARAM=SPEC`;
// docs/ptx.md, "Input contents"): the emulator then knows what loads from that buffer return,
// so data-dependent addresses (a histogram's bins) and branches are emulated as the data makes
// them. Without it loaded values stay unknown (the memory_values assumption).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpsim/ptx/kernel_ir.hpp"

namespace warpsim::ptx {

struct InputContents {
  enum class Kind : std::uint8_t { zeros, constant, uniform, file };
  Kind kind = Kind::zeros;
  double value = 0;            // constant: the value every element holds
  double low = 0, high = 0;    // uniform: each element drawn from [low, high] (whole numbers for integer loads)
  std::shared_ptr<const std::vector<std::uint8_t>> bytes;  // file: the buffer's bytes, as the GPU reads them
  std::string text;            // the spec as given, for messages

  // Uniform and file contents differ from element to element; zeros and constants do not.
  bool varies_by_address() const { return kind == Kind::uniform || kind == Kind::file; }
  // What identifies the contents for a cache key (a file by its bytes' hash and size).
  std::string identity() const;
  // The value a load of `type` reads at byte `offset` of the buffer, as raw bits (zero-extended);
  // nullopt past a file's end, or for a type the contents cannot give (a constant that is not a
  // whole number read as an integer, narrow floats but for zeros).
  std::optional<std::uint64_t> value_at(std::uint64_t offset, ScalarType type) const;
};

// SPEC: `zeros`, `const:V`, `uniform:LO:HI` (LO <= HI) or `file:PATH` (raw bytes, at most 2^32).
// Throws InputError beginning with `what` ("--input 0") on a malformed spec or unreadable file.
InputContents parse_input_contents(std::string_view spec, const std::string& what);

// Stated contents per parameter, by the name or position a user gives (as --param takes them).
using InputEntries = std::vector<std::pair<std::string, InputContents>>;

}  // namespace warpsim::ptx
