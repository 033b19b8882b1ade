#include "warpsim/workload/sass_stream.hpp"

#include <atomic>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <map>

#include <unistd.h>

#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/text_file.hpp"
#include "warpsim/ptx/line_markers.hpp"
#include "warpsim/workload/external_program.hpp"
#include "warpsim/workload/ptxas_cache.hpp"
#include "warpsim/workload/ptxas_registers.hpp"

namespace warpsim::sim::workload {
namespace {

constexpr std::chrono::seconds kToolLimit{120};
constexpr std::size_t kMaxListing = std::size_t{256} << 20;

// "13.0.88" from `--version`'s "Cuda compilation tools, release 13.0, V13.0.88"; "" when it has none.
std::string version_of(const std::string& program) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  const std::lock_guard lock(mutex);
  if (const auto it = known.find(program); it != known.end()) return it->second;
  const ProgramRun run = run_program({program, "--version"}, std::chrono::seconds(20));
  std::string version;
  if (const std::size_t v = run.output.rfind(", V"); run.exit_status == 0 && v != std::string::npos) {
    version = run.output.substr(v + 3, run.output.find_first_of(" \r\n", v + 3) - v - 3);
  }
  return known[program] = version;
}

// A scratch folder of this process for ptxas's input and output.
std::filesystem::path scratch_file(const std::string& name) {
  static std::atomic<unsigned> made{0};
  std::error_code error;
  const std::filesystem::path dir = std::filesystem::temp_directory_path(error) /
                                    ("warpsim-sass-" + std::to_string(::getpid()) + "-" + std::to_string(made.fetch_add(1)));
  std::filesystem::create_directories(dir, error);
  return dir / name;
}

struct Compiled {
  std::string listing;  // nvdisasm's text; empty with a note when something failed
  std::string ptxas_version, nvdisasm_version;
  std::optional<std::int64_t> registers;
  std::string note;
  bool worth_keeping = false;  // the tools ran to their end: the same input gives the same answer
};

Compiled compile(const SassTools& tools, const std::string& marked, const std::string& entry, const std::string& arch) {
  Compiled out;
  out.ptxas_version = version_of(tools.ptxas);
  out.nvdisasm_version = version_of(tools.nvdisasm);
  const std::filesystem::path ptx = scratch_file("kernel.ptx");
  const std::filesystem::path cubin = ptx.parent_path() / "kernel.cubin";
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() {
      std::error_code error;
      std::filesystem::remove_all(dir, error);
    }
  } cleanup{ptx.parent_path()};
  {
    std::ofstream file(ptx, std::ios::binary);
    file << marked;
    if (!file) {
      out.note = "could not write " + ptx.string();
      return out;
    }
  }
  const ProgramRun built = run_program(
      {tools.ptxas, "-arch=" + arch, "-O3", "-lineinfo", "-v", "-e", entry, ptx.string(), "-o", cubin.string()}, kToolLimit);
  if (!built.started) {
    out.note = tools.ptxas + " was not found";
    return out;
  }
  if (built.timed_out || built.exit_status != 0) {
    out.note = tools.ptxas + " -arch=" + arch + " -lineinfo " +
               (built.timed_out ? std::string("took more than 120 s") : "failed: " + first_output_line(built.output));
    out.worth_keeping = !built.timed_out;
    return out;
  }
  out.registers = parse_ptxas_registers(built.output, entry);
  const ProgramRun listed = run_program({tools.nvdisasm, "-c", "-hex", "-g", cubin.string()}, kToolLimit, kMaxListing);
  // Both ran to their end: the same input gives the same answer (a missing nvdisasm installed
  // later is another program identity, another key).
  out.worth_keeping = !listed.timed_out;
  if (!listed.started) {
    out.note = tools.nvdisasm + " was not found (pip install nvidia-cuda-nvdisasm, or --nvdisasm PATH)";
  } else if (listed.timed_out || listed.truncated || listed.exit_status != 0) {
    out.note = tools.nvdisasm + (listed.timed_out ? std::string(" took more than 120 s")
                                 : listed.truncated ? " printed more than 256 MiB"
                                                    : " failed: " + first_output_line(listed.output));
  } else {
    out.listing = listed.output;
  }
  return out;
}

// Four lines (registers or "-", the note, both versions), then the listing.
std::string encode(const Compiled& c) {
  return (c.registers ? std::to_string(*c.registers) : std::string("-")) + '\n' + c.note + '\n' + c.ptxas_version + '\n' +
         c.nvdisasm_version + '\n' + c.listing;
}

std::optional<Compiled> decode(const std::string& text) {
  Compiled c;
  std::string fields[4];
  std::size_t at = 0;
  for (std::string& field : fields) {
    const std::size_t end = text.find('\n', at);
    if (end == std::string::npos) return std::nullopt;
    field = text.substr(at, end - at);
    at = end + 1;
  }
  if (fields[0] != "-") {
    std::int64_t value = 0;
    if (std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), value).ec != std::errc()) return std::nullopt;
    c.registers = value;
  }
  c.note = fields[1];
  c.ptxas_version = fields[2];
  c.nvdisasm_version = fields[3];
  c.listing = text.substr(at);
  c.worth_keeping = true;
  return c;
}

}  // namespace

SassStream sass_stream(const SassTools& tools, const PtxSource& source, const std::string& entry,
                       const std::string& compute_capability) {
  SassStream stream;
  if (tools.ptxas == "none" || tools.nvdisasm == "none") {
    stream.note = std::string(tools.ptxas == "none" ? "--ptxas" : "--nvdisasm") + " none";
    return stream;
  }
  if (source.path.empty()) {
    stream.note = "the PTX came from no file";
    return stream;
  }
  const std::string digits = arch_digits(compute_capability);
  int wanted = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), wanted);
  const int arch = std::max(wanted, kOldestPtxasArch);
  stream.arch = "sm_" + std::to_string(arch);
  stream.compute_capability = arch;
  const std::string marked = ptx::with_line_markers(read_text_file(source.path), *source.module);
  const std::string key = "sass 2\nptx " + content_hash(marked) + "\nentry " + entry + "\narch " + stream.arch + "\nptxas " +
                          program_identity(tools.ptxas) + "\nnvdisasm " + program_identity(tools.nvdisasm);
  std::optional<Compiled> compiled;
  if (tools.use_cache) {
    if (const std::optional<std::string> stored = cache_find("sass", key)) compiled = decode(*stored);
  }
  if (!compiled) {
    compiled = compile(tools, marked, entry, stream.arch);
    if (tools.use_cache && compiled->worth_keeping) cache_store("sass", key, encode(*compiled));
  }
  stream.registers = compiled->registers;
  stream.ptxas_version = compiled->ptxas_version;
  stream.nvdisasm_version = compiled->nvdisasm_version;
  if (compiled->listing.empty()) {
    stream.note = compiled->note.empty() ? "nvdisasm printed nothing" : compiled->note;
    return stream;
  }
  try {
    auto listing = std::make_shared<sass::Listing>(sass::read_listing(compiled->listing, "nvdisasm of " + source.path));
    stream.listing = std::move(listing);
  } catch (const InputError& e) {
    stream.note = "nvdisasm's listing could not be read (" + e.describe() + ")";
    return stream;
  }
  stream.identity = content_hash(compiled->listing) + " " + stream.arch;
  if (arch != wanted) stream.note = stream.arch + " stands in for sm_" + std::to_string(wanted) + " (CUDA 13's oldest)";
  return stream;
}

}  // namespace warpsim::sim::workload
