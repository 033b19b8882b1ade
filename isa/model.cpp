#include "warpsim/isa/model.hpp"

#include "warpsim/isa/input_error.hpp"

namespace warpsim {

Model parse_model(const std::string& text) {
  if (text == "paper") return Model::paper;
  if (text == "memory") return Model::memory;
  throw InputError("unknown timing model " + quote_for_message(text) + " (expected paper or memory)");
}

const char* to_string(Model model) { return model == Model::paper ? "paper" : "memory"; }

}  // namespace warpsim
