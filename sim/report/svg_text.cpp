#include "warpsim/report/svg_text.hpp"

#include "warpsim/report/number_format.hpp"

namespace warpsim::sim::report {

std::string svg_header(double width, double height) {
  const std::string w = fixed(width, 0), h = fixed(height, 0);
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w +
         "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
}

std::string escape_xml(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

}  // namespace warpsim::sim::report
