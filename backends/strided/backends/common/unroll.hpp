#ifndef STRIDED_BACKENDS_COMMON_UNROLL_HPP
#define STRIDED_BACKENDS_COMMON_UNROLL_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

/// Unrolls the next loop 4 times on host compilers: GCC's vectorized element-wise loops run at
/// half speed without it (one 16-byte vector per iteration: measured 1.14 us vs 0.60 us for
/// 4096 doubles). Empty under CUDA/HIP compilers, whose host passes may not know the pragma.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STRIDED_UNROLL_4
#elif defined(__clang__)
#define STRIDED_UNROLL_4 _Pragma("unroll 4")
#elif defined(__GNUC__)
#define STRIDED_UNROLL_4 _Pragma("GCC unroll 4")
#else
#define STRIDED_UNROLL_4
#endif

#endif
