// W1 (64^4 permutations), W2 (rank 25), W3 (8192^2 transpose), W9 (rank sweep): Strided's
// permuted copy beside a plain loop in the destination's order, Kokkos deep_copy between
// layouts and a plain MDRange copy.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <array>
#include <numeric>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace {

using strided_bench::Exec;
using Perm4 = std::array<std::size_t, 4>;
using Strided4 = Kokkos::View<double****, Kokkos::LayoutStride, Kokkos::HostSpace,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using Right4 = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;

struct W1Data {
  strided::StridedArray<double> a = strided_bench::make_row_major({64, 64, 64, 64});
  Right4 b{"b", 64, 64, 64, 64};  // initialized: its pages are touched before timing
  static W1Data& get() { return strided_bench::shared_data<W1Data>(); }
  /// A's elements seen through the permutation, as a Kokkos LayoutStride view.
  Strided4 permuted(const Perm4& p) const {
    const auto v = a.view().permute({p[0], p[1], p[2], p[3]});
    Kokkos::LayoutStride layout(v.extent(0), v.stride(0), v.extent(1), v.stride(1), v.extent(2),
                                v.stride(2), v.extent(3), v.stride(3));
    return Strided4(a.data(), layout);
  }
};

constexpr double w1_bytes = 2.0 * 64 * 64 * 64 * 64 * sizeof(double);

bool check_w1(benchmark::State& state, const Right4& b, const Strided4& src) {
  return strided_bench::check_sample(
      state, strided::view(b),
      [&](const std::vector<std::size_t>& i) { return src(i[0], i[1], i[2], i[3]); });
}

template <int Variant>
void w1(benchmark::State& state, Perm4 p) {
  const strided::Options options = strided_bench::tile_policy(Variant == 4);
  auto& d = W1Data::get();
  const Strided4 src = d.permuted(p);
  const Right4 b = d.b;
  for (auto _ : state) {
    if constexpr (Variant == 0 || Variant == 4) {
      strided::copy_into(strided::view(b), strided::view(src), options);
    } else if constexpr (Variant == 1) {  // plain loop in the destination's order
      Kokkos::parallel_for(
          "peer::loop", Kokkos::RangePolicy<Exec>(0, 64), KOKKOS_LAMBDA(int i) {
            for (int j = 0; j < 64; ++j)
              for (int k = 0; k < 64; ++k)
                for (int l = 0; l < 64; ++l) b(i, j, k, l) = src(i, j, k, l);
          });
    } else if constexpr (Variant == 2) {
      Kokkos::deep_copy(b, src);
    } else {
      Kokkos::parallel_for(
          "peer::mdrange",
          Kokkos::MDRangePolicy<Exec, Kokkos::Rank<4>>({0, 0, 0, 0}, {64, 64, 64, 64}),
          KOKKOS_LAMBDA(int i, int j, int k, int l) { b(i, j, k, l) = src(i, j, k, l); });
    }
    Kokkos::fence();
  }
  if (check_w1(state, b, src)) strided_bench::set_bytes(state, w1_bytes);
}

void register_w1() {
  const std::vector<std::pair<std::string, Perm4>> perms = {{"perm3210", {3, 2, 1, 0}},
                                                            {"perm1032", {1, 0, 3, 2}},
                                                            {"perm0213", {0, 2, 1, 3}},
                                                            {"perm2301", {2, 3, 0, 1}}};
  for (const auto& [name, p] : perms) {
    const std::string w = "W1." + name;
    benchmark::RegisterBenchmark((w + "/strided").c_str(), w1<0>, p);
    benchmark::RegisterBenchmark((w + "/strided_mdrange").c_str(), w1<4>, p);
    benchmark::RegisterBenchmark((w + "/plain_loop").c_str(), w1<1>, p);
    benchmark::RegisterBenchmark((w + "/kokkos_deep_copy").c_str(), w1<2>, p);
    benchmark::RegisterBenchmark((w + "/kokkos_mdrange").c_str(), w1<3>, p);
  }
}

// ---- W3: 8192 x 8192 transpose ------------------------------------------------------------------
using Left2 = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
using Right2 = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;

struct W3Data {
  static constexpr std::size_t n = 8192;
  strided::StridedArray<double> a = strided_bench::make_row_major({n, n});
  Right2 b{"b", n, n};  // initialized: its pages are touched before timing
};

