#ifndef STRIDED_CORE_COMBINE_HPP
#define STRIDED_CORE_COMBINE_HPP

#include <cstddef>

#include "strided/core/config.hpp"

namespace strided::detail {

/// Folds partials[first, last) in a fixed pairwise tree that depends only on the count: the
/// host-side half of the determinism contract. `last > first`.
template <class U, class ReduceFn>
STRIDED_HOST_DEVICE U combine_pairwise(const U* partials, std::size_t first, std::size_t last,
                                       const ReduceFn& red) {
  if (last - first == 1) return partials[first];
  const std::size_t mid = first + (last - first) / 2;
  return red(combine_pairwise(partials, first, mid, red),
             combine_pairwise(partials, mid, last, red));
}

}  // namespace strided::detail

#endif
