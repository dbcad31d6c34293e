// Element ops applied on read (copy and copy_conj of conj, transpose and adjoint views),
// symmetrize in and out of place, against a reference loop, on every execution space; and the
// public kernels called unqualified, as users write them.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <random>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "map_test.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::check_symmetrize;
using strided_test::expect_elements;
using strided_test::MapTest;
using strided_test::random_operand;
using strided_test::read;

TYPED_TEST_SUITE(MapTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

template <class Exec, class View>
void check_op_view(const Exec& exec, const View& src, std::mt19937& rng) {
  using T = typename View::value_type;
  std::vector<std::size_t> extents(src.extents().begin(), src.extents().end());
  auto dst = random_operand<T>(extents, rng);
  strided::copy_into(exec, dst.view, src);
  expect_elements(
      dst, [&](const std::vector<std::size_t>& i) { return read(src, i); }, src);
  auto conj_dst = random_operand<T>(extents, rng);
  strided::copy_conj(exec, conj_dst.view, src);
  expect_elements(
      conj_dst,
      [&](const std::vector<std::size_t>& i) { return strided::detail::conj_value(read(src, i)); },
      src);
}

TYPED_TEST(MapTest, ElementOpsAreAppliedOnRead) {
  std::mt19937 rng(13);
  for (const auto& extents : std::vector<std::vector<std::size_t>>{{7, 9}, {300, 200}}) {
    auto a = random_operand<std::complex<double>>(extents, rng);
    strided_test::fill(a.view, 2);
    check_op_view(TypeParam(), a.view, rng);
    check_op_view(TypeParam(), a.view.conj(), rng);
    check_op_view(TypeParam(), a.view.transpose(), rng);
    check_op_view(TypeParam(), a.view.adjoint(), rng);
    check_op_view(TypeParam(), a.view.conj().adjoint(), rng);
    auto r = random_operand<double>(extents, rng);
    strided_test::fill(r.view, 4);
    check_op_view(TypeParam(), r.view.adjoint(), rng);
  }
  // copy_conj of a conjugated view copies the original.
  auto a = random_operand<std::complex<double>>({5, 6}, rng);
  strided_test::fill(a.view, 8);
  auto d = random_operand<std::complex<double>>({5, 6}, rng);
  strided::copy_conj(TypeParam(), d.view, a.view.conj());
  expect_elements(
      d, [&](const std::vector<std::size_t>& i) { return read(a.view, i); }, a.view.conj());
}

TYPED_TEST(MapTest, SymmetrizeRealAndComplexInAndOutOfPlace) {
  std::mt19937 rng(23);
  for (std::size_t n : {0, 1, 2, 7, 64, 300}) {
    check_symmetrize<false, double>(TypeParam(), n, rng);
    check_symmetrize<false, std::complex<double>>(TypeParam(), n, rng);
    check_symmetrize<true, std::complex<double>>(TypeParam(), n, rng);
    check_symmetrize<true, double>(TypeParam(), n, rng);
  }
  // Real matrices of two to six full staged tiles (128 x 128) and ragged edges: diagonal and
  // off-diagonal pairs, on random layouts (unit and non-unit strides on either axis).
  for (std::size_t n : {256, 512, 777}) {
    check_symmetrize<false, double>(TypeParam(), n, rng);
    check_symmetrize<true, double>(TypeParam(), n, rng);
    check_symmetrize<false, float>(TypeParam(), n, rng);
  }
  // Streamed: lines of a std::vector's rows are 16-byte aligned at best, so the stores of
  // whole lines fall back to 16-byte streaming stores or plain ones.
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 1024;
  for (std::size_t n : {64, 256, 300}) {
    check_symmetrize<false, double>(TypeParam(), n, rng, streaming);
    check_symmetrize<false, float>(TypeParam(), n, rng, streaming);
  }
}

// Found by the fuzzer: the Hermitian part wrote element (j, i) as conj of element (i, j). Where
// the imaginary parts cancel, (a + conj(b)) / 2 has +0 and conj of its mirror has -0: every
// element must be its own formula, bit for bit, in place and out of place, on every layout.
TYPED_TEST(MapTest, SymmetrizeConjGivesEachElementItsOwnFormula) {
  using C = std::complex<double>;
  for (std::size_t n : {2, 5, 9, 70}) {
    std::vector<C> a(n * n), out(n * n);
    for (std::size_t i = 0; i < n; ++i)  // equal imaginary parts at (i, j) and (j, i)
      for (std::size_t j = 0; j < n; ++j) a[i * n + j] = C(double(i * 3 + j), double(i + j));
    const auto p = static_cast<std::ptrdiff_t>(n);
    const std::ptrdiff_t layouts[][3] = {{p, 1, 0}, {1, p, 0}, {-p, -1, p * p - 1}};
    for (const auto& l : layouts) {
      strided::StridedView<C> src(a.data(), a.size(), {n, n}, {l[0], l[1]}, l[2]);
      std::vector<C> expected(n * n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          const C v = src(i, j) + std::conj(src(j, i));
          expected[i * n + j] = C(v.real() / 2, v.imag() / 2);
        }
      strided::StridedView<C> dst(out.data(), out.size(), {n, n}, {l[0], l[1]}, l[2]);
      strided::symmetrize_conj_into(TypeParam(), dst, src);
      std::vector<C> in_place = a;
      strided::StridedView<C> both(in_place.data(), in_place.size(), {n, n}, {l[0], l[1]}, l[2]);
      strided::symmetrize_conj_into(TypeParam(), both, both);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          const C want = expected[i * n + j];
          for (const C got : {dst(i, j), both(i, j)}) {
            ASSERT_EQ(got, want) << "n " << n << " at (" << i << ", " << j << ")";
            ASSERT_EQ(std::signbit(got.imag()), std::signbit(want.imag()))
                << "n " << n << " at (" << i << ", " << j << ")";
          }
        }
    }
  }
}

// API.md's names are the contract, called as users write them: after `using namespace strided`,
// unqualified. Argument-dependent lookup also searches the namespaces of a view's element op
// (strided::detail), so no internal function there may share a kernel's name and signature.
TEST(PublicNames, UnqualifiedCallsFindTheKernels) {
  using namespace strided;
  double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {2, 2, 2, 2, 2, 2}, c[6] = {};
  const StridedView<double> dst(c, 6, {2, 3}, {1, 2}), src(a, 6, {2, 3}, {3, 1}),
      two(b, 6, {2, 3}, {3, 1});
  copy_into(dst, src);
  add(dst, two);
  mul(dst, two);
  axpy(dst, src, 0.5);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      EXPECT_EQ(dst(i, j), (src(i, j) + 2) * 2 + 0.5 * src(i, j)) << i << ", " << j;
  EXPECT_EQ(sum(dst), 2.5 * 21 + 24);
}

}  // namespace
