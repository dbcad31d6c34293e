// The MPI reductions' latency (run under mpirun, 1 to 4 ranks): strided::mpi::sum (exact) of a
// local part beside a plain MPI_Allreduce of one double and beside the local exact sum alone;
// PERFORMANCE.md's target: at most twice the Allreduce's latency plus the local sum. Every rank
// runs the same fixed iteration counts (collectives must pair up); rank 0 reports.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdio>

#include <strided/mpi.hpp>
#include <strided/strided.hpp>

namespace {

strided::StridedArray<double> local_part(std::size_t n) {
  auto a = strided::StridedArray<double>::row_major({n});
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (std::size_t i = 0; i < n; ++i) a.data()[i] = 1.0 / double(1 + i + rank * n);
  return a;
}

constexpr int iterations_for(std::size_t n) {
  return n <= 4096 ? 20000 : 200;
}

void allreduce_double(benchmark::State& state) {
  double x = 1.0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) {
    double y = x;
    MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    benchmark::DoNotOptimize(y);
  }
}

void local_exact_sum(benchmark::State& state) {
  const auto a = local_part(static_cast<std::size_t>(state.range(0)));
  MPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) benchmark::DoNotOptimize(strided::sum(a.view(), strided::exact));
}

void mpi_exact_sum(benchmark::State& state) {
  const auto a = local_part(static_cast<std::size_t>(state.range(0)));
  MPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) benchmark::DoNotOptimize(strided::mpi::sum(a.view(), MPI_COMM_WORLD));
}

void mpi_exact_dot(benchmark::State& state) {
  const auto a = local_part(static_cast<std::size_t>(state.range(0)));
  MPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state)
    benchmark::DoNotOptimize(strided::mpi::dot(a.view(), a.view(), MPI_COMM_WORLD));
}

class Silent : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard guard(argc, argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    benchmark::Initialize(&argc, argv);
    benchmark::AddCustomContext("mpi_ranks", std::to_string(size));
    benchmark::RegisterBenchmark("mpi/allreduce_double", allreduce_double)
        ->Iterations(iterations_for(1))
        ->Unit(benchmark::kMicrosecond);
    for (std::size_t n : {std::size_t(1024), std::size_t(1) << 20}) {
      const auto count = static_cast<std::int64_t>(n);
      benchmark::RegisterBenchmark("mpi/local_exact_sum", local_exact_sum)
          ->Arg(count)
          ->Iterations(iterations_for(n))
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark("mpi/exact_sum", mpi_exact_sum)
          ->Arg(count)
          ->Iterations(iterations_for(n))
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark("mpi/exact_dot", mpi_exact_dot)
          ->Arg(count)
          ->Iterations(iterations_for(n))
          ->Unit(benchmark::kMicrosecond);
    }
    if (rank == 0) {
      benchmark::RunSpecifiedBenchmarks();
    } else {
      Silent silent;
      benchmark::RunSpecifiedBenchmarks(&silent);
    }
    benchmark::Shutdown();
  }
  MPI_Finalize();
  return 0;
}
