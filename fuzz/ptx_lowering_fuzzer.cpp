// libFuzzer harness: PTX text -> parse_ptx -> lower_kernel on a small launch (3 x 2 blocks of 64
// threads, one worker thread, 20000 steps per warp). Every scalar parameter gets a small value
// (0..64) taken from the input's bytes, so lowering runs instead of stopping at an unbound
// parameter. InputError is the expected answer to bad text; anything else is a finding. The
// fast path (classes, loops in closed form) is checked against --emulate-all: the same outcome,
// programs, warp counts and per-warp map, or the harness traps (a finding).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/ptx/kernel_params.hpp"
#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx_syntax/parser.hpp"
#include "warpsim/isa/input_error.hpp"
#include "warpsim/isa/kp_format.hpp"

namespace {

// The lowering's result as text, or the error's; equal for the two paths or the fuzzer stops.
std::string outcome(const warpsim::ptx::Module& module, warpsim::ptx::LoweringOptions options, bool emulate_all) {
  options.emulate_all = emulate_all;
  try {
    const warpsim::ptx::LoweredKernel k = warpsim::ptx::lower_kernel(module, options);
    std::string text = std::to_string(k.emulated_instructions) + " " + std::to_string(k.unknown_branches.count) + "\n";
    for (const warpsim::ptx::WarpProgram& p : k.programs) {
      text += std::to_string(p.warps) + " " + std::to_string(p.first_warp) + "\n" + warpsim::isa::to_kp(p.program);
    }
    for (const std::uint32_t id : k.warp_programs.expand()) text += std::to_string(id) + ",";
    return text;
  } catch (const warpsim::InputError&) {
    return "error";
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace warpsim::ptx;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const Module module = parse_ptx(text, "fuzz.ptx");
    LoweringOptions options;
    options.grid = Dim3{3, 2, 1};
    options.block = Dim3{64, 1, 1};
    options.threads = 1;
    options.emulator.max_steps_per_warp = 20000;
    // The first entry with a body (select_kernel refuses a file with several unless named).
    const Function* entry = nullptr;
    for (const Function& f : module.functions) {
      if (f.is_entry && f.has_body) {
        entry = &f;
        break;
      }
    }
    if (entry != nullptr) {
      options.kernel = entry->name;
      const std::vector<KernelParameter> params = describe_parameters(*entry);
      for (std::size_t i = 0; i < params.size(); ++i) {
        if (params[i].is_pointer || params[i].is_aggregate) continue;
        // Bound by position; the value comes from the input so the fuzzer can steer it.
        const std::uint8_t byte = size == 0 ? 0 : data[(i * 31 + 7) % size];
        options.parameters.emplace_back(std::to_string(i), std::to_string(byte % 65));
      }
    }
    if (outcome(module, options, false) != outcome(module, options, true)) __builtin_trap();
  } catch (const warpsim::InputError&) {
    // Bad text, an unsupported construct or a runaway warp: the normal answer.
  }
  return 0;
}
