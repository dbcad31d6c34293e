// Prints the bits of many reductions of inexact data (sin/cos), one "name hex" line each, on the
// execution space named by the first argument ("serial", "parallel", "device" for the device
// algorithm on the host-parallel space, or "default": Kokkos::DefaultExecutionSpace with the
// data copied into its memory space, the GPU on a CUDA or HIP build). The determinism test
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

#include "probe_space.hpp"
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

using strided::StridedArray;

/// Past 2^22 elements: the contiguous sum takes GPU-scale tiles (tile_grain), the strided one
/// (every third element) the tiles of 65536 below that.
constexpr std::size_t BIG = (std::size_t(1) << 22) + 4093;
/// BIG's first elements as a 2048 x 2049 row-major grid: its row and column sums reduce 2^22
/// elements in all, so each output's axis folds in several tiles (axis_tile_grain).
constexpr std::size_t GRID_ROWS = 2048, GRID_COLS = 2049;
/// BIG's first 2^22 elements as 8 long rows and as 8 long columns: few outputs of many tiles
/// each, which a host folds through a buffer of tile partials (columns in bands).
constexpr std::size_t LONG = std::size_t(1) << 19, FEW = 8;

/// The probe's input data, on the host.
struct Data {
  StridedArray<double> a, c, big;
  StridedArray<float> f, g;
  StridedArray<std::complex<double>> z;
};

Data make_data() {
  auto wave = [](const strided::MultiIndex& i) {
    std::int64_t n = 0;  // integer arithmetic: nothing to contract
    for (std::size_t k = 0; k < i.size(); ++k) n = n * 1000 + std::int64_t(i[k]);
    return std::sin(double(n));
  };
  return {
      StridedArray<double>::from_fn_row_major({700, 900}, wave),
      StridedArray<double>::from_fn_col_major({64, 48, 33}, wave),
      StridedArray<double>::from_fn_row_major({BIG}, wave),
      StridedArray<float>::from_fn_row_major(
          {1 << 20}, [](const strided::MultiIndex& i) { return float(std::cos(double(i[0]))); }),
      StridedArray<float>::from_fn_row_major(
          {1 << 20},
          [](const strided::MultiIndex& i) { return float(std::sin(0.5 * double(i[0]))); }),
      StridedArray<std::complex<double>>::from_fn_row_major(
          {300, 301}, [&](const strided::MultiIndex& i) {
            return std::complex<double>(wave(i), std::cos(double(i[0] * 301 + i[1])));
          })};
}

template <class Exec>
void probe(const Exec& exec) {
  std::printf("space %s\n", Exec::name());  // not compared: the driver drops this line
  const Data data = make_data();
  const auto &a = data.a, &c = data.c, &big = data.big;
  const auto &f = data.f, &g = data.g;
  const auto& z = data.z;

  print("sum.contiguous", strided::sum(exec, big.view()));
  print("sum.transposed", strided::sum(exec, a.view().transpose()));
  print("sum.permuted3", strided::sum(exec, c.view().permute({2, 0, 1})));
  print("sum.strided", strided::sum(exec, big.view().slice(0, 1, BIG, 3)));
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
  const strided::StridedView<const double> grid(big.data(), BIG, {GRID_ROWS, GRID_COLS},
                                                {GRID_COLS, std::size_t(1)});
  auto grid_rows = StridedArray<double>::row_major({GRID_ROWS});
  auto grid_cols = StridedArray<double>::row_major({GRID_COLS});
  strided::sum_axes(exec, grid_rows.view(), grid, {1});
  strided::sum_axes(exec, grid_cols.view(), grid, {0});
  print("grid.rowsum[0]", grid_rows.view()(0));
  print("grid.rowsum[2047]", grid_rows.view()(GRID_ROWS - 1));
  print("grid.colsum[0]", grid_cols.view()(0));
  print("grid.colsum[2048]", grid_cols.view()(GRID_COLS - 1));
  auto long_rows = StridedArray<double>::row_major({FEW});
  auto long_cols = StridedArray<double>::row_major({FEW});
  strided::sum_axes(exec, long_rows.view(),
                    strided::StridedView<const double>(big.data(), BIG, {FEW, LONG}, {LONG, 1}),
                    {1});
  strided::sum_axes(exec, long_cols.view(),
                    strided::StridedView<const double>(big.data(), BIG, {LONG, FEW}, {FEW, 1}),
                    {0});
  print("long.rowsum[7]", long_rows.view()(FEW - 1));
  print("long.colsum[0]", long_cols.view()(0));
  print("long.colsum[7]", long_cols.view()(FEW - 1));
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

// ---- "default": the same reductions on Kokkos::DefaultExecutionSpace, data in its memory --------
// Every KOKKOS_LAMBDA is in a free function (nvcc's rules for extended lambdas); complex numbers
// are Kokkos::complex there (std::complex arithmetic is host-only under nvcc).

using DExec = Kokkos::DefaultExecutionSpace;
using DMem = DExec::memory_space;
using DComplex = Kokkos::complex<double>;
template <class T, class Layout = Kokkos::LayoutRight>
using DView = Kokkos::View<T, Layout, DMem>;
template <class T, class Layout>
using HostIn = Kokkos::View<typename DView<T, Layout>::const_data_type, Layout, Kokkos::HostSpace,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// A device copy of a dense host array, as a View of the same shape and layout.
template <class T, class Layout, class... Extents>
DView<T, Layout> to_device(const char* label, typename DView<T, Layout>::const_value_type* p,
                           Extents... extents) {
  DView<T, Layout> d(std::string(label), static_cast<std::size_t>(extents)...);
  Kokkos::deep_copy(d, HostIn<T, Layout>(p, static_cast<std::size_t>(extents)...));
  return d;
}

/// The value of a device View at `index...`, copied to the host.
template <class V, class... I>
typename V::non_const_value_type at(const V& v, I... index) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v)(index...);
}

