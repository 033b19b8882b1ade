#include "sim/cli/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::cli {

OutputFile::OutputFile(std::string path) : path_(std::move(path)), to_stdout_(path_.empty() || path_ == "-") {
  if (to_stdout_) return;
  temporary_ = path_ + ".partial";
  file_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!file_) throw InputError(SourceLocation{path_}, std::string("cannot write: ") + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (!committed_ && !to_stdout_) {
    file_.close();
    std::remove(temporary_.c_str());
  }
}

void OutputFile::write(const std::string& text) {
  if (to_stdout_) {
    held_ += text;
    return;
  }
  file_ << text;
  if (!file_) throw InputError(SourceLocation{path_}, "cannot write: I/O error");
}

void OutputFile::commit() {
  if (to_stdout_) {
    std::cout << held_ << std::flush;
    committed_ = true;
    return;
  }
  file_.close();
  if (!file_) throw InputError(SourceLocation{path_}, "cannot write: I/O error");
  std::error_code ec;
  std::filesystem::rename(temporary_, path_, ec);
  if (ec) throw InputError(SourceLocation{path_}, "cannot write: " + ec.message());
  committed_ = true;
}

}  // namespace warpsim::cli
