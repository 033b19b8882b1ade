// The repository's folder, where tests read workloads, profiles and suites (WARPSIM_SOURCE_DIR,
// set by tests/CMakeLists.txt for every test binary).
#pragma once

#include <string>

namespace warpsim::testing_support {

inline const std::string kSourceDir = WARPSIM_SOURCE_DIR;

}  // namespace warpsim::testing_support
