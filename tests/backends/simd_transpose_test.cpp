// The in-register transposes against a plain loop, for every element size and block side the
// kernels serve, with plain and streaming stores, on rows at arbitrary (also negative) distances;
// the masked loads of two runs (load_two_runs), beside inaccessible pages; and the lines a staged
// tile fetches ahead (RowsAhead, fetch_rows).
// Built once per instruction set this machine runs (STRIDED_TEST_ISA names the one expected), so
// the SSE2, AVX and AVX-512 kernels are all checked, whatever flags the library is built with.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "strided/backends/host/rows_ahead.hpp"
#include "strided/backends/host/simd_transpose.hpp"
#include "strided/backends/host/two_runs.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace {

using strided::detail::simd::isa_name;
using strided::detail::simd::load_two_runs;
using strided::detail::simd::transpose_block;
using strided::detail::simd::transpose_rows;

#ifdef STRIDED_TEST_ISA
TEST(SimdTranspose, BuiltForTheExpectedInstructionSet) {
  EXPECT_STREQ(isa_name(), STRIDED_TEST_ISA);
}
#endif

/// A 16-byte trivially copyable element that is not complex.
struct TwoWords {
  std::uint64_t lo, hi;
};

/// Distinct bit patterns, NaN payloads among them for the floating types (moved as bits).
template <class T>
T pattern(std::size_t k) {
  if constexpr (std::is_same_v<T, std::complex<double>>) {
    return {pattern<double>(2 * k), pattern<double>(2 * k + 1)};
  } else if constexpr (std::is_same_v<T, TwoWords>) {
    return {k * 0x9e3779b97f4a7c15ull, ~k};
  } else if constexpr (sizeof(T) == 8) {
    const std::uint64_t bits = 0x7ff8000000000000ull ^ (k * 0x9e3779b97f4a7c15ull);
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  } else {
    static_assert(sizeof(T) == 4);
    const std::uint32_t bits = 0x7fc00000u ^ static_cast<std::uint32_t>(k * 0x9e3779b9u);
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// A B x B block out of a source with row distance ls into a destination with row distance ld
/// (negative: rows run backwards), checked element by element, and nothing else written.
template <class T, std::size_t B, bool Stream>
void check_block(std::ptrdiff_t ls, std::ptrdiff_t ld) {
  const std::size_t rows_extent = (B - 1) * static_cast<std::size_t>(ls < 0 ? -ls : ls) + B;
  const std::size_t dst_extent = (B - 1) * static_cast<std::size_t>(ld < 0 ? -ld : ld) + B;
  std::vector<T> src(rows_extent), dst_store(dst_extent + 64);
  for (std::size_t k = 0; k < src.size(); ++k) src[k] = pattern<T>(k);
  // Streaming stores need aligned rows: start the destination on a 64-byte boundary.
  T* dst = dst_store.data();
  while (reinterpret_cast<std::uintptr_t>(dst) % 64 != 0) ++dst;
  for (std::size_t k = 0; k < dst_extent; ++k) dst[k] = pattern<T>(k + 1000003);
  // (Constructed, not assigned: GCC 12 at -O2 warns of a null memmove in vector::assign.)
  const std::vector<T> before(dst, dst + dst_extent);
  const T* s = src.data() + (ls < 0 ? static_cast<std::ptrdiff_t>(rows_extent - B) : 0);
  T* d = dst + (ld < 0 ? static_cast<std::ptrdiff_t>(dst_extent - B) : 0);
  transpose_block<B, Stream>(s, ls, d, ld);
  std::vector<bool> written(dst_extent, false);
  for (std::size_t i = 0; i < B; ++i)
    for (std::size_t j = 0; j < B; ++j) {
      const std::ptrdiff_t at =
          static_cast<std::ptrdiff_t>(j) * ld + static_cast<std::ptrdiff_t>(i);
      written[static_cast<std::size_t>(d - dst + at)] = true;
      ASSERT_TRUE(
          same_bits(d[at], s[static_cast<std::ptrdiff_t>(i) * ls + static_cast<std::ptrdiff_t>(j)]))
          << "element (" << i << ", " << j << ") of a " << B << " x " << B << " block of "
          << sizeof(T) << "-byte elements, ls " << ls << ", ld " << ld;
    }
  for (std::size_t k = 0; k < dst_extent; ++k)
    ASSERT_TRUE(written[k] || same_bits(dst[k], before[k])) << "wrote outside the block at " << k;
}

template <class T, std::size_t B>
void check_all_distances() {
  // Row distances (never below B: rows do not overlap): packed, gapped, a power of two (cache-set
  // conflicts), odd, and backwards.
  const auto b = static_cast<std::ptrdiff_t>(B);
  for (std::ptrdiff_t ls : {b, b + 3, std::ptrdiff_t(512), -b - 1, -b})
    for (std::ptrdiff_t ld : {b, b + 5, -b - 3}) check_block<T, B, false>(ls, ld);
  // Streamed rows stay aligned: distances that are multiples of 16 elements.
  const std::ptrdiff_t aligned = (b + 15) / 16 * 16;
  for (std::ptrdiff_t ls : {b, b + 45})
    for (std::ptrdiff_t ld : {aligned, aligned + 48, -aligned - 16})
      check_block<T, B, true>(ls, ld);
}

TEST(SimdTranspose, Doubles) {
  check_all_distances<double, 8>();
  check_all_distances<double, 16>();
}
TEST(SimdTranspose, Floats) {
  check_all_distances<float, 16>();
  check_all_distances<float, 32>();
}
TEST(SimdTranspose, BlocksSmallerThanAKernel) {
  // A float source staged beside a complex<double> destination: 4 x 4, narrower than AVX's 8.
  check_all_distances<float, 4>();
  check_all_distances<double, 2>();
}
TEST(SimdTranspose, EightAndFourByteIntegers) {
  check_all_distances<std::int64_t, 8>();
  check_all_distances<std::uint32_t, 16>();
}
TEST(SimdTranspose, SixteenByteElements) {
  // One kernel per block (4 x 4: one line per row), then 2 x 2 kernels per block.
  check_all_distances<std::complex<double>, 4>();
  check_all_distances<std::complex<double>, 8>();
  check_all_distances<TwoWords, 4>();
#if STRIDED_SIMD_X86
  EXPECT_EQ(strided::detail::simd::kernel_side<std::complex<double>>(), 4u);
#endif
}

TEST(SimdTranspose, RowsAnywhere) {
  // transpose_rows takes each row by pointer: rows in shuffled order, as gathered blocks have them.
  constexpr std::size_t B = 8;
  std::vector<double> src(B * 40), dst(B * 50, -1.0);
  for (std::size_t k = 0; k < src.size(); ++k) src[k] = static_cast<double>(k);
  const std::size_t src_row[B] = {7, 3, 30, 0, 12, 5, 21, 39};
  const std::size_t dst_row[B] = {49, 0, 8, 17, 2, 33, 40, 11};
  const double* from[B];
  double* to[B];
  for (std::size_t k = 0; k < B; ++k) {
    from[k] = src.data() + src_row[k] * B;
    to[k] = dst.data() + dst_row[k] * B;
  }
  transpose_rows<B, false>(from, to);
  for (std::size_t i = 0; i < B; ++i)
    for (std::size_t j = 0; j < B; ++j) EXPECT_EQ(to[j][i], from[i][j]) << i << ", " << j;
}

/// load_two_runs for every k, with the first run ending where an inaccessible page begins and
/// the second starting where one ends: a load of any element outside the two runs faults.
template <class T, std::size_t W>
void check_two_runs() {
  SCOPED_TRACE(::testing::Message() << sizeof(T) << "-byte elements, " << W << " per vector");
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* const map =
      mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  char* const bytes = static_cast<char*>(map);
  ASSERT_EQ(mprotect(bytes, page, PROT_NONE), 0);
  ASSERT_EQ(mprotect(bytes + 2 * page, page, PROT_NONE), 0);
  T* const first = reinterpret_cast<T*>(bytes + page);
  const std::size_t n = page / sizeof(T);
  for (std::size_t i = 0; i < n; ++i) first[i] = pattern<T>(i);
  for (std::size_t k = 1; k < W; ++k) {
    const T* const a = first + (n - k);  // a run whose last k elements end at the guard page
    const T* const b = first - k;        // b + k: a run that starts right after a guard page
    T out[W];
    load_two_runs<W>(a, k, b, out);
    for (std::size_t w = 0; w < W; ++w) {
      const T& want = w < k ? a[w] : first[w - k];
      EXPECT_EQ(std::memcmp(&out[w], &want, sizeof(T)), 0) << "k " << k << ", element " << w;
    }
  }
  munmap(map, 3 * page);
}

TEST(SimdTranspose, TwoRunsReadNothingOutsideThem) {
  check_two_runs<double, 2>();
  check_two_runs<double, 4>();
  check_two_runs<double, 8>();
  check_two_runs<float, 4>();
  check_two_runs<float, 8>();
  check_two_runs<float, 16>();
  check_two_runs<std::int64_t, 8>();  // no masked loads: element by element
}

/// Every line RowsAhead fetches, in order, for rows of `bytes` from byte `start` of a buffer
/// (rows `pitch` bytes apart, the first at the top when the pitch is negative), in steps of
/// `per_step` lines, with a second operand at `second` bytes from the first when non-zero.
std::vector<std::ptrdiff_t> fetched_lines(std::size_t start, std::ptrdiff_t pitch,
                                          std::size_t bytes, std::size_t rows, std::size_t per_step,
                                          std::ptrdiff_t second = 0) {
  alignas(64) static char buffer[1 << 16];
  char* const base = buffer + (1 << 15);
  strided::detail::RowsAhead ahead;
  ahead.add(base + start, pitch, bytes, rows);
  if (second != 0) ahead.add(base + start + second, pitch, bytes, rows);
  const std::size_t queued = ahead.lines_left();
  std::vector<std::ptrdiff_t> lines;
  for (int s = 0; s < 1000; ++s) {
    ahead.step(per_step, [&](const char* line) { lines.push_back(line - base); });
    // Counted down as they go: a paced fetch spreads what is left over the blocks.
    EXPECT_EQ(ahead.lines_left(), queued - lines.size());
  }
  EXPECT_EQ(lines.size(), queued);
  return lines;
}

TEST(RowsAhead, FetchesEveryLineOfEveryRowOnceInOrder) {
  // Rows of 3 lines, aligned: lines 0, 64, 128 of each row, 1024 bytes apart.
  std::vector<std::ptrdiff_t> want;
  for (std::ptrdiff_t r = 0; r < 4; ++r)
    for (std::ptrdiff_t l = 0; l < 3; ++l) want.push_back(r * 1024 + l * 64);
  EXPECT_EQ(fetched_lines(0, 1024, 192, 4, 1), want);
  EXPECT_EQ(fetched_lines(0, 1024, 192, 4, 5), want);   // steps across rows
  EXPECT_EQ(fetched_lines(0, 1024, 192, 4, 64), want);  // one step for all, then nothing
  // Rows that start 8 bytes into a line and end in their fourth line.
  want.clear();
  for (std::ptrdiff_t r = 0; r < 2; ++r)
    for (std::ptrdiff_t l = 0; l < 4; ++l) want.push_back(r * 1024 + l * 64);
  EXPECT_EQ(fetched_lines(8, 1024, 192, 2, 3), want);
  // Rows going down (a negative pitch): the rows in the order given.
  want.clear();
  for (std::ptrdiff_t r = 0; r < 3; ++r)
    for (std::ptrdiff_t l = 0; l < 2; ++l) want.push_back(-r * 2048 + l * 64);
  EXPECT_EQ(fetched_lines(0, -2048, 128, 3, 2), want);
}

TEST(RowsAhead, TwoOperandsAdvanceTogether) {
  std::vector<std::ptrdiff_t> want;
  for (std::ptrdiff_t r = 0; r < 3; ++r)
    for (std::ptrdiff_t l = 0; l < 2; ++l) {
      want.push_back(r * 512 + l * 64);
      want.push_back(r * 512 + l * 64 + 4096);
    }
  EXPECT_EQ(fetched_lines(0, 512, 128, 3, 1, 4096), want);
}

TEST(RowsAhead, EachRowsOwnLines) {
  // Rows a pitch of no whole lines apart (200 bytes, from byte 56): each row's lines, from the
  // line it starts in to the line it ends in (as fetch_rows asks for them).
  const std::vector<std::ptrdiff_t> want = {0,   64,  128, 192, 256, 320,
                                            384, 448, 448, 512, 576, 640};
  EXPECT_EQ(fetched_lines(56, 200, 200, 3, 1), want);
  EXPECT_EQ(fetched_lines(56, 200, 200, 3, 7), want);
}

TEST(RowsAhead, OperandsOfOtherOffsetsKeepTheirOwnPlaces) {
  // The second operand starts 40 bytes into a line, so its rows of 64 bytes touch two lines
  // where the first's touch one: each takes turns until its own rows are done.
  const std::vector<std::ptrdiff_t> want = {0, 4096, 512, 4160, 1024, 4608, 4672, 5120, 5184};
  EXPECT_EQ(fetched_lines(0, 512, 64, 3, 1, 4096 + 40), want);
  EXPECT_EQ(fetched_lines(0, 512, 64, 3, 4, 4096 + 40), want);
}

TEST(RowsAhead, NothingWithoutRows) {
  EXPECT_TRUE(fetched_lines(0, 512, 128, 0, 4).empty());
  strided::detail::RowsAhead none;
  int calls = 0;
  none.step(100, [&](const char*) { ++calls; });
  EXPECT_EQ(calls, 0);
}

/// Every line fetch_rows asks for, in order, for `rows` rows of `bytes` from byte `start` of a
/// buffer, `pitch` bytes apart.
std::vector<std::ptrdiff_t> fetched_rows(std::size_t start, std::ptrdiff_t pitch, std::size_t bytes,
                                         std::size_t rows) {
  alignas(64) static char buffer[1 << 16];
  char* const base = buffer + (1 << 15);
  std::vector<std::ptrdiff_t> lines;
  strided::detail::fetch_rows(base + start, pitch, bytes, rows,
                              [&](const char* line) { lines.push_back(line - base); });
  return lines;
}

TEST(FetchRows, AsksForEachRowsLinesBackToBack) {
  // Rows of 8 lines 65536 bytes apart (a transposed tile's source rows): row by row.
  std::vector<std::ptrdiff_t> want;
  for (std::ptrdiff_t r = 0; r < 3; ++r)
    for (std::ptrdiff_t l = 0; l < 8; ++l) want.push_back(r * 8192 + l * 64);
  EXPECT_EQ(fetched_rows(0, 8192, 512, 3), want);
  // Rows that start 8 bytes into a line end in a ninth.
  want.clear();
  for (std::ptrdiff_t r = 0; r < 2; ++r)
    for (std::ptrdiff_t l = 0; l < 9; ++l) want.push_back(r * 1024 + l * 64);
  EXPECT_EQ(fetched_rows(8, 1024, 512, 2), want);
  // A negative pitch, and rows that overlap (a pitch shorter than a row).
  want.clear();
  for (std::ptrdiff_t r = 0; r < 3; ++r)
    for (std::ptrdiff_t l = 0; l < 2; ++l) want.push_back(-r * 4096 + l * 64);
  EXPECT_EQ(fetched_rows(0, -4096, 128, 3), want);
  want.clear();
  for (std::ptrdiff_t r = 0; r < 2; ++r)
    for (std::ptrdiff_t l = 0; l < 4; ++l) want.push_back(r * 64 + l * 64);
  EXPECT_EQ(fetched_rows(0, 64, 256, 2), want);
  // Rows a pitch of no whole lines apart (200 bytes): each row's own lines, from the line it
  // starts in to the line it ends in.
  want = {0, 64, 128, 192, 256, 320, 384, 448, 448, 512, 576, 640};
  EXPECT_EQ(fetched_rows(56, 200, 200, 3), want);
  // Nothing for no rows or empty rows.
  EXPECT_TRUE(fetched_rows(0, 512, 128, 0).empty());
  EXPECT_TRUE(fetched_rows(0, 512, 0, 4).empty());
}

}  // namespace
