#include "warpsim/isa/model.hpp"

#include "warpsim/isa/input_error.hpp"

namespace warpsim {

Model parse_model(const std::string& text) {
  if (text == "paper") return Model::paper;
  if (text == "memory") return Model::memory;
  if (text == "pipes") return Model::pipes;
  throw InputError("unknown timing model " + quote_for_message(text) + " (expected paper, memory or pipes)");
}

const char* to_string(Model model) {
  switch (model) {
    case Model::paper: return "paper";
    case Model::pipes: return "pipes";
    case Model::memory: break;
  }
  return "memory";
}

}  // namespace warpsim
