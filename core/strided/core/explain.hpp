#ifndef STRIDED_CORE_EXPLAIN_HPP
#define STRIDED_CORE_EXPLAIN_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <sstream>
#include <string>

#include "strided/core/launch_shape.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// A plan as text: strategy, fused extents (innermost first) with the original axes they came
/// from, per-operand strides, tile extents and the tile count.
template <int N>
std::string describe(const Plan<N>& p) {
  std::ostringstream out;
  auto list = [&](auto get) {
    out << '[';
    for (int i = 0; i < p.rank; ++i) out << (i ? ", " : "") << get(i);
    out << ']';
  };
  out << "strategy " << to_string(p.strategy) << ", " << p.count << " elements";
  if (p.strategy == Strategy::Empty) return out.str();
  if (p.stream_stores) out << ", streaming stores";
  out << "\n  fused dims (innermost first) ";
  list([&](int i) { return p.dims[i]; });
  out << "\n  from axes ";
  list([&](int i) {
    std::ostringstream axes;
    if (p.fused_axes[i] == 0) axes << "rest of ";  // the outer part of a split axis
    axes << p.first_axis[i];
    if (p.fused_axes[i] > 1) axes << "+" << (p.fused_axes[i] - 1);
    return axes.str();
  });
  for (int k = 0; k < N; ++k) {
    out << "\n  operand " << k << " strides ";
    list([&](int i) { return p.strides[k][i]; });
  }
  out << "\n  blocks ";
  list([&](int i) { return p.blocks[i]; });
  out << ", " << p.tile_count << " tile" << (p.tile_count == 1 ? "" : "s");
  if (p.column_bands)
    out << "\n  tiles in column bands, each next tile's source rows fetched ahead"
        << (p.paced_fetch ? ", a few lines per block" : "");
  return out.str();
}

/// One launch of the device algorithm, as the launch-shape model gives it for `device`.
inline std::string describe_launch(const LaunchShape& s, const DeviceModel& device) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << "\n  device " << to_string(s.kernel) << " on " << device.name << " (model): " << s.teams
      << " team" << (s.teams == 1 ? "" : "s") << " x " << s.team_threads
      << " threads (vector length " << s.vector_length << "), " << s.teams_per_sm
      << " teams per SM (" << s.resident_teams_per_sm << " resident), " << s.threads_in_flight
      << " threads in flight";
  if (s.chains > 0) out << ", " << s.chains << " fold chains";
  out << ", " << s.bytes_per_thread << " bytes per thread";
  return out.str();
}

/// The device launches of a plan whose operands take `element_bytes` per element together: as
/// an element-wise kernel (one tile per team) and as a full reduction (FOLD_ITEMS_PER_TEAM
/// tiles per team, 16 chains per tile).
template <int N>
std::string describe_device(const Plan<N>& p, std::size_t element_bytes,
                            const DeviceModel& device) {
  if (p.tile_count == 0) return {};
  const std::size_t bytes = p.count * element_bytes;
  return describe_launch(launch_shape(DeviceKernel::Map, p.tile_count, bytes, device), device) +
         describe_launch(launch_shape(DeviceKernel::Fold, p.tile_count, bytes, device), device);
}

}  // namespace strided::detail

#endif
