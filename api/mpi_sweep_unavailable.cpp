// warpsim::MpiJob in a build without MPI: it cannot be made, and says how to get one.
#include "warpsim/warpsim.hpp"

namespace warpsim {

struct MpiJob::State {};

MpiJob::MpiJob() {
  throw Error("--mpi: warpsim was built without MPI (configure with -DWARPSIM_MPI=ON; docs/cluster.md)");
}
MpiJob::~MpiJob() = default;

int MpiJob::rank() const { return 0; }

SweepSummary MpiJob::sweep(const SweepRequest&, Format, const std::function<void(const std::string&)>&) const {
  return {};  // unreachable: no MpiJob exists
}

}  // namespace warpsim
