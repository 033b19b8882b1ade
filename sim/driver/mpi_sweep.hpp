// A sweep across the processes of an MPI job (`warpsim sweep --mpi`, docs/cluster.md): the
// points are cut into chunks, rank r predicts chunks r, r + K, r + 2K, ... of K ranks with its
// own threads (run_sweep), and rank 0 writes every rank's rows in order. Built only with
// -DWARPSIM_MPI=ON (Boost.MPI over Open MPI); this header itself names no MPI type.
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "warpsim/driver/sweep.hpp"

namespace warpsim::sim::driver {

// The MPI environment of this process, from construction (MPI_Init_thread) to destruction
// (MPI_Finalize).
class MpiSweep {
 public:
  MpiSweep();
  ~MpiSweep();
  MpiSweep(const MpiSweep&) = delete;
  MpiSweep& operator=(const MpiSweep&) = delete;

  int rank() const;
  int size() const;

  // Collective, after each rank has read its input: when any rank failed (`error` set), throws
  // on every rank. Rank 0 throws its own error, else the lowest failing rank's message naming it.
  void agree(const std::exception_ptr& error) const;

  // Collective. Each rank formats its rows with `format` (SweepWriter::format); rank 0 passes
  // every row's piece to `write` in the order of `points`, calls options.progress, and returns
  // the stats of the whole sweep (warnings: each workload's first, in order, as one process).
  // The first failing point in order is rethrown on rank 0, as run_sweep throws it, once every
  // rank has stopped; the other ranks return. SIGINT on rank 0 stops every rank (stats.stopped).
  SweepStats run(const SweepPoints& points, const std::function<std::string(const SweepRow&)>& format,
                 const std::function<void(const std::string&)>& write, const SweepOptions& options) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace warpsim::sim::driver
