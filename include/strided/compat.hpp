#ifndef STRIDED_COMPAT_HPP
#define STRIDED_COMPAT_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_COMPAT
#endif

// The public name of the few places where Kokkos 3.4 and Kokkos 4.x/5.x differ: the definitions
// live on the floor both include/ and backends/ stand on (backends/strided/base/compat.hpp).
#include "strided/base/compat.hpp"

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_COMPAT
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_COMPAT
#endif

#endif
