#include <iostream>
#include <nlohmann/json.hpp>

#include "warpsim/ptx/kernel_resources.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/isa/input_error.hpp"
#include "sim/cli/cli_support.hpp"
#include "sim/cli/commands.hpp"
#include "warpsim/workload/ptxas_registers.hpp"
#include "warpsim/grid/launch.hpp"
#include "warpsim/occupancy/occupancy.hpp"
#include "warpsim/report/number_format.hpp"

namespace warpsim::cli {
namespace {

namespace occ = sim::occupancy;

nlohmann::ordered_json limit_json(const std::optional<std::int64_t>& limit) {
  return limit ? nlohmann::ordered_json(*limit) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json occupancy_json(const gpus::Profile& gpu, const occ::KernelResources& k, const sim::workload::Sourced& registers,
                                      const std::string& smem_source, const occ::Occupancy& o) {
  nlohmann::ordered_json out;
  out["gpu"] = gpu.id;
  out["compute_capability"] = gpu.compute_capability;
  out["threads_per_block"] = k.threads_per_block;
  out["registers_per_thread"] = k.registers_per_thread;
  out["registers_source"] = registers.source;
  out["static_smem_bytes"] = k.static_smem_bytes;
  out["static_smem_source"] = smem_source;
  out["dynamic_smem_bytes"] = k.dynamic_smem_bytes;
  out["active_blocks_per_sm"] = o.active_blocks_per_sm;
  out["limited_by"] = occ::to_string(o.limited_by);
  nlohmann::ordered_json factors = nlohmann::ordered_json::array();
  for (const occ::Limit limit : o.limiting_factors) factors.push_back(occ::to_string(limit));
  out["limiting_factors"] = factors;
  out["by_warps"] = o.by_warps;
  out["by_blocks"] = o.by_blocks;
  out["by_registers"] = limit_json(o.by_registers);
  out["by_shared_memory"] = limit_json(o.by_shared_memory);
  out["warps_per_block"] = o.warps_per_block;
  out["registers_per_block"] = o.registers_per_block;
  out["shared_memory_per_block"] = o.shared_memory_per_block;
  out["shared_memory_per_sm"] = o.shared_memory_per_sm;
  out["active_warps_per_sm"] = o.active_warps_per_sm();
  out["max_warps_per_sm"] = o.max_warps_per_sm;
  out["occupancy"] = sim::report::number_json(o.fraction());
  return out;
}

std::string occupancy_text(const nlohmann::ordered_json& j) {
  auto limit = [](const nlohmann::ordered_json& value) { return value.is_null() ? std::string("no limit") : value.dump(); };
  std::string factors;
  for (const auto& factor : j["limiting_factors"]) factors += (factors.empty() ? "" : ", ") + factor.get<std::string>();
  return j["gpu"].get<std::string>() + " (CC " + j["compute_capability"].get<std::string>() + "): " +
         j["threads_per_block"].dump() + " threads x " + j["registers_per_thread"].dump() + " registers (" +
         j["registers_source"].get<std::string>() + "), shared memory " + j["static_smem_bytes"].dump() + " static (" +
         j["static_smem_source"].get<std::string>() + ") + " + j["dynamic_smem_bytes"].dump() + " dynamic bytes\n" +
         "active_blocks_per_sm = " + j["active_blocks_per_sm"].dump() + ", limited by " + factors + "\n" +
         "  by warps:         " + j["by_warps"].dump() + " (" + j["warps_per_block"].dump() + " warps per block of " +
         j["max_warps_per_sm"].dump() + ")\n" +
         "  by blocks:        " + j["by_blocks"].dump() + "\n" +
         "  by registers:     " + limit(j["by_registers"]) + " (" + j["registers_per_block"].dump() + " registers per block)\n" +
         "  by shared memory: " + limit(j["by_shared_memory"]) + " (" + j["shared_memory_per_block"].dump() +
         " bytes per block of " + j["shared_memory_per_sm"].dump() + " per SM)\n" +
         "active warps per SM = " + j["active_warps_per_sm"].dump() + " of " + j["max_warps_per_sm"].dump() +
         ", occupancy " + sim::report::shortest(j["occupancy"].get<double>()) + "\n";
}

}  // namespace

int run_occupancy(const Args& args) {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help")
      ("gpu", po::value<std::string>()->required(), "GPU id (see `warpsim gpus`) or path to a profile .toml")
      ("block", po::value<std::string>()->required(), "threads per block: T or X,Y,Z")
      ("regs", po::value<std::string>(),
       "registers per thread (default: ptxas -v on --ptx when ptxas runs, else 32 with a warning)")
      ("smem", po::value<std::string>(), "static shared memory per block, bytes (default: the --ptx kernel's .shared, else 0)")
      ("dynamic-smem", po::value<std::string>()->default_value("0"), "dynamic shared memory per block, bytes (the launch's)")
      ("ptx", po::value<std::string>(), "the kernel's PTX: static shared memory from it, registers from ptxas")
      ("kernel", po::value<std::string>(), "with --ptx: the entry, mangled or short name (default: the only one)")
      ("ptxas", po::value<std::string>()->default_value("ptxas"), "ptxas to run (searched on PATH), or `none`")
      ("format", po::value<std::string>()->default_value("text"), "text|json");
  const CommandLine line = parse_command_line(args, options, {});
  if (line.help) {
    return print_help(
        "warpsim occupancy --gpu ID --block T [--regs R] [--smem BYTES] [--dynamic-smem BYTES] [--ptx FILE [--kernel NAME]]",
        "Active blocks per SM, and which of warps, blocks, registers and shared memory limits them; the\n"
        "rules of cuda_occupancy.h with the default carve-out (docs/model.md#occupancy). A kernel that\n"
        "needs more than 48 KiB of shared memory is taken to have opted in to it.",
        options);
  }
  const auto& v = line.values;
  const bool json = output_format(v, {{}, "text", {"text", "json"}}) == "json";
  if (v.count("kernel") && !v.count("ptx")) throw InputError("--kernel needs --ptx");
  const gpus::Profile gpu = gpus::load_profile(v["gpu"].as<std::string>());
  occ::KernelResources kernel;
  kernel.threads_per_block = sim::grid::parse_dimensions(v["block"].as<std::string>(), "--block");
  kernel.dynamic_smem_bytes = parse_count_flag(v["dynamic-smem"].as<std::string>(), "--dynamic-smem");
  std::optional<ptx::Module> module;
  std::string entry;
  std::string smem_source = "none";
  if (v.count("ptx")) {
    module = ptx::load_ptx_file(v["ptx"].as<std::string>());
    entry = module->functions[ptx::select_kernel(*module, v.count("kernel") ? v["kernel"].as<std::string>() : "")].name;
    kernel.static_smem_bytes = ptx::static_shared_bytes(*module, entry);
    smem_source = "ptx";
  }
  if (v.count("smem")) {
    kernel.static_smem_bytes = parse_count_flag(v["smem"].as<std::string>(), "--smem");
    smem_source = "--smem";
  }
  const std::string* ptx_path = module ? &v["ptx"].as<std::string>() : nullptr;
  std::vector<std::string> warnings;
  const std::optional<std::int64_t> regs =
      v.count("regs") ? std::optional(parse_count_flag(v["regs"].as<std::string>(), "--regs")) : std::nullopt;
  const sim::workload::Sourced registers = sim::workload::registers_per_thread({regs, v["ptxas"].as<std::string>(), true, true}, gpu, ptx_path, entry, &warnings);
  print_warnings(warnings);
  kernel.registers_per_thread = registers.value;
  const occ::Occupancy o = occ::active_blocks(gpu, kernel);
  const nlohmann::ordered_json fields = occupancy_json(gpu, kernel, registers, smem_source, o);
  write_output(json ? fields.dump(2) + '\n' : occupancy_text(fields));
  return 0;
}

}  // namespace warpsim::cli
