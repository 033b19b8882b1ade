// The sanitizer build (CI's second pass, the asan preset: clang -O1 with ASan and UBSan) runs the
// tests about 4.5x slower than the first pass (GCC -O3), measured on the PTX fast-path tests. That
// pass looks for memory errors and undefined behaviour, which a sample of the cases reaches by the
// same code paths; the first pass checks every case. So the longest loops over cases, the exhaustive
// equivalence tests, take every kSanitizerStride-th case there (tests/CMakeLists.txt sets
// WARPSIM_TEST_SANITIZER_STRIDE in that build only).
#pragma once

#include <cstdint>

namespace warpsim::testing_support {

#ifdef WARPSIM_TEST_SANITIZER_STRIDE
inline constexpr std::int64_t kSanitizerStride = WARPSIM_TEST_SANITIZER_STRIDE;
#else
inline constexpr std::int64_t kSanitizerStride = 1;
#endif

// Whether case `index` (0, 1, 2, ...) is checked in this build.
constexpr bool sampled(std::int64_t index) { return index % kSanitizerStride == 0; }

// How many of `n` cases are checked in this build: a count a test expects scales with it.
constexpr std::int64_t sample_count(std::int64_t n) { return n / kSanitizerStride; }

}  // namespace warpsim::testing_support
