#ifndef STRIDED_BACKENDS_COMMON_EXACT_SUM_HPP
#define STRIDED_BACKENDS_COMMON_EXACT_SUM_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The exact tier's fast path. Adding a double to the fixed-point integer costs a few scalar
// digit updates; most blocks of data instead go through three (four for products of doubles)
// floating-point bins per lane,
// where every addition is exact by construction (the ReproBLAS extraction, kept exact): each
// term splits into parts on fixed 40-bit boundaries below the block's largest magnitude,
// each part is a multiple of its boundary, and 4096 of them sum without rounding. What lies
// below the last boundary (bits 120 or 160 binades under the block's largest) goes to the integer
// itself, and so do blocks with infinities, NaNs or magnitudes near the overflow threshold.
// Every path is exact, so the choice of path changes no bit of the result.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "strided/backends/common/exact_integer.hpp"

#if defined(__FAST_MATH__)
#error "strided: the exact reductions need IEEE arithmetic; do not compile with -ffast-math"
#endif

namespace strided::detail {

/// Terms per block: a block's largest magnitude places its bins.
inline constexpr int EXACT_BLOCK = 256;

/// 2^k as a double, for normal powers (-1022 <= k <= 1023).
KOKKOS_FORCEINLINE_FUNCTION double power_of_two(int k) {
  return double_of(static_cast<std::uint64_t>(k + 1023) << 52);
}

struct NoCascade {};

/// Int: the integer. Sums of products of doubles take a fourth bin: a product's error part lies
/// about 53 binades below the product, and its low bits 105 below. Depth: how many further sets
/// of bins take, a block at a time, what lies below the last boundary (wide-ranging data: the
/// parts of products spread over 100 binades and more), before the integer does term by term.
template <class Int, int Depth = 1>
struct ExactSum {
  static constexpr int LANES = 16;
  static constexpr int LEVELS = Int::unit_shift > 0 ? 4 : 3;
  static constexpr int WIDTH = 40;  ///< bits between boundaries: 2^(52 - 40) parts sum exactly
  /// Blocks between flushes: 16 parts per lane per block, at most 4096 per lane.
  static constexpr int PERIOD = 4096 / (EXACT_BLOCK / LANES);
  /// Bins for a block whose magnitudes are below 2^top: top in [MIN_TOP, MAX_TOP] keeps every
  /// boundary constant 1.5 * 2^(boundary + 52) a normal double, and the bins finite.
  static constexpr int MAX_TOP = 1011, MIN_TOP = LEVELS * WIDTH - 1074;
  /// A block whose top is this far below the bins' refreshes them (fewer parts below the last
  /// boundary).
  static constexpr int REFRESH = 16;
  static constexpr int NO_TOP = -100000;

  Int total;
  double bin[LEVELS][LANES] = {};
  int top = NO_TOP;
  int blocks = 0;
  std::conditional_t<(Depth > 0), ExactSum<Int, (Depth > 0 ? Depth - 1 : 0)>, NoCascade> below;

  /// Adds the bins to the integer and empties them.
  KOKKOS_INLINE_FUNCTION void flush() {
    if (top == NO_TOP) return;
    for (int j = 0; j < LEVELS; ++j)
      for (int l = 0; l < LANES; ++l) {
        if (bin[j][l] != 0) total.add(bin[j][l]);
        bin[j][l] = 0;
      }
    top = NO_TOP;
    blocks = 0;
  }

  /// Adds x[0, n) exactly (n <= EXACT_BLOCK). Track: x are the terms themselves (not parts of
  /// products), so they decide the sign of an exact zero.
  ///
  /// One pass over the block: it splits into the current bins (copies, in registers) while
  /// finding the block's largest magnitude, and keeps the copies only if that magnitude is
  /// below 2^top, where every split is exact. Otherwise (data growing, infinities) the block is
  /// split again into fresh bins, or added to the integer term by term.
  template <bool Track>
  KOKKOS_INLINE_FUNCTION void add_block(const double* x, int n) {
    if (n <= 0) return;
    if (blocks >= PERIOD) flush_keeping_top();
    if (top == NO_TOP) top = top_of(x, n);
    bool all_zero = false;
    const int block_top = split_block(x, n, all_zero);
    if constexpr (Track) {
      // Only a block of zeros can leave every term -0: its signs are read here, not in the loop.
      bool not_neg_zero = !all_zero;
      for (int i = 0; all_zero && i < n; ++i) not_neg_zero |= bits_of(x[i]) != DOUBLE_NEG_ZERO;
      total.flags |= Int::SAW_TERM | (not_neg_zero ? Int::SAW_NOT_NEG_ZERO : 0u);
    }
    if (block_top > MAX_TOP) {  // infinities, NaNs, or magnitudes near DBL_MAX
      for (int i = 0; i < n; ++i) total.add(x[i]);
      return;
    }
    if (block_top > top) {  // the copies are void: split again below the new top
      flush();
      top = block_top;
      split_block(x, n, all_zero);
    } else if (block_top < top - REFRESH) {
      flush_keeping_top();  // smaller data from now on: the next bins sit lower
      top = block_top;
    }
    ++blocks;
  }

