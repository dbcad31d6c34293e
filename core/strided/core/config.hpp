#ifndef STRIDED_CORE_CONFIG_HPP
#define STRIDED_CORE_CONFIG_HPP

// core/ is free of Kokkos, yet a few of its functions also run inside device kernels.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STRIDED_HOST_DEVICE __host__ __device__
#else
#define STRIDED_HOST_DEVICE
#endif

#endif
