#ifndef STRIDED_STRIDED_HPP
#define STRIDED_STRIDED_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_STRIDED
#endif

/// Strided: cache-optimized, deterministic kernels over arbitrary strided N-d tensors on Kokkos.
/// One include, one namespace (`strided`); internals live in `strided::detail`.

#include "strided/compat.hpp"
#include "strided/copy.hpp"
#include "strided/element_ops.hpp"
#include "strided/error.hpp"
#include "strided/exact.hpp"
#include "strided/kokkos_view.hpp"
#include "strided/map.hpp"
#include "strided/options.hpp"
#include "strided/plan.hpp"
#include "strided/reduce.hpp"
#include "strided/reduce_axes.hpp"
#include "strided/strided_array.hpp"
#include "strided/strided_view.hpp"
#include "strided/tune.hpp"
#include "strided/version.hpp"

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_STRIDED
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_STRIDED
#endif

#endif
