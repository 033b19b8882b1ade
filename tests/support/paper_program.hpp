// A lowered program as the paper's model reads it: every instruction that is not a global (or
// unannotated) load/store becomes a calc of its duration. Its dynamic loads and stores are the
// global ones; its T_c is the paper's (calc ops of a warp simply add).
#pragma once

#include "warpsim/isa/program.hpp"

namespace warpsim::testing_support {

inline isa::Program paper_program(const isa::Program& program) {
  isa::Program out(program.name(), program.source());
  for (const isa::Op& op : program.ops()) {
    switch (op.kind) {
      case isa::OpKind::repeat: out.begin_repeat(op.count); break;
      case isa::OpKind::end: out.end_repeat(); break;
      default: out.add(op.is_paper_memory() ? op.kind : isa::OpKind::calc, op.duration); break;
    }
  }
  out.finish();
  return out;
}

}  // namespace warpsim::testing_support
