#ifndef STRIDED_CORE_LAUNCH_SHAPE_HPP
#define STRIDED_CORE_LAUNCH_SHAPE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The launch shapes of the device algorithm, without Kokkos: the team kernels in
// backends/team take their team sizes from the constants here, so that the model, explain()
// and the kernels cannot drift apart. A GPU hides memory latency only with enough loads in
// flight (Little's law: bandwidth x latency, about 3 MiB on an H200), hence teams per SM and
// independent fold chains are what the model reports.

#include <cstddef>

#include "strided/core/magnitude.hpp"
#include "strided/core/plan.hpp"

namespace strided {
namespace detail {

/// Threads of a map or axis-rows team on a GPU: a warp of vector lanes times 8 team threads.
inline constexpr int DEVICE_VECTOR_LENGTH = 32;
inline constexpr int DEVICE_TEAM_THREADS = 256;
/// Lanes of every fold (REDUCE_LANES in the backends).
inline constexpr int FOLD_LANES = 16;
/// Fold items (tiles, or an output's sub-tiles) per team on a GPU: 4 x 16 lanes = 64 threads,
/// so that 2^13 tiles make 2048 teams (15 per SM of an H200).
inline constexpr int FOLD_ITEMS_PER_TEAM = 4;
/// Column folds (an output's lanes along a strided axis): 4 adjacent outputs per warp row, so
/// each row read is one 32-byte sector of f64.
inline constexpr int COLUMN_OUTPUTS_PER_TEAM = 4;

}  // namespace detail

/// What the launch-shape model needs to know of a GPU: its multiprocessors (SMs or CUs), the
/// threads, teams (blocks) and 32-bit registers each holds at once, and its warp (wavefront)
/// width.
struct DeviceModel {
  const char* name = "H200";
  int multiprocessors = 132;
  int threads_per_multiprocessor = 2048;
  int teams_per_multiprocessor = 32;
  int warp = 32;
  int registers_per_multiprocessor = 65536;

  static constexpr DeviceModel h100() { return {"H100 SXM", 132, 2048, 32, 32, 65536}; }
  static constexpr DeviceModel h200() { return {"H200", 132, 2048, 32, 32, 65536}; }
  /// One graphics compute die of an MI250X (what one HIP device is): 4 SIMDs of 512 VGPRs x 64.
  static constexpr DeviceModel mi250() { return {"MI250X (one GCD)", 110, 2048, 32, 64, 131072}; }
};

/// The kernels of the device algorithm.
enum class DeviceKernel {
  Map,     ///< TeamMap: one plan tile per team
  Fold,    ///< TeamFold: FOLD_ITEMS_PER_TEAM tiles per team, 16 lanes each, lanes on vector lanes
  Column,  ///< TeamFold across outputs: 16 lanes per output on team threads, outputs on lanes
  Rows     ///< TeamRows: one output tile per team, one lane per output
};

/// How the device algorithm launches one kernel, and what that gives on a device.
struct LaunchShape {
  DeviceKernel kernel = DeviceKernel::Map;
  std::size_t teams = 0;  ///< league size, over all launches
  int team_threads = 0;   ///< team size x vector length
  int vector_length = 0;
  std::size_t threads = 0;            ///< teams x team_threads
  int resident_teams_per_sm = 0;      ///< most teams one multiprocessor holds (threads and blocks)
  double teams_per_sm = 0;            ///< teams / multiprocessors: below 1, SMs idle
  std::size_t threads_in_flight = 0;  ///< threads resident at once on the whole device
  std::size_t chains = 0;             ///< independent fold chains (folds only)
  double bytes_per_thread = 0;        ///< bytes each thread reads
};

/// The launch of `kernel` over `items` work items (map: plan tiles; fold: tiles, or outputs x
/// sub-tiles; column: outputs x sub-tiles; rows: output tiles) that read `bytes` in all, on
/// `device`. `outputs`: the rows kernel's outputs (its chains). `registers`: per thread, as the
/// compiler reports them (nvcc --resource-usage), or 0 to count threads and blocks only.
inline LaunchShape launch_shape(DeviceKernel kernel, std::size_t items, std::size_t bytes,
                                const DeviceModel& device, std::size_t outputs = 0,
                                int registers = 0) {
  using namespace detail;
  LaunchShape s;
  s.kernel = kernel;
  std::size_t per_team = 1;
  switch (kernel) {
    case DeviceKernel::Map:
    case DeviceKernel::Rows:
      s.vector_length = DEVICE_VECTOR_LENGTH;
      s.team_threads = DEVICE_TEAM_THREADS;
      s.chains = kernel == DeviceKernel::Rows ? outputs : 0;
      break;
    case DeviceKernel::Fold:
    case DeviceKernel::Column: {
      // Lanes on vector lanes (along runs), or items on vector lanes (across outputs).
      const bool across = kernel == DeviceKernel::Column;
      per_team = across ? COLUMN_OUTPUTS_PER_TEAM : FOLD_ITEMS_PER_TEAM;
      s.vector_length = across ? COLUMN_OUTPUTS_PER_TEAM : FOLD_LANES;
      s.team_threads = static_cast<int>(per_team) * FOLD_LANES;
      s.chains = items * FOLD_LANES;
      break;
    }
  }
  s.teams = (items + per_team - 1) / per_team;
  s.threads = s.teams * static_cast<std::size_t>(s.team_threads);
  int resident = device.threads_per_multiprocessor / s.team_threads;
  if (device.teams_per_multiprocessor < resident) resident = device.teams_per_multiprocessor;
  if (registers > 0) {
    const int by_registers = device.registers_per_multiprocessor / (registers * s.team_threads);
    if (by_registers < resident) resident = by_registers;
  }
  s.resident_teams_per_sm = resident;
  const std::size_t sms = static_cast<std::size_t>(device.multiprocessors);
  s.teams_per_sm = sms > 0 ? static_cast<double>(s.teams) / static_cast<double>(sms) : 0;
  const std::size_t all_resident = sms * static_cast<std::size_t>(s.resident_teams_per_sm);
  s.threads_in_flight = (s.teams < all_resident ? s.teams : all_resident) * s.team_threads;
  s.bytes_per_thread =
      s.threads > 0 ? static_cast<double>(bytes) / static_cast<double>(s.threads) : 0;
  return s;
}

namespace detail {
/// Reduced elements per output from which an axis reduction's device fold gives every output
/// 16 lanes of its own (a column fold) rather than one (TeamRows).
inline constexpr std::size_t COLUMN_MIN_ELEMENTS = 64;

/// The kernel of an axis reduction under the device algorithm: 16 lanes per output along a
/// unit-stride reduced run (the reduced plan's inner axis, not gathered) or
/// across adjacent outputs (a column fold); one lane per output only for short reductions.
template <int S>
DeviceKernel axis_kernel(const Plan<S>& reduced) {
  const bool along_runs =
      reduced.tile_count > 0 && !reduced.gathered && magnitude(reduced.strides[0][0]) == 1;
  if (along_runs) return DeviceKernel::Fold;
  return reduced.count >= COLUMN_MIN_ELEMENTS ? DeviceKernel::Column : DeviceKernel::Rows;
}
}  // namespace detail

inline const char* to_string(DeviceKernel k) {
  switch (k) {
    case DeviceKernel::Map:
      return "map";
    case DeviceKernel::Fold:
      return "fold";
    case DeviceKernel::Column:
      return "column fold";
    case DeviceKernel::Rows:
      return "rows";
  }
  return "?";
}

}  // namespace strided

#endif
