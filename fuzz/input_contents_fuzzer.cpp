// libFuzzer harness: an --input spec -> ptx::parse_input_contents, then value_at over offsets and
// load types. Contents that parse must hold together (aborts otherwise): zeros read 0, a uniform
// draw stays in [LOW, HIGH] and is the same each time, the identity is not empty. `file:` specs
// are skipped (the harness reads no files).
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/ptx/input_contents.hpp"

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "input_contents_fuzzer: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace warpsim::ptx;
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  if (spec.starts_with("file")) return 0;
  InputContents contents;
  try {
    contents = parse_input_contents(spec, "--input 0");
  } catch (const warpsim::InputError&) {
    return 0;  // rejected: the normal answer to a bad spec
  }
  check(!contents.identity().empty(), "an empty identity");
  const ScalarType types[] = {{TypeKind::u, 8}, {TypeKind::s, 32}, {TypeKind::u, 64}, {TypeKind::f, 32}, {TypeKind::f, 64}, {TypeKind::b, 16}};
  for (std::uint64_t offset : {std::uint64_t{0}, std::uint64_t{4}, std::uint64_t{1} << 35, ~std::uint64_t{0}}) {
    for (const ScalarType& type : types) {
      const auto value = contents.value_at(offset, type);
      check(value == contents.value_at(offset, type), "two reads of one element differ");
      if (contents.kind == InputContents::Kind::zeros) check(value == 0u, "zeros read a non-zero value");
      if (value && type.bits < 64) check(*value >> type.bits == 0, "a value wider than its load");
      if (value && contents.kind == InputContents::Kind::uniform && type.kind == TypeKind::f && type.bits == 64) {
        const double v = std::bit_cast<double>(*value);
        check(v >= contents.low && v <= contents.high, "a uniform draw outside its range");
      }
    }
  }
  return 0;
}
