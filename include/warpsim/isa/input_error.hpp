// The one error type for bad user input (files, flags, launches). Each library throws it, or a
// subclass, with the location of the mistake; only the CLI turns it into an exit status.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace warpsim {

struct SourceLocation {
  std::string file;  // empty when the input did not come from a file (a flag, say)
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown
};

class InputError : public std::runtime_error {
 public:
  InputError(SourceLocation location, const std::string& what)
      : std::runtime_error(what), location_(std::move(location)) {}
  explicit InputError(const std::string& what) : std::runtime_error(what) {}

  const SourceLocation& location() const { return location_; }
  // "FILE:LINE:COL: what", leaving out the parts that are unknown.
  std::string describe() const;

 private:
  SourceLocation location_;
};

// Quotes user text for a message: printable, at most a few dozen characters.
std::string quote_for_message(std::string_view text);

}  // namespace warpsim
