// The facade's occupancy result from the occupancy library's answer (`occupancy` and `explain`).
#pragma once

#include <string>

#include "warpsim/occupancy/occupancy.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim::api {

OccupancyResult occupancy_result(const gpus::Profile& gpu, const sim::occupancy::KernelResources& kernel,
                                 const std::string& registers_source, const std::string& smem_source,
                                 const sim::occupancy::Occupancy& occupancy);

}  // namespace warpsim::api
