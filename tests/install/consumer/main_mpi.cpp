// The MPI example of docs/determinism.md, built against the installed package (Strided::mpi):
// each rank holds its slab of a global vector in a Kokkos::View; the exact global sum and sum of
// squares have the same bits for any number of ranks (mpirun -np 4 ./strided_consumer_mpi). Rank 0
// checks them against its own exact sum of the whole vector; returns non-zero if either differs.
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>
#include <strided/mpi.hpp>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int failures = 0;
  {
    Kokkos::ScopeGuard guard(argc, argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long n = 1000003, first = n * rank / size, last = n * (rank + 1) / size;
    Kokkos::View<double*> local("local", last - first);  // device memory on a GPU build
    Kokkos::parallel_for(
        "fill", last - first, KOKKOS_LAMBDA(long i) { local(i) = 1.0 / double(first + i + 1); });

    const Kokkos::DefaultExecutionSpace exec;
    const double sum = strided::mpi::sum(exec, strided::view(local), MPI_COMM_WORLD);
    const double squares = strided::mpi::sum_squares(exec, strided::view(local), MPI_COMM_WORLD);

    if (rank == 0) {
      Kokkos::View<double*, Kokkos::HostSpace> all("all", n);
      for (long i = 0; i < n; ++i) all(i) = 1.0 / double(i + 1);
      const double want = strided::sum(strided::view(all), strided::exact);
      const double want_squares = strided::sum_squares(strided::view(all), strided::exact);
      std::printf("%d ranks: sum %.17g, sum of squares %.17g\n", size, sum, squares);
      failures += std::memcmp(&sum, &want, sizeof sum) != 0;
      failures += std::memcmp(&squares, &want_squares, sizeof squares) != 0;
    }
  }
  MPI_Finalize();
  return failures;
}
