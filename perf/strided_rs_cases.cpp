// strided-rs-cases: the workloads of the strided-rs benchmark suite (tensor4all/strided-rs and
// strided-rs-benchmark-suite, the Rust port of Strided.jl; ../shared/reference/strided-rs.md
// section 5), each timed for Strided and for a plain loop in the destination's order, in the same
// process. Column-major operands, as there. Every result is compared with the plain loop's (bits
// for element-wise work; reductions within a relative 1e-12). Per case: medians of 7 batches of
// calls (a batch lasts at least 2 ms) in microseconds, Strided's GB/s (operands read once, outputs
// written once) and how many times faster than the plain loop it is; the last lines list the cases
// where Strided is slower. `--threads N` runs on N threads; Kokkos' own arguments apply.
// Figures hold for the machine they ran on only.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include <strided/strided.hpp>

#include "kokkos_threads.hpp"

namespace {

using Exec = Kokkos::DefaultHostExecutionSpace;
using Extents = std::vector<std::size_t>;
using Strides = std::vector<std::ptrdiff_t>;

struct Row {
  std::string name;
  double strided_ms, naive_ms, bytes;
};
std::vector<Row> rows;
std::string only;
bool failed = false;

/// Milliseconds per call: a warm-up call, then 7 batches of calls (each at least 2 ms), median.
double time_ms(const std::function<void()>& f) {
  using clock = std::chrono::steady_clock;
  f();
  auto start = clock::now();
  f();
  const double once = std::chrono::duration<double, std::milli>(clock::now() - start).count();
  const int reps =
      once >= 2.0 ? 1 : static_cast<int>(std::min(100000.0, 2.0 / std::max(once, 1e-6)));
  std::vector<double> t;
  for (int s = 0; s < 7; ++s) {
    start = clock::now();
    for (int r = 0; r < reps; ++r) f();
    t.push_back(std::chrono::duration<double, std::milli>(clock::now() - start).count() / reps);
  }
  std::sort(t.begin(), t.end());
  return t[3];
}

bool selected(const std::string& name) {
  return name.rfind(only, 0) == 0;
}

void record(const std::string& name, double strided_ms, double naive_ms, double bytes, bool same) {
  if (!same) {
    std::printf("WRONG: %s\n", name.c_str());
    failed = true;
  }
  rows.push_back({name, strided_ms, naive_ms, bytes});
  std::printf("%-44s %12.3f us %12.3f us  %6.2fx  %7.2f GB/s\n", name.c_str(), 1e3 * strided_ms,
              1e3 * naive_ms, naive_ms / strided_ms, bytes / strided_ms / 1e6);
  std::fflush(stdout);
}

Strides col_major(const Extents& e) {
  Strides s(e.size());
  std::ptrdiff_t stride = 1;
  for (std::size_t k = 0; k < e.size(); ++k) {
    s[k] = stride;
    stride *= static_cast<std::ptrdiff_t>(e[k]);
  }
  return s;
}

std::size_t count(const Extents& e) {
  std::size_t n = 1;
  for (auto x : e) n *= x;
  return n;
}

/// The plain loop: walks the destination in its memory order (axis 0 fastest) with an odometer
/// and calls body(dst_offset, src_offsets...) per element.
template <std::size_t S, class Body>
void naive_walk(const Extents& e, const Strides& d, const std::array<Strides, S>& s, Body body) {
  const std::size_t rank = e.size();
  if (count(e) == 0) return;
  std::vector<std::size_t> i(rank, 0);
  std::ptrdiff_t od = 0;
  std::array<std::ptrdiff_t, S> os{};
  const std::size_t n0 = rank ? e[0] : 1;
  const std::ptrdiff_t d0 = rank ? d[0] : 0;
  std::array<std::ptrdiff_t, S> s0{};
  for (std::size_t k = 0; k < S; ++k) s0[k] = rank ? s[k][0] : 0;
  while (true) {
    for (std::size_t j = 0; j < n0; ++j) {
      std::array<std::ptrdiff_t, S> at{};
      for (std::size_t k = 0; k < S; ++k) at[k] = os[k] + static_cast<std::ptrdiff_t>(j) * s0[k];
      body(od + static_cast<std::ptrdiff_t>(j) * d0, at);
    }
    std::size_t k = 1;
    for (; k < rank; ++k) {
      od += d[k];
      for (std::size_t q = 0; q < S; ++q) os[q] += s[q][k];
      if (++i[k] < e[k]) break;
      od -= d[k] * static_cast<std::ptrdiff_t>(e[k]);
      for (std::size_t q = 0; q < S; ++q) os[q] -= s[q][k] * static_cast<std::ptrdiff_t>(e[k]);
      i[k] = 0;
    }
    if (k >= rank) return;
  }
}

template <class T>
T value_at(std::size_t i) {
  if constexpr (std::is_same_v<T, Kokkos::complex<double>> ||
                std::is_same_v<T, Kokkos::complex<float>>) {
    using R = typename T::value_type;
    return T(static_cast<R>(i % 1013) * R(0.5), static_cast<R>(i % 977) * R(-0.25));
  } else {
    return static_cast<T>(i % 1013);
  }
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// (a) Permutations: B (column-major) = A permuted; A column-major or with given strides.
void permute_case(const std::string& name, const Extents& a_extents, const std::vector<int>& perm,
                  Strides a_strides = {}) {
  if (!selected(name)) return;
  if (a_strides.empty()) a_strides = col_major(a_extents);
  std::size_t len = 1;
  for (std::size_t k = 0; k < a_extents.size(); ++k)
    len += (a_extents[k] - 1) * static_cast<std::size_t>(a_strides[k]);
  const std::size_t n = count(a_extents);
  std::vector<double> a(len), b(n), ref(n);
  for (std::size_t i = 0; i < len; ++i) a[i] = value_at<double>(i);
  const strided::StridedView<const double> A(a.data(), len, a_extents, a_strides);
  const auto P = A.permute(perm);
  Extents b_extents(perm.size());
  Strides p_strides(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) {
    b_extents[k] = a_extents[perm[k]];
    p_strides[k] = a_strides[perm[k]];
  }
  const auto b_strides = col_major(b_extents);
  const strided::StridedView<double> B(b.data(), n, b_extents, b_strides);
  const Exec exec;
  const double ts = time_ms([&] { strided::copy_into(exec, B, P); });
  const double tn = time_ms([&] {
    naive_walk<1>(
        b_extents, b_strides, {p_strides},
        [&](std::ptrdiff_t o, const std::array<std::ptrdiff_t, 1>& s) { ref[o] = a[s[0]]; });
  });
  record(name, ts, tn, 2.0 * n * sizeof(double), same_bits(b, ref));
}

// (b) Transpose-scale: B = scale * A^T (n x n), through copy_scale and through map_into.
template <class T>
void transpose_scale_case(const char* type, std::size_t n, int scale_value) {
  const std::string base = std::string("transpose_scale.") + type + "." + std::to_string(n) +
                           ".scale" + std::to_string(scale_value);
  if (!selected(base)) return;
  const std::size_t len = n * n;
  std::vector<T> a(len), b(len), ref(len);
  for (std::size_t i = 0; i < len; ++i) a[i] = value_at<T>(i);
  const Extents e{n, n};
  const auto cm = col_major(e);
  const strided::StridedView<const T> A(a.data(), len, e, cm);
  const strided::StridedView<T> B(b.data(), len, e, cm);
  const T scale = static_cast<T>(scale_value);
  const auto At = A.transpose();
  const Exec exec;
  const double tn = time_ms([&] {
    naive_walk<1>(e, cm, {Strides{cm[1], cm[0]}},
                  [&](std::ptrdiff_t o, const std::array<std::ptrdiff_t, 1>& s) {
                    ref[o] = scale * a[s[0]];
                  });
  });
  const double bytes = 2.0 * len * sizeof(T);
  double ts = time_ms([&] { strided::copy_scale(exec, B, At, scale); });
  record(base + ".copy_scale", ts, tn, bytes, same_bits(b, ref));
  std::fill(b.begin(), b.end(), T{});
  ts = time_ms([&] { strided::map_into(exec, B, At, [scale](const T& x) { return scale * x; }); });
  record(base + ".map_into", ts, tn, bytes, same_bits(b, ref));
}

// (c) Fused element-wise maps over n x n (column-major) operands.
void fused_cases(std::size_t n) {
  const std::size_t len = n * n;
  const Extents e{n, n};
  const auto cm = col_major(e);
  std::vector<double> a(len), b(len), c1(1, 0.5), out(len), ref(len);
  for (std::size_t i = 0; i < len; ++i) {
    a[i] = 1.0 + static_cast<double>(i % 1013) * 1e-3;
    b[i] = 2.0 - static_cast<double>(i % 977) * 1e-3;
  }
  const strided::StridedView<const double> A(a.data(), len, e, cm), B(b.data(), len, e, cm);
  const strided::StridedView<const double> C(c1.data(), 1, e, Strides{0, 0});  // a broadcast scalar
  const strided::StridedView<double> O(out.data(), len, e, cm);
  const Exec exec;
  const std::string suffix = "." + std::to_string(n);
  const double lo = 0.1, hi = 10.0;
  if (selected("fused.add_mul" + suffix)) {
    auto f = [](double x, double y) { return (x + y) * x; };
    const double tn = time_ms([&] {
      for (std::size_t i = 0; i < len; ++i) ref[i] = f(a[i], b[i]);
    });
    const double ts = time_ms([&] { strided::zip_map_into(exec, O, f, A, B); });
    record("fused.add_mul" + suffix, ts, tn, 3.0 * len * 8, same_bits(out, ref));
  }
  if (selected("fused.broadcast_exp_mul_add" + suffix)) {
    auto f = [](double x, double y, double z) { return std::exp(x * y + z); };
    const double tn = time_ms([&] {
      for (std::size_t i = 0; i < len; ++i) ref[i] = f(a[i], b[i], c1[0]);
    });
    const double ts = time_ms([&] { strided::zip_map_into(exec, O, f, A, B, C); });
    record("fused.broadcast_exp_mul_add" + suffix, ts, tn, 3.0 * len * 8, same_bits(out, ref));
  }
  if (selected("fused.long_chain" + suffix)) {
    auto f = [lo, hi](double x, double y) {
      return 1.0 / std::sqrt(std::sqrt(std::min(std::max(x / y, lo), hi)));
    };
    const double tn = time_ms([&] {
      for (std::size_t i = 0; i < len; ++i) ref[i] = f(a[i], b[i]);
    });
    const double ts = time_ms([&] { strided::zip_map_into(exec, O, f, A, B); });
    record("fused.long_chain" + suffix, ts, tn, 3.0 * len * 8, same_bits(out, ref));
  }
}

// (d) The strided-kernel set (rust_compare.rs).
void kernel_cases() {
  const Exec exec;
  if (selected("kernel.symmetrize_4000")) {
    const std::size_t n = 4000, len = n * n;
    std::vector<double> a(len), b(len), ref(len);
    for (std::size_t i = 0; i < len; ++i) a[i] = value_at<double>(i * 7);
    const Extents e{n, n};
    const strided::StridedView<const double> A(a.data(), len, e, col_major(e));
    const strided::StridedView<double> B(b.data(), len, e, col_major(e));
    const double tn = time_ms([&] {
      for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < n; ++i) ref[i + j * n] = (a[i + j * n] + a[j + i * n]) / 2;
    });
    const double ts = time_ms([&] { strided::symmetrize_into(exec, B, A); });
    record("kernel.symmetrize_4000", ts, tn, 2.0 * len * 8, same_bits(b, ref));
  }
  if (selected("kernel.complex_elementwise_1000")) {
    const std::size_t n = 1000, len = n * n;
    std::vector<double> a(len), b(len), ref(len);
    for (std::size_t i = 0; i < len; ++i) a[i] = static_cast<double>(i % 1013) * 1e-3;
    const Extents e{n, n};
    const strided::StridedView<const double> A(a.data(), len, e, col_major(e));
    const strided::StridedView<double> B(b.data(), len, e, col_major(e));
    auto f = [](double x) { return x * std::exp(-2.0 * x) + std::sin(x * x); };
    const double tn = time_ms([&] {
      for (std::size_t i = 0; i < len; ++i) ref[i] = f(a[i]);
    });
    const double ts = time_ms([&] { strided::map_into(exec, B, A, f); });
    record("kernel.complex_elementwise_1000", ts, tn, 2.0 * len * 8, same_bits(b, ref));
  }
  if (selected("kernel.multiple_permute_sum_32_4d")) {
    const Extents e{32, 32, 32, 32};
    const std::size_t len = count(e);
    std::vector<double> a(len), b(len), ref(len);
    for (std::size_t i = 0; i < len; ++i) a[i] = value_at<double>(i);
    const auto cm = col_major(e);
    const strided::StridedView<const double> A(a.data(), len, e, cm);
    const strided::StridedView<double> B(b.data(), len, e, cm);
    const std::vector<int> p1{1, 2, 3, 0}, p2{2, 3, 0, 1}, p3{3, 0, 1, 2};
    auto permuted = [&](const std::vector<int>& p) {
      Strides s(4);
      for (int k = 0; k < 4; ++k) s[k] = cm[p[k]];
      return s;
    };
    auto f = [](double w, double x, double y, double z) { return w + x + y + z; };
    const double tn = time_ms([&] {
      naive_walk<4>(e, cm, {cm, permuted(p1), permuted(p2), permuted(p3)},
                    [&](std::ptrdiff_t o, const std::array<std::ptrdiff_t, 4>& s) {
                      ref[o] = f(a[s[0]], a[s[1]], a[s[2]], a[s[3]]);
                    });
    });
    const double ts = time_ms(
        [&] { strided::zip_map_into(exec, B, f, A, A.permute(p1), A.permute(p2), A.permute(p3)); });
    record("kernel.multiple_permute_sum_32_4d", ts, tn, 5.0 * len * 8, same_bits(b, ref));
  }
}

// (e) Scaling: 1-d sums of 4 to 2^20 elements (strided::sum against a plain loop; the fold orders
// differ, so the results are compared within 1e-12).
void sum_case(std::size_t n) {
  const std::string name = "scaling.sum." + std::to_string(n);
  if (!selected(name)) return;
  std::vector<double> a(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = value_at<double>(i) * 1e-3;
  const strided::StridedView<const double> A(a.data(), n, {n}, {1});
  const Exec exec;
  double s = 0, r = 0;
  const double ts = time_ms([&] { s = strided::sum(exec, A); });
  const double tn = time_ms([&] {
    double acc = 0;
    for (std::size_t i = 0; i < n; ++i) acc += a[i];
    r = acc;
  });
  record(name, ts, tn, 8.0 * n, std::abs(s - r) <= 1e-12 * std::abs(r));
}

std::string perm_name(const std::vector<int>& p) {
  std::string s = "[";
  for (std::size_t k = 0; k < p.size(); ++k) s += (k ? "," : "") + std::to_string(p[k]);
  return s + "]";
}

}  // namespace

int main(int argc, char** argv) {
  strided_perf::KokkosArguments args(argc, argv);
  Kokkos::ScopeGuard kokkos(args.argc(), args.argv());
  // --only PREFIX: the cases whose name starts with PREFIX.
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--only" && i + 1 < argc) only = argv[++i];
  std::printf("strided-rs-cases: Strided %s on Kokkos %d.%d.%d, %s with %d threads\n",
              strided::version_string, KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
              KOKKOS_VERSION % 100, Exec::name(), static_cast<int>(Exec().concurrency()));
  std::printf("%-44s %15s %15s %8s %12s\n", "case", "strided", "plain loop", "speed-up", "strided");

  // (a) The permutation patterns (permute/patterns.json).
  permute_case("permute.memcpy_24d", Extents(24, 2), [] {
    std::vector<int> p(24);
    for (int k = 0; k < 24; ++k) p[k] = k;
    return p;
  }());
  for (std::size_t n : {256, 1024, 2048})
    permute_case("permute.transpose_2d." + std::to_string(n), {n, n}, {1, 0});
  permute_case("permute.3d_256.[2,0,1]", {256, 256, 256}, {2, 0, 1});
  permute_case("permute.3d_256.[1,0,2]", {256, 256, 256}, {1, 0, 2});
  permute_case("permute.6d_rotation", {32, 32, 32, 32, 16, 16}, {5, 0, 4, 1, 3, 2});
  auto reversal = [](int r) {
    std::vector<int> p(r);
    for (int k = 0; k < r; ++k) p[k] = r - 1 - k;
    return p;
  };
  permute_case("permute.20d_reverse", Extents(20, 2), reversal(20));
  permute_case("permute.13d_reverse", Extents(13, 2), reversal(13));
  std::vector<int> cyclic(13);
  for (int k = 0; k < 13; ++k) cyclic[k] = (k + 1) % 13;
  permute_case("permute.13d_cyclic", Extents(13, 2), cyclic);
  // 24-d, every extent 2: the source's strides scattered (two axes' strides moved to the top),
  // the destination column-major.
  std::vector<int> scatter{0, 1, 2, 3, 22, 4, 23};
  for (int k = 5; k <= 21; ++k) scatter.push_back(k);
  Strides scattered{1, 2, 4, 8, 4194304, 16, 8388608};
  for (std::ptrdiff_t s = 32; s <= 2097152; s *= 2) scattered.push_back(s);
  permute_case("permute.24d_scattered_to_col_major", Extents(24, 2), scatter, scattered);
  permute_case("permute.24d_contiguous_permutation", Extents(24, 2), scatter);

  // (b) Transpose-scale.
  for (std::size_t n : {1000, 1024, 2048})
    for (int scale : {0, 1, 3}) {
      transpose_scale_case<float>("f32", n, scale);
      transpose_scale_case<double>("f64", n, scale);
      transpose_scale_case<Kokkos::complex<float>>("c32", n, scale);
      transpose_scale_case<Kokkos::complex<double>>("c64", n, scale);
      transpose_scale_case<std::uint64_t>("u64", n, scale);
    }

  // (c) Fused element-wise.
  for (std::size_t n : {256, 512, 1024}) fused_cases(n);

  // (d) The strided-kernel set.
  permute_case("kernel.permute_32_4d", {32, 32, 32, 32}, {3, 2, 1, 0});
  kernel_cases();
  sum_case(1000000);

  // (e) Scaling: 1-d sums and 4-d permutations of s^4 elements.
  for (std::size_t n : {4, 12, 32, 91, 256, 725, 2048, 5793, 16384, 46341, 131072, 370728, 1048576})
    sum_case(n);
  for (const auto& p : {std::vector<int>{3, 2, 1, 0}, {1, 2, 3, 0}, {2, 3, 0, 1}})
    for (std::size_t s : {4, 8, 12, 16, 24, 32, 48, 64})
      permute_case("scaling.permute_4d." + perm_name(p) + "." + std::to_string(s), {s, s, s, s}, p);

  std::printf("\nslower than the plain loop:");
  int slower = 0;
  for (const auto& r : rows)
    if (r.strided_ms > r.naive_ms) {
      std::printf("%s %s (%.2fx)", slower++ ? "," : "", r.name.c_str(), r.naive_ms / r.strided_ms);
    }
  std::printf("%s\n", slower ? "" : " none");
  return failed ? 1 : 0;
}
