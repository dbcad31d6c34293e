// StridedArray: row- and column-major strides, from_fn_* values, size, extent-0 arrays,
// rank 0, ranks beyond INLINE_RANK, element access and the Kokkos storage.
#include <gtest/gtest.h>

#include <complex>
#include <cstddef>
#include <strided/strided.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using strided::MultiIndex;
using strided::StridedArray;

TEST(StridedArray, Case12ColMajorFromFn) {
  auto a = StridedArray<double>::from_fn_col_major(
      {2, 3, 4}, [](const MultiIndex& i) { return 100.0 * i[0] + 10.0 * i[1] + i[2]; });
  EXPECT_EQ(a.stride(0), 1);
  EXPECT_EQ(a.stride(1), 2);
  EXPECT_EQ(a.stride(2), 6);
  EXPECT_EQ(a.view()(1, 2, 3), 123.0);
  EXPECT_EQ(a.view()(0, 0, 1), 1.0);
  // Memory order is column-major: the second element in memory is index (1, 0, 0).
  EXPECT_EQ(a.data()[1], 100.0);
  EXPECT_EQ(a.data()[2], 10.0);
  EXPECT_EQ(a.data()[6], 1.0);
}

TEST(StridedArray, RowAndColMajorStrides) {
  const auto r2 = StridedArray<double>::row_major({3, 4});
  EXPECT_EQ(r2.stride(0), 4);
  EXPECT_EQ(r2.stride(1), 1);
  const auto c2 = StridedArray<double>::col_major({3, 4});
  EXPECT_EQ(c2.stride(0), 1);
  EXPECT_EQ(c2.stride(1), 3);
  const auto r3 = StridedArray<float>::row_major({2, 3, 4});
  EXPECT_EQ(r3.stride(0), 12);
  EXPECT_EQ(r3.stride(1), 4);
  EXPECT_EQ(r3.stride(2), 1);
  const auto c3 = StridedArray<int>::col_major(std::vector<int>{2, 3, 4});
  EXPECT_EQ(c3.stride(0), 1);
  EXPECT_EQ(c3.stride(1), 2);
  EXPECT_EQ(c3.stride(2), 6);
  const auto r1 = StridedArray<double>::row_major({5});
  EXPECT_EQ(r1.stride(0), 1);
  EXPECT_EQ(r1.rank(), 1u);
  for (const auto* a : {&r2, &c2}) {
    EXPECT_EQ(a->rank(), 2u);
    EXPECT_EQ(a->extent(0), 3u);
    EXPECT_EQ(a->extent(1), 4u);
    EXPECT_EQ(a->size(), 12u);
    // The view agrees with the array.
    const auto v = a->view();
    EXPECT_EQ(v.data(), a->data());
    EXPECT_EQ(v.stride(0), a->stride(0));
    EXPECT_EQ(v.stride(1), a->stride(1));
    EXPECT_EQ(v.size(), 12u);
  }
  // Default elements are value-initialized (Kokkos::View zero-fills).
  for (std::size_t n = 0; n < r2.size(); ++n) EXPECT_EQ(r2.data()[n], 0.0);
}

TEST(StridedArray, FromFnRowMajorVisitsEveryIndexOnce) {
  std::vector<int> calls(24, 0);
  auto a = StridedArray<int>::from_fn_row_major({2, 3, 4}, [&](const MultiIndex& i) {
    EXPECT_EQ(i.size(), 3u);
    const int linear = static_cast<int>(12 * i[0] + 4 * i[1] + i[2]);
    ++calls[static_cast<std::size_t>(linear)];
    return linear;
  });
  for (int c : calls) EXPECT_EQ(c, 1);
  EXPECT_EQ(a.stride(0), 12);
  EXPECT_EQ(a.stride(2), 1);
  // Row-major memory holds the row-major linear index.
  for (std::size_t n = 0; n < 24; ++n) EXPECT_EQ(a.data()[n], static_cast<int>(n));
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(a(i, j, k), static_cast<int>(12 * i + 4 * j + k));
        EXPECT_EQ(a.view()(i, j, k), a(i, j, k));
      }
}

TEST(StridedArray, FromFnColMajorComplex) {
  using cd = std::complex<double>;
  const auto a = StridedArray<cd>::from_fn_col_major({3, 2}, [](const MultiIndex& i) {
    return cd(static_cast<double>(i[0]), static_cast<double>(i[1]));
  });
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j) {
      EXPECT_EQ(a(i, j), cd(static_cast<double>(i), static_cast<double>(j)));
      EXPECT_EQ(a.data()[i + 3 * j], a(i, j));
      EXPECT_EQ(a.view().conj()(i, j), std::conj(a(i, j)));
    }
  // Values convert to the element type.
  const auto b = StridedArray<float>::from_fn_row_major(
      {2}, [](const MultiIndex& i) { return 0.5 + static_cast<double>(i[0]); });
  EXPECT_EQ(b(1), 1.5f);
}

