#include "warpsim/ptx/lowering.hpp"
#include "warpsim/ptx/kernel_resources.hpp"

#include <tbb/task_arena.h>

#include <algorithm>

#include "warpsim/ptx/decode.hpp"
#include "warpsim/ptx/lowering_streams.hpp"
#include "warpsim/ptx/reuse_sampler.hpp"
#include "warpsim/ptx/shared_load_merging.hpp"
#include "warpsim/isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

std::string identifier(const std::string& name) {
  std::string id;
  for (const char c : name) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return id.empty() ? "kernel" : id;
}

// Returns the launch's warps.
std::int64_t check_launch(const LoweringOptions& o) {
  for (const std::int64_t d : {o.grid.x, o.grid.y, o.grid.z, o.block.x, o.block.y, o.block.z}) {
    if (d < 1) throw InputError("launch dimensions must be positive");
  }
  if (o.block.count() > 1024) throw InputError("--block has " + std::to_string(o.block.count()) + " threads; a block holds at most 1024");
  if (o.grid.x > (std::int64_t{1} << 31) - 1 || o.grid.y > 65535 || o.grid.z > 65535) {
    throw InputError("--grid is larger than CUDA allows (2^31-1 x 65535 x 65535)");
  }
  std::int64_t blocks = 0, warps = 0;
  const bool overflow = __builtin_mul_overflow(o.grid.x, o.grid.y, &blocks) || __builtin_mul_overflow(blocks, o.grid.z, &blocks) ||
                        __builtin_mul_overflow(blocks, (o.block.count() + 31) / 32, &warps) || warps > kMaxLaunchWarps;
  if (overflow) throw InputError("the launch has more than 2^62 warps, more than warpsim counts");
  if (o.emulate_all && warps > kMaxEmulatedWarps) {
    throw InputError("the launch has " + std::to_string(warps) + " warps; --emulate-all handles at most 2^22 (" +
                     std::to_string(kMaxEmulatedWarps) + ") warps per launch (emulating each would take minutes)");
  }
  return warps;
}

// The kernel's own limits on its block: CUDA refuses launches beyond .maxntid or other than .reqntid.
void check_block_directives(const Function& function, Dim3 block) {
  for (const auto& [name, dims] : function.tuning) {
    if (name != "maxntid" && name != "reqntid") continue;
    std::int64_t product = 1;
    std::string shape;
    for (const std::int64_t d : dims) {
      product *= d;
      shape += (shape.empty() ? "" : ",") + std::to_string(d);
    }
    const std::int64_t given[3] = {block.x, block.y, block.z};
    bool same = true;
    for (std::size_t i = 0; i < 3; ++i) same = same && given[i] == (i < dims.size() ? dims[i] : 1);
    if ((name == "maxntid" && block.count() > product) || (name == "reqntid" && !same)) {
      throw InputError(SourceLocation{"", 0, 0}, "kernel " + short_kernel_name(function.name) + " declares ." + name + " " + shape +
                                                     "; --block " + std::to_string(block.x) + "," + std::to_string(block.y) + "," +
                                                     std::to_string(block.z) + " does not fit it");
    }
  }
}

}  // namespace

std::uint32_t select_kernel(const Module& module, const std::string& name) {
  std::vector<std::uint32_t> entries;
  std::string listing;
  for (std::uint32_t i = 0; i < module.functions.size(); ++i) {
    const Function& f = module.functions[i];
    if (!f.is_entry || !f.has_body) continue;
    if (!name.empty() && (f.name == name || short_kernel_name(f.name) == name)) return i;
    entries.push_back(i);
    listing += (listing.empty() ? "" : ", ") + short_kernel_name(f.name);
  }
  if (entries.empty()) throw InputError(SourceLocation{module.file, 1, 1}, "no kernel (.entry) in this file");
  if (name.empty() && entries.size() == 1) return entries.front();
  throw InputError(SourceLocation{module.file, 0, 0}, (name.empty() ? std::string("the file has several kernels")
                                                                    : "no kernel named " + quote_for_message(name)) +
                                                          ": choose one with --kernel (" + listing + ")");
}

