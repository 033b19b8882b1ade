// The visit engine: a short program compiled to its visits. In strict round robin every warp that
// has not finished issues exactly one visit per round (from where it resumes to the end of its
// next run of loads, or to its end), and nothing inside a visit waits. So a visit's effect is
// fixed relative to the clock at its start: the clock moves on by `length`, its loads complete
// `loads_end` later, its last transaction `transactions_end` later. A round is then a few
// additions and maxima per warp, or per round when all warps run the same visits (run_visits),
// and no instruction is decoded twice. Exactly the schedule CorePackage computes (a randomised
// test compares them); it does not fast-forward, so it serves programs whose visits are few or
// whose loops are too short to fast-forward.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "warpsim/isa/program.hpp"
#include "warpsim/core/core_package.hpp"

namespace warpsim::sim::core {

using VisitList = std::vector<Visit>;

// Programs at most this long (dynamic instructions) always run on the visit engine; longer ones
// only when no loop is long enough for steady-state fast-forward (up to kMaxVisitEngineInstructions).
inline constexpr std::int64_t kVisitEngineInstructions = 1024;
inline constexpr std::int64_t kMaxVisitEngineInstructions = std::int64_t{1} << 16;

// Whether the visit engine is the faster choice for this bound program.
bool suits_visit_engine(const isa::Program& program, const isa::DynamicCounts& counts);

// The visits of a bound program, one warp's worth, with transactions taking t_m on the front end.
VisitList compile_visits(const isa::Program& program, Millicycles tm);

// T_c of `warps` warps that all run `visits`, in strict round robin, in O(visits) whatever the
// number of warps. In a round warp w starts at s_w = max(s_{w-1} + L, d_w) (s_{-1} + L being the
// clock c), where L is the visit's length and d_w when the warp's own loads are done; unrolled,
// s_w = w L + max(c, max_{j<=w} (d_j - j L)). The done times are convex in w (at first all 0;
// then each round with loads sets d'_w = s_w + E, a maximum of convex functions, as below), so
// d_j - j L is convex too and its maximum over [0, w] lies at j = 0 or j = w. Hence
// s_w = max(max(c, d_0) + w L, d_w), and a round needs only the first and the last warp's done
// times: it starts the first warp at max(c, d_0), the last at max(that + (W-1) L, d_{W-1}), and
// the clock moves on to the last start + L.
Millicycles run_visits(const VisitList& visits, std::size_t warps);
// The same, warp by warp: O(visits x warps). The reference for run_visits in tests.
Millicycles run_visits_warp_by_warp(const VisitList& visits, std::size_t warps);
// T_c of a core package whose warp w runs `lists[w]`, in strict round robin.
Millicycles run_visits(std::span<const VisitList* const> lists);

}  // namespace warpsim::sim::core
