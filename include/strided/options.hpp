#ifndef STRIDED_OPTIONS_HPP
#define STRIDED_OPTIONS_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_OPTIONS
#endif

// The public name of the per-call options (Options, its enums, the process defaults): the
// definitions live on the floor both include/ and backends/ stand on
// (backends/strided/base/options.hpp).
#include "strided/base/options.hpp"

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_OPTIONS
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_OPTIONS
#endif

#endif
