#include "warpsim/workload/ptxas_registers.hpp"

#include <charconv>
#include <sstream>
#include <vector>

#include "warpsim/isa/text_file.hpp"
#include "warpsim/workload/external_program.hpp"
#include "warpsim/workload/ptxas_cache.hpp"
#include "warpsim/workload/sass_stream.hpp"
#include "warpsim/workload/timing_model.hpp"

namespace warpsim::sim::workload {
namespace {

constexpr std::chrono::seconds kPtxasLimit{60};

}  // namespace

std::optional<std::int64_t> parse_ptxas_registers(const std::string& output, const std::string& entry) {
  std::istringstream lines(output);
  std::string line;
  bool in_entry = false;
  while (std::getline(lines, line)) {
    if (line.find("Compiling entry function '") != std::string::npos || line.find("Function properties for") != std::string::npos) {
      if (line.find("Compiling") != std::string::npos) in_entry = line.find("'" + entry + "'") != std::string::npos;
      continue;
    }
    const std::size_t used = line.find("Used ");
    if (!in_entry || used == std::string::npos || line.find(" registers", used) == std::string::npos) continue;
    std::int64_t registers = 0;
    const char* begin = line.data() + used + 5;
    if (std::from_chars(begin, line.data() + line.size(), registers).ec == std::errc()) return registers;
  }
  return std::nullopt;
}

namespace {

// What decides ptxas's answer: the PTX text (by content, not path), the entry, the capability and
// the ptxas binary (its path, size and time: a new toolkit is another ptxas).
std::string cache_key(const std::string& ptxas, const std::string& ptx_path, const std::string& entry,
                      const std::string& compute_capability) {
  return "ptx " + content_hash(read_text_file(ptx_path)) + "\nentry " + entry + "\ncc " + compute_capability + "\nptxas " +
         program_identity(ptxas);
}

std::string encode(const PtxasRegisters& r) {
  return (r.registers ? std::to_string(*r.registers) : std::string("-")) + '\n' + r.arch + '\n' + r.note + '\n';
}

std::optional<PtxasRegisters> decode(const std::string& text) {
  std::istringstream lines(text);
  std::string registers;
  PtxasRegisters r;
  if (!std::getline(lines, registers) || !std::getline(lines, r.arch) || !std::getline(lines, r.note)) return std::nullopt;
  if (registers != "-") {
    std::int64_t value = 0;
    if (std::from_chars(registers.data(), registers.data() + registers.size(), value).ec != std::errc()) return std::nullopt;
    r.registers = value;
  }
  return r;
}

// One run of ptxas, for the entry only.
PtxasRegisters run_ptxas(const std::string& ptxas, const std::string& ptx_path, const std::string& entry,
                         const std::string& compute_capability, bool& worth_keeping) {
  PtxasRegisters result;
  const std::string digits = arch_digits(compute_capability);
  int wanted = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), wanted);
  // A relative path that starts with '-' would read as an option.
  const std::string file = ptx_path.starts_with('/') ? ptx_path : "./" + ptx_path;
  worth_keeping = false;
  for (const int arch : {wanted, kOldestPtxasArch}) {
    result.arch = "sm_" + std::to_string(arch);
    const ProgramRun run =
        run_program({ptxas, "-arch=" + result.arch, "-v", "-e", entry, file, "-o", "/dev/null"}, kPtxasLimit);
    if (!run.started) {
      result.note = ptxas + " was not found";
      return result;
    }
    if (run.timed_out) {
      result.note = ptxas + " took more than 60 s";
      return result;
    }
    worth_keeping = true;  // ptxas ran to its end: the same input gives the same answer
    if (run.exit_status != 0) {
      if (arch == wanted && wanted < kOldestPtxasArch && run.output.find("gpu-name") != std::string::npos) continue;
      result.note = ptxas + " -arch=" + result.arch + " failed: " + first_output_line(run.output);
      return result;
    }
    result.registers = parse_ptxas_registers(run.output, entry);
    if (!result.registers) result.note = ptxas + " -v listed no registers for " + entry;
    if (arch != wanted) result.note = "this ptxas does not compile for sm_" + std::to_string(wanted) + ": registers of " + result.arch;
    return result;
  }
  return result;
}

}  // namespace

std::string arch_digits(const std::string& compute_capability) {
  std::string digits;
  for (const char c : compute_capability) {
    if (c != '.') digits += c;
  }
  return digits;
}

PtxasRegisters ptxas_registers(const std::string& ptxas, const std::string& ptx_path, const std::string& entry,
                               const std::string& compute_capability, bool use_cache) {
  const std::string key = use_cache ? cache_key(ptxas, ptx_path, entry, compute_capability) : std::string();
  if (use_cache) {
    if (const std::optional<std::string> stored = cache_find("ptxas", key)) {
      if (std::optional<PtxasRegisters> known = decode(*stored)) return *known;
    }
  }
  bool worth_keeping = false;
  PtxasRegisters result = run_ptxas(ptxas, ptx_path, entry, compute_capability, worth_keeping);
  if (use_cache && worth_keeping) cache_store("ptxas", key, encode(result));
  return result;
}

Sourced registers_per_thread(const RegisterChoice& choice, const gpus::Profile& gpu, const std::string* ptx_path,
                             const std::string& entry, std::vector<std::string>* warnings) {
  if (choice.given) return {*choice.given, "--regs"};
  std::string why = "no --regs and no --ptx";
  if (ptx_path != nullptr && choice.ptxas == "none") why = "--ptxas none";
  if (ptx_path != nullptr && choice.ptxas != "none") {
    const PtxasRegisters found = ptxas_registers(choice.ptxas, *ptx_path, entry, gpu.compute_capability, choice.use_cache);
    const bool other_arch = found.arch != "sm_" + arch_digits(gpu.compute_capability);
    if (found.registers && other_arch && !choice.accept_other_arch) {
      why = "ptxas does not compile for " + gpu.id + "'s sm_" + arch_digits(gpu.compute_capability);
    } else if (found.registers) {
      if (warnings && !found.note.empty()) warnings->push_back(found.note);
      return {*found.registers, "ptxas -arch=" + found.arch};
    }
    why = found.note;
  }
  constexpr std::int64_t fallback = kDefaultRegistersPerThread;
  if (warnings) {
    warnings->push_back("registers per thread unknown (" + why + "): assuming " + std::to_string(fallback) +
                        "; give --regs N");
  }
  return {fallback, "default"};
}

}  // namespace warpsim::sim::workload
