#include "warpsim/workload/cuda_compile.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string_view>

#include <unistd.h>

#include "warpsim/isa/cuda_source.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/workload/external_program.hpp"
#include "warpsim/workload/ptxas_cache.hpp"
#include "warpsim/workload/ptxas_registers.hpp"

namespace warpsim::sim::workload {
namespace {

constexpr std::chrono::minutes kNvccLimit{5};
constexpr const char* kStandIn = "sm_75";  // the oldest architecture nvcc 13 compiles for

// An argument as a shell would take it back: quoted when it holds anything but plain characters.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                            "0123456789-_=+./,:@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& word : argv) line += (line.empty() ? "" : " ") + shell_word(word);
  return line;
}

// Where the compiled PTX files live: the cache folder, else the system's temporary folder.
std::filesystem::path ptx_folder() {
  const std::string dir = cache_directory();
  return std::filesystem::path(dir.empty() ? std::filesystem::temp_directory_path().string() + "/warpsim" : dir) / "nvcc";
}

// A line of nvcc's output that reports an error, as its line number and message: nvcc's own
// `FILE(LINE): [catastrophic ]error: MESSAGE` or the host compiler's `FILE:LINE:COL: [fatal ]error:
// MESSAGE`. (Parsed by hand: std::regex trips GCC 12's -Wmaybe-uninitialized at -O1, the asan preset.)
std::optional<std::pair<int, std::string>> error_report(const std::string& line) {
  const std::size_t at = line.find("error: ");
  if (at == std::string::npos) return std::nullopt;
  std::string head = line.substr(0, at);
  for (const std::string_view kind : {"catastrophic ", "fatal "}) {
    if (head.ends_with(kind)) head.resize(head.size() - kind.size());
  }
  if (!head.ends_with(": ")) return std::nullopt;
  head.resize(head.size() - 2);
  const auto digits = [](std::string_view text) {
    return !text.empty() && text.size() < 9 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  std::string_view number;
  if (head.ends_with(')')) {  // FILE(LINE)
    const std::size_t open = head.rfind('(');
    if (open == std::string::npos) return std::nullopt;
    number = std::string_view(head).substr(open + 1, head.size() - open - 2);
  } else {  // FILE:LINE:COL
    const std::size_t column = head.rfind(':');
    const std::size_t row = column == std::string::npos || column == 0 ? std::string::npos : head.rfind(':', column - 1);
    if (row == std::string::npos || !digits(std::string_view(head).substr(column + 1))) return std::nullopt;
    number = std::string_view(head).substr(row + 1, column - row - 1);
  }
  if (!digits(number)) return std::nullopt;
  return std::pair{std::stoi(std::string(number)), line.substr(at + 7)};
}

// nvcc's first error as "FILE:LINE: message".
[[noreturn]] void throw_nvcc_error(const std::string& cu_path, const std::string& output) {
  std::istringstream lines(output);
  std::string first_line;
  for (std::string line; std::getline(lines, line);) {
    if (const auto report = error_report(line)) throw InputError(SourceLocation{cu_path, report->first, 0}, report->second);
    if (first_line.empty() && !line.empty()) first_line = line;
  }
  throw InputError(SourceLocation{cu_path, 0, 0}, "nvcc failed: " + (first_line.empty() ? "no message" : first_line));
}

// What decides nvcc's output; the source's own text, not its path.
std::string cache_key(const std::string& nvcc, const std::string& version, const std::string& source,
                      const std::string& arch, const std::vector<std::string>& flags) {
  std::string key = "cu " + content_hash(source) + "\narch " + arch + "\nnvcc " + nvcc + "\nversion " + content_hash(version) +
                    "\nflags";
  for (const std::string& flag : flags) key += " " + shell_word(flag);
  return key;
}

std::string encode(const CompiledCuda& c) { return c.ptx_path + '\n' + c.command + '\n' + c.arch + '\n' + c.note + '\n'; }

std::optional<CompiledCuda> decode(const std::string& text) {
  std::istringstream lines(text);
  CompiledCuda c;
  if (!std::getline(lines, c.ptx_path) || !std::getline(lines, c.command) || !std::getline(lines, c.arch) ||
      !std::getline(lines, c.note)) {
    return std::nullopt;
  }
  std::error_code error;
  if (!std::filesystem::is_regular_file(c.ptx_path, error)) return std::nullopt;  // removed since
  c.cached = true;
  return c;
}

}  // namespace

bool is_cuda_source(const std::string& path) { return path.ends_with(".cu"); }

std::string nvcc_program() {
  const char* given = std::getenv("WARPSIM_NVCC");
  return given != nullptr && *given != '\0' ? std::string(given) : std::string("nvcc");
}

std::vector<std::string> split_nvcc_flags(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\'' || c == '"') {
      const std::size_t close = text.find(c, i + 1);
      if (close == std::string::npos) {
        throw InputError("--nvcc-flags " + quote_for_message(text) + ": the quote " + std::string(1, c) + " is not closed");
      }
      for (std::size_t j = i + 1; j < close; ++j) {
        // In double quotes a backslash escapes only these, as in a shell.
        if (c == '"' && text[j] == '\\' && j + 1 < close && std::string("\"\\$`").find(text[j + 1]) != std::string::npos) ++j;
        word += text[j];
      }
      i = close;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

CompiledCuda compile_cuda(const std::string& cu_path, const std::string& compute_capability, const NvccOptions& options) {
  const std::string source = read_text_file(cu_path);
  const std::string nvcc = nvcc_program();
  const ProgramRun version = run_program({nvcc, "--version"}, std::chrono::seconds(60));
  if (!version.started || version.exit_status != 0) reject_cuda_source(cu_path, source);  // no nvcc: run it yourself
  const std::string wanted = "sm_" + arch_digits(compute_capability);
  const std::string file = cu_path.starts_with('-') ? "./" + cu_path : cu_path;  // never read as an option
  const std::filesystem::path folder = ptx_folder();
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  const std::string wanted_key = cache_key(nvcc, version.output, source, wanted, options.flags);
  for (const std::string& arch : {wanted, std::string(kStandIn)}) {
    const std::string key = cache_key(nvcc, version.output, source, arch, options.flags);
    if (options.use_cache) {
      if (const std::optional<std::string> stored = cache_find("nvcc", key)) {
        if (std::optional<CompiledCuda> known = decode(*stored)) return *known;
      }
    }
    CompiledCuda compiled;
    compiled.arch = arch;
    compiled.ptx_path = (folder / (content_hash(key) + ".ptx")).string();
    if (arch != wanted) compiled.note = "nvcc does not compile for " + wanted + ": " + arch + " stands in";
    std::vector<std::string> argv{nvcc, "-ptx", "-lineinfo", "-arch=" + arch};
    argv.insert(argv.end(), options.flags.begin(), options.flags.end());
    argv.insert(argv.end(), {file, "-o", compiled.ptx_path});
    compiled.command = command_line(argv);
    const std::string temporary = compiled.ptx_path + ".tmp" + std::to_string(::getpid());
    argv.back() = temporary;
    const ProgramRun run = run_program(argv, kNvccLimit);
    if (run.timed_out) throw InputError(SourceLocation{cu_path, 0, 0}, "nvcc took more than 5 minutes");
    if (run.exit_status != 0) {
      std::filesystem::remove(temporary, error);
      if (arch == wanted && arch != kStandIn && run.output.find("Unsupported gpu architecture") != std::string::npos) continue;
      throw_nvcc_error(cu_path, run.output);
    }
    std::filesystem::rename(temporary, compiled.ptx_path, error);
    if (error) throw InputError(SourceLocation{cu_path, 0, 0}, "cannot keep nvcc's PTX at " + compiled.ptx_path);
    cache_store("nvcc", key, encode(compiled));
    if (key != wanted_key) cache_store("nvcc", wanted_key, encode(compiled));  // next time no failing first try
    return compiled;
  }
  throw InputError(SourceLocation{cu_path, 0, 0}, "nvcc compiles for no architecture warpsim knows");
}

}  // namespace warpsim::sim::workload
