#ifndef STRIDED_BACKENDS_TEAM_TEAM_SYMMETRIZE_HPP
#define STRIDED_BACKENDS_TEAM_TEAM_SYMMETRIZE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "strided/backends/bodies/symmetrize_blocks.hpp"
#include "strided/backends/common/team_tile.hpp"

namespace strided::detail {

/// dst = (A + op(A)^T) / 2 with one pair of BLOCK x BLOCK blocks per team: team (I, J), I <= J,
/// reads source blocks (I, J) and (J, I) into team scratch along axis 1 (callers put the smaller
/// stride there), so both reads coalesce, then writes both destination blocks along axis 1.
/// Both blocks are read before either is written, so dst may be the source (same layout).
/// Elements whose two blocks would not fit in scratch go directly: each lane reads the pair
/// (i, j), (j, i) and writes both, which is also safe in place. Teams with I > J do nothing.
template <class Exec, class T, class DstOp, class SrcOp, bool Hermitian>
struct TeamSymmetrize {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr std::size_t BLOCK = 32, PITCH = BLOCK + 1;
  static constexpr int vector_length = team_vector_length<Exec>();
  static constexpr int team_size = 0;
  static constexpr std::size_t tiles_per_team = 1;
  static constexpr bool staged = 2 * BLOCK * PITCH * sizeof(T) <= 40 * 1024;

  T* dst;
  const T* src;
  std::ptrdiff_t d0, d1, s0, s1;  ///< strides of both axes
  std::size_t n;
  std::size_t blocks;  ///< ceil(n / BLOCK) per axis
  std::size_t first_tile;

  KOKKOS_INLINE_FUNCTION static constexpr std::size_t scratch_bytes() {
    return staged ? 2 * BLOCK * PITCH * sizeof(T) : 0;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const std::size_t item = first_tile + static_cast<std::size_t>(team.league_rank());
    const std::size_t bi = item / blocks, bj = item % blocks;
    if (bi > bj) return;
    const std::size_t r = bi * BLOCK, c = bj * BLOCK;
    const std::size_t mi = n - r < BLOCK ? n - r : BLOCK, mj = n - c < BLOCK ? n - c : BLOCK;
    if constexpr (staged) {
      T* near = static_cast<T*>(team.team_scratch(0).get_shmem(scratch_bytes()));
      T* far = near + BLOCK * PITCH;
      // near[i][j] = A(r + i, c + j), far[j][i] = A(c + j, r + i): lanes along axis 1.
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, mi), [&](const std::size_t i) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, mj), [&](const std::size_t j) {
          near[i * PITCH + j] =
              SrcOp::apply(src[symmetrize_at(r + i, s0) + symmetrize_at(c + j, s1)]);
        });
      });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, mj), [&](const std::size_t j) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, mi), [&](const std::size_t i) {
          far[j * PITCH + i] =
              SrcOp::apply(src[symmetrize_at(c + j, s0) + symmetrize_at(r + i, s1)]);
        });
      });
      team.team_barrier();
      // On a diagonal block: the upper triangle and the diagonal from the first loop, the strict
      // lower triangle from the second, each element written once (as the host kernel does).
      const bool diagonal = bi == bj;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, mi), [&](const std::size_t i) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, mj), [&](const std::size_t j) {
          if (diagonal && j < i) return;
          dst[symmetrize_at(r + i, d0) + symmetrize_at(c + j, d1)] =
              DstOp::apply(symmetrize_half_sum<Hermitian>(near[i * PITCH + j], far[j * PITCH + i]));
        });
      });
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, mj), [&](const std::size_t j) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, mi), [&](const std::size_t i) {
          if (diagonal && j <= i) return;
          dst[symmetrize_at(c + j, d0) + symmetrize_at(r + i, d1)] =
              DstOp::apply(symmetrize_half_sum<Hermitian>(far[j * PITCH + i], near[i * PITCH + j]));
        });
      });
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, mi), [&](const std::size_t i) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, mj), [&](const std::size_t j) {
          if (bi == bj && j < i) return;  // the diagonal block's lower half is (j, i)'s mirror
          const T a = SrcOp::apply(src[symmetrize_at(r + i, s0) + symmetrize_at(c + j, s1)]);
          const T b = SrcOp::apply(src[symmetrize_at(c + j, s0) + symmetrize_at(r + i, s1)]);
          const T v = symmetrize_half_sum<Hermitian>(a, b);
          dst[symmetrize_at(r + i, d0) + symmetrize_at(c + j, d1)] = DstOp::apply(v);
          if (bi != bj || i != j)
            dst[symmetrize_at(c + j, d0) + symmetrize_at(r + i, d1)] =
                DstOp::apply(symmetrize_mirror_element<Hermitian>(a, b, v));
        });
      });
    }
  }
};

}  // namespace strided::detail

#endif
