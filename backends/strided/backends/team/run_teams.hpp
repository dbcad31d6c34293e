#ifndef STRIDED_BACKENDS_TEAM_RUN_TEAMS_HPP
#define STRIDED_BACKENDS_TEAM_RUN_TEAMS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <climits>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>

#include "strided/backends/bodies/map_body.hpp"
#include "strided/backends/common/lanes.hpp"
#include "strided/backends/common/workspace.hpp"
#include "strided/backends/team/team_fold.hpp"
#include "strided/backends/team/team_map.hpp"
#include "strided/backends/team/team_rows.hpp"
#include "strided/base/compat.hpp"
#include "strided/core/combine.hpp"

namespace strided::detail {

/// Most threads of a team on a host space. Kokkos' AUTO picks 1 there; several threads per
/// team make the host run exercise the team barriers and range splits a GPU relies on.
inline constexpr int HOST_TEAM_SIZE = 4;

template <class Exec, class Functor>
Kokkos::TeamPolicy<Exec> team_policy(const Exec& exec, int league, const Functor& functor) {
  using Policy = Kokkos::TeamPolicy<Exec>;
  const std::size_t scratch = functor.scratch_bytes();
  const auto with_scratch = [scratch](Policy p) {
    if (scratch > 0) p.set_scratch_size(0, Kokkos::PerTeam(scratch));
    return p;
  };
  // The model's team size (launch_shape.hpp) on GPUs, HOST_TEAM_SIZE on host spaces; less only
  // where the kernel's registers or scratch allow fewer threads.
  if constexpr (compat::is_host_space_v<Exec> || Functor::team_size > 0) {
    constexpr int wanted = compat::is_host_space_v<Exec> ? HOST_TEAM_SIZE : Functor::team_size;
    const Policy probe = with_scratch(Policy(exec, league, 1, Functor::vector_length));
    int size = probe.team_size_max(functor, Kokkos::ParallelForTag());
    if (size > wanted) size = wanted;
    return with_scratch(Policy(exec, league, size, Functor::vector_length));
  } else {
    return with_scratch(Policy(exec, league, Kokkos::AUTO, Functor::vector_length));
  }
}

/// Launches `functor` (a Team* functor) over `tiles` tiles, Functor::tiles_per_team per team. A
/// league holds at most INT_MAX teams, so very large tile counts go in several launches.
template <class Exec, class Functor>
void launch_teams(const Exec& exec, std::size_t tiles, Functor functor, const std::string& label) {
  constexpr std::size_t per_team = Functor::tiles_per_team;
  const std::size_t teams = (tiles + per_team - 1) / per_team;
  constexpr std::size_t most = INT_MAX;
  for (std::size_t first = 0; first < teams; first += most) {
    const std::size_t count = teams - first < most ? teams - first : most;
    functor.first_tile = first * per_team;
    Kokkos::parallel_for(label, team_policy(exec, static_cast<int>(count), functor), functor);
  }
}

/// The device algorithm of an element-wise kernel; `kept`: the plan's copy in the space's memory
/// (a kept plan's), else null and the plan is staged for this call.
template <class Exec, int N, class Dst, class F, class... Srcs>
void run_map_teams(const Exec& exec, const Plan<N>& plan, const MapBody<Dst, F, Srcs...>& body,
                   const std::string& label, const Plan<N>* kept = nullptr) {
  if (plan.tile_count == 0) return;
  const Staged<Exec, Plan<N>> staged(exec, 0, std::tuple<const Plan<N>*>{kept}, plan);
  launch_teams(exec, plan.tile_count, make_team_map<Exec>(plan, staged.template get<0>(), body),
               label);
}

/// The device algorithm of a body whose outputs are independent (axis reductions); `staged`
/// holds `plan` first.
template <class Exec, int N, class Body>
void run_rows_teams(const Exec& exec, const Plan<N>& plan, const Plan<N>* staged, const Body& body,
                    const std::string& label) {
  if (plan.tile_count == 0) return;
  launch_teams(exec, plan.tile_count, TeamRows<Exec, N, Body>{staged, body, 0}, label);
}

/// Tile partials per node of the tile tree that the device folds (a thread's chain: short, one
/// thread per node): the host reads back and folds only the tree's top (a few hundred to a few
/// thousand values), not one value per tile.
inline constexpr std::size_t DEVICE_TREE_GRAIN = 16;

/// Node i of the tile tree at `depth` over `count` partials (folded in place), into nodes[i].
template <class U, class ReduceFn>
struct TreeNodes {
  U* nodes;
  U* partials;
  std::size_t count;
  int depth;
  ReduceFn red;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t i) const {
    const TreeNode node = tree_node(count, depth, i);
    nodes[i] = FoldRule::tile_tree(partials, node.first, node.first + node.size, red);
  }
};

/// The device algorithm of a full reduction of a non-empty plan: one partial per tile into the
/// workspace in the space's memory, combined in the fixed pairwise order (as the host path): the
/// tree's nodes of DEVICE_TREE_GRAIN or more tiles on the device, its top on the host.
template <class U, class Exec, int N, class Fold, class ReduceFn>
U reduce_tiles_teams(const Exec& exec, const Plan<N>& plan, const Fold& fold, const ReduceFn& red,
                     const std::string& label, const Plan<N>* kept = nullptr) {
  const std::size_t tiles = plan.tile_count;
  const int depth = tree_depth_for(tiles, DEVICE_TREE_GRAIN);
  const std::size_t nodes = depth > 0 ? std::size_t(1) << depth : 0;
  Staged<Exec, Plan<N>> staged(exec, (nodes + tiles) * sizeof(U), std::tuple<const Plan<N>*>{kept},
                               plan);
  U* partials = staged.template extra<U>() + nodes;
  launch_teams(exec, tiles,
               TeamFold<Exec, N, Fold, U>{staged.template get<0>(), fold.spec(), partials,
                                          PlanTiles{}, tiles, 0},
               label);
  if (nodes == 0) return FoldRule::tile_tree(staged.template to_host<U>(tiles, 0), 0, tiles, red);
  Kokkos::parallel_for(label, compat::range_policy(exec, nodes),
                       TreeNodes<U, std::decay_t<ReduceFn>>{staged.template extra<U>(), partials,
                                                            tiles, depth, red});
  return FoldRule::tile_tree(staged.template to_host<U>(nodes, 0), 0, nodes, red);
}

}  // namespace strided::detail

#endif
