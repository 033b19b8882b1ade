// The on-disk cache of ptxas answers: one small file per (PTX text, entry, architecture, ptxas),
// in the user's cache folder, so that `simulate` of one SGEMM kernel runs ptxas once, not at every
// call. Best effort: a folder that cannot be written only means ptxas runs again.
#pragma once

#include <optional>
#include <string>

namespace warpsim::sim::workload {

// $WARPSIM_CACHE_DIR, else $XDG_CACHE_HOME/warpsim, else $HOME/.cache/warpsim; empty when none is set.
std::string cache_directory();

// The value stored under `key` (any text), if a file holds it; the key is kept in the file and
// compared in full, so two keys with the same hash never share a value.
std::optional<std::string> cache_find(const std::string& kind, const std::string& key);
// Stores `value` under `key`: written to a temporary file and renamed, so a concurrent reader sees
// the old file, the new one, or none; errors are ignored.
void cache_store(const std::string& kind, const std::string& key, const std::string& value);

// A 64-bit FNV-1a hash of `text`, as 16 hex digits (stable across runs and machines).
std::string content_hash(const std::string& text);

}  // namespace warpsim::sim::workload
