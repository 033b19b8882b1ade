// Pieces every SVG writer needs: the document header and XML escaping.
#pragma once

#include <string>

namespace warpsim::sim::report {

// `<?xml ...?><svg ...>` for a width x height drawing in sans-serif 12.
std::string svg_header(double width, double height);
std::string escape_xml(const std::string& text);

}  // namespace warpsim::sim::report
