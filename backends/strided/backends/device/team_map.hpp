#ifndef STRIDED_BACKENDS_DEVICE_TEAM_MAP_HPP
#define STRIDED_BACKENDS_DEVICE_TEAM_MAP_HPP

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <utility>

#include "strided/backends/common/map_body.hpp"
#include "strided/backends/common/tuple.hpp"
#include "strided/backends/device/team_tile.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// dst = f(src...) with one tile per team. Rows of the tile go to team threads and the elements
/// of a row to vector lanes, so adjacent lanes touch adjacent elements of the destination. When
/// a source streams along axis 1 while the destination streams along axis 0, the tile moves
/// through a padded BLOCK x BLOCK scratch block instead: read along axis 1, write along axis 0,
/// both coalesced, and the +1 padding keeps the column reads free of bank conflicts.
template <class Exec, int N, class Dst, class F, class... Srcs>
struct TeamMap {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using value_type = typename Dst::value_type;
  static constexpr std::size_t BLOCK = 32;
  static constexpr std::size_t PITCH = BLOCK + 1;
  static constexpr int vector_length = team_vector_length<Exec>();

  Plan<N> plan;
  Dst dst;
  Tuple<Srcs...> srcs;
  F f;
  bool transposed;
  std::size_t first_tile;

  KOKKOS_INLINE_FUNCTION static constexpr std::size_t scratch_bytes() {
    return BLOCK * PITCH * sizeof(value_type);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const TeamTile<N> tile(plan, first_tile + static_cast<std::size_t>(team.league_rank()));
    if (transposed)
      by_blocks(team, tile, std::make_index_sequence<sizeof...(Srcs)>{});
    else
      by_rows(team, tile, std::make_index_sequence<sizeof...(Srcs)>{});
  }

 private:
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void by_rows(const member_type& team, const TeamTile<N>& tile,
                                      std::index_sequence<I...>) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, tile.rows), [&](const std::size_t r) {
      std::ptrdiff_t off[N];
      tile.row_offsets(plan, r, off);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, tile.n0), [&](const std::size_t i) {
        dst.ptr[off[0] + TeamTile<N>::along(plan, 0, i)] =
            write(f(get<I>(srcs).read(off[I + 1] + TeamTile<N>::along(plan, I + 1, i))...));
      });
    });
  }

  /// The whole team walks the outer rows and the blocks of the two inner axes together (every
  /// thread meets every barrier).
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void by_blocks(const member_type& team, const TeamTile<N>& tile,
                                        std::index_sequence<I...>) const {
    value_type* buffer = static_cast<value_type*>(team.team_scratch(0).get_shmem(scratch_bytes()));
    const std::size_t n0 = tile.n0, n1 = tile.len[1];
    for (std::size_t outer = 0; outer < tile.rows; outer += n1) {
      std::ptrdiff_t off[N];
      tile.row_offsets(plan, outer, off);
      for (std::size_t i0 = 0; i0 < n0; i0 += BLOCK) {
        const std::size_t bi = n0 - i0 < BLOCK ? n0 - i0 : BLOCK;
        for (std::size_t j0 = 0; j0 < n1; j0 += BLOCK) {
          const std::size_t bj = n1 - j0 < BLOCK ? n1 - j0 : BLOCK;
          // Read in the sources' order: lanes along axis 1.
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bi), [&](const std::size_t i) {
            const std::ptrdiff_t row[] = {
                (off[I + 1] + at(i0 + i, I + 1, 0) + at(j0, I + 1, 1))...};
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, bj), [&](const std::size_t j) {
              buffer[i * PITCH + j] = write(f(get<I>(srcs).read(row[I] + at(j, I + 1, 1))...));
            });
          });
          team.team_barrier();
          // Write in the destination's order: lanes along axis 0.
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bj), [&](const std::size_t j) {
            value_type* d = dst.ptr + (off[0] + at(i0, 0, 0) + at(j0 + j, 0, 1));
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, bi), [&](const std::size_t i) {
              d[at(i, 0, 0)] = buffer[i * PITCH + j];
            });
          });
          team.team_barrier();
        }
      }
    }
  }

  /// Offset of index i along plan axis `axis` for operand k.
  KOKKOS_FORCEINLINE_FUNCTION std::ptrdiff_t at(std::size_t i, std::size_t k, int axis) const {
    return static_cast<std::ptrdiff_t>(i) * plan.strides[k][axis];
  }

  // Ops are involutions: writing v through a view with op `Op` stores Op(v).
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION value_type write(const V& v) const {
    return Dst::op_type::apply(static_cast<value_type>(v));
  }
};

/// Whether the tiles of `plan` go through scratch blocks: the destination has unit stride on
/// axis 0 while some source streams along axis 1 (MapBody's transposed case).
template <int N>
bool team_map_transposes(const Plan<N>& plan) {
  if (plan.rank < 2 || plan.gathered || plan.strides[0][0] != 1) return false;
  for (int k = 1; k < N; ++k)
    if (plan.strides[k][0] != 1 && (plan.strides[k][1] == 1 || plan.strides[k][1] == -1))
      return true;
  return false;
}

/// The team form of a MapBody (same destination, sources and function).
template <class Exec, int N, class Dst, class F, class... Srcs>
TeamMap<Exec, N, Dst, F, Srcs...> make_team_map(const Plan<N>& plan,
                                                const MapBody<Dst, F, Srcs...>& body) {
  return {plan, body.dst, body.srcs, body.f, team_map_transposes(plan), 0};
}

}  // namespace strided::detail

#endif
