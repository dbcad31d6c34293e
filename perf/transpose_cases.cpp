// strided-transpose-cases: the 57 transpositions of HPTT's benchmark (Springer, Su and
// Bientinesi, "HPTT: a high-performance tensor transposition C++ library", 2017; the extents and
// permutations of its benchmark.sh, about 200 MiB of doubles each, column-major, B = A permuted).
// Each case times strided::copy_into of the permuted view against strided::copy_scale of the same
// bytes as one contiguous run, in the same process (medians of 5), checks a sample of B against A,
// and prints the ratio; the last line gives the median and the three worst. The ratios hold for
// the machine they ran on only. `--threads N` runs on N threads; Kokkos' own arguments apply.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <strided/strided.hpp>

#include "kokkos_threads.hpp"

namespace {

// rank, permutation (B's axis k is A's axis perm[k]), A's extents.
const char* const CASES[] = {"2 1 0 7264 7264",
                             "2 1 0 43408 1216",
                             "2 1 0 1216 43408",
                             "3 0 2 1 368 384 384",
                             "3 0 2 1 2144 64 384",
                             "3 0 2 1 368 64 2307",
                             "3 1 0 2 384 384 355",
                             "3 1 0 2 2320 384 59",
                             "3 1 0 2 384 2320 59",
                             "3 2 1 0 384 355 384",
                             "3 2 1 0 2320 59 384",
                             "3 2 1 0 384 59 2320",
                             "4 0 3 2 1 80 96 75 96",
                             "4 0 3 2 1 464 16 75 96",
                             "4 0 3 2 1 80 16 75 582",
                             "4 2 1 3 0 96 75 96 75",
                             "4 2 1 3 0 608 12 96 75",
                             "4 2 1 3 0 96 12 608 75",
                             "4 2 0 3 1 96 75 96 75",
                             "4 2 0 3 1 608 12 96 75",
                             "4 2 0 3 1 96 12 608 75",
                             "4 1 0 3 2 96 96 75 75",
                             "4 1 0 3 2 608 96 12 75",
                             "4 1 0 3 2 96 608 12 75",
                             "4 3 2 1 0 96 75 75 96",
                             "4 3 2 1 0 608 12 75 96",
                             "4 3 2 1 0 96 12 75 608",
                             "5 0 4 2 1 3 32 48 28 28 48",
                             "5 0 4 2 1 3 176 8 28 28 48",
                             "5 0 4 2 1 3 32 8 28 28 298",
                             "5 3 2 1 4 0 48 28 28 48 28",
                             "5 3 2 1 4 0 352 4 28 48 28",
                             "5 3 2 1 4 0 48 4 28 352 28",
                             "5 2 0 4 1 3 48 28 48 28 28",
                             "5 2 0 4 1 3 352 4 48 28 28",
                             "5 2 0 4 1 3 48 4 352 28 28",
                             "5 1 3 0 4 2 48 48 28 28 28",
                             "5 1 3 0 4 2 352 48 4 28 28",
                             "5 1 3 0 4 2 48 352 4 28 28",
                             "5 4 3 2 1 0 48 28 28 28 48",
                             "5 4 3 2 1 0 352 4 28 28 48",
                             "5 4 3 2 1 0 48 4 28 28 352",
                             "6 0 3 2 5 4 1 16 32 15 32 15 15",
                             "6 0 3 2 5 4 1 48 10 15 32 15 15",
                             "6 0 3 2 5 4 1 16 10 15 103 15 15",
                             "6 3 2 0 5 1 4 32 15 15 32 15 15",
                             "6 3 2 0 5 1 4 112 5 15 32 15 15",
                             "6 3 2 0 5 1 4 32 5 15 112 15 15",
                             "6 2 0 4 1 5 3 32 15 32 15 15 15",
                             "6 2 0 4 1 5 3 112 5 32 15 15 15",
                             "6 2 0 4 1 5 3 32 5 112 15 15 15",
                             "6 3 2 5 1 0 4 32 15 15 32 15 15",
                             "6 3 2 5 1 0 4 112 5 15 32 15 15",
                             "6 3 2 5 1 0 4 32 5 15 112 15 15",
                             "6 5 4 3 2 1 0 32 15 15 15 15 32",
                             "6 5 4 3 2 1 0 112 5 15 15 15 32",
                             "6 5 4 3 2 1 0 32 5 15 15 15 112"};

constexpr int ROUNDS = 5;

template <class F>
double milliseconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<std::ptrdiff_t> column_major(const std::vector<std::size_t>& extents) {
  std::vector<std::ptrdiff_t> strides(extents.size());
  std::ptrdiff_t stride = 1;
  for (std::size_t k = 0; k < extents.size(); ++k) {
    strides[k] = stride;
    stride *= static_cast<std::ptrdiff_t>(extents[k]);
  }
  return strides;
}

/// The ratio of a contiguous scale-copy's time to the permuted copy's; negative if B is wrong.
/// `explain`: print the plan of the permuted copy first.
double run_case(const std::string& text, bool explain) {
  std::istringstream in(text);
  std::size_t rank = 0;
  in >> rank;
  std::vector<std::size_t> perm(rank), extents(rank), permuted(rank);
  for (auto& p : perm) in >> p;
  for (auto& e : extents) in >> e;
  std::size_t n = 1;
  for (std::size_t k = 0; k < rank; ++k) {
    n *= extents[k];
    permuted[k] = extents[perm[k]];
  }
  const auto a_strides = column_major(extents);
  std::vector<double> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<double>(i % 1000);
  const strided::StridedView<const double> A(a.data(), n, extents, a_strides);
  const strided::StridedView<double> B(b.data(), n, permuted, column_major(permuted));
  const strided::StridedView<const double> flat_a(a.data(), n, {n}, {1});
  const strided::StridedView<double> flat_c(c.data(), n, {n}, {1});
  const auto permuted_a = A.permute(perm);
  const Kokkos::DefaultHostExecutionSpace exec;
  if (explain) {
    const auto plan = strided::plan(B, permuted_a);
    std::printf("%s\n", strided::explain(plan).c_str());
    if (plan.custom_walk) {  // (not in explain: the order consecutive tiles take)
      std::printf("  tile walk (fastest first) [");
      for (int i = 0; i < plan.rank; ++i) std::printf(i ? ", %d" : "%d", plan.walk[i]);
      std::printf("]\n");
    }
  }
  std::vector<double> copy_ms, limit_ms;
  for (int round = 0; round <= ROUNDS; ++round) {  // round 0 warms up
    const double copy = milliseconds([&] { strided::copy_into(exec, B, permuted_a); });
    const double limit = milliseconds([&] { strided::copy_scale(exec, flat_c, flat_a, 1.0); });
    if (round > 0) {
      copy_ms.push_back(copy);
      limit_ms.push_back(limit);
    }
  }
  for (std::size_t i = 0; i < n; i += 7919) {
    std::size_t rest = i, at = 0;
    for (std::size_t k = 0; k < rank; ++k) {
      at += rest % permuted[k] * static_cast<std::size_t>(a_strides[perm[k]]);
      rest /= permuted[k];
    }
    if (b[i] != a[at]) return -1;
  }
  const double ratio = median(limit_ms) / median(copy_ms);
  std::printf("%-36s %9.2f ms  %5.1f%% of scale-copy\n", text.c_str(), median(copy_ms),
              100 * ratio);
  std::fflush(stdout);
  return ratio;
}

}  // namespace

int main(int argc, char** argv) {
  strided_perf::KokkosArguments args(argc, argv);
  Kokkos::ScopeGuard kokkos(args.argc(), args.argv());
  // --only TEXT: the cases whose line starts with TEXT; --explain: print each case's plan.
  std::string only;
  bool explain = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--explain") explain = true;
    if (arg == "--only" && i + 1 < argc) only = argv[++i];
  }
  std::vector<double> ratios;
  for (const char* text : CASES) {
    if (std::string(text).rfind(only, 0) != 0) continue;
    const double ratio = run_case(text, explain);
    if (ratio < 0) {
      std::printf("WRONG: %s\n", text);
      return 1;
    }
    ratios.push_back(ratio);
  }
  if (ratios.empty()) return 0;
  std::sort(ratios.begin(), ratios.end());
  std::printf("median %.1f%%, worst", 100 * ratios[ratios.size() / 2]);
  for (std::size_t k = 0; k < ratios.size() && k < 3; ++k) std::printf(" %.1f%%", 100 * ratios[k]);
  std::printf("\n");
  return 0;
}
