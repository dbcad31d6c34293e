#ifndef STRIDED_BACKENDS_DEVICE_TEAM_ROWS_HPP
#define STRIDED_BACKENDS_DEVICE_TEAM_ROWS_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "strided/backends/device/team_tile.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// Any tile body whose rows are independent (an axis reduction's outputs), one tile per team:
/// each row of the tile is handed to the body as a block of n0 x 1 on some team thread.
template <class Exec, int N, class Body>
struct TeamRows {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr int vector_length = 1;
  Plan<N> plan;
  Body body;
  std::size_t first_tile;

  static constexpr std::size_t scratch_bytes() { return 0; }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const TeamTile<N> tile(plan, first_tile + static_cast<std::size_t>(team.league_rank()));
    std::ptrdiff_t s0[N], s1[N];
    for (int k = 0; k < N; ++k) {
      s0[k] = plan.rank > 0 ? plan.strides[k][0] : 0;
      s1[k] = plan.rank > 1 ? plan.strides[k][1] : 0;
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.rows), [&](const std::size_t r) {
      std::ptrdiff_t off[N];
      tile.row_offsets(plan, r, off);
      Body local = body;
      // A gathered row already holds its axis-1 table entry, and every table starts at 0.
      if (plan.gathered)
        local.gather(off, tile.n0, 1, plan.table[0], plan.table[1]);
      else
        local(off, tile.n0, 1, s0, s1);
      local.done();
    });
  }
};

}  // namespace strided::detail

#endif
