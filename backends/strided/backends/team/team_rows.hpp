#ifndef STRIDED_BACKENDS_TEAM_TEAM_ROWS_HPP
#define STRIDED_BACKENDS_TEAM_TEAM_ROWS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "strided/backends/common/team_tile.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// A tile body whose elements are independent (an axis reduction's outputs), one tile per team:
/// the tile's rows go to team threads and each element of a row to a vector lane, handed to the
/// body as a 1 x 1 block. Adjacent lanes take adjacent outputs. The body is const (it holds no
/// per-thread state), so nothing is copied per thread.
template <class Exec, int N, class Body>
struct TeamRows {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr int vector_length = team_vector_length<Exec>();
  static constexpr int team_size = team_threads_of<Exec>();
  static constexpr std::size_t tiles_per_team = 1;
  const Plan<N>* plan;  ///< in the space's memory
  Body body;
  std::size_t first_tile;

  static constexpr std::size_t scratch_bytes() { return 0; }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const Plan<N>& p = *plan;
    const TeamTile<N> tile(p, first_tile + static_cast<std::size_t>(team.league_rank()));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.rows), [&](const std::size_t r) {
      std::ptrdiff_t row[N];
      tile.row_offsets(p, r, row);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, tile.n0), [&](const std::size_t i) {
        std::ptrdiff_t off[N], none[N];
        for (int k = 0; k < N; ++k) {
          off[k] = row[k] + TeamTile<N>::along(p, k, i);
          none[k] = 0;
        }
        body(off, 1, 1, none, none);
      });
    });
  }
};

}  // namespace strided::detail

#endif
