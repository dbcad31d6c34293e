// Element-wise kernels against a reference loop, on every execution space, over random layouts
// (permuted, reversed, gapped, broadcast), ranks 0-8, 12, 25 and 30, extents 0 and 1, several
// element types and every element op.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "expect_elements.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::for_each_index;
using strided_test::Operand;
using strided_test::random_operand;
using strided_test::read;

template <class Exec>
class MapTest : public ::testing::Test {};
TYPED_TEST_SUITE(MapTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

/// Expects dst == expected(index) everywhere (operator==, as EXPECT_EQ) and the buffer outside
/// the view untouched; `srcs`, the views the kernel read, are described in a failure.
template <class T, class Expected, class... Srcs>
void expect_elements(const Operand<T>& dst, const Expected& expected, const Srcs&... srcs) {
  EXPECT_TRUE(strided_test::elements_equal(dst.view, expected, srcs...));
  EXPECT_TRUE(strided_test::outside_untouched(dst));
}

template <class T, class Exec>
void check_copy(const Exec& exec, const std::vector<std::size_t>& extents, std::mt19937& rng) {
  auto src = random_operand<T>(extents, rng);
  auto dst = random_operand<T>(extents, rng);
  strided_test::fill(src.view, 3);
  strided::copy_into(exec, dst.view, src.view);
  expect_elements(
      dst, [&](const std::vector<std::size_t>& i) { return read(src.view, i); }, src.view);
}

TYPED_TEST(MapTest, CopyMatchesReferenceAtManyRanks) {
  std::mt19937 rng(42);
  for (std::size_t rank : {0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 25, 30}) {
    for (int trial = 0; trial < 6; ++trial) {
      const auto extents = strided_test::random_extents(rank, 3000, rng, trial % 2 == 1);
      SCOPED_TRACE(::testing::Message() << "rank " << rank << " trial " << trial);
      check_copy<double>(TypeParam(), extents, rng);
    }
  }
}

TYPED_TEST(MapTest, CopyEveryElementType) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 8; ++trial) {
    const auto extents = strided_test::random_extents(1 + trial % 5, 2000, rng, true);
    check_copy<float>(TypeParam(), extents, rng);
    check_copy<double>(TypeParam(), extents, rng);
    check_copy<int>(TypeParam(), extents, rng);
    check_copy<long long>(TypeParam(), extents, rng);
    check_copy<std::complex<double>>(TypeParam(), extents, rng);
    check_copy<Kokkos::complex<double>>(TypeParam(), extents, rng);
  }
}

TYPED_TEST(MapTest, LargePermutedCopiesUseEveryThread) {
  // Above the inline threshold: tiles are spread over the host-parallel space's threads.
  std::mt19937 rng(11);
  for (const auto& extents : std::vector<std::vector<std::size_t>>{
           {64, 48, 33}, {257, 255}, {2, 3, 4, 5, 6, 7, 8}, {100000}}) {
    check_copy<double>(TypeParam(), extents, rng);
    check_copy<float>(TypeParam(), extents, rng);
  }
}

TYPED_TEST(MapTest, MDRangeTileScheduleGivesTheSameResults) {
  // The tile grid handed out as a Kokkos MDRangePolicy (ranks 2 to 6 and folded higher ranks).
  struct Restore {
    ~Restore() { strided::detail::tile_policy() = strided::detail::TilePolicy::Range; }
  } restore;
  strided::detail::tile_policy() = strided::detail::TilePolicy::MDRange;
  std::mt19937 rng(12);
  for (const auto& extents :
       std::vector<std::vector<std::size_t>>{{257, 255},
                                             {40, 41, 42},
                                             {9, 10, 11, 12},
                                             {5, 6, 7, 8, 9},
                                             {3, 4, 5, 6, 7, 8},
                                             {2, 3, 4, 5, 6, 7, 8},
                                             {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}})
    check_copy<double>(TypeParam(), extents, rng);
}

/// Symmetrizes a random n x n matrix in and out of place against the reference (below).
template <bool Hermitian, class T, class Exec>
void check_symmetrize(const Exec& exec, std::size_t n, std::mt19937& rng);

