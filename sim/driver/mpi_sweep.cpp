#include "mpi_sweep.hpp"

#include <algorithm>
#include <cstdio>
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/mpi/nonblocking.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "warpsim/isa/input_error.hpp"

namespace warpsim::sim::driver {
namespace mpi = boost::mpi;

struct MpiSweep::State {
  // Serialized: the rows and messages of run_sweep's delivering stage, whichever thread runs it.
  mpi::environment environment{mpi::threading::serialized, /*abort_on_exception=*/ false};
  mpi::communicator world;
};

namespace {

constexpr int kPieceTag = 1;  // a rank's chunk, its failure or its end: rank r -> 0, in the rank's order
constexpr int kStopTag = 2;   // exactly one per rank, 0 -> r: the last chunk still needed
constexpr std::int64_t kAll = std::numeric_limits<std::int64_t>::max();

// What a rank sends rank 0, in order: one piece per chunk (rows, or the error of the chunk's
// failing point), then `end`.
struct Piece {
  enum Kind : int { rows, input_error, other_error, end };
  int kind = rows;
  std::string text;                // rows: each row's SweepWriter::format, one after another; errors: what()
  std::vector<std::int64_t> ends;  // rows: where each row's text ends
  // The rank's first warning point of each workload in this chunk: (index in `points`, warnings).
  std::vector<std::pair<std::int64_t, std::vector<std::string>>> warnings;
  std::string file;  // input_error's location
  int line = 0;
  int column = 0;

  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive & kind & text & ends & warnings & file & line & column;
  }
};

// Thrown by a rank's emit to end its run_sweep once rank 0 needs no more of its chunks.
struct NotNeeded {};

// One rank's chunks of `all`, concatenated: chunk c of K ranks is points c*size .. c*size+size-1.
class RankPoints final : public SweepPoints {
 public:
  RankPoints(const SweepPoints& all, int rank, int ranks, std::int64_t chunk_size)
      : all_(all), rank_(rank), ranks_(ranks), size_(chunk_size) {
    const std::int64_t chunks = (all.total() + size_ - 1) / size_;
    if (rank_ < chunks) {
      total_ = ((chunks - 1 - rank_) / ranks_ + 1) * size_;
      if ((chunks - 1) % ranks_ == rank_) total_ -= chunks * size_ - all.total();  // the short last chunk
    }
  }
  std::int64_t total() const override { return total_; }
  const SuiteWorkload& fill(std::int64_t index, SweepRow& row) const override { return all_.fill(global(index), row); }
  SourceLocation location(std::int64_t index) const override { return all_.location(global(index)); }

  std::int64_t chunk_of(std::int64_t index) const { return index / size_ * ranks_ + rank_; }
  std::int64_t global(std::int64_t index) const { return chunk_of(index) * size_ + index % size_; }
  // Whether `index` is the last point of its chunk.
  bool ends_chunk(std::int64_t index) const { return (index + 1) % size_ == 0 || index + 1 == total_; }

