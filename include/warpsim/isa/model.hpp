// Which timing model prices a program (docs/model.md): the one model enum of every layer, from
// the engine's ModelSpec to the facade, the CLI, suites and point lists.
#pragma once

#include <string>

namespace warpsim {

// pipes: the memory-aware model with instruction-level timing (the default: one core package per
// warp scheduler, each instruction priced by its execution pipe, memory and arithmetic
// overlapping; docs/model.md, "Instruction-level timing"); memory: the memory-aware figures
// without instruction-level timing (annotated accesses priced from the profile, barriers held per
// block, occupancy from registers and shared memory); paper: the paper's Algorithms 1-3 exactly
// (every load costs t_m and its d_i).
enum class Model { memory, paper, pipes };
// The model of every default (structs, CLI flags, suites, point lists, apps, calibrate, Python):
// the one place it is chosen.
inline constexpr Model kDefaultModel = Model::pipes;
// Whether a model reads the memory-aware figures, occupancy and annotations (all but the paper's).
inline bool is_memory_aware(Model model) { return model != Model::paper; }

// "memory", "paper" or "pipes"; InputError (without a location) for anything else.
Model parse_model(const std::string& text);
const char* to_string(Model model);

}  // namespace warpsim
