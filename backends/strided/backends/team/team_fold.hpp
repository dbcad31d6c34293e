#ifndef STRIDED_BACKENDS_TEAM_TEAM_FOLD_HPP
#define STRIDED_BACKENDS_TEAM_TEAM_FOLD_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <utility>

#include "strided/backends/bodies/reduce_body.hpp"
#include "strided/backends/common/team_tile.hpp"
#include "strided/backends/common/tuple.hpp"
#include "strided/core/launch_shape.hpp"

namespace strided::detail {

/// One of a tile's lanes on its own, by the FoldRule: element i of every run goes here when
/// lane_of(i) is this lane (i = lane, lane + 16, ...), the first one seeding it, in the order
/// TileFold visits the runs (TeamTile's rows), so the lane holds exactly the bits of TileFold's
/// lane; TeamFold then combines the lanes in the lane tree.
template <int N, class U, class MapFn, class ReduceFn, class... Srcs>
struct LaneFold {
  const FoldSpec<MapFn, ReduceFn, Srcs...>& fold;
  int lane;
  U value{};
  bool seeded = false;

  KOKKOS_INLINE_FUNCTION void run(const Plan<N>& p, const TeamTile<N>& tile) {
    run(p, tile, std::make_index_sequence<sizeof...(Srcs)>{});
  }

 private:
  /// Elements a lane loads before it folds them (in their order, so the same bits): a GPU
  /// thread keeps that many loads in flight instead of one, which its share of the memory
  /// latency needs (Little's law) when few threads fold each output.
  static constexpr int BATCH = sizeof(U) <= 8 ? 8 : 4;

  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void run(const Plan<N>& p, const TeamTile<N>& tile,
                                  std::index_sequence<I...>) {
    constexpr std::size_t L = REDUCE_LANES;
    const auto element = [&](const std::ptrdiff_t* off, std::size_t i) -> U {
      return fold.map_fn(get<I>(fold.srcs).read(off[I] + TeamTile<N>::along(p, I, i))...);
    };
    for (std::size_t r = 0; r < tile.rows; ++r) {
      std::ptrdiff_t off[N];
      tile.row_offsets(p, r, off);
      std::size_t i = static_cast<std::size_t>(lane);
      if (!seeded && i < tile.n0) {
        value = element(off, i);  // the lane's seed
        seeded = true;
        i += L;
      }
      for (; i + (BATCH - 1) * L < tile.n0; i += BATCH * L) {
        U v[BATCH];
        for (int b = 0; b < BATCH; ++b) v[b] = element(off, i + static_cast<std::size_t>(b) * L);
        for (int b = 0; b < BATCH; ++b) value = fold.reduce_fn(value, v[b]);
      }
      for (; i < tile.n0; i += L) value = fold.reduce_fn(value, element(off, i));
    }
  }
};

/// The lanes of one tile, in team scratch memory.
template <class U>
struct TeamLanes {
  U value[REDUCE_LANES];
  int seeded[REDUCE_LANES];
};

/// The work items of a full reduction: item q is tile q of the plan, at the plan's origin; its
/// partial goes to slot q.
struct PlanTiles {
  template <int N>
  KOKKOS_INLINE_FUNCTION std::size_t tile(std::size_t q) const {
    return q;
  }
  template <int N>
  KOKKOS_INLINE_FUNCTION void base(std::size_t, std::ptrdiff_t* off) const {
    for (int k = 0; k < N; ++k) off[k] = 0;
  }
  KOKKOS_INLINE_FUNCTION std::size_t slot(std::size_t q) const { return q; }
};

/// One partial per work item (a tile of the plan, shifted by the item's base offsets), at
/// partials[items.slot(q)]. A team folds TILES items at once, 16 lanes each, then one thread
/// per item combines its lanes in TileFold's tree: partials have the bits of the host path's
/// fold of that tile. Two layouts of a team on GPUs (launch_shape.hpp):
/// - lanes along runs (Across = false): an item's 16 lanes on 16 vector lanes (lane l reads
///   element l of every 16, so reads coalesce along a unit-stride run), FOLD_ITEMS_PER_TEAM
///   items on team threads;
/// - lanes across items (Across = true, column folds): COLUMN_OUTPUTS_PER_TEAM items on vector
///   lanes (adjacent outputs, so each row read coalesces across them), the 16 lanes on team
///   threads.
/// On host spaces vector length 1 and two items per team, so the host run exercises the same
/// splits. `Fold` is the host's TileFold type; the functor holds only its Spec (no lanes).
template <class Exec, int N, class Fold, class U, class Items = PlanTiles, bool Across = false>
struct TeamFold {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static_assert(REDUCE_LANES == FOLD_LANES, "one lane count for the model and the kernels");
  static constexpr bool on_host = compat::is_host_space_v<Exec>;
  static constexpr int TILES =
      on_host ? 2 : (Across ? COLUMN_OUTPUTS_PER_TEAM : FOLD_ITEMS_PER_TEAM);
  static constexpr int vector_length = on_host ? 1 : (Across ? TILES : REDUCE_LANES);
  static constexpr int team_size = on_host ? 0 : TILES * REDUCE_LANES / vector_length;
  /// Launch in teams of TILES items: launch_teams counts teams, not items.
  static constexpr std::size_t tiles_per_team = TILES;

  const Plan<N>* plan;  ///< in the space's memory
  typename Fold::Spec fold;
  U* partials;
  Items items;
  std::size_t count;  ///< work items
  std::size_t first_tile;

  KOKKOS_INLINE_FUNCTION static constexpr std::size_t scratch_bytes() {
    return TILES * sizeof(TeamLanes<U>);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const Plan<N>& p = *plan;
    const std::size_t first = first_tile + static_cast<std::size_t>(team.league_rank()) * TILES;
    auto* lanes = static_cast<TeamLanes<U>*>(team.team_scratch(0).get_shmem(scratch_bytes()));
    constexpr int V = vector_length;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, TILES * REDUCE_LANES / V), [&](const int q) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, V), [&](const int v) {
        const int item = q * V + v;
        const int g = Across ? item % TILES : item / REDUCE_LANES;
        const int l = Across ? item / TILES : item % REDUCE_LANES;
        const std::size_t w = first + static_cast<std::size_t>(g);
        if (w >= count) return;
        std::ptrdiff_t base[N];
        items.template base<N>(w, base);
        auto lane = lane_of(l);
        lane.run(p, TeamTile<N>(p, items.template tile<N>(w), base));
        lanes[g].value[l] = lane.value;
        lanes[g].seeded[l] = lane.seeded ? 1 : 0;
      });
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, TILES), [&](const int g) {
      Kokkos::single(Kokkos::PerThread(team), [&] {
        const std::size_t w = first + static_cast<std::size_t>(g);
        if (w >= count) return;
        int seeded = 0;
        while (seeded < REDUCE_LANES && lanes[g].seeded[seeded]) ++seeded;
        FoldRule::lane_tree(seeded, fold.reduce_fn, [&](int l) -> U& { return lanes[g].value[l]; });
        partials[items.slot(w)] = lanes[g].value[0];
      });
    });
  }

 private:
  template <class MapFn, class ReduceFn, class... Srcs>
  KOKKOS_INLINE_FUNCTION static LaneFold<N, U, MapFn, ReduceFn, Srcs...> lane_for(
      const FoldSpec<MapFn, ReduceFn, Srcs...>& f, int l) {
    return {f, l};
  }
  KOKKOS_INLINE_FUNCTION auto lane_of(int l) const { return lane_for(fold, l); }
};

}  // namespace strided::detail

#endif