 private:
  const SweepPoints& all_;
  std::int64_t rank_, ranks_, size_;
  std::int64_t total_ = 0;
};

Piece failure_piece(const std::exception_ptr& failure) {
  Piece piece;
  try {
    std::rethrow_exception(failure);
  } catch (const InputError& e) {
    piece.kind = Piece::input_error;
    piece.text = e.what();
    piece.file = e.location().file;
    piece.line = e.location().line;
    piece.column = e.location().column;
  } catch (const std::exception& e) {
    piece.kind = Piece::other_error;
    piece.text = e.what();
  }
  return piece;
}

[[noreturn]] void rethrow(const Piece& failure) {
  if (failure.kind == Piece::input_error) {
    throw InputError(SourceLocation{failure.file, failure.line, failure.column}, failure.text);
  }
  throw std::runtime_error(failure.text);
}

// Predicts one rank's chunks, handing each finished chunk to `deliver` (chunk number, piece);
// `deliver` returns the last chunk still needed. Returns whether Ctrl-C stopped the run; a
// failing point becomes its chunk's piece.
bool predict_chunks(const RankPoints& mine, const std::function<std::string(const SweepRow&)>& format,
                    const std::function<std::int64_t(std::int64_t, Piece&&)>& deliver, const SweepOptions& options) {
  Piece piece;
  std::set<const workload::WorkloadModel*> warned;
  std::int64_t next = 0;
  const auto emit = [&](const SweepRow& row) {
    const std::int64_t index = next++;
    piece.text += format(row);
    piece.ends.push_back(static_cast<std::int64_t>(piece.text.size()));
    if (!row.prediction.warnings.empty() && warned.insert(row.workload).second) {
      piece.warnings.emplace_back(mine.global(index), row.prediction.warnings);
    }
    if (!mine.ends_chunk(index)) return;
    const std::int64_t needed = deliver(mine.chunk_of(index), std::exchange(piece, {}));
    if (index + 1 < mine.total() && mine.chunk_of(index + 1) > needed) throw NotNeeded{};
  };
  SweepOptions own = options;
  own.progress = nullptr;
  try {
    return run_sweep(mine, emit, own).stopped;
  } catch (const NotNeeded&) {
  } catch (...) {
    deliver(mine.chunk_of(next), failure_piece(std::current_exception()));
  }
  return false;
}

// MpiSweep::run's messages; the first failing chunk in order, when any, ends up in `failure`.
SweepStats run_ranks(mpi::communicator& world, const SweepPoints& points,
                     const std::function<std::string(const SweepRow&)>& format,
                     const std::function<void(const std::string&)>& write, const SweepOptions& options,
                     std::optional<Piece>& failure) {
  const int ranks = world.size();
  // Chunks small enough to balance the ranks' loads, large enough to amortise the messages.
  const std::int64_t chunk_size = std::clamp<std::int64_t>(points.total() / (64 * ranks), 1, 4096);
  const RankPoints mine(points, world.rank(), ranks, chunk_size);

  if (world.rank() != 0) {
    std::int64_t needed = kAll;
    bool told = false;  // the stop message came
    const auto deliver = [&](std::int64_t, Piece&& piece) {
      world.send(0, kPieceTag, piece);
      if (!told && world.iprobe(0, kStopTag)) {
        world.recv(0, kStopTag, needed);
        told = true;
      }
      return needed;
    };
    predict_chunks(mine, format, deliver, options);
    world.send(0, kPieceTag, Piece{Piece::end, {}, {}, {}, {}, 0, 0});
    if (!told) world.recv(0, kStopTag, needed);
    return {};
  }

  // Rank 0: the chunks that came out of order, written once those before them are.
  const std::int64_t chunks = (points.total() + chunk_size - 1) / chunk_size;
  std::map<std::int64_t, Piece> waiting;
  std::vector<std::int64_t> next_from(static_cast<std::size_t>(ranks));  // each rank's next chunk
  for (int r = 0; r < ranks; ++r) next_from[static_cast<std::size_t>(r)] = r;
  std::int64_t written = 0;  // chunks
  std::int64_t needed = kAll;
  int ended = 0;  // ranks other than 0 that sent `end`
  std::vector<mpi::request> stops;
  SweepStats stats;
  std::set<const workload::WorkloadModel*> warned;
  SweepRow scratch;

  std::int64_t stop_at = kAll;  // what the stop messages say, kept until they are sent
  const auto send_stops = [&](std::int64_t last_needed) {
    if (!stops.empty() || ranks == 1) return;
    stop_at = last_needed;
    for (int r = 1; r < ranks; ++r) stops.push_back(world.isend(r, kStopTag, stop_at));
  };
  const auto accept = [&](std::int64_t chunk, Piece&& piece) {
    if (piece.kind == Piece::input_error || piece.kind == Piece::other_error) {
      needed = std::min(needed, chunk);
      send_stops(needed);
    }
    waiting.emplace(chunk, std::move(piece));
    for (auto it = waiting.find(written); !failure && it != waiting.end(); it = waiting.find(written)) {
      Piece ready = std::move(it->second);
      waiting.erase(it);
      if (ready.kind != Piece::rows) {
        failure = std::move(ready);
        break;
      }
      try {  // an I/O error stops every rank, like a failing point
        std::int64_t begin = 0;
        for (const std::int64_t end : ready.ends) {
          write(ready.text.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin)));
          begin = end;
        }
      } catch (...) {
        failure = failure_piece(std::current_exception());
        needed = -1;
        send_stops(needed);
        break;
      }
      for (auto& [index, lines] : ready.warnings) {
        points.fill(index, scratch);
        if (warned.insert(scratch.workload).second) stats.warnings.push_back({scratch.workload, scratch.point, std::move(lines)});
      }
      stats.points += static_cast<std::int64_t>(ready.ends.size());
      ++written;
      if (options.progress) options.progress(stats.points, points.total());
    }
  };
  const auto receive = [&](bool wait) {
    while (true) {
      const auto status = world.iprobe(mpi::any_source, kPieceTag);
      if (!status && !wait) return;
      Piece piece;
      const mpi::status got = world.recv(status ? status->source() : mpi::any_source, kPieceTag, piece);
      std::int64_t& chunk = next_from[static_cast<std::size_t>(got.source())];
      if (piece.kind == Piece::end) {
        ++ended;
      } else {
        accept(chunk, std::move(piece));
        chunk += ranks;
      }
      if (wait) return;
    }
  };

  const bool interrupted = predict_chunks(mine, format, [&](std::int64_t chunk, Piece&& piece) {
    accept(chunk, std::move(piece));
    receive(false);
    return failure ? -1 : needed;
  }, options);
  if (interrupted) send_stops(-1);
  while (ended < ranks - 1) receive(true);
  send_stops(kAll);
  mpi::wait_all(stops.begin(), stops.end());
  stats.stopped = interrupted || written < chunks;  // Ctrl-C on rank 0, or on another rank
  return stats;
}

}  // namespace

