// Whether a generated SVG (or any XML) parses, with expat.
#pragma once

#include <expat.h>

#include <string>

namespace warpsim::testing_support {

inline bool well_formed_xml(const std::string& text) {
  XML_Parser parser = XML_ParserCreate(nullptr);
  const bool ok = XML_Parse(parser, text.data(), static_cast<int>(text.size()), 1) == XML_STATUS_OK;
  XML_ParserFree(parser);
  return ok;
}

}  // namespace warpsim::testing_support
