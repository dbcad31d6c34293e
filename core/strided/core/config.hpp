#ifndef STRIDED_CORE_CONFIG_HPP
#define STRIDED_CORE_CONFIG_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> or a public header of include/strided/"
#endif

// core/ is free of Kokkos, yet a few of its functions also run inside device kernels.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STRIDED_HOST_DEVICE __host__ __device__
#else
#define STRIDED_HOST_DEVICE
#endif

#endif
