// warpsim::MpiJob (-DWARPSIM_MPI=ON): a sweep shared between the ranks of an MPI job, rank 0
// writing every rank's rows in order (sim/driver/mpi_sweep.hpp, docs/cluster.md).
#include <exception>
#include <optional>

#include "mpi_sweep.hpp"
#include "sweep_setup.hpp"
#include "warpsim/warpsim.hpp"

namespace warpsim {

struct MpiJob::State {
  sim::driver::MpiSweep mpi;
};

MpiJob::MpiJob() : state_(std::make_unique<State>()) {}
MpiJob::~MpiJob() = default;

int MpiJob::rank() const { return state_->mpi.rank(); }

SweepSummary MpiJob::sweep(const SweepRequest& request, Format format,
                           const std::function<void(const std::string&)>& write) const {
  const sim::driver::MpiSweep& mpi = state_->mpi;
  const bool root = mpi.rank() == 0;
  std::optional<api::SweepSetup> setup;
  std::exception_ptr error;
  try {
    setup.emplace(request, format);
    if (root) write(setup->writer->begin());
  } catch (...) {
    error = std::current_exception();
  }
  mpi.agree(error);  // no rank starts unless every rank read the input
  sim::report::SweepWriter& writer = *setup->writer;
  sim::driver::SweepOptions options;
  options.jobs = request.jobs;
  options.stop = request.control.cancel;
  options.progress = request.control.progress;
  const auto format_row = [&](const sim::driver::SweepRow& row) { return writer.format(row); };
  const auto write_row = [&](const std::string& piece) { write(writer.add_formatted(piece)); };
  const sim::driver::SweepStats stats = mpi.run(setup->points(), format_row, write_row, options);
  if (root && !stats.stopped) write(writer.finish());
  return {stats.points, setup->points().total(), stats.stopped, sim::driver::warning_lines(stats)};
}

}  // namespace warpsim
