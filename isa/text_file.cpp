#include "warpsim/isa/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "warpsim/isa/input_error.hpp"

namespace warpsim {

std::string read_text_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw InputError(SourceLocation{path}, "cannot read: no such file");
  if (fs::is_directory(status)) throw InputError(SourceLocation{path}, "cannot read: it is a directory");
  if (fs::is_regular_file(status) && fs::file_size(path, ec) > kMaxInputFileBytes) {
    throw InputError(SourceLocation{path}, "file larger than the 256 MiB input limit");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLocation{path}, std::string("cannot read: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(SourceLocation{path}, "cannot read: I/O error");
  std::string content = std::move(text).str();
  if (content.size() > kMaxInputFileBytes) {
    throw InputError(SourceLocation{path}, "file larger than the 256 MiB input limit");
  }
  return content;
}

}  // namespace warpsim