TYPED_TEST(MapTest, StreamingStoresWriteTheSameValues) {
  // Outputs above stream_bytes use non-temporal stores (unit and transposed paths, including
  // unaligned starts): lower the threshold so that test-sized outputs take them.
  struct Restore {
    std::size_t saved = strided::planner_options().stream_bytes;
    ~Restore() { strided::planner_options().stream_bytes = saved; }
  } restore;
  strided::planner_options().stream_bytes = 1024;
  std::mt19937 rng(14);
  for (const auto& extents :
       std::vector<std::vector<std::size_t>>{{257, 255},
                                             {40000},
                                             {64, 48, 33},
                                             {130, 3, 129},
                                             {4, 4, 4, 16, 16},
                                             {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}}) {
    check_copy<double>(TypeParam(), extents, rng);
    check_copy<float>(TypeParam(), extents, rng);
    check_copy<int>(TypeParam(), extents, rng);
  }
  auto a = random_operand<double>({300, 200}, rng, {false, false, false});
  strided_test::fill(a.view, 3);
  auto t = random_operand<double>({200, 300}, rng, {false, false, false});
  strided::copy_into(TypeParam(), t.view, a.view.transpose());
  expect_elements(
      t,
      [&](const std::vector<std::size_t>& i) {
        return read(a.view, {i[1], i[0]});
      },
      a.view.transpose());
  auto sliced = random_operand<double>({200, 301}, rng, {false, false, false});
  const auto odd = sliced.view.slice(1, 1, 301);  // rows start off the 16-byte grid
  strided::copy_into(TypeParam(), odd, a.view.transpose());
  EXPECT_TRUE(strided_test::elements_equal(
      odd,
      [&](const std::vector<std::size_t>& i) {
        return read(a.view, {i[1], i[0]});
      },
      a.view.transpose()));
  check_symmetrize<false, double>(TypeParam(), 300, rng);
  check_symmetrize<true, double>(TypeParam(), 97, rng);
  check_symmetrize<false, float>(TypeParam(), 160, rng);
}

TYPED_TEST(MapTest, SourcesStreamingAlongDifferentAxes) {
  // C = A + op(B)^T: A streams along C's fast axis, B^T along the other; the blocks are staged
  // per source. Ragged extents leave partial blocks on both edges; B is also walked reversed.
  std::mt19937 rng(15);
  for (const auto& shape : std::vector<std::vector<std::size_t>>{{203, 157}, {64, 64}, {9, 300}}) {
    const std::size_t r = shape[0], c = shape[1];
    auto a = random_operand<double>({r, c}, rng, {false, false, false});
    auto b = random_operand<double>({c, r}, rng, {false, false, false});
    strided_test::fill(a.view, 1);
    strided_test::fill(b.view, 2);
    auto out = random_operand<double>({r, c}, rng, {false, false, false});
    const auto bt = b.view.transpose().reverse(1);
    strided::zip_map_into(
        TypeParam(), out.view, [](double x, double y) { return x - 2 * y; }, a.view, bt);
    expect_elements(
        out, [&](const std::vector<std::size_t>& i) { return read(a.view, i) - 2 * read(bt, i); },
        a.view, bt);
    // add() reads the destination as its first source.
    strided::add(TypeParam(), a.view, b.view.transpose());
    expect_elements(
        a,
        [&](const std::vector<std::size_t>& i) {
          return read(out.view, i) + 2 * read(bt, i) + read(b.view, {i[1], i[0]});
        },
        a.view, b.view.transpose());
  }
}

TYPED_TEST(MapTest, BroadcastSourceWithZeroStrides) {
  std::mt19937 rng(5);
  auto row = random_operand<double>({1, 37, 1}, rng);
  strided_test::fill(row.view, 9);
  const auto src = row.view.broadcast({50, 37, 20});
  auto dst = random_operand<double>({50, 37, 20}, rng);
  strided::copy_into(TypeParam(), dst.view, src);
  expect_elements(
      dst,
      [&](const std::vector<std::size_t>& i) {
        return read(row.view, {0, i[1], 0});
      },
      src);
}

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

TYPED_TEST(MapTest, ArithmeticKernels) {
  std::mt19937 rng(17);
  for (const auto& extents :
       std::vector<std::vector<std::size_t>>{{}, {0, 4}, {13}, {9, 1, 11}, {70, 80, 9}}) {
    auto x = random_operand<double>(extents, rng);
    auto y = random_operand<float>(extents, rng);
    strided_test::fill(x.view, 1);
    strided_test::fill(y.view, 2);
    auto reference = random_operand<double>(extents, rng, {false, false, false});
    auto dst = random_operand<double>(extents, rng);
    const auto expect_from = [&](auto fn) {
      expect_elements(
          dst,
          [&](const std::vector<std::size_t>& i) {
            return fn(read(reference.view, i), read(y.view, i));
          },
          y.view);
    };
    const auto reset = [&] {
      strided::copy_into(TypeParam(), dst.view, x.view);
      strided::copy_into(TypeParam(), reference.view, x.view);
    };
    reset();
    strided::add(TypeParam(), dst.view, y.view);
    expect_from([](double a, float b) { return a + b; });
    reset();
    strided::mul(TypeParam(), dst.view, y.view);
    expect_from([](double a, float b) { return a * b; });
    reset();
    strided::axpy(TypeParam(), dst.view, y.view, 2.5);
    expect_from([](double a, float b) { return a + 2.5 * b; });
    reset();
    strided::copy_scale(TypeParam(), dst.view, y.view, -3.0);
    expect_from([](double, float b) { return -3.0 * b; });
    reset();
    strided::map_into(TypeParam(), dst.view, y.view, [](float b) { return double(b) * b + 1; });
    expect_from([](double, float b) { return double(b) * b + 1; });
    reset();
    strided::add(TypeParam(), dst.view, dst.view);  // in place: same layout is allowed
    expect_from([](double a, float) { return a + a; });
  }
}

