#ifndef STRIDED_CORE_MAGNITUDE_HPP
#define STRIDED_CORE_MAGNITUDE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <cstddef>

#include "strided/core/config.hpp"

namespace strided::detail {

/// |s| of a stride, defined for every value (the most negative one included: no negation of a
/// signed value).
STRIDED_HOST_DEVICE constexpr std::size_t magnitude(std::ptrdiff_t s) {
  return s < 0 ? std::size_t(0) - static_cast<std::size_t>(s) : static_cast<std::size_t>(s);
}

}  // namespace strided::detail

#endif
