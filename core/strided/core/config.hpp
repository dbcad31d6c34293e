#ifndef STRIDED_CORE_CONFIG_HPP
#define STRIDED_CORE_CONFIG_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// core/ is free of Kokkos, yet a few of its functions also run inside device kernels.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STRIDED_HOST_DEVICE __host__ __device__
#else
#define STRIDED_HOST_DEVICE
#endif

// Keeps cold paths (error messages) out of the callers' hot code.
#if defined(__GNUC__) || defined(__clang__)
#define STRIDED_NOINLINE __attribute__((noinline))
#else
#define STRIDED_NOINLINE
#endif

#endif