template <class A>
double product_near_one(const DExec& exec, const A& a) {
  return strided::reduce(
      exec, a, KOKKOS_LAMBDA(double x) { return 1 + x / 1024; },
      KOKKOS_LAMBDA(double x, double y) { return x * y; }, 1.0);
}

template <class A, class B>
double zip_reduce_probe(const DExec& exec, const A& a, const B& b) {
  return strided::zip_reduce(
      exec, a, b, KOKKOS_LAMBDA(double x, double y) { return x / 4 - y; },
      KOKKOS_LAMBDA(double x, double y) { return x + y; }, 0.0);
}

template <class O, class A>
void plain_sum_axis(const DExec& exec, const O& out, const A& a, std::size_t axis) {
  strided::reduce_axes(
      exec, out, a, {axis}, KOKKOS_LAMBDA(double x) { return x; },
      KOKKOS_LAMBDA(double x, double y) { return x + y; }, 0.0);
}

void probe_default() {
  const DExec exec;
  std::printf("space %s\n", DExec::name());  // not compared: the driver drops this line
  const Data data = make_data();
  using LR = Kokkos::LayoutRight;
  using LL = Kokkos::LayoutLeft;
  const auto da = to_device<double**, LR>("a", data.a.data(), 700, 900);
  const auto dc = to_device<double***, LL>("c", data.c.data(), 64, 48, 33);
  const auto dbig = to_device<double*, LR>("big", data.big.data(), BIG);
  const auto df = to_device<float*, LR>("f", data.f.data(), 1 << 20);
  const auto dg = to_device<float*, LR>("g", data.g.data(), 1 << 20);
  // Kokkos::complex<double> has std::complex<double>'s layout: two doubles, real first.
  const auto dz =
      to_device<DComplex**, LR>("z", reinterpret_cast<const DComplex*>(data.z.data()), 300, 301);
  const auto a = strided::view(da), big = strided::view(dbig);
  const auto c = strided::view(dc);
  const auto f = strided::view(df), g = strided::view(dg);
  const auto z = strided::view(dz);

  print("sum.contiguous", strided::sum(exec, big));
  print("sum.transposed", strided::sum(exec, a.transpose()));
  print("sum.permuted3", strided::sum(exec, c.permute({2, 0, 1})));
  print("sum.strided", strided::sum(exec, big.slice(0, 1, BIG, 3)));
  print("sum.reversed", strided::sum(exec, a.reverse(1)));
  print("sum_squares", strided::sum_squares(exec, a));
  print("product.near_one", product_near_one(exec, a));
  print("max", strided::max(exec, a.transpose()));
  print("min", strided::min(exec, c));
  print("dot.f64", strided::dot(exec, a, a.reverse(0)));
  print("dot.f32_in_f64", strided::dot<double>(exec, f, g));
  print("dot.f32", strided::dot(exec, f, g));
  print("dot.complex_hermitian", strided::dot(exec, z.conj(), z));
  print("zip_reduce", zip_reduce_probe(exec, a, a.reverse(1)));
  const DView<double*, LL> rows("rows", 700), cols("cols", 900);
  plain_sum_axis(exec, strided::view(rows), a, 1);
  plain_sum_axis(exec, strided::view(cols), a, 0);
  print("rowsum[0]", at(rows, 0));
  print("rowsum[699]", at(rows, 699));
  print("colsum[0]", at(cols, 0));
  print("colsum[899]", at(cols, 899));
  const strided::StridedView<const double, strided::Identity, DMem> grid(
      dbig.data(), BIG, {GRID_ROWS, GRID_COLS}, {GRID_COLS, std::size_t(1)});
  const DView<double*> grid_rows("grid_rows", GRID_ROWS), grid_cols("grid_cols", GRID_COLS);
  strided::sum_axes(exec, strided::view(grid_rows), grid, {1});
  strided::sum_axes(exec, strided::view(grid_cols), grid, {0});
  print("grid.rowsum[0]", at(grid_rows, 0));
  print("grid.rowsum[2047]", at(grid_rows, GRID_ROWS - 1));
  print("grid.colsum[0]", at(grid_cols, 0));
  print("grid.colsum[2048]", at(grid_cols, GRID_COLS - 1));
  const DView<double*> long_rows("long_rows", FEW), long_cols("long_cols", FEW);
  using DLong = strided::StridedView<const double, strided::Identity, DMem>;
  strided::sum_axes(exec, strided::view(long_rows), DLong(dbig.data(), BIG, {FEW, LONG}, {LONG, 1}),
                    {1});
  strided::sum_axes(exec, strided::view(long_cols), DLong(dbig.data(), BIG, {LONG, FEW}, {FEW, 1}),
                    {0});
  print("long.rowsum[7]", at(long_rows, FEW - 1));
  print("long.colsum[0]", at(long_cols, 0));
  print("long.colsum[7]", at(long_cols, FEW - 1));
  const DView<double*> few("few", 33);
  strided::sum_axes(exec, strided::view(few), c, {1, 0});
  print("sum_axes.few_outputs[0]", at(few, 0));
  print("sum_axes.few_outputs[32]", at(few, 32));
  const DView<double> widened("widened");
  strided::dot_axes(exec, strided::view(widened), a, a.reverse(0), {0, 1});
  print("dot_axes.all", at(widened));
  print("sum.of_rowsums", strided::sum(exec, strided::view(rows)));
  const DView<double*> squares("squares", 48);
  strided::sum_squares_axes(exec, strided::view(squares), c, {0, 2});
  print("sum_squares_axes[0]", at(squares, 0));
  print("sum_squares_axes[47]", at(squares, 47));
  const DView<double*, LL> dots("dots", 900);
  strided::dot_axes(exec, strided::view(dots), a, a.reverse(1), {0});
  print("dot_axes.cols[0]", at(dots, 0));
  print("dot_axes.cols[899]", at(dots, 899));
  print("dot.f32_in_f64.strided",
        strided::dot<double>(exec, f.slice(0, 3, 1 << 20, 5), g.slice(0, 1, 1 << 20, 5)));
  const DView<double**> y("y", 700, 900);
  strided::copy_into(exec, strided::view(y), a);
  strided::axpy(exec, strided::view(y), a.reverse(0), 0.3);
  strided::axpy(exec, strided::view(y), a.reverse(1), 1.7);
  exec.fence();
  print("axpy[0,0]", at(y, 0, 0));
  print("axpy[351,452]", at(y, 351, 452));
  print("axpy.sum", strided::sum(exec, strided::view(y)));
  const DView<DComplex**> w("w", 300, 301);
  strided::copy_into(exec, strided::view(w), z);
  strided::axpy(exec, strided::view(w), z.reverse(0), DComplex(0.3, -1.1));
  exec.fence();
  print("axpy.complex.re", at(w, 17, 33).real());
  print("axpy.complex.im", at(w, 17, 33).imag());
  print("axpy.complex.sum.re", strided::sum(exec, strided::view(w)).real());
}

}  // namespace

int main(int argc, char* argv[]) {
  strided_test::KokkosSession kokkos(argc, argv);  // --threads=N
  if (!kokkos.check_concurrency(stderr)) return 1;
  const std::string space = strided_test::probe_space(argc, argv);
  if (space == "serial")
    probe(Kokkos::Serial());
  else if (space == "default")
    probe_default();
  else
    probe(Kokkos::DefaultHostExecutionSpace());
  return 0;
}
