// W1 (permutations of a rank-4 tensor), W2 (rank-25 permutation), W3 (square transpose), W9
// (the same permuted copy at ranks 2 to 24) and O (odd extents at ranks 3 to 6): Strided's
// copy_into beside a plain loop in the destination's order, Kokkos deep_copy between layouts
// and a plain MDRange copy.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "data.hpp"
#include "workloads.hpp"

namespace strided_report {

namespace {

using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
template <class Data, class Layout>
using HostView = Kokkos::View<Data, Layout, Kokkos::HostSpace, Unmanaged>;
using MD = std::int64_t;  // MDRangePolicy's index type

/// Runs one variant of a copy into `dst`: poisons it, times `run`, checks it against `src`.
template <class Src, class Run>
void copy_variant(Bench& bench, const std::string& name, Array& dst, const Src& src, Run&& run) {
  poison(dst.data(), dst.size());
  bench.measure(name, 2.0 * static_cast<double>(dst.size()) * sizeof(double), run,
                [&] { return check_copy(dst.view(), src); });
}

// ---- W1: B = permute(A), A n^4 ---------------------------------------------------------------

void run_w1(Bench& bench, const std::array<std::size_t, 4>& p) {
  const std::size_t n = bench.sizes().w1_extent;
  Array a = make_pattern_array({n, n, n, n});
  Array b = Array::row_major({n, n, n, n});
  const auto src = a.view().permute({p[0], p[1], p[2], p[3]});
  bench.explain([&] { return strided::explain(strided::plan(b.view(), src)); });
  copy_variant(bench, "strided", b, src, [&] { strided::copy_into(b.view(), src); });

  // The peers see the same elements as Kokkos views: B LayoutRight, the source LayoutStride.
  const HostView<double****, Kokkos::LayoutRight> kb(b.data(), n, n, n, n);
  const HostView<const double****, Kokkos::LayoutStride> ks(
      a.data(),
      Kokkos::LayoutStride(n, src.stride(0), n, src.stride(1), n, src.stride(2), n, src.stride(3)));
  copy_variant(bench, "plain_loop", b, src, [&] {
    Kokkos::parallel_for(
        "peer::loop", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
          for (std::size_t j = 0; j < n; ++j)
            for (std::size_t k = 0; k < n; ++k)
              for (std::size_t l = 0; l < n; ++l) kb(i, j, k, l) = ks(i, j, k, l);
        });
  });
  // (3,2,1,0) of a row-major tensor is the same memory read LayoutLeft: the case deep_copy
  // between layouts is made for. The other permutations go through LayoutStride.
  if (p == std::array<std::size_t, 4>{3, 2, 1, 0}) {
    const HostView<const double****, Kokkos::LayoutLeft> left(a.data(), n, n, n, n);
    copy_variant(bench, "kokkos_deep_copy", b, src, [&] { Kokkos::deep_copy(kb, left); });
  } else {
    copy_variant(bench, "kokkos_deep_copy", b, src, [&] { Kokkos::deep_copy(kb, ks); });
  }
  const MD m = static_cast<MD>(n);
  copy_variant(bench, "kokkos_mdrange", b, src, [&] {
    Kokkos::parallel_for(
        "peer::mdrange", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<4>>({0, 0, 0, 0}, {m, m, m, m}),
        KOKKOS_LAMBDA(MD i, MD j, MD k, MD l) { kb(i, j, k, l) = ks(i, j, k, l); });
  });
}

Workload w1(const std::string& name, std::array<std::size_t, 4> perm) {
  return {"W1." + name, LimitKind::Copy, {Target::of_limit(0.85)}, [perm](Bench& bench) {
            run_w1(bench, perm);
          }};
}

// ---- W3: B = A^T, n x n ------------------------------------------------------------------------

void run_w3(Bench& bench) {
  const std::size_t n = bench.sizes().w3_extent;
  Array a = make_pattern_array({n, n});
  Array b = Array::row_major({n, n});
  const auto src = a.view().transpose();
  bench.explain([&] { return strided::explain(strided::plan(b.view(), src)); });
  copy_variant(bench, "strided", b, src, [&] { strided::copy_into(b.view(), src); });

  const HostView<double**, Kokkos::LayoutRight> kb(b.data(), n, n);
  const HostView<const double**, Kokkos::LayoutLeft> at(a.data(), n, n);  // A^T, same memory
  copy_variant(bench, "plain_loop", b, src, [&] {
    Kokkos::parallel_for(
        "peer::loop", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(std::size_t i) {
          for (std::size_t j = 0; j < n; ++j) kb(i, j) = at(i, j);
        });
  });
  copy_variant(bench, "kokkos_deep_copy", b, src, [&] { Kokkos::deep_copy(kb, at); });
  const MD m = static_cast<MD>(n);
  copy_variant(bench, "kokkos_mdrange", b, src, [&] {
    Kokkos::parallel_for(
        "peer::mdrange", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2>>({0, 0}, {m, m}),
        KOKKOS_LAMBDA(MD i, MD j) { kb(i, j) = at(i, j); });
  });
}

// ---- W2 and W9: permuted copies of any rank
// ------------------------------------------------------

/// The plain loop for any rank: destination elements in order, chunks of the flat index in
/// parallel, each walking an odometer over the destination's index and stepping the source
/// offset by the source's strides.
template <class Src>
void odometer_copy(Array& dst, const Src& src) {
  constexpr std::size_t max_rank = 32, chunk = 4096;
  struct Shape {
    std::size_t rank, extent[max_rank];
    std::ptrdiff_t stride[max_rank];
  } s{dst.rank(), {}, {}};
  for (std::size_t k = 0; k < s.rank; ++k) {
    s.extent[k] = dst.extent(k);
    s.stride[k] = src.stride(k);
  }
  const std::size_t count = dst.size();
  double* out = dst.data();
  const double* in = src.data();
  Kokkos::parallel_for(
      "peer::loop", Kokkos::RangePolicy<Exec>(0, (count + chunk - 1) / chunk),
      [=](std::size_t c) {  // host only: nvcc rejects the local type Shape in a KOKKOS_LAMBDA
        std::size_t index[max_rank];
        std::ptrdiff_t offset = 0;
        std::size_t flat = c * chunk;
        for (std::size_t k = s.rank; k-- > 0;) {
          index[k] = flat % s.extent[k];
          flat /= s.extent[k];
          offset += static_cast<std::ptrdiff_t>(index[k]) * s.stride[k];
        }
        const std::size_t end = c * chunk + chunk < count ? c * chunk + chunk : count;
        for (std::size_t e = c * chunk; e < end; ++e) {
          out[e] = in[offset];
          for (std::size_t k = s.rank; k-- > 0;) {
            offset += s.stride[k];
            if (++index[k] < s.extent[k]) break;
            offset -= static_cast<std::ptrdiff_t>(s.extent[k]) * s.stride[k];
            index[k] = 0;
          }
        }
      });
}

void run_high_rank(Bench& bench, const std::vector<std::size_t>& dims,
                   const std::vector<std::size_t>& perm) {
  Array a = make_pattern_array(dims);
  std::vector<std::size_t> out_dims(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k) out_dims[k] = dims[perm[k]];
  Array b = Array::row_major(out_dims);
  const auto src = a.view().permute(perm);
  bench.explain([&] { return strided::explain(strided::plan(b.view(), src)); });
  copy_variant(bench, "strided", b, src, [&] { strided::copy_into(b.view(), src); });
  copy_variant(bench, "plain_loop", b, src, [&] { odometer_copy(b, src); });
}

/// W2's permutation of 25 axes; the quick report uses its axes below `rank`, in the same order.
std::vector<std::size_t> w2_permutation(std::size_t rank) {
  const std::size_t full[] = {20, 11, 7,  4,  0, 8,  16, 13, 1,  10, 14, 5, 23,
                              12, 17, 15, 22, 2, 24, 6,  3,  18, 9,  21, 19};
  std::vector<std::size_t> perm;
  for (std::size_t axis : full)
    if (axis < rank) perm.push_back(axis);
  return perm;
}

Workload w2() {
  return {"W2.rank25", LimitKind::Copy, {Target::of_limit(0.70)}, [](Bench& bench) {
            const std::size_t rank = bench.sizes().w2_rank;
            run_high_rank(bench, std::vector<std::size_t>(rank, 2), w2_permutation(rank));
          }};
}

/// W9 at one rank: 2^k elements split as evenly as possible over the axes, which are reversed.
Workload w9(std::size_t rank) {
  return {"W9.rank" + std::to_string(rank),
          LimitKind::Copy,
          {Target::of_limit(0.70)},
          [rank](Bench& bench) {
            std::vector<std::size_t> dims(rank, 1);
            for (std::size_t bit = 0; bit < bench.sizes().w9_log2; ++bit) dims[bit % rank] *= 2;
            std::vector<std::size_t> perm(rank);
            std::iota(perm.rbegin(), perm.rend(), std::size_t(0));
            run_high_rank(bench, dims, perm);
          }};
}

/// O: permutations of tensors whose extents are not powers of two (the shapes of the
/// transposition benchmarks in the literature: ragged blocks, rows that start mid-line). No
/// PERFORMANCE.md target: shown against the copy limit and the plain loop.
Workload odd(const std::string& name, std::size_t rank, std::vector<std::size_t> perm) {
  return {"O." + name, LimitKind::Copy, {}, [rank, perm](Bench& bench) {
            run_high_rank(bench, std::vector<std::size_t>(rank, bench.sizes().odd_extent[rank - 3]),
                          perm);
          }};
}

}  // namespace

std::vector<Workload> permute_workloads() {
  std::vector<Workload> list = {
      w1("perm3210", {3, 2, 1, 0}),
      w1("perm1032", {1, 0, 3, 2}),
      w1("perm0213", {0, 2, 1, 3}),
      w1("perm2301", {2, 3, 0, 1}),
      w2(),
      {"W3.transpose", LimitKind::Copy, {Target::of_limit(0.85)}, run_w3}};
  for (std::size_t rank : {2, 3, 4, 6, 8, 12, 16, 24}) list.push_back(w9(rank));
  return list;
}

std::vector<Workload> odd_workloads() {
  return {odd("r3.perm021", 3, {0, 2, 1}), odd("r3.perm210", 3, {2, 1, 0}),
          odd("r4.perm1032", 4, {1, 0, 3, 2}), odd("r5.perm43210", 5, {4, 3, 2, 1, 0}),
          odd("r6.perm543210", 6, {5, 4, 3, 2, 1, 0})};
}

}  // namespace strided_report
