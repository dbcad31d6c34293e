// The device algorithm (one tile per team, scratch-block transposes, 16 lanes per tile) on the
// host space, beside the host algorithm on the same data: what the GPU path costs where it is
// only tested. It need not win here; on a GPU build it is the only path.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace {

using strided::Algorithm;

strided::Options with_algorithm(Algorithm algorithm) {
  strided::Options options;
  options.algorithm = algorithm;
  return options;
}

struct Tensor4 {
  strided::StridedArray<double> a = strided_bench::make_row_major({64, 64, 64, 64});
  strided::StridedArray<double> b = strided_bench::make_row_major({64, 64, 64, 64});
};
struct Square {
  strided::StridedArray<double> a = strided_bench::make_row_major({8192, 8192});
  strided::StridedArray<double> b = strided_bench::make_row_major({8192, 8192});
};
struct Matrix {
  strided::StridedArray<double> a = strided_bench::make_row_major({4096, 4096});
  strided::StridedArray<double> rows = strided_bench::make_row_major({4096});
};

/// W1.perm3210 and W3.transpose: permuted copies checked on a sample of elements.
template <class Data>
void permuted_copy(benchmark::State& state, Algorithm algorithm,
                   std::vector<std::size_t> permutation) {
  auto& d = strided_bench::shared_data<Data>();
  const strided::Options options = with_algorithm(algorithm);
  const auto src = d.a.view().permute(permutation);
  const auto dst = d.b.view();
  for (auto _ : state) strided::copy_into(dst, src, options);
  const auto expected = [&](const std::vector<std::size_t>& i) {
    std::ptrdiff_t offset = 0;
    for (std::size_t k = 0; k < i.size(); ++k)
      offset += static_cast<std::ptrdiff_t>(i[k]) * src.stride(k);
    return src.data()[offset];
  };
  if (strided_bench::check_sample(state, dst, expected))
    strided_bench::set_bytes(state, 2.0 * sizeof(double) * static_cast<double>(dst.size()));
}

/// W4.sum_contig (the whole matrix) and W4.rowsum, checked against the host algorithm's bits.
void sums(benchmark::State& state, Algorithm algorithm, bool rows) {
  auto& d = strided_bench::shared_data<Matrix>();
  const auto a = d.a.view();
  double expected = 0;
  {
    const strided::Options host = with_algorithm(Algorithm::Host);
    expected = rows ? (strided::sum_axes(d.rows.view(), a, {1}, host), d.rows.view()(17))
                    : strided::sum(a, host);
  }
  const strided::Options options = with_algorithm(algorithm);
  double got = 0;
  for (auto _ : state) {
    if (rows) {
      strided::sum_axes(d.rows.view(), a, {1}, options);
      got = d.rows.view()(17);
    } else {
      got = strided::sum(a, options);
    }
    benchmark::DoNotOptimize(got);
  }
  if (got != expected) {
    state.SkipWithError("device algorithm bits differ from the host algorithm");
    return;
  }
  strided_bench::set_bytes(state, sizeof(double) * static_cast<double>(a.size()));
}

void register_device() {
  for (auto [name, algorithm] : {std::pair{"host_algorithm", Algorithm::Host},
                                 std::pair{"device_algorithm", Algorithm::Device}}) {
    const std::string suffix = std::string("/") + name;
    benchmark::RegisterBenchmark(("Device.W1.perm3210" + suffix).c_str(), permuted_copy<Tensor4>,
                                 algorithm, std::vector<std::size_t>{3, 2, 1, 0});
    benchmark::RegisterBenchmark(("Device.W3.transpose" + suffix).c_str(), permuted_copy<Square>,
                                 algorithm, std::vector<std::size_t>{1, 0});
    benchmark::RegisterBenchmark(("Device.W4.sum_contig" + suffix).c_str(), sums, algorithm, false);
    benchmark::RegisterBenchmark(("Device.W4.rowsum" + suffix).c_str(), sums, algorithm, true);
  }
}

const int registered = (register_device(), 0);

}  // namespace
