// Checks that parsing bad input throws an InputError at the expected file and line, with a
// message that says what is wrong. Shared by the parser tests (.kp, profiles, suites).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::testing_support {

// One malformed input: its text, the line the error must name (0: the whole file), and a part
// of the message.
struct BadInput {
  std::string text;
  int line;
  const char* message_part;
};

template <typename Parse>
void expect_located_error(Parse parse, const BadInput& input, const std::string& file) {
  try {
    parse(input.text, file);
    ADD_FAILURE() << "accepted: " << input.text;
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().file, file);
    EXPECT_EQ(e.location().line, input.line) << e.describe();
    EXPECT_NE(std::string(e.what()).find(input.message_part), std::string::npos) << e.what();
  }
}

}  // namespace warpsim::testing_support
