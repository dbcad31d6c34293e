#ifndef STRIDED_BACKENDS_DISPATCH_RUN_SYMMETRIZE_HPP
#define STRIDED_BACKENDS_DISPATCH_RUN_SYMMETRIZE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>

#include "strided/backends/bodies/symmetrize_blocks.hpp"
#include "strided/backends/dispatch/algorithm.hpp"
#include "strided/backends/team/run_teams.hpp"
#include "strided/backends/team/team_symmetrize.hpp"
#include "strided/base/compat.hpp"
#include "strided/base/options.hpp"

namespace strided::detail {

/// (src + src^T) / 2 (conjugated when `Hermitian`) of checked, square, non-empty rank-2 views,
/// by pairs of blocks: each source element is read once, and dst may be src itself.
template <bool Hermitian, class Exec, class DV, class SV>
void run_symmetrize(const Exec& exec, const DV& d, const SV& s, const Options& options,
                    const std::string& label) {
  using T = typename DV::value_type;
  const std::size_t n = d.extent(0);
  // The kernels stream along axis 1: give them the source's smaller stride there.
  const int a1 = magnitude(s.stride(0)) < magnitude(s.stride(1)) ? 0 : 1, a0 = 1 - a1;
  using Kernel = SymmetrizeBlocks<T, typename DV::op_type, typename SV::op_type, Hermitian>;
  const std::size_t tiles = (n + Kernel::TILE - 1) / Kernel::TILE;
  const Route r = route(exec, options, CallFacts{d.size(), tiles * tiles});
  if (r == Route::Team) {
    using Team = TeamSymmetrize<Exec, T, typename DV::op_type, typename SV::op_type, Hermitian>;
    const std::size_t blocks = (n + Team::BLOCK - 1) / Team::BLOCK;
    launch_teams(exec, blocks * blocks,
                 Team{d.data(), s.data(), d.stride(a0), d.stride(a1), s.stride(a0), s.stride(a1), n,
                      blocks, 0},
                 label);
  } else if constexpr (compat::is_host_space_v<Exec>) {
    const bool stream = d.size() * sizeof(T) >= options.planner.stream_bytes;
    const Kernel kernel{d.data(),     s.data(), d.stride(a0), d.stride(a1), s.stride(a0),
                        s.stride(a1), n,        tiles,        stream};
    if (r == Route::Inline) {
      for (std::size_t item = 0; item < tiles * tiles; ++item) kernel(item);
      return;
    }
    Kokkos::parallel_for(
        label, compat::range_policy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>(exec, tiles * tiles),
        kernel);
  }
}

}  // namespace strided::detail

#endif
