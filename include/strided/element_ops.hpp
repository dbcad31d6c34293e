#ifndef STRIDED_ELEMENT_OPS_HPP
#define STRIDED_ELEMENT_OPS_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_ELEMENT_OPS
#endif

// The public name of the element operations of views (conjugation, reads and writes): the
// definitions live on the floor both include/ and backends/ stand on
// (backends/strided/base/element_ops.hpp).
#include "strided/base/element_ops.hpp"

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_ELEMENT_OPS
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_ELEMENT_OPS
#endif

#endif
