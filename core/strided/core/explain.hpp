#ifndef STRIDED_CORE_EXPLAIN_HPP
#define STRIDED_CORE_EXPLAIN_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>
#include <sstream>
#include <string>

#include "strided/core/plan.hpp"

namespace strided::detail {

/// A plan as text: strategy, fused extents (innermost first) with the original axes they came
/// from, per-operand strides, tile extents and the tile count.
template <int N>
std::string describe(const Plan<N>& p) {
  std::ostringstream out;
  auto list = [&](auto get) {
    out << '[';
    for (int i = 0; i < p.rank; ++i) out << (i ? ", " : "") << get(i);
    out << ']';
  };
  out << "strategy " << to_string(p.strategy) << ", " << p.count << " elements";
  if (p.strategy == Strategy::Empty) return out.str();
  if (p.stream_stores) out << ", streaming stores";
  out << "\n  fused dims (innermost first) ";
  list([&](int i) { return p.dims[i]; });
  out << "\n  from axes ";
  list([&](int i) {
    std::ostringstream axes;
    axes << p.first_axis[i];
    if (p.fused_axes[i] > 1) axes << "+" << (p.fused_axes[i] - 1);
    return axes.str();
  });
  for (int k = 0; k < N; ++k) {
    out << "\n  operand " << k << " strides ";
    list([&](int i) { return p.strides[k][i]; });
  }
  out << "\n  blocks ";
  list([&](int i) { return p.blocks[i]; });
  out << ", " << p.tile_count << " tile" << (p.tile_count == 1 ? "" : "s");
  return out.str();
}

}  // namespace strided::detail

#endif
