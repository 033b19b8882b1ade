// WARPSIM_VECTOR_LOOPS marks a hot function whose loops run over a warp's 32 lanes or the 15
// pipes: on x86-64 (GCC and Clang) it is compiled twice, for AVX2 and for the baseline, and the
// loader picks the one the CPU runs (function multiversioning). Sanitizer builds, and other
// targets, get one copy. Clang wants the mark on the definition before the function's first call
// in its file.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define WARPSIM_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WARPSIM_SANITIZED 1
#endif

#if defined(__x86_64__) && defined(__GNUC__) && !defined(WARPSIM_SANITIZED)
#define WARPSIM_VECTOR_LOOPS __attribute__((target_clones("avx2", "default")))
#else
#define WARPSIM_VECTOR_LOOPS
#endif