TYPED_TEST(MapTest, ZipOfOneToFourPermutedSources) {
  // The sum of four permutations of an 8^4 tensor, and zips of 1 to 3 sources.
  std::mt19937 rng(19);
  auto a = random_operand<double>({8, 8, 8, 8}, rng);
  strided_test::fill(a.view, 5);
  const auto p1 = a.view.permute({3, 2, 1, 0});
  const auto p2 = a.view.permute({1, 0, 3, 2});
  const auto p3 = a.view.permute({0, 2, 1, 3});
  const auto p4 = a.view.permute({2, 3, 0, 1});
  auto dst = random_operand<double>({8, 8, 8, 8}, rng);
  strided::zip_map_into(
      TypeParam(), dst.view, [](double w, double x, double y, double z) { return w + x + y + z; },
      p1, p2, p3, p4);
  expect_elements(
      dst,
      [&](const std::vector<std::size_t>& i) {
        return read(p1, i) + read(p2, i) + read(p3, i) + read(p4, i);
      },
      p1, p2, p3, p4);
  strided::zip_map_into(
      TypeParam(), dst.view, [](double w) { return 2 * w; }, p2);
  expect_elements(
      dst, [&](const std::vector<std::size_t>& i) { return 2 * read(p2, i); }, p2);
  auto f = random_operand<float>({8, 8, 8, 8}, rng);
  strided_test::fill(f.view, 6);
  auto c = random_operand<std::complex<double>>({8, 8, 8, 8}, rng);
  strided_test::fill(c.view, 7);
  auto cdst = random_operand<std::complex<double>>({8, 8, 8, 8}, rng);
  strided::zip_map_into(
      TypeParam(), cdst.view, [](double x, float y, std::complex<double> z) { return x * y + z; },
      p3, f.view, c.view.conj().permute({3, 1, 2, 0}));
  const auto cp = c.view.conj().permute({3, 1, 2, 0});
  expect_elements(
      cdst,
      [&](const std::vector<std::size_t>& i) {
        return read(p3, i) * double(read(f.view, i)) + read(cp, i);
      },
      p3, f.view, cp);
}

template <bool Hermitian, class T, class Exec>
void check_symmetrize(const Exec& exec, std::size_t n, std::mt19937& rng) {
  auto a = random_operand<T>({n, n}, rng);
  strided_test::fill(a.view, 3);
  const auto mirror = [](const T& x) { return Hermitian ? strided::detail::conj_value(x) : x; };
  const auto expected = [&](const strided::StridedView<T>& s, const std::vector<std::size_t>& i) {
    return static_cast<T>((read(s, i) + mirror(read(s, {i[1], i[0]}))) / static_cast<T>(2));
  };
  auto dst = random_operand<T>({n, n}, rng);
  if (Hermitian)
    strided::symmetrize_conj_into(exec, dst.view, a.view);
  else
    strided::symmetrize_into(exec, dst.view, a.view);
  expect_elements(
      dst, [&](const std::vector<std::size_t>& i) { return expected(a.view, i); }, a.view);
  // In place: the result equals the out-of-place one.
  if (Hermitian)
    strided::symmetrize_conj_into(exec, a.view, a.view);
  else
    strided::symmetrize_into(exec, a.view, a.view);
  EXPECT_TRUE(strided_test::elements_equal(
      a.view, [&](const std::vector<std::size_t>& i) { return read(dst.view, i); }, a.view));
}

TYPED_TEST(MapTest, SymmetrizeRealAndComplexInAndOutOfPlace) {
  std::mt19937 rng(23);
  for (std::size_t n : {0, 1, 2, 7, 64, 300}) {
    check_symmetrize<false, double>(TypeParam(), n, rng);
    check_symmetrize<false, std::complex<double>>(TypeParam(), n, rng);
    check_symmetrize<true, std::complex<double>>(TypeParam(), n, rng);
    check_symmetrize<true, double>(TypeParam(), n, rng);
  }
}

}  // namespace
