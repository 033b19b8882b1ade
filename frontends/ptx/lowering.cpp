#include "frontends/ptx/lowering.hpp"

#include <exception>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <unordered_map>

#include "frontends/ptx/decode.hpp"
#include "frontends/ptx/trace_folder.hpp"
#include "isa/input_error.hpp"

namespace warpsim::ptx {
namespace {

// A loop of at most this many items in all (count x body) reads better written out.
constexpr std::int64_t kLargestLoopWrittenOut = 4;

void write_out_small_loops(std::vector<TraceItem>& items) {
  std::vector<TraceItem> out;
  out.reserve(items.size());
  for (TraceItem& item : items) {
    if (item.kind != TraceItem::Kind::loop) {
      out.push_back(std::move(item));
      continue;
    }
    write_out_small_loops(item.body);
    if (item.count * static_cast<std::int64_t>(item.body.size()) <= kLargestLoopWrittenOut) {
      for (std::int64_t i = 0; i < item.count; ++i) out.insert(out.end(), item.body.begin(), item.body.end());
    } else {
      out.push_back(std::move(item));
    }
  }
  items = std::move(out);
}

void build(const std::vector<TraceItem>& items, const LoweringOptions& options, isa::Program& program, std::vector<OpNote>& notes) {
  for (const TraceItem& item : items) {
    switch (item.kind) {
      case TraceItem::Kind::calc:
        program.add(isa::OpKind::calc, calc_period_duration(item.count));
        notes.push_back(OpNote{item.count, 0, item.accesses});
        break;
      case TraceItem::Kind::load:
      case TraceItem::Kind::store: {
        const bool load = item.kind == TraceItem::Kind::load;
        program.add(load ? isa::OpKind::load : isa::OpKind::store, load ? options.load_cycles : options.store_cycles);
        notes.push_back(OpNote{0, item.sectors, {}});
        break;
      }
      case TraceItem::Kind::loop:
        program.begin_repeat(item.count);
        notes.emplace_back();
        build(item.body, options, program, notes);
        program.end_repeat();
        notes.emplace_back();
        break;
    }
  }
}

std::size_t stream_hash(const std::vector<TraceItem>& items) {
  std::size_t h = items.size();
  for (const TraceItem& item : items) h = h * 1099511628211ULL ^ item.hash;
  return h;
}

std::string identifier(const std::string& name) {
  std::string id;
  for (const char c : name) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return id.empty() ? "kernel" : id;
}

void check_launch(const LoweringOptions& o) {
  for (const std::int64_t d : {o.grid.x, o.grid.y, o.grid.z, o.block.x, o.block.y, o.block.z}) {
    if (d < 1) throw InputError("launch dimensions must be positive");
  }
  if (o.block.count() > 1024) throw InputError("--block has " + std::to_string(o.block.count()) + " threads; a block holds at most 1024");
  if (o.grid.x > (std::int64_t{1} << 31) - 1 || o.grid.y > 65535 || o.grid.z > 65535) {
    throw InputError("--grid is larger than CUDA allows (2^31-1 x 65535 x 65535)");
  }
  std::int64_t blocks = 0, warps = 0;
  const bool overflow = __builtin_mul_overflow(o.grid.x, o.grid.y, &blocks) || __builtin_mul_overflow(blocks, o.grid.z, &blocks) ||
                        __builtin_mul_overflow(blocks, (o.block.count() + 31) / 32, &warps);
  if (overflow || warps > kMaxEmulatedWarps) {
    throw InputError("the launch has " + (overflow ? std::string("more than 2^63") : std::to_string(warps)) +
                     " warps; the PTX emulator handles at most 2^22 (" + std::to_string(kMaxEmulatedWarps) +
                     ") warps per launch, a fixed limit (emulating more would take minutes)");
  }
}

// Blocks are emulated in chunks, in parallel; each chunk keeps its distinct streams.
constexpr std::int64_t kBlocksPerChunk = 16;

struct Chunk {
  std::vector<std::vector<TraceItem>> streams;  // distinct, in order of first appearance
  std::vector<std::int64_t> first_warp_of;      // per stream: its first warp, counted from the chunk's start
  std::vector<std::uint32_t> warp_streams;      // per warp of the chunk: index into streams
  std::int64_t instructions = 0;
  UnknownBranchReport unknown;
  GenericAsGlobalReport generic_as_global;
  std::exception_ptr error;  // the chunk stops at its first error; the earliest chunk's is reported
};

void emulate_chunk(WarpEmulator& emulator, const LoweringOptions& options, std::int64_t first_block, std::int64_t end_block,
                   std::int64_t warps_per_block, Chunk& chunk) {
  try {
    TraceFolder folder;
    std::unordered_map<std::size_t, std::vector<std::uint32_t>> by_hash;
    for (std::int64_t b = first_block; b < end_block; ++b) {
      const Dim3 index{b % options.grid.x, (b / options.grid.x) % options.grid.y, b / (options.grid.x * options.grid.y)};
      for (std::int64_t w = 0; w < warps_per_block; ++w) {
        chunk.instructions += emulator.run(index, w, folder);
        std::vector<TraceItem> stream = folder.finish();
        std::vector<std::uint32_t>& candidates = by_hash[stream_hash(stream)];
        auto id = static_cast<std::uint32_t>(chunk.streams.size());
        for (const std::uint32_t c : candidates) {
          if (chunk.streams[c] == stream) id = c;
        }
        if (id == chunk.streams.size()) {
          candidates.push_back(id);
          chunk.streams.push_back(std::move(stream));
          chunk.first_warp_of.push_back(static_cast<std::int64_t>(chunk.warp_streams.size()));
        }
        chunk.warp_streams.push_back(id);
      }
    }
  } catch (...) {
    chunk.error = std::current_exception();
  }
  chunk.unknown = emulator.take_unknown_branches();
  chunk.generic_as_global = emulator.take_generic_as_global();
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
  const DecodedModule decoded = decode_module(module);
  check_launch(options);
  const Function& function = module.functions[entry];
  check_block_directives(function, options.block);
  const std::vector<std::optional<std::uint64_t>> values = bind_parameters(function, options.parameters);

  LoweredKernel result;
  result.ptx_name = function.name;
  result.name = short_kernel_name(function.name);
  result.grid = options.grid;
  result.block = options.block;
  result.warnings = decoded.warnings;
  const std::int64_t warps_per_block = (options.block.count() + 31) / 32;
  const std::int64_t blocks = options.grid.count();
  const std::int64_t chunk_count = (blocks + kBlocksPerChunk - 1) / kBlocksPerChunk;
  std::vector<Chunk> chunks(static_cast<std::size_t>(chunk_count));
  tbb::enumerable_thread_specific<WarpEmulator> emulators(decoded, entry, options.grid, options.block, values, options.emulator);
  const auto emulate = [&] {
    tbb::parallel_for(std::int64_t{0}, chunk_count, [&](std::int64_t c) {
      WarpEmulator& emulator = emulators.local();
      emulator.take_unknown_branches();
      emulator.take_generic_as_global();
      emulate_chunk(emulator, options, c * kBlocksPerChunk, std::min(blocks, (c + 1) * kBlocksPerChunk), warps_per_block,
                    chunks[static_cast<std::size_t>(c)]);
    });
  };
  if (options.threads > 0) {
    tbb::task_arena arena(options.threads);
    arena.execute(emulate);
  } else {
    emulate();
  }
  // Merge in warp order, so the programs' order and ids do not depend on the scheduling.
  std::vector<std::vector<TraceItem>> streams;
  std::unordered_map<std::size_t, std::vector<std::uint32_t>> by_hash;
  result.warp_programs.reserve(static_cast<std::size_t>(blocks * warps_per_block));
  for (Chunk& chunk : chunks) {
    if (chunk.error) std::rethrow_exception(chunk.error);
    result.emulated_instructions += chunk.instructions;
    if (chunk.unknown.count > 0 && result.unknown_branches.count == 0) result.unknown_branches.first = chunk.unknown.first;
    result.unknown_branches.count += chunk.unknown.count;
    merge(result.generic_as_global, chunk.generic_as_global);
    std::vector<std::uint32_t> global_id(chunk.streams.size());
    for (std::size_t local = 0; local < chunk.streams.size(); ++local) {
      std::vector<TraceItem>& stream = chunk.streams[local];
      std::vector<std::uint32_t>& candidates = by_hash[stream_hash(stream)];
      auto id = static_cast<std::uint32_t>(streams.size());
      for (const std::uint32_t c : candidates) {
        if (streams[c] == stream) id = c;
      }
      if (id == streams.size()) {
        candidates.push_back(id);
        streams.push_back(std::move(stream));
        result.programs.emplace_back();
        result.programs.back().first_warp = static_cast<std::int64_t>(result.warp_programs.size()) + chunk.first_warp_of[local];
      }
      global_id[local] = id;
    }
    for (const std::uint32_t local : chunk.warp_streams) {
      ++result.programs[global_id[local]].warps;
      result.warp_programs.push_back(global_id[local]);
    }
  }
  for (std::size_t i = 0; i < streams.size(); ++i) {
    WarpProgram& p = result.programs[i];
    p.program = isa::Program(identifier(result.name), module.file);
    write_out_small_loops(streams[i]);
    build(streams[i], options, p.program, p.notes);
    p.program.finish();
  }
  result.assumptions =
      collect_assumptions(decoded, entry, result.unknown_branches, result.generic_as_global, options.emulator);
  return result;
}

}  // namespace warpsim::ptx
