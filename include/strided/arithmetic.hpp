#ifndef STRIDED_ARITHMETIC_HPP
#define STRIDED_ARITHMETIC_HPP

// Lets this header include the library's internal headers (which refuse direct inclusion).
#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE
#define STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_ARITHMETIC
#endif

// The public name of the arithmetic of the built-in functions and folds: the definitions live on
// the floor both include/ and backends/ stand on (backends/strided/base/arithmetic.hpp).
#include "strided/base/arithmetic.hpp"

#ifdef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_ARITHMETIC
#undef STRIDED_IMPL_PUBLIC_INCLUDE
#undef STRIDED_IMPL_PUBLIC_INCLUDE_NOTDEFINED_ARITHMETIC
#endif

#endif
