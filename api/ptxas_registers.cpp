#include "ptxas_registers.hpp"

#include <charconv>
#include <sstream>
#include <vector>

#include "external_program.hpp"
#include "warpsim/workload/timing_model.hpp"

namespace warpsim::api {
namespace {

constexpr std::chrono::seconds kPtxasLimit{60};
constexpr int kOldestArch = 75;  // the oldest sm_ that ptxas of CUDA 13 compiles for

std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

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

PtxasRegisters ptxas_registers(const std::string& ptxas, const std::string& ptx_path, const std::string& entry,
                               const std::string& compute_capability) {
  PtxasRegisters result;
  std::string digits;
  for (const char c : compute_capability) {
    if (c != '.') digits += c;
  }
  int wanted = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), wanted);
  // A relative path that starts with '-' would read as an option.
  const std::string file = ptx_path.starts_with('/') ? ptx_path : "./" + ptx_path;
  for (const int arch : {wanted, kOldestArch}) {
    result.arch = "sm_" + std::to_string(arch);
    const ProgramRun run = run_program({ptxas, "-arch=" + result.arch, "-v", file, "-o", "/dev/null"}, kPtxasLimit);
    if (!run.started) {
      result.note = ptxas + " was not found";
      return result;
    }
    if (run.timed_out) {
      result.note = ptxas + " took more than 60 s";
      return result;
    }
    if (run.exit_status != 0) {
      if (arch == wanted && wanted < kOldestArch && run.output.find("gpu-name") != std::string::npos) continue;
      result.note = ptxas + " -arch=" + result.arch + " failed: " + first_line(run.output);
      return result;
    }
    result.registers = parse_ptxas_registers(run.output, entry);
    if (!result.registers) result.note = ptxas + " -v listed no registers for " + entry;
    if (arch != wanted) result.note = "this ptxas does not compile for sm_" + std::to_string(wanted) + ": registers of " + result.arch;
    return result;
  }
  return result;
}

Sourced registers_per_thread(const std::optional<std::int64_t>& regs, const std::string& ptxas, const gpus::Profile& gpu,
                             const std::string* ptx_path, const std::string& entry, std::vector<std::string>* warnings) {
  if (regs) return {*regs, "--regs"};
  std::string why = "no --regs and no --ptx";
  if (ptx_path != nullptr && ptxas == "none") why = "--ptxas none";
  if (ptx_path != nullptr && ptxas != "none") {
    const PtxasRegisters found = ptxas_registers(ptxas, *ptx_path, entry, gpu.compute_capability);
    if (found.registers) {
      if (warnings && !found.note.empty()) warnings->push_back(found.note);
      return {*found.registers, "ptxas -arch=" + found.arch};
    }
    why = found.note;
  }
  constexpr std::int64_t fallback = sim::workload::kDefaultRegistersPerThread;
  if (warnings) {
    warnings->push_back("registers per thread unknown (" + why + "): assuming " + std::to_string(fallback) +
                        "; give --regs N");
  }
  return {fallback, "default"};
}

}  // namespace warpsim::api
