#ifndef STRIDED_BACKENDS_TEAM_TEAM_MAP_HPP
#define STRIDED_BACKENDS_TEAM_TEAM_MAP_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <utility>

#include "strided/backends/bodies/map_body.hpp"
#include "strided/backends/common/team_tile.hpp"
#include "strided/backends/common/tuple.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// dst = f(src...) with one tile per team. A tile's rows are cut into chunks of a few elements
/// per vector lane; team threads take chunks and vector lanes their elements, so adjacent lanes
/// touch adjacent elements of the destination and a long row (a flat plan's tile is one row)
/// still keeps every thread of the team busy. When a source streams along axis 1 while the
/// destination streams along axis 0, the tile moves through a padded BLOCK x BLOCK scratch block
/// instead: read along axis 1, write along axis 0, both coalesced, and the +1 padding keeps the
/// column reads free of bank conflicts. Gathered plans (high-rank permutations) take the same
/// blocks through their offset tables.
template <class Exec, int N, class Dst, class F, class... Srcs>
struct TeamMap {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using value_type = typename Dst::value_type;
  static constexpr std::size_t BLOCK = 32;
  static constexpr std::size_t PITCH = BLOCK + 1;
  static constexpr int vector_length = team_vector_length<Exec>();
  static constexpr int team_size = team_threads_of<Exec>();
  static constexpr std::size_t tiles_per_team = 1;
  /// Elements of a row that one team thread takes at a time: four per vector lane.
  static constexpr std::size_t CHUNK = 4 * static_cast<std::size_t>(vector_length);
  /// Team scratch is 48 KiB per block on most GPUs: elements whose BLOCK x PITCH block would
  /// take more than this go by rows (correct, not coalesced on the source side).
  static constexpr std::size_t MOST_SCRATCH = 32 * 1024;
  static constexpr bool can_transpose = BLOCK * PITCH * sizeof(value_type) <= MOST_SCRATCH;

  const Plan<N>* plan;  ///< in the space's memory: the functor stays small
  Dst dst;
  Tuple<Srcs...> srcs;
  F f;
  bool transposed;
  std::size_t first_tile;

  /// Rows of a scratch block that one thread reads before it writes them to scratch: its loads
  /// are in flight together (the stores to scratch would otherwise order them one by one).
  static constexpr std::size_t READ_BATCH = sizeof(value_type) <= 16 ? 4 : 1;

  /// Elements too large for a scratch block go by rows and ask for no scratch.
  std::size_t scratch_bytes() const {
    return can_transpose && transposed ? BLOCK * PITCH * sizeof(value_type) : 0;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const Plan<N>& p = *plan;
    const TeamTile<N> tile(p, first_tile + static_cast<std::size_t>(team.league_rank()));
    if (can_transpose && transposed)
      by_blocks(team, p, tile, std::make_index_sequence<sizeof...(Srcs)>{});
    else
      by_rows(team, p, tile, std::make_index_sequence<sizeof...(Srcs)>{});
  }

 private:
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void by_rows(const member_type& team, const Plan<N>& p,
                                      const TeamTile<N>& tile, std::index_sequence<I...>) const {
    const std::size_t chunks = (tile.n0 + CHUNK - 1) / CHUNK;
    Kokkos::parallel_for(
        Kokkos::TeamThreadRange(team, tile.rows * chunks), [&](const std::size_t q) {
          const std::size_t first = (q % chunks) * CHUNK;
          const std::size_t count = tile.n0 - first < CHUNK ? tile.n0 - first : CHUNK;
          std::ptrdiff_t off[N];
          tile.row_offsets(p, q / chunks, off);
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, count), [&](const std::size_t e) {
            const std::size_t i = first + e;
            dst.ptr[off[0] + TeamTile<N>::along(p, 0, i)] =
                write(f(get<I>(srcs).read(off[I + 1] + TeamTile<N>::along(p, I + 1, i))...));
          });
        });
  }

  /// The whole team walks the outer rows and the blocks of the two inner axes together (every
  /// thread meets every barrier).
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void by_blocks(const member_type& team, const Plan<N>& p,
                                        const TeamTile<N>& tile, std::index_sequence<I...>) const {
    value_type* buffer = static_cast<value_type*>(
        team.team_scratch(0).get_shmem(BLOCK * PITCH * sizeof(value_type)));
    const std::size_t n0 = tile.n0, n1 = tile.n1;
    for (std::size_t outer = 0; outer < tile.rows; outer += n1) {
      std::ptrdiff_t off[N];
      tile.row_offsets(p, outer, off);
      for (std::size_t i0 = 0; i0 < n0; i0 += BLOCK) {
        const std::size_t bi = n0 - i0 < BLOCK ? n0 - i0 : BLOCK;
        for (std::size_t j0 = 0; j0 < n1; j0 += BLOCK) {
          const std::size_t bj = n1 - j0 < BLOCK ? n1 - j0 : BLOCK;
          // Read in the sources' order: lanes along axis 1, READ_BATCH rows per thread.
          constexpr std::size_t R = READ_BATCH;
          Kokkos::parallel_for(
              Kokkos::TeamThreadRange(team, (bi + R - 1) / R), [&](const std::size_t q) {
                Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, bj), [&](const std::size_t j) {
                  const std::size_t rows = bi - q * R < R ? bi - q * R : R;
                  value_type v[R]{};
                  for (std::size_t r = 0; r < rows; ++r) {
                    const std::size_t i = q * R + r;
                    v[r] = write(f(get<I>(srcs).read(off[I + 1] + at(p, i0 + i, I + 1, 0) +
                                                     at(p, j0 + j, I + 1, 1))...));
                  }
                  for (std::size_t r = 0; r < rows; ++r) buffer[(q * R + r) * PITCH + j] = v[r];
                });
              });
          team.team_barrier();
          // Write in the destination's order: lanes along axis 0.
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bj), [&](const std::size_t j) {
            value_type* d = dst.ptr + (off[0] + at(p, j0 + j, 0, 1));
            Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, bi), [&](const std::size_t i) {
              d[at(p, i0 + i, 0, 0)] = buffer[i * PITCH + j];
            });
          });
          team.team_barrier();
        }
      }
    }
  }

  /// Offset of index i along plan axis `axis` (0 or 1) for operand k: through the axis' offset
  /// table on a gathered plan (its tiles start at index 0 of both tables). Tables are not
  /// linear: always pass the whole index, never a sum of two.
  KOKKOS_FORCEINLINE_FUNCTION static std::ptrdiff_t at(const Plan<N>& p, std::size_t i,
                                                       std::size_t k, int axis) {
    return p.gathered ? p.table[axis][k][i] : static_cast<std::ptrdiff_t>(i) * p.strides[k][axis];
  }

  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION static value_type write(const V& v) {
    return Dst::through_op(v);
  }
};

/// The team form of a MapBody (same destination, sources and function); `staged` is `plan` in
/// the space's memory.
template <class Exec, int N, class Dst, class F, class... Srcs>
TeamMap<Exec, N, Dst, F, Srcs...> make_team_map(const Plan<N>& plan, const Plan<N>* staged,
                                                const MapBody<Dst, F, Srcs...>& body) {
  return {staged, body.dst, body.srcs, body.f, moves_by_blocks(plan), 0};
}

}  // namespace strided::detail

#endif
