// Parsing PTX text into a Module. Every mistake is an InputError at FILE:LINE:COL.
#pragma once

#include <string>
#include <string_view>

#include "warpsim/ptx_syntax/ast.hpp"

namespace warpsim::ptx {

// Parses a whole module. Throws InputError (file `file`, 1-based line and column) for text that
// is not PTX: an unknown directive, a malformed operand, an unterminated block or comment, a
// truncated instruction, a binary file.
Module parse_ptx(std::string_view text, const std::string& file);

// Reads and parses a .ptx file (read_text_file's limits and errors apply).
Module load_ptx_file(const std::string& path);

}  // namespace warpsim::ptx
