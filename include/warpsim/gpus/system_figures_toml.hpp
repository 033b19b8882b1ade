// Reading system figures from TOML: an app's [system] table and a profile's [host] table take
// the same keys (docs/apps.md).
#pragma once

#include <string_view>

#include "warpsim/gpus/system_figures.hpp"
#include "warpsim/gpus/toml_reader.hpp"

namespace warpsim::gpus {

// Reads `key` into `figures` when it is one of the system keys (and returns true); throws
// InputError at the node for a bad value (a bandwidth must be positive, a latency non-negative).
bool read_system_figure(const TomlReader& toml, std::string_view key, const toml::node& value, SystemFigures& figures);

}  // namespace warpsim::gpus
