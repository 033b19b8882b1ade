#include "output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "warpsim/warpsim.hpp"

namespace warpsim::cli {

namespace {

// /dev/null, a FIFO, a terminal: renaming a temporary file over one would replace the device.
bool is_special_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  return !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) && !std::filesystem::is_directory(status);
}

}  // namespace

OutputFile::OutputFile(std::string path)
    : path_(std::move(path)), to_stdout_(path_.empty() || path_ == "-"), to_device_(!to_stdout_ && is_special_file(path_)) {
  if (to_stdout_ || to_device_) return;
  temporary_ = path_ + ".partial";
  file_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!file_) throw InputError(SourceLocation{path_}, std::string("cannot write: ") + std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (!committed_ && !to_stdout_ && !to_device_) {
    file_.close();
    std::remove(temporary_.c_str());
  }
}

void OutputFile::write(const std::string& text) {
  if (to_stdout_ || to_device_) {
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
  if (to_device_) {
    std::ofstream device(path_, std::ios::binary);
    device << held_;
    if (!device.flush()) throw InputError(SourceLocation{path_}, "cannot write: I/O error");
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
