#ifndef STRIDED_BACKENDS_DEVICE_TEAM_FOLD_HPP
#define STRIDED_BACKENDS_DEVICE_TEAM_FOLD_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <utility>

#include "strided/backends/common/reduce_body.hpp"
#include "strided/backends/common/tile_walk.hpp"
#include "strided/backends/common/tuple.hpp"
#include "strided/backends/device/team_tile.hpp"

namespace strided::detail {

/// One lane of a TileFold on its own: element i of every run goes here when i % 16 == lane, in
/// the order TileFold visits them, so the lane holds exactly the bits of TileFold's lane.
template <class U, class MapFn, class ReduceFn, class... Srcs>
struct LaneFold {
  const TileFold<U, MapFn, ReduceFn, Srcs...>& fold;
  std::ptrdiff_t lane;
  U value{};
  bool seeded = false;

  KOKKOS_INLINE_FUNCTION void operator()(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                         const std::ptrdiff_t* s0, const std::ptrdiff_t* s1) {
    run(off, n0, n1, s0, s1, std::make_index_sequence<sizeof...(Srcs)>{});
  }
  KOKKOS_INLINE_FUNCTION void gather(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                     const std::ptrdiff_t (*t0)[GATHER_MAX],
                                     const std::ptrdiff_t (*t1)[GATHER_MAX]) {
    gather_impl(off, n0, n1, t0, t1, std::make_index_sequence<sizeof...(Srcs)>{});
  }

 private:
  KOKKOS_FORCEINLINE_FUNCTION void take(const U& v) {
    value = seeded ? fold.reduce_fn(value, v) : v;
    seeded = true;
  }

  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void run(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                  const std::ptrdiff_t* s0, const std::ptrdiff_t* s1,
                                  std::index_sequence<I...>) {
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(n0);
    for (std::size_t j = 0; j < n1; ++j) {
      const std::ptrdiff_t jj = static_cast<std::ptrdiff_t>(j);
      for (std::ptrdiff_t i = lane; i < n; i += REDUCE_LANES)
        take(fold.map_fn(get<I>(fold.srcs).read(off[I] + jj * s1[I] + i * s0[I])...));
    }
  }

  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void gather_impl(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                          const std::ptrdiff_t (*t0)[GATHER_MAX],
                                          const std::ptrdiff_t (*t1)[GATHER_MAX],
                                          std::index_sequence<I...>) {
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(n0);
    for (std::size_t j = 0; j < n1; ++j)
      for (std::ptrdiff_t i = lane; i < n; i += REDUCE_LANES)
        take(fold.map_fn(get<I>(fold.srcs).read(off[I] + t1[I][j] + t0[I][i])...));
  }
};

/// The lanes of one tile, in team scratch memory.
template <class U>
struct TeamLanes {
  U value[REDUCE_LANES];
  int seeded[REDUCE_LANES];
};

/// One partial per tile, one tile per team: the 16 lanes of the tile's TileFold run on 16
/// threads (vector lanes on GPUs: lane l reads element l of every 16, so reads coalesce), then
/// one thread combines them in TileFold's tree. partials[t] has the bits of the host path.
template <class Exec, int N, class Fold, class U>
struct TeamFold {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  Plan<N> plan;
  Fold fold;
  U* partials;
  std::size_t first_tile;

  /// Lanes as vector lanes on GPUs (adjacent threads), as team threads on host spaces.
  static constexpr int vector_length = compat::is_host_space_v<Exec> ? 1 : REDUCE_LANES;
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t scratch_bytes() {
    return sizeof(TeamLanes<U>);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const std::size_t t = first_tile + static_cast<std::size_t>(team.league_rank());
    const TileCursor<N> cursor(plan, t);
    auto* lanes = static_cast<TeamLanes<U>*>(team.team_scratch(0).get_shmem(scratch_bytes()));
    constexpr int V = vector_length;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, REDUCE_LANES / V), [&](const int g) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, V), [&](const int v) {
        const int l = g * V + v;
        auto lane = lane_of(l);
        walk_tile(plan, cursor, lane);
        lanes->value[l] = lane.value;
        lanes->seeded[l] = lane.seeded ? 1 : 0;
      });
    });
    team.team_barrier();
    Kokkos::single(Kokkos::PerTeam(team), [&] {
      int seeded = 0;
      while (seeded < REDUCE_LANES && lanes->seeded[seeded]) ++seeded;
      partials[t] = combine_lanes(lanes->value, seeded, fold.reduce_fn);
    });
  }

 private:
  template <class MapFn, class ReduceFn, class... Srcs>
  KOKKOS_INLINE_FUNCTION static LaneFold<U, MapFn, ReduceFn, Srcs...> lane_for(
      const TileFold<U, MapFn, ReduceFn, Srcs...>& f, int l) {
    return {f, l};
  }
  KOKKOS_INLINE_FUNCTION auto lane_of(int l) const { return lane_for(fold, l); }
};

}  // namespace strided::detail

#endif
