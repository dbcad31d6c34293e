// The contract component through the installed package (Strided::contract): c = a b with einsum
// labels on small Kokkos::Views of different layouts, and c = 2 a b + c into a transposed output;
// integer-valued data, so every result is exact. Returns non-zero if any element is wrong.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <strided/contract.hpp>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  int failures = 0;
  {
    constexpr int m = 5, k = 7, n = 3;
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> a("a", m, k);
    Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> b("b", k, n);
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> c("c", m, n);
    Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> ct("ct", n, m);
    for (int i = 0; i < m; ++i)
      for (int l = 0; l < k; ++l) a(i, l) = i + 2 * l - 3;
    for (int l = 0; l < k; ++l)
      for (int j = 0; j < n; ++j) b(l, j) = 3 * l - j + 1;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) ct(j, i) = i - j;

    strided::contract("ij,jk->ik", c, a, b);
    strided::contract(Kokkos::DefaultHostExecutionSpace(), "il,lj->ji", ct, a, b, 2.0, 1.0);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double want = 0;
        for (int l = 0; l < k; ++l) want += a(i, l) * b(l, j);
        const double want_t = 2 * want + (i - j);
        if (c(i, j) != want || ct(j, i) != want_t) {
          if (failures++ < 5)
            std::printf("mismatch at (%d,%d): c %g (want %g), ct %g (want %g)\n", i, j, c(i, j),
                        want, ct(j, i), want_t);
        }
      }
    std::printf("strided::contract: %d x %d x %d, %s\n", m, k, n, failures ? "WRONG" : "ok");
  }
  return failures;
}
