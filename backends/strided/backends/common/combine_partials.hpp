#ifndef STRIDED_BACKENDS_COMMON_COMBINE_PARTIALS_HPP
#define STRIDED_BACKENDS_COMMON_COMBINE_PARTIALS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>

#include "strided/backends/common/lanes.hpp"
#include "strided/base/compat.hpp"

namespace strided::detail {

/// Brings per-tile partials (in any memory space) to the host and combines them in the fixed
/// pairwise order: the last step of every full reduction, whatever ran the tiles.
template <class Exec, class Partials, class ReduceFn>
auto combine_partials(const Exec& exec, const Partials& partials, const ReduceFn& red) {
  auto host = Kokkos::create_mirror_view(Kokkos::HostSpace(), partials);
  Kokkos::deep_copy(exec, host, partials);
  compat::fence(exec, "strided::reduce: partials on the host");
  return FoldRule::tile_tree(host.data(), 0, host.extent(0), red);
}

}  // namespace strided::detail

#endif