MpiSweep::MpiSweep() : state_(std::make_unique<State>()) {
  if (state_->environment.thread_level() < mpi::threading::serialized) {
    throw std::runtime_error("the MPI library gives no MPI_THREAD_SERIALIZED");
  }
}
MpiSweep::~MpiSweep() = default;
int MpiSweep::rank() const { return state_->world.rank(); }
int MpiSweep::size() const { return state_->world.size(); }

void MpiSweep::agree(const std::exception_ptr& error) const {
  std::string message;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const InputError& e) {
      message = e.describe();
    } catch (const std::exception& e) {
      message = e.what();
    }
  }
  std::vector<std::string> messages;
  mpi::gather(state_->world, message, messages, 0);
  bool failed = !message.empty();
  if (rank() == 0) {
    failed = std::any_of(messages.begin(), messages.end(), [](const std::string& m) { return !m.empty(); });
  }
  mpi::broadcast(state_->world, failed, 0);
  if (!failed) return;
  if (error) std::rethrow_exception(error);
  for (std::size_t r = 0; r < messages.size(); ++r) {
    if (!messages[r].empty()) throw InputError("MPI rank " + std::to_string(r) + ": " + messages[r]);
  }
  throw InputError("another MPI rank failed");  // only the other ranks get here; rank 0 reports
}

SweepStats MpiSweep::run(const SweepPoints& points, const std::function<std::string(const SweepRow&)>& format,
                         const std::function<void(const std::string&)>& write, const SweepOptions& options) const {
  std::optional<Piece> failure;
  SweepStats stats;
  try {
    stats = run_ranks(state_->world, points, format, write, options, failure);
  } catch (const std::exception& e) {  // an MPI error: the ranks can no longer agree to stop, so end them all
    std::fprintf(stderr, "warpsim: error: MPI rank %d: %s\n", rank(), e.what());
    state_->world.abort(2);
  }
  if (failure) rethrow(*failure);
  return stats;
}

}  // namespace warpsim::sim::driver
