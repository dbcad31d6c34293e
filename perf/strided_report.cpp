// strided-report: what the library does on this machine, in one run. For now it prints the
// Kokkos configuration and the execution space, permutes a rank-4 tensor, checks and sums it,
// and shows the plan it used.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <strided/strided.hpp>
#include <string>

namespace {

std::string hex(double x) {
  unsigned long long bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  char text[32];
  std::snprintf(text, sizeof text, "0x%016llx", bits);
  return text;
}

int run() {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  std::cout << "Strided " << strided::version_string << " on Kokkos " << KOKKOS_VERSION / 10000
            << "." << KOKKOS_VERSION / 100 % 100 << "." << KOKKOS_VERSION % 100 << "\n"
            << "execution space: " << Exec::name() << " with " << Exec().concurrency()
            << " thread(s)\n\n";
  Kokkos::print_configuration(std::cout, false);

  const std::size_t n = 64;
  auto a = strided::StridedArray<double>::from_fn_row_major(
      {n, n, n, n}, [](const strided::MultiIndex& i) {
        return static_cast<double>(((i[0] * 64 + i[1]) * 64 + i[2]) * 64 + i[3]) * 0.5;
      });
  auto b = strided::StridedArray<double>::row_major({n, n, n, n});
  const auto permuted = a.view().permute({3, 2, 1, 0});

  const auto t0 = std::chrono::steady_clock::now();
  strided::copy_into(b.view(), permuted);
  const auto t1 = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(t1 - t0).count();

  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; i += 7)
    for (std::size_t j = 0; j < n; j += 5)
      for (std::size_t k = 0; k < n; k += 3)
        for (std::size_t l = 0; l < n; ++l) wrong += b(i, j, k, l) != a(l, k, j, i);

  const double total = strided::sum(b.view());
  const double expected = 0.5 * (double(n * n * n * n) * double(n * n * n * n - 1) / 2);
  std::cout << "\npermute (3,2,1,0) of a 64^4 f64 tensor: " << seconds * 1e3 << " ms, "
            << 2.0 * sizeof(double) * b.size() / seconds / 1e9 << " GB/s, "
            << (wrong == 0 ? "checked" : "WRONG") << "\n"
            << "plan:\n  " << strided::explain(strided::plan(b.view(), permuted)) << "\n"
            << "sum of the result: " << total << " (" << hex(total) << "), expected " << expected
            << "\n";
  return wrong == 0 && total == expected ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  return run();
}