  /// The integer with the bins (and those below) added.
  KOKKOS_INLINE_FUNCTION const Int& finish() {
    flush();
    if constexpr (Depth > 0) total.merge(below.finish());
    return total;
  }

 private:
  KOKKOS_INLINE_FUNCTION void flush_keeping_top() {
    const int keep = top;
    flush();
    top = keep;
  }

  /// The bins' top for a block: |x| < 2^top, within [MIN_TOP, MAX_TOP + 1]; zero: whether every
  /// magnitude is 0.
  KOKKOS_INLINE_FUNCTION static int top_of(const double* x, int n) {
    std::int64_t largest[LANES] = {};
    int i = 0;
    for (; i + LANES <= n; i += LANES)
      for (int l = 0; l < LANES; ++l) keep_largest(largest[l], bits_of(x[i + l]));
    for (int l = 0; i + l < n; ++l) keep_largest(largest[l], bits_of(x[i + l]));
    bool zero;
    return top_of(largest, zero);
  }
  KOKKOS_FORCEINLINE_FUNCTION static void keep_largest(std::int64_t& largest, std::uint64_t b) {
    const auto m = static_cast<std::int64_t>(b & DOUBLE_MAGNITUDE);
    largest = m > largest ? m : largest;
  }
  KOKKOS_INLINE_FUNCTION static int top_of(const std::int64_t* largest, bool& zero) {
    std::int64_t most = 0;
    for (int l = 0; l < LANES; ++l) most = largest[l] > most ? largest[l] : most;
    zero = most == 0;
    const int field = static_cast<int>(static_cast<std::uint64_t>(most) >> 52);
    const int t = field == 0 ? -1022 : field - 1022;  // |x| < 2^t
    return t < MIN_TOP ? MIN_TOP : t > MAX_TOP ? MAX_TOP + 1 : t;
  }

  /// Splits the block into copies of the bins, kept when the block's top (returned) is at most
  /// the bins' (and finite); then adds the residues below the last boundary to the integer.
  KOKKOS_INLINE_FUNCTION int split_block(const double* x, int n, bool& all_zero) {
    const int t = top > MAX_TOP ? MAX_TOP : top;
    double c[LEVELS];
    for (int j = 0; j < LEVELS; ++j) c[j] = 1.5 * power_of_two(t - (j + 1) * WIDTH + 52);
    // Local bins: the compiler keeps them in registers (x could alias the members). Lane arrays
    // of integers for the flags: a bool accumulator would keep the loop scalar.
    double local[LEVELS][LANES];
    std::int64_t largest[LANES] = {}, residue[LANES] = {};
    // What lies below the last boundary, for the bins below (unused without them).
    double rest[Depth > 0 ? EXACT_BLOCK : 1];
    for (int j = 0; j < LEVELS; ++j)
      for (int l = 0; l < LANES; ++l) local[j][l] = bin[j][l];
    const auto one = [&](int at, int l) {
      const std::uint64_t b = bits_of(x[at]);
      keep_largest(largest[l], b);
      double v = x[at];
      for (int j = 0; j < LEVELS; ++j) extract(v, c[j], local[j][l]);
      residue[l] |= static_cast<std::int64_t>(bits_of(v));  // -0 as well: rare, and harmless
      if constexpr (Depth > 0) rest[at] = v;
    };
    int i = 0;
    for (; i + LANES <= n; i += LANES)
      for (int l = 0; l < LANES; ++l) one(i + l, l);
    for (int l = 0; i + l < n; ++l) one(i + l, l);
    const int block_top = top_of(largest, all_zero);
    if (block_top > t) return block_top;
    for (int j = 0; j < LEVELS; ++j)
      for (int l = 0; l < LANES; ++l) bin[j][l] = local[j][l];
    std::int64_t any = 0;
    for (int l = 0; l < LANES; ++l) any |= residue[l];
    if (any) {  // bits below the last boundary
      if constexpr (Depth > 0) {
        below.template add_block<false>(rest, n);
      } else {
        for (int k = 0; k < n; ++k) {
          double r = x[k], discarded = 0;
          for (int j = 0; j < LEVELS; ++j) extract(r, c[j], discarded);
          if (r != 0) total.add(r);
        }
      }
    }
    return block_top;
  }

  /// One extraction (exact for |v| < 2^(boundary + 51)): the multiple of 2^boundary nearest v
  /// goes to the bin, v keeps the rest.
  KOKKOS_FORCEINLINE_FUNCTION static void extract(double& v, double c, double& bin) {
    const double part = (v + c) - c;
    v = v - part;
    bin += part;
  }
};

}  // namespace strided::detail

#endif
