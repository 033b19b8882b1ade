// An output file written in pieces and presented only when complete: the text goes to
// PATH.partial, renamed to PATH by commit(); destroyed without commit() (an error, Ctrl-C), it
// removes the partial file. With an empty path or "-", pieces go to a string that commit()
// prints on stdout, so stdout too gets all or nothing; so does a PATH that is not a regular file
// (/dev/null, a FIFO), which a rename would replace.
#pragma once

#include <fstream>
#include <string>

namespace warpsim::cli {

class OutputFile {
 public:
  explicit OutputFile(std::string path);  // throws InputError when PATH.partial cannot be created
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const std::string& text);  // throws InputError on an I/O error
  void commit();

 private:
  std::string path_;
  std::string temporary_;
  std::ofstream file_;
  std::string held_;  // stdout's text until commit()
  bool to_stdout_ = false;
  bool to_device_ = false;  // PATH is /dev/null, a FIFO, ...: held like stdout, written at commit()
  bool committed_ = false;
};

}  // namespace warpsim::cli
