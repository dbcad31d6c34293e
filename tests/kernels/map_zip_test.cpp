// Arithmetic and zip kernels against a reference loop, on every execution space: sources
// streaming along different axes, arithmetic with mixed element types, zips of one to four
// permuted sources.
#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "map_test.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::expect_elements;
using strided_test::MapTest;
using strided_test::random_operand;
using strided_test::read;

TYPED_TEST_SUITE(MapTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

TYPED_TEST(MapTest, SourcesStreamingAlongDifferentAxes) {
  // C = A + op(B)^T: A streams along C's fast axis, B^T along the other; the blocks are staged
  // per source. Ragged extents leave partial blocks on both edges; B is also walked reversed.
  std::mt19937 rng(15);
  for (const auto& shape :
       std::vector<std::vector<std::size_t>>{{203, 157}, {64, 64}, {9, 300}, {300, 270}}) {
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
    // Transposed sources that read along axis 1 with unit stride are staged per tile (rows
    // walked backwards too), each of its own element type, beside sources along axis 0.
    auto f = random_operand<float>({c, r}, rng, {false, false, false});
    strided_test::fill(f.view, 3);
    const auto bu = b.view.transpose().reverse(0);
    const auto ft = f.view.transpose();
    strided::zip_map_into(
        TypeParam(), out.view, [](double x, double y, float z) { return x - 2 * y + z; }, a.view,
        bu, ft);
    expect_elements(
        out,
        [&](const std::vector<std::size_t>& i) {
          return read(a.view, i) - 2 * read(bu, i) + read(ft, i);
        },
        a.view, bu, ft);
    strided::zip_map_into(
        TypeParam(), out.view, [](double x, double y) { return x - 2 * y; }, a.view, bt);
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

TYPED_TEST(MapTest, StreamedSourcesAlongDifferentAxesOnAndOffLines) {
  // C = A - 2 B^T + F^T with streaming stores into rows of a padded buffer that start on a
  // cache line, or 8 or 16 bytes after one: each row streams from its first whole store on
  // (the widest vector the target has) and stores its head plainly; block rows store whole
  // vectors, 16 bytes at a time where they are only 16-byte aligned, or plainly. Ragged extents
  // leave partial blocks on both edges; B is read reversed, F is float.
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 1024;
  std::mt19937 rng(31);
  for (const std::size_t shift : {0, 1, 2})
    for (const auto& shape : std::vector<std::array<std::size_t, 3>>{
             {203, 157, 160}, {64, 64, 64}, {130, 1000, 1000}, {9, 300, 304}, {300, 262, 264}}) {
      const std::size_t r = shape[0], c = shape[1], pitch = shape[2];
      auto a = random_operand<double>({r, c}, rng, {false, false, false});
      auto b = random_operand<double>({c, r}, rng, {false, false, false});
      auto f = random_operand<float>({c, r}, rng, {false, false, false});
      strided_test::fill(a.view, 1);
      strided_test::fill(b.view, 2);
      strided_test::fill(f.view, 3);
      std::vector<double> buffer(r * pitch + 16, strided_test::sentinel<double>());
      const auto line = reinterpret_cast<std::uintptr_t>(buffer.data()) % 64;
      double* const base = buffer.data() + (64 - line) % 64 / sizeof(double) + shift;
      const strided::StridedView<double> out(base, r * pitch, {r, c},
                                             {static_cast<std::ptrdiff_t>(pitch), 1}, 0);
      const auto bt = b.view.transpose().reverse(0);
      const auto ft = f.view.transpose();
      // Tiles of 256 x 256 exceed the stage: their blocks are staged one by one and stored a
      // block row at a time.
      const std::size_t large[] = {256, 256};
      strided::Options large_tiles = streaming;
      large_tiles.planner.block_override = large;
      for (const strided::Options& options : {streaming, large_tiles}) {
        strided::zip_map_into(
            TypeParam(), out, [](double x, double y, float z) { return x - 2 * y + z; }, a.view, bt,
            ft, options);
        EXPECT_TRUE(strided_test::elements_equal(
            out,
            [&](const std::vector<std::size_t>& i) {
              return read(a.view, i) - 2 * read(bt, i) + read(ft, i);
            },
            a.view, bt, ft))
            << r << " x " << c << ", pitch " << pitch << ", shift " << shift;
      }
      // The padding after each row keeps its sentinel.
      for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = c; j < pitch && i * pitch + j < r * pitch; ++j)
          ASSERT_EQ(base[i * pitch + j], strided_test::sentinel<double>()) << i << ", " << j;
    }
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

TYPED_TEST(MapTest, StreamedZipOfRowsThatFollowEachOther) {
  // C = A' - 2 B streamed into a buffer 0, 1 or 3 elements past a line: A' shares C's unit axis
  // but not its next one, and B is broadcast along that one (stride 0: the same row again). Each
  // tile stores C as one run, every source stepping to its next row where a row of C ends.
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 1024;
  std::mt19937 rng(37);
  for (const std::size_t n0 : {12, 15, 16})
    for (const std::size_t shift : {0, 1, 3}) {
      const std::vector<std::size_t> extents = {n0, 9, 7, 5};
      auto a = random_operand<double>({n0, 7, 9, 5}, rng, {false, false, false});
      auto b = random_operand<double>({n0, 7, 5}, rng, {false, false, false});
      strided_test::fill(a.view, 1);
      strided_test::fill(b.view, 2);
      const auto ap = a.view.permute({0, 2, 1, 3});
      const strided::StridedView<const double> bb(
          b.view.data(), b.buffer.size(), extents,
          {b.view.stride(0), 0, b.view.stride(1), b.view.stride(2)}, 0);
      const std::size_t count = n0 * 9 * 7 * 5;
      std::vector<double> buffer(count + 16, strided_test::sentinel<double>());
      const auto line = reinterpret_cast<std::uintptr_t>(buffer.data()) % 64 / sizeof(double);
      const auto first = static_cast<std::ptrdiff_t>((8 - line) % 8 + shift);
      const auto n = static_cast<std::ptrdiff_t>(n0);
      const strided::StridedView<double> view(buffer.data(), buffer.size(), extents,
                                              {1, n, 9 * n, 63 * n}, first);
      const strided_test::Operand<double> c(std::move(buffer), view);  // keeps the address
      ASSERT_EQ(strided::plan(c.view, ap, bb, streaming).strategy,
                strided::detail::Strategy::Tiled);
      strided::zip_map_into(
          TypeParam(), c.view, [](double x, double y) { return x - 2 * y; }, ap, bb, streaming);
      EXPECT_TRUE(strided_test::elements_equal(
          c.view, [&](const std::vector<std::size_t>& i) { return read(ap, i) - 2 * read(bb, i); },
          ap, bb))
          << "rows of " << n0 << ", " << shift << " past a line";
      EXPECT_TRUE(strided_test::outside_untouched(c));
    }
}

/// Zips of two transposed column-major n0 x n1 sources into a column-major T destination:
/// sources of T's size without an op are transposed block by block before f runs along the
/// destination's rows, others (a float source under a double destination) go through f first;
/// streamed or not, every element has the reference's bits.
template <class T, class U, class Exec>
void check_transposed_zip(const Exec& exec, std::size_t n0, std::size_t n1) {
  SCOPED_TRACE(::testing::Message()
               << sizeof(T) << "- and " << sizeof(U) << "-byte elements, " << n0 << " x " << n1);
  const auto a = strided::StridedArray<T>::col_major({n1, n0});
  const auto b = strided::StridedArray<U>::col_major({n1, n0});
  for (std::size_t i = 0; i < n0 * n1; ++i) {
    a.data()[i] = static_cast<T>(0.5 * double(i % 1013) - 7.0);
    b.data()[i] = static_cast<U>(0.25 * double(i % 997) + 1.0);
  }
  auto dst = strided::StridedArray<T>::col_major({n0, n1});
  const auto at = a.view().conj().transpose();  // (a real conj: no op)
  const auto bt = b.view().transpose();
  const auto f = [](T x, U y) { return x * static_cast<T>(y) + x; };
  strided::Options streaming = strided::default_options();
  streaming.planner.stream_bytes = 0;
  for (const auto& options : {strided::default_options(), streaming}) {
    strided::zip_map_into(exec, dst.view(), f, at, bt, options);
    EXPECT_TRUE(strided_test::elements_same_bits(
        dst.view(), [&](const std::vector<std::size_t>& i) { return f(read(at, i), read(bt, i)); },
        at, bt));
    strided::copy_scale(exec, dst.view(), at, T(3), options);
    EXPECT_TRUE(strided_test::elements_same_bits(
        dst.view(), [&](const std::vector<std::size_t>& i) { return T(3) * read(at, i); }, at));
  }
}

TYPED_TEST(MapTest, TransposedZipsThroughAFunction) {
  for (const auto& n : std::vector<std::array<std::size_t, 2>>{{37, 53}, {64, 48}, {200, 300}}) {
    check_transposed_zip<double, double>(TypeParam(), n[0], n[1]);
    check_transposed_zip<float, float>(TypeParam(), n[0], n[1]);
    check_transposed_zip<double, float>(TypeParam(), n[0], n[1]);
    check_transposed_zip<std::int64_t, std::int64_t>(TypeParam(), n[0], n[1]);
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

}  // namespace
