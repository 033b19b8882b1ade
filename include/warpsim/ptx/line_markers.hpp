// PTX text with a line marker before every instruction, so that ptxas -lineinfo names, for each
// SASS instruction it emits, the PTX line it came from (docs/sass.md, "Mapping SASS to PTX").
#pragma once

#include <string>
#include <string_view>

#include "warpsim/ptx_syntax/ast.hpp"

namespace warpsim::ptx {

// The file name the markers give (`.file 1 "..."`); nvdisasm -g prints it back.
inline constexpr std::string_view kMarkedFileName = "warpsim-lines.ptx";

// `text` (the PTX that `module` was parsed from) with nvcc's own `.file`/`.loc` directives blanked,
// `.file 1 "<kMarkedFileName>"` after the header, and `.loc 1 LINE 0` before every line that
// starts an instruction of a function body, LINE being that line's number in `text`. Several
// instructions on one line share its marker.
std::string with_line_markers(std::string_view text, const Module& module);

}  // namespace warpsim::ptx
