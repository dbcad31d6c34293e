#ifndef STRIDED_CORE_LABELS_HPP
#define STRIDED_CORE_LABELS_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <string>

/// The entry points' profiling-region and kernel labels. Kokkos' profiling interface takes
/// std::string, and these labels are longer than the small-string buffer: built on a kernel's
/// first call (a function-local static) they would allocate in that call. Namespace-scope
/// inline variables are built once, before main, so no call allocates, the first included.
namespace strided::detail::labels {

inline const std::string add{"strided::add"};
inline const std::string axpy{"strided::axpy"};
inline const std::string contract{"strided::contract"};
inline const std::string contract_gemm{"strided::contract: GEMM"};
inline const std::string copy_across{"strided::copy_across"};
inline const std::string copy_conj{"strided::copy_conj"};
inline const std::string copy_into{"strided::copy_into"};
inline const std::string copy_scale{"strided::copy_scale"};
inline const std::string dot{"strided::dot"};
inline const std::string einsum{"strided::einsum"};
inline const std::string dot_axes{"strided::dot_axes"};
inline const std::string dot_axes_exact{"strided::dot_axes(exact)"};
inline const std::string dot_exact{"strided::dot(exact)"};
inline const std::string map_into{"strided::map_into"};
inline const std::string max{"strided::max"};
inline const std::string max_axes{"strided::max_axes"};
inline const std::string min{"strided::min"};
inline const std::string min_axes{"strided::min_axes"};
inline const std::string mpi_dot{"strided::mpi::dot"};
inline const std::string mpi_dot_axes{"strided::mpi::dot_axes"};
inline const std::string mpi_idot{"strided::mpi::idot"};
inline const std::string mpi_isum{"strided::mpi::isum"};
inline const std::string mpi_isum_squares{"strided::mpi::isum_squares"};
inline const std::string mpi_sum{"strided::mpi::sum"};
inline const std::string mpi_sum_axes{"strided::mpi::sum_axes"};
inline const std::string mpi_sum_squares{"strided::mpi::sum_squares"};
inline const std::string mpi_sum_squares_axes{"strided::mpi::sum_squares_axes"};
inline const std::string mul{"strided::mul"};
inline const std::string product{"strided::product"};
inline const std::string product_axes{"strided::product_axes"};
inline const std::string reduce{"strided::reduce"};
inline const std::string reduce_axes{"strided::reduce_axes"};
inline const std::string reduce_axis{"strided::reduce_axis"};
inline const std::string sum{"strided::sum"};
inline const std::string sum_axes{"strided::sum_axes"};
inline const std::string sum_axes_exact{"strided::sum_axes(exact)"};
inline const std::string sum_exact{"strided::sum(exact)"};
inline const std::string sum_squares{"strided::sum_squares"};
inline const std::string sum_squares_axes{"strided::sum_squares_axes"};
inline const std::string sum_squares_axes_exact{"strided::sum_squares_axes(exact)"};
inline const std::string sum_squares_exact{"strided::sum_squares(exact)"};
inline const std::string symmetrize_conj_into{"strided::symmetrize_conj_into"};
inline const std::string symmetrize_into{"strided::symmetrize_into"};
inline const std::string zip_map_into{"strided::zip_map_into"};
inline const std::string zip_reduce{"strided::zip_reduce"};

}  // namespace strided::detail::labels

#endif