template <int Variant>
void w3(benchmark::State& state) {
  const strided::Options options = strided_bench::tile_policy(Variant == 4);
  constexpr std::size_t n = W3Data::n;
  const auto& a = strided_bench::shared_data<W3Data>().a;
  const Right2 b = strided_bench::shared_data<W3Data>().b;
  const Left2 at(a.data(), n, n);  // A^T: the same memory read column-major
  for (auto _ : state) {
    if constexpr (Variant == 0 || Variant == 4) {
      strided::copy_into(strided::view(b), a.view().transpose(), options);
    } else if constexpr (Variant == 1) {
      Kokkos::parallel_for(
          "peer::loop", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
            for (std::size_t j = 0; j < n; ++j) b(i, j) = at(i, j);
          });
    } else if constexpr (Variant == 2) {
      Kokkos::deep_copy(b, at);
    } else {
      Kokkos::parallel_for(
          "peer::mdrange", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>({0, 0}, {n, n}),
          KOKKOS_LAMBDA(std::size_t i, std::size_t j) { b(i, j) = at(i, j); });
    }
    Kokkos::fence();
  }
  if (strided_bench::check_sample(state, strided::view(b), [&](const std::vector<std::size_t>& i) {
        return at(i[0], i[1]);
      }))
    strided_bench::set_bytes(state, 2.0 * n * n * sizeof(double));
}

// ---- W2 and W9: high-rank permuted copies
// --------------------------------------------------------
/// Permuted copy of a 2^24 or 2^25-element row-major tensor; `plain` is the peer loop: an odometer
/// over the destination in its order.
void high_rank(benchmark::State& state, std::vector<std::size_t> dims,
               std::vector<std::size_t> perm, bool plain) {
  const auto a = strided_bench::make_row_major(dims);
  std::vector<std::size_t> out_dims(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k) out_dims[k] = dims[perm[k]];
  auto b = strided::StridedArray<double>::row_major(out_dims);
  const auto src = a.view().permute(perm);
  for (auto _ : state) {
    if (!plain) {
      strided::copy_into(b.view(), src);
    } else {
      const std::size_t r = dims.size();
      std::vector<std::size_t> index(r, 0);
      std::ptrdiff_t in = 0;
      double* out = b.data();
      for (std::size_t n = 0; n < b.size(); ++n) {
        out[n] = src.data()[in];
        for (std::size_t k = r; k-- > 0;) {
          in += src.stride(k);
          if (++index[k] < out_dims[k]) break;
          in -= static_cast<std::ptrdiff_t>(out_dims[k]) * src.stride(k);
          index[k] = 0;
        }
      }
    }
    benchmark::ClobberMemory();
  }
  if (strided_bench::check_sample(state, b.view(), [&](const std::vector<std::size_t>& i) {
        std::ptrdiff_t o = 0;
        for (std::size_t k = 0; k < i.size(); ++k)
          o += static_cast<std::ptrdiff_t>(i[k]) * src.stride(k);
        return src.data()[o];
      }))
    strided_bench::set_bytes(state, 2.0 * static_cast<double>(b.size()) * sizeof(double));
}

void register_high_rank() {
  const std::vector<std::size_t> w2_perm = {20, 11, 7,  4,  0, 8,  16, 13, 1,  10, 14, 5, 23,
                                            12, 17, 15, 22, 2, 24, 6,  3,  18, 9,  21, 19};
  for (bool plain : {false, true})
    benchmark::RegisterBenchmark(plain ? "W2.rank25/plain_loop" : "W2.rank25/strided", high_rank,
                                 std::vector<std::size_t>(25, 2), w2_perm, plain);
  for (std::size_t rank : {2, 3, 4, 6, 8, 12, 16, 24}) {
    // 2^24 elements split as evenly as possible; the permutation reverses the axes.
    std::vector<std::size_t> dims(rank, 1);
    for (std::size_t bit = 0; bit < 24; ++bit) dims[bit % rank] *= 2;
    std::vector<std::size_t> perm(rank);
    std::iota(perm.rbegin(), perm.rend(), 0);
    const std::string name = "W9.rank" + std::to_string(rank);
    benchmark::RegisterBenchmark((name + "/strided").c_str(), high_rank, dims, perm, false);
  }
}

const bool registered = [] {
  register_w1();
  benchmark::RegisterBenchmark("W3.transpose/strided", w3<0>);
  benchmark::RegisterBenchmark("W3.transpose/strided_mdrange", w3<4>);
  benchmark::RegisterBenchmark("W3.transpose/plain_loop", w3<1>);
  benchmark::RegisterBenchmark("W3.transpose/kokkos_deep_copy", w3<2>);
  benchmark::RegisterBenchmark("W3.transpose/kokkos_mdrange", w3<3>);
  register_high_rank();
  return true;
}();

}  // namespace