LoweredKernel lower_kernel(const Module& module, const LoweringOptions& options) {
  // Mistakes in the file first, then in the flags.
  const std::uint32_t entry = select_kernel(module, options.kernel);
  DecodedModule decoded = decode_kernel(module, entry);
  std::optional<SassCoverage> sass;
  if (options.sass) sass = apply_sass_costs(decoded, *options.sass, options.sass_compute_capability);
  if (options.merge_shared_loads) merge_shared_loads(decoded);  // what ptxas does before the GPU runs it
  const std::int64_t warps = check_launch(options);
  const Function& function = module.functions[entry];
  check_block_directives(function, options.block);
  const BoundParameters parameters = bind_parameters(module, decoded, entry, options.parameters);
  const std::vector<std::optional<std::uint64_t>>& values = parameters.values;
  const std::vector<std::optional<InputContents>> inputs = bind_inputs(parameters, short_kernel_name(function.name), options.inputs);
  // Contents that differ by element give each block its own values: classes of blocks would
  // share one block's, so every warp is emulated (the result is what --emulate-all gives).
  const bool per_element = std::any_of(inputs.begin(), inputs.end(), [](const auto& c) { return c && c->varies_by_address(); });
  if (per_element && warps > kMaxEmulatedWarps) {
    throw InputError("--input with contents that differ by element emulates every warp; this launch has more than 2^22 (" +
                     std::to_string(kMaxEmulatedWarps) + ") warps (state zeros or a constant instead, or a smaller launch)");
  }

  LoweredKernel result;
  result.ptx_name = function.name;
  result.name = short_kernel_name(function.name);
  result.grid = options.grid;
  result.block = options.block;
  result.parameters = parameters;
  result.static_shared_bytes = static_shared_bytes(module, function.name);
  result.warnings = decoded.warnings;
  result.sass = sass;
  result.run_sample_budget = options.exact ? 0 : options.sample_budget;
  result.run_sample_seed = options.sample_seed;
  StreamTable table;
  // Sampled first, so that every warp's accesses carry their instruction's reuse.
  EmulatorOptions sampler = options.emulator;
  sampler.cancel = options.cancel;
  if (!options.inputs.empty()) sampler.inputs = &inputs;
  const ReuseTable reuse =
      options.sample_reuse ? sample_reuse(decoded, entry, options.grid, options.block, values, sampler) : ReuseTable{};
  LoweringOptions with_reuse = options;
  with_reuse.emulator.reuse = &reuse;
  if (!options.inputs.empty()) with_reuse.emulator.inputs = &inputs;
  const auto lower = [&] {
    if (options.emulate_all || per_element) {
      lower_every_warp(decoded, entry, values, with_reuse, table, result);
    } else if (std::int64_t projected = 0; !lower_by_class(decoded, entry, values, with_reuse, table, result, projected)) {
      table = StreamTable{};  // the classes emulated before the switch are not used
      lower_sampled(decoded, entry, values, with_reuse, projected, table, result);
    }
  };
  if (options.threads > 0) {
    tbb::task_arena arena(options.threads);
    arena.execute(lower);
  } else {
    lower();
  }
  table.rethrow_error();
  const std::vector<std::uint32_t> new_id = table.finish(with_reuse, identifier(result.name), module.file, result);
  result.warp_programs.renumber(new_id);
  if (result.sampling) {
    for (std::vector<std::uint32_t>& block : result.sampling->programs) {
      for (std::uint32_t& id : block) id = new_id[id];
    }
  }
  result.assumptions =
      collect_assumptions(decoded, entry, result.unknown_branches, result.generic_as_global, with_reuse.emulator);
  return result;
}

}  // namespace warpsim::ptx