TEST(StridedArray, OperatorParenthesesWritesAndViewsSeeIt) {
  auto a = StridedArray<double>::col_major({2, 3});
  a(1, 2) = 5.0;
  a(0, 1) = 7.0;
  EXPECT_EQ(a.data()[5], 5.0);
  EXPECT_EQ(a.data()[2], 7.0);
  static_assert(std::is_same_v<decltype(a(0, 0)), double&>);
  const auto& ca = a;
  const auto cv = ca.view();
  static_assert(std::is_same_v<std::decay_t<decltype(cv)>, strided::StridedView<const double>>);
  EXPECT_EQ(cv(1, 2), 5.0);
  auto mv = a.view();
  static_assert(std::is_same_v<decltype(mv), strided::StridedView<double>>);
  mv.at(0, 0) = -1.0;
  EXPECT_EQ(a(0, 0), -1.0);
  // The storage is a Kokkos::View over the same memory.
  EXPECT_EQ(a.storage().data(), a.data());
  EXPECT_EQ(a.storage().extent(0), 6u);
  EXPECT_EQ(a.storage()(5), 5.0);
  // Wrong index count.
  EXPECT_THROW((void)a(1), strided::Error);
  EXPECT_THROW((void)a(1, 1, 1), strided::Error);
}

TEST(StridedArray, ExtentZero) {
  int called = 0;
  const auto a = StridedArray<double>::from_fn_row_major({3, 0, 2}, [&](const MultiIndex&) {
    ++called;
    return 1.0;
  });
  EXPECT_EQ(called, 0);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.rank(), 3u);
  EXPECT_EQ(a.extent(1), 0u);
  EXPECT_TRUE(a.view().empty());
  EXPECT_EQ(a.view().size(), 0u);
  // Zero extents count as one for the strides (numpy's convention).
  EXPECT_EQ(a.stride(0), 2);
  EXPECT_EQ(a.stride(1), 2);
  EXPECT_EQ(a.stride(2), 1);
  const auto c = StridedArray<double>::col_major({0});
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(c.stride(0), 1);
}

TEST(StridedArray, RankZero) {
  const auto a = StridedArray<double>::from_fn_col_major({}, [](const MultiIndex& i) {
    EXPECT_EQ(i.size(), 0u);
    return 42.0;
  });
  EXPECT_EQ(a.rank(), 0u);
  EXPECT_EQ(a.size(), 1u);
  EXPECT_EQ(a(), 42.0);
  EXPECT_EQ(a.view()(), 42.0);
  EXPECT_EQ(a.view().size(), 1u);
}

TEST(StridedArray, RankBeyondInlineRank) {
  // Rank 12 with extents 1 and 2: the multi-index and the metadata live on the heap.
  std::vector<std::size_t> dims(12, 1);
  dims[0] = dims[5] = dims[11] = 2;
  const auto a = StridedArray<double>::from_fn_row_major(dims, [](const MultiIndex& i) {
    double v = 0;
    for (std::size_t k = 0; k < i.size(); ++k) v = 2 * v + static_cast<double>(i[k]);
    return v;
  });
  ASSERT_EQ(a.rank(), 12u);
  EXPECT_EQ(a.size(), 8u);
  EXPECT_EQ(a.stride(11), 1);
  EXPECT_EQ(a.stride(5), 2);
  EXPECT_EQ(a.stride(0), 4);
  // Row-major memory of (i0, i5, i11) holds the binary number of the full index.
  for (std::size_t n = 0; n < 8; ++n) {
    const std::size_t i0 = n / 4, i5 = (n / 2) % 2, i11 = n % 2;
    EXPECT_EQ(a.data()[n], static_cast<double>((i0 << 11) + (i5 << 6) + i11));
  }
  EXPECT_EQ(a(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1), static_cast<double>((1 << 11) + (1 << 6) + 1));
  const auto c = StridedArray<double>::col_major(dims);
  EXPECT_EQ(c.stride(0), 1);
  EXPECT_EQ(c.stride(5), 2);
  EXPECT_EQ(c.stride(11), 4);
}

TEST(StridedArray, SizeOverflowThrows) {
  const std::size_t big = std::size_t(1) << 40;
  try {
    (void)StridedArray<char>::row_major({big, big});
    ADD_FAILURE() << "expected OffsetOverflow";
  } catch (const strided::Error& e) {
    EXPECT_EQ(e.code(), strided::ErrorCode::OffsetOverflow);
    EXPECT_NE(std::string(e.what()).find("strided::StridedArray"), std::string::npos);
  }
  // With an extent 0 there are no elements, but the strides of the others must still fit.
  try {
    (void)StridedArray<char>::row_major({0, big, big});
    ADD_FAILURE() << "expected OffsetOverflow";
  } catch (const strided::Error& e) {
    EXPECT_EQ(e.code(), strided::ErrorCode::OffsetOverflow);
  }
  const auto fine = StridedArray<char>::row_major({0, big, 4});
  EXPECT_EQ(fine.size(), 0u);
  EXPECT_EQ(fine.stride(0), static_cast<std::ptrdiff_t>(4 * big));
  // Counts that fit std::size_t but not std::ptrdiff_t, or whose bytes do not: refused before
  // any allocation is attempted.
  for (const std::size_t count : {std::size_t(1) << 62, std::size_t(1) << 61}) {
    try {
      (void)StridedArray<double>::row_major({count, 2});
      ADD_FAILURE() << "expected OffsetOverflow for " << count;
    } catch (const strided::Error& e) {
      EXPECT_EQ(e.code(), strided::ErrorCode::OffsetOverflow);
    }
  }
}

}  // namespace
