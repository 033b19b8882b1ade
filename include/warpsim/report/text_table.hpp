// A plain text table with aligned columns (numbers right, text left).
#pragma once

#include <string>
#include <vector>

namespace warpsim::sim::report {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> headers);
  void add_row(std::vector<std::string> cells);
  std::string render() const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace warpsim::sim::report
