// The paper's DWT workloads as named, parameterised predictions (MODEL.md section 5):
//   dwt_matrix    eq. 17: T_k(launch(N), matrix program(K))
//   dwt_lattice   eq. 18: (K/2 + 1) * T_k(launch(N/2), lattice program)
//   dwt2d_matrix  2 * dwt_matrix(N * (N + K - 2), K)    row-column passes over padded rows
//   dwt2d_lattice 2 * dwt_lattice(N * (N + K - 2), K)
// launch() is Algorithm 3. The programs are workloads/dwt/*.kp, embedded at build time.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "warpsim/gpus/profile.hpp"
#include "warpsim/isa/program.hpp"
#include "warpsim/grid/grid.hpp"
#include "warpsim/workload/prediction.hpp"

namespace warpsim::sim::workload {

struct NamedWorkload {
  std::string_view name;
  std::string_view program_file;  // under workloads/
  std::string_view kernel;        // kernel name: selects [calibration.<kernel>]
  bool lattice;                   // K/2+1 launches over pairs of elements
  bool two_dimensional;           // two passes over N x (N + K - 2)
  std::string_view description;
};

// Throws InputError listing the known names.
const NamedWorkload& find_workload(std::string_view name);

struct DwtPoint {
  std::int64_t K = 0;  // filter length, even, >= 2
  std::int64_t N = 0;  // transform size (2D: N x N)
};


// The paper's kernel programs by kernel name ("dwt_matrix", "dwt_lattice": workloads/dwt/*.kp,
// embedded), unbound; nullptr for any other name.
const isa::Program* builtin_kernel_program(std::string_view kernel);

// The bound kernel program of a workload at point K (the .kp program, parsed once).
isa::Program workload_program(const NamedWorkload& workload, std::int64_t K);

// Throws InputError for invalid points (odd or small K, N too small or odd where pairs are
// needed, sizes overflowing), missing calibration, or launches the GPU cannot run. `cache`, when
// given, is reused across calls.
Prediction predict(const NamedWorkload& workload, const gpus::Profile& gpu, const DwtPoint& point,
                   const gpus::CalibrationChoice& calibration = {});

}  // namespace warpsim::sim::workload
