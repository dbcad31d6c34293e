#ifndef STRIDED_BACKENDS_DEVICE_RUN_TEAMS_HPP
#define STRIDED_BACKENDS_DEVICE_RUN_TEAMS_HPP

#include <Kokkos_Core.hpp>
#include <climits>
#include <cstddef>
#include <string>

#include "strided/backends/common/combine_partials.hpp"
#include "strided/backends/common/map_body.hpp"
#include "strided/backends/device/team_fold.hpp"
#include "strided/backends/device/team_map.hpp"
#include "strided/backends/device/team_rows.hpp"
#include "strided/compat.hpp"
#include "strided/core/combine.hpp"

namespace strided::detail {

/// Most threads of a team on a host space. Kokkos' AUTO picks 1 there; several threads per
/// team make the host run exercise the team barriers and range splits a GPU relies on.
inline constexpr int HOST_TEAM_SIZE = 4;

template <class Exec, class Functor>
Kokkos::TeamPolicy<Exec> team_policy(const Exec& exec, int league, const Functor& functor) {
  using Policy = Kokkos::TeamPolicy<Exec>;
  const auto with_scratch = [](Policy p) {
    if (Functor::scratch_bytes() > 0)
      p.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes()));
    return p;
  };
  if constexpr (compat::is_host_space_v<Exec>) {
    const Policy probe = with_scratch(Policy(exec, league, 1, Functor::vector_length));
    int size = probe.team_size_max(functor, Kokkos::ParallelForTag());
    if (size > HOST_TEAM_SIZE) size = HOST_TEAM_SIZE;
    return with_scratch(Policy(exec, league, size, Functor::vector_length));
  } else {
    return with_scratch(Policy(exec, league, Kokkos::AUTO, Functor::vector_length));
  }
}

/// Launches `functor` (a Team* functor) once per tile of `tiles`, one tile per team. A league
/// holds at most INT_MAX teams, so very large tile counts go in several launches.
template <class Exec, class Functor>
void launch_teams(const Exec& exec, std::size_t tiles, Functor functor, const std::string& label) {
  constexpr std::size_t most = INT_MAX;
  for (std::size_t first = 0; first < tiles; first += most) {
    const std::size_t count = tiles - first < most ? tiles - first : most;
    functor.first_tile = first;
    Kokkos::parallel_for(label, team_policy(exec, static_cast<int>(count), functor), functor);
  }
}

/// The device algorithm of an element-wise kernel.
template <class Exec, int N, class Dst, class F, class... Srcs>
void run_map_teams(const Exec& exec, const Plan<N>& plan, const MapBody<Dst, F, Srcs...>& body,
                   const std::string& label) {
  if (plan.tile_count == 0) return;
  launch_teams(exec, plan.tile_count, make_team_map<Exec>(plan, body), label);
}

/// The device algorithm of a body whose rows are independent (axis reductions).
template <class Exec, int N, class Body>
void run_rows_teams(const Exec& exec, const Plan<N>& plan, const Body& body,
                    const std::string& label) {
  if (plan.tile_count == 0) return;
  launch_teams(exec, plan.tile_count, TeamRows<Exec, N, Body>{plan, body, 0}, label);
}

/// The device algorithm of a full reduction: one partial per tile into a buffer in the space's
/// memory, copied to the host and combined there in the fixed pairwise order (as the host path).
template <class U, class Exec, int N, class Fold, class ReduceFn>
bool reduce_tiles_teams(const Exec& exec, const Plan<N>& plan, const Fold& fold,
                        const ReduceFn& red, U& total, const std::string& label) {
  const std::size_t tiles = plan.tile_count;
  if (tiles == 0) return false;
  Kokkos::View<U*, typename Exec::memory_space> partials(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "strided::tile_partials"), tiles);
  launch_teams(exec, tiles, TeamFold<Exec, N, Fold, U>{plan, fold, partials.data(), 0}, label);
  total = combine_partials(exec, partials, red);
  return true;
}

}  // namespace strided::detail

#endif
