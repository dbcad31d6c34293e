// Prints the bits of many reductions of inexact data (sin/cos), one "name hex" line each, on the
// execution space named by the first argument ("serial", "parallel", or "device" for the device
// algorithm on the host-parallel space). The determinism test
// runs it in separate processes at several thread counts and compares the lines; the contraction
// leg (cmake/run.sh contract) compares a build with -O3 -march=native -ffp-contract=fast against
// the default build. The probe's own arithmetic (the data, the functions it passes) is written so
// that no compiler may contract it: what differs there is the library's doing.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <strided/strided.hpp>

#include "test_session.hpp"

namespace {

template <class T>
void print(const char* name, const T& x) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &x, sizeof(T));
  std::printf("%-28s ", name);
  for (std::size_t k = sizeof(T); k-- > 0;) std::printf("%02x", bytes[k]);
  std::printf("\n");
}

template <class Exec>
void probe(const Exec& exec) {
  std::printf("space %s\n", Exec::name());  // not compared: the driver drops this line
  using strided::StridedArray;
  auto wave = [](const strided::MultiIndex& i) {
    std::int64_t n = 0;  // integer arithmetic: nothing to contract
    for (std::size_t k = 0; k < i.size(); ++k) n = n * 1000 + std::int64_t(i[k]);
    return std::sin(double(n));
  };
  const auto a = StridedArray<double>::from_fn_row_major({700, 900}, wave);
  const auto c = StridedArray<double>::from_fn_col_major({64, 48, 33}, wave);
  const auto big = StridedArray<double>::from_fn_row_major({1 << 21}, wave);
  const auto f = StridedArray<float>::from_fn_row_major(
      {1 << 20}, [](const strided::MultiIndex& i) { return float(std::cos(double(i[0]))); });
  const auto g = StridedArray<float>::from_fn_row_major(
      {1 << 20}, [](const strided::MultiIndex& i) { return float(std::sin(0.5 * double(i[0]))); });
  const auto z = StridedArray<std::complex<double>>::from_fn_row_major(
      {300, 301}, [&](const strided::MultiIndex& i) {
        return std::complex<double>(wave(i), std::cos(double(i[0] * 301 + i[1])));
      });

  print("sum.contiguous", strided::sum(exec, big.view()));
  print("sum.transposed", strided::sum(exec, a.view().transpose()));
  print("sum.permuted3", strided::sum(exec, c.view().permute({2, 0, 1})));
  print("sum.strided", strided::sum(exec, big.view().slice(0, 1, 1 << 21, 3)));
  print("sum.reversed", strided::sum(exec, a.view().reverse(1)));
  print("sum_squares", strided::sum_squares(exec, a.view()));
  print("product.near_one", strided::reduce(
                                exec, a.view(), [](double x) { return 1 + x / 1024; },
                                [](double x, double y) { return x * y; }, 1.0));
  print("max", strided::max(exec, a.view().transpose()));
  print("min", strided::min(exec, c.view()));
  print("dot.f64", strided::dot(exec, a.view(), a.view().reverse(0)));
  print("dot.f32_in_f64", strided::dot<double>(exec, f.view(), g.view()));
  print("dot.f32", strided::dot(exec, f.view(), g.view()));
  print("dot.complex_hermitian", strided::dot(exec, z.view().conj(), z.view()));
  print("zip_reduce",
        strided::zip_reduce(
            exec, a.view(), a.view().reverse(1), [](double x, double y) { return x / 4 - y; },
            [](double x, double y) { return x + y; }, 0.0));
  const auto rows = strided::reduce_axis(
      exec, a.view(), 1, [](double x) { return x; }, [](double x, double y) { return x + y; }, 0.0);
  const auto cols = strided::reduce_axis(
      exec, a.view(), 0, [](double x) { return x; }, [](double x, double y) { return x + y; }, 0.0);
  print("rowsum[0]", rows.view()(0));
  print("rowsum[699]", rows.view()(699));
  print("colsum[0]", cols.view()(0));
  print("colsum[899]", cols.view()(899));
  auto few = StridedArray<double>::row_major({33});
  strided::sum_axes(exec, few.view(), c.view(), {1, 0});
  print("sum_axes.few_outputs[0]", few.view()(0));
  print("sum_axes.few_outputs[32]", few.view()(32));
  auto widened = StridedArray<double>::row_major({});
  strided::dot_axes(exec, widened.view(), a.view(), a.view().reverse(0), {0, 1});
  print("dot_axes.all", widened.view()());
  print("sum.of_rowsums", strided::sum(exec, rows.view()));
  auto squares = StridedArray<double>::row_major({48});
  strided::sum_squares_axes(exec, squares.view(), c.view(), {0, 2});
  print("sum_squares_axes[0]", squares.view()(0));
  print("sum_squares_axes[47]", squares.view()(47));
  auto dots = StridedArray<double>::col_major({900});
  strided::dot_axes(exec, dots.view(), a.view(), a.view().reverse(1), {0});
  print("dot_axes.cols[0]", dots.view()(0));
  print("dot_axes.cols[899]", dots.view()(899));
  print("dot.f32_in_f64.strided", strided::dot<double>(exec, f.view().slice(0, 3, 1 << 20, 5),
                                                       g.view().slice(0, 1, 1 << 20, 5)));
  // Element-wise kernels that multiply and add (axpy): elements and the sum of the result.
  auto y = StridedArray<double>::row_major({700, 900});
  strided::copy_into(exec, y.view(), a.view());
  strided::axpy(exec, y.view(), a.view().reverse(0), 0.3);
  strided::axpy(exec, y.view(), a.view().reverse(1), 1.7);
  exec.fence();
  print("axpy[0,0]", y.view()(0, 0));
  print("axpy[351,452]", y.view()(351, 452));
  print("axpy.sum", strided::sum(exec, y.view()));
  auto w = StridedArray<std::complex<double>>::row_major({300, 301});
  strided::copy_into(exec, w.view(), z.view());
  strided::axpy(exec, w.view(), z.view().reverse(0), std::complex<double>(0.3, -1.1));
  exec.fence();
  print("axpy.complex.re", w.view()(17, 33).real());
  print("axpy.complex.im", w.view()(17, 33).imag());
  print("axpy.complex.sum.re", strided::sum(exec, w.view()).real());
}

}  // namespace

int main(int argc, char* argv[]) {
  strided_test::KokkosSession kokkos(argc, argv);  // --threads=N
  if (!kokkos.check_concurrency(stderr)) return 1;
  const std::string space = argc > 1 ? argv[1] : "parallel";
  // "device": the host-parallel space running the device algorithm (one tile per team).
  if (space == "device") strided::execution_options().algorithm = strided::Algorithm::Device;
  if (space == "serial")
    probe(Kokkos::Serial());
  else
    probe(Kokkos::DefaultHostExecutionSpace());
  return 0;
}
