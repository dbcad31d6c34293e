// Wraps a Kokkos::View, permutes it, copies it with strided::copy_into and sums it with
// strided::sum; returns non-zero if any result is wrong.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <strided/strided.hpp>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  int failures = 0;
  {
    constexpr int n0 = 3, n1 = 4, n2 = 5;
    Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> a("a", n0, n1, n2);
    Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace> b("b", n2, n0, n1);
    double expected_sum = 0;
    for (int i = 0; i < n0; ++i)
      for (int j = 0; j < n1; ++j)
        for (int k = 0; k < n2; ++k) {
          a(i, j, k) = 100 * i + 10 * j + k;
          expected_sum += a(i, j, k);
        }

    // b(k, i, j) = a(i, j, k): the permuted source has extents (n2, n0, n1).
    strided::copy_into(strided::view(b), strided::view(a).permute({2, 0, 1}));
    for (int k = 0; k < n2; ++k)
      for (int i = 0; i < n0; ++i)
        for (int j = 0; j < n1; ++j)
          if (b(k, i, j) != a(i, j, k)) {
            if (failures++ < 5)
              std::printf("mismatch: b(%d,%d,%d) = %g, expected %g\n", k, i, j, b(k, i, j),
                          a(i, j, k));
          }

    const double sum_a = strided::sum(a);
    const double sum_b = strided::sum(strided::view(b).permute({1, 2, 0}));
    if (sum_a != expected_sum || sum_b != expected_sum) {
      std::printf("sum mismatch: %g and %g, expected %g\n", sum_a, sum_b, expected_sum);
      ++failures;
    }
  }
  std::printf("strided_consumer (Strided %s): %s\n", strided::version_string,
              failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
