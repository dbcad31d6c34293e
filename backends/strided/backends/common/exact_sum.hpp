#ifndef STRIDED_BACKENDS_COMMON_EXACT_SUM_HPP
#define STRIDED_BACKENDS_COMMON_EXACT_SUM_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The exact tier's fast path. Adding a double to the fixed-point integer costs a few scalar
// digit updates; most blocks of data instead go through floating-point bins per lane, where
// every addition is exact by construction (the ReproBLAS extraction, kept exact): each term
// splits into parts on fixed 40-bit boundaries below the block's largest magnitude, each part a
// multiple of its boundary, and a bin offset by 1.5 * 2^(boundary + 52) takes 2047 of them
// without rounding, three additions a part. A block of values first tries the top two levels,
// and takes every level (three; four for the parts of products of doubles) only when some term
// reaches below them; what lies below the last boundary goes to a further set of bins, then to
// the integer itself, and so do blocks with infinities, NaNs or magnitudes near the overflow
// threshold. Products of doubles in place take their own pass (add_products): the rounded
// product to the top two levels, its error to two more bins 53 binades lower. Every path is
// exact, so the choice of path changes no bit of the result.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "strided/backends/common/exact_integer.hpp"

#if defined(__FAST_MATH__)
#error "strided: the exact reductions need IEEE arithmetic; do not compile with -ffast-math"
#endif

namespace strided::detail {

// Every choice below changes the path of the arithmetic, never the integer (every path is exact):
// the host and the device may choose differently.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
/// Terms per block: a block's largest magnitude places its bins. A device thread keeps its block
/// (and the block below the last boundary) on its stack: short blocks keep that stack small.
inline constexpr int EXACT_BLOCK = 64;
/// ... for unit-stride runs read in place.
inline constexpr int EXACT_RUN_BLOCK = EXACT_BLOCK;
/// Lanes of the bins. On a device the threads are the lanes: lanes of its own would only
/// multiply a thread's registers and stack.
inline constexpr int EXACT_LANES = 1;
#else
inline constexpr int EXACT_BLOCK = 256;
/// ... longer blocks for runs read in place, which need no staging: each block's setup costs as
/// much as a few dozen terms.
inline constexpr int EXACT_RUN_BLOCK = 4 * EXACT_BLOCK;
/// Lanes of the bins: independent chains of additions that the host's SIMD units run at once.
inline constexpr int EXACT_LANES = 16;
#endif

/// 2^k as a double, for normal powers (-1022 <= k <= 1023).
KOKKOS_FORCEINLINE_FUNCTION double power_of_two(int k) {
  return double_of(static_cast<std::uint64_t>(k + 1023) << 52);
}

/// e = a * b - p for p = fl(a * b), exact under the conditions of product_splits; inlined in
/// loops that vectorize (p comes from memory: no contraction to undo).
KOKKOS_FORCEINLINE_FUNCTION double product_error(double a, double b, double p) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __fma_rn(a, b, -p);
#elif defined(__FP_FAST_FMA) || defined(__FMA__) || defined(__ARM_FEATURE_FMA)
  return std::fma(a, b, -p);
#else
  const double split = 134217729.0;
  const double ca = split * a, cb = split * b;
  const double ah = ca - (ca - a), al = a - ah;
  const double bh = cb - (cb - b), bl = b - bh;
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
#endif
}

/// Whether p = fl(a * b) and product_error(a, b, p) are exactly a * b and fit the bins: |p| in
/// [2^-968, 2^995) (or a * b is 0); false for infinities and NaNs, and for operands Dekker's
/// split would overflow.
KOKKOS_FORCEINLINE_FUNCTION bool product_splits(double a, double b, double p) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  const double pm = fabs(p), am = fabs(a), bm = fabs(b);
#else
  const double pm = std::fabs(p), am = std::fabs(a), bm = std::fabs(b);
#endif
  constexpr double tiny = 0x1p-968, huge = 0x1p995;
  // Bitwise, not short-circuit: the loops that test every product stay branch-free.
  return ((pm >= tiny) | (am == 0) | (bm == 0)) & (pm < huge) & (am < huge) & (bm < huge);
}

/// Whether product_error is a fused multiply-add, exact for every finite product not too close
/// to underflow (Dekker's product also needs operands far from overflow).
inline constexpr bool FUSED_PRODUCT_ERROR =
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__FP_FAST_FMA) || \
    defined(__FMA__) || defined(__ARM_FEATURE_FMA)
    true;
#else
    false;
#endif

struct NoCascade {};

/// Int: the integer. Sums of products of doubles take a fourth bin: a product's error part lies
/// about 53 binades below the product, and its low bits 105 below. Depth: how many further sets
/// of bins take, a block at a time, what lies below the last boundary (wide-ranging data: the
/// parts of products spread over 100 binades and more), before the integer does term by term.
template <class Int, int Depth = 1, int Lanes = EXACT_LANES>
struct ExactSum {
  static constexpr int LANES = Lanes;
  static constexpr bool WIDE = Int::unit_shift > 0;
  static constexpr int LEVELS = WIDE ? 4 : 3;
  static constexpr int WIDTH = 40;  ///< bits between boundaries
  /// A block of values first tries the top two levels alone (six additions a term instead of
  /// nine): enough unless some term lies 28 binades or more under the block's largest. Products
  /// of doubles, whose error parts always reach lower, take every level (or add_products).
  static constexpr int FIRST_TRY = WIDE ? LEVELS : 2;
  /// After a block that needed more than its first try, this many take the full path at once
  /// (for products of doubles: the general path instead of add_products); twice as many after
  /// each further miss in a row, up to MAX_RETRY.
  static constexpr int RETRY = 16, MAX_RETRY = 256;
  /// The bins of add_products' errors: two more levels, their first boundary this far (plus
  /// WIDTH) under the top, where the largest error's leading bit lies.
  static constexpr int ERROR_SHIFT = 53;
  /// Parts a bin takes between flushes: each at most 2^(boundary + 40) in magnitude, 2047 of
  /// them stay below 2^(boundary + 51), so a bin offset by 1.5 * 2^(boundary + 52) stays in that
  /// binade (see extract).
  static constexpr int CAPACITY = 2047;
  static_assert(EXACT_RUN_BLOCK / LANES <= CAPACITY);
  /// Bins for a block whose magnitudes are below 2^top: top in [MIN_TOP, MAX_TOP] keeps every
  /// boundary constant 1.5 * 2^(boundary + 52) a normal double (the errors' lowest too), and the
  /// bins finite.
  static constexpr int MAX_TOP = 1011, MIN_TOP = LEVELS * WIDTH - 1074;
  static_assert(!WIDE || MIN_TOP - ERROR_SHIFT - 2 * WIDTH + 52 >= -1022);
  /// A block whose top is this far below the bins' refreshes them (fewer parts below the last
  /// boundary).
  static constexpr int REFRESH = 16;
  static constexpr int NO_TOP = -100000;

  Int total;
  double bin[LEVELS][LANES] = {};
  double error_bin[WIDE ? 2 : 1][LANES] = {};  ///< add_products' errors (wide only)
  int top = NO_TOP;
  int parts = 0;             ///< the most parts any bin took since the last flush
  int retry = 0;             ///< blocks left that skip the first try
  int retry_length = RETRY;  ///< ... after the next miss
  std::conditional_t<(Depth > 0), ExactSum<Int, (Depth > 0 ? Depth - 1 : 0), Lanes>, NoCascade>
      below;

  /// Adds the bins to the integer and empties them.
  KOKKOS_INLINE_FUNCTION void flush() {
    if (top == NO_TOP) return;
    for (int j = 0; j < LEVELS; ++j)
      for (int l = 0; l < LANES; ++l) {
        if (bin[j][l] != 0) total.add(bin[j][l]);
        bin[j][l] = 0;
      }
    if constexpr (WIDE)
      for (int j = 0; j < 2; ++j)
        for (int l = 0; l < LANES; ++l) {
          if (error_bin[j][l] != 0) total.add(error_bin[j][l]);
          error_bin[j][l] = 0;
        }
    top = NO_TOP;
    parts = 0;
  }

  /// Adds x[0, n) exactly (n <= EXACT_RUN_BLOCK). Track: x are the terms themselves (not parts of
  /// products), so they decide the sign of an exact zero.
  ///
  /// One pass over the block: it splits into the current bins (copies, in registers) while
  /// finding the block's largest magnitude, and keeps the copies only if that magnitude is
  /// below 2^top, where every split is exact, and nothing is left below the levels it tried.
  /// Otherwise the block is split again: into every level (bits far below the block's largest),
  /// into fresh bins (data growing), or added to the integer term by term (infinities).
  template <bool Track>
  KOKKOS_INLINE_FUNCTION void add_block(const double* x, int n) {
    if (n <= 0) return;
    const int incoming = (n + LANES - 1) / LANES;
    if (parts + incoming > CAPACITY) flush_keeping_top();
    if (top == NO_TOP) top = top_of(x, n);
    bool all_zero = false, left = false;
    int block_top;
    if constexpr (FIRST_TRY < LEVELS) {
      if (retry == 0) {
        block_top = split_block<FIRST_TRY>(x, n, all_zero, left);
        if (!left && block_top <= top) retry_length = RETRY;
      } else {
        --retry;
        block_top = split_block<LEVELS>(x, n, all_zero, left);
      }
    } else {
      block_top = split_block<LEVELS>(x, n, all_zero, left);
    }
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
      split_block<LEVELS>(x, n, all_zero, left);
    } else if (left) {  // bits below the first try's levels: every level, for a while
      missed_first_try();
      split_block<LEVELS>(x, n, all_zero, left);
    }
    if (block_top < top - REFRESH) {
      flush_keeping_top();  // smaller data from now on: the next bins sit lower
      top = block_top;
    }
    parts += incoming;
  }

  /// Whether the next block of products should try add_products (not after a recent miss).
  KOKKOS_INLINE_FUNCTION bool products_first() {
    if (retry == 0) return true;
    --retry;
    return false;
  }

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  /// Adds the exact products a[i] * b[i] = p[i] + e[i], p[i] = fl(a[i] * b[i]) (rounded by the
  /// caller, never contracted), e[i] its error, for i < n <= EXACT_RUN_BLOCK, in one vectorized
  /// pass: p to the top two levels, e to the two error bins below. Returns false, having added
  /// nothing, when that is not exact for every product (one that does not split or lies near
  /// the overflow threshold, bits below the last boundaries: products 28 binades or more under
  /// the block's largest): then the caller adds the block as terms. A block above the bins' top
  /// flushes them and tries again below its own. a[n, n + ahead) and
  /// b[n, n + ahead) exist: the next block's operands, which the pass prefetches. Host code.
  bool add_products(const double* a, const double* b, const double* p, int n, int ahead = 0) {
    static_assert(WIDE, "strided: add_products takes products of doubles");
    if (n <= 0) return true;
    const int incoming = (n + LANES - 1) / LANES;
    if (parts + incoming > CAPACITY) flush_keeping_top();
    if (top == NO_TOP) top = top_of(p, n);
    // Integer lane flags (the loop vectorizes): the largest |p|, whatever is not exact, and
    // (with a fused multiply-add) the least |p| - 1, which is -1 after a zero product.
    std::int64_t largest[LANES], odd[LANES], least[LANES];
    double p0[LANES], p1[LANES], e0[LANES], e1[LANES];
    double c0, c1, d0, d1;
    bool zero;
    int block_top;
    for (int attempt = 0;; ++attempt) {  // a second time below a new top (data growing)
      const int t = top > MAX_TOP ? MAX_TOP : top;
      c0 = boundary_constant(t - WIDTH);
      c1 = boundary_constant(t - 2 * WIDTH);
      d0 = boundary_constant(t - ERROR_SHIFT - WIDTH);
      d1 = boundary_constant(t - ERROR_SHIFT - 2 * WIDTH);
      for (int l = 0; l < LANES; ++l) {
        p0[l] = bin[0][l] + c0;
        p1[l] = bin[1][l] + c1;
        e0[l] = error_bin[0][l] + d0;
        e1[l] = error_bin[1][l] + d1;
      }
      for (int l = 0; l < LANES; ++l) {
        largest[l] = odd[l] = 0;
        least[l] = std::numeric_limits<std::int64_t>::max();
      }
      const auto one = [&](int i, int l) {
        const double pv = p[i], av = a[i], bv = b[i];
        double e = product_error(av, bv, pv), v = pv;
        keep_largest(largest[l], bits_of(pv));
        extract(v, p0[l]);
        extract(v, p1[l]);
        extract(e, e0[l]);
        extract(e, e1[l]);
        odd[l] |= static_cast<std::int64_t>(bits_of(v) | bits_of(e));
        if constexpr (FUSED_PRODUCT_ERROR) {
          const auto m = static_cast<std::int64_t>(bits_of(pv) & DOUBLE_MAGNITUDE) - 1;
          least[l] = m < least[l] ? m : least[l];
        } else {
          odd[l] |= static_cast<std::int64_t>(!product_splits(av, bv, pv));
        }
      };
      int i = 0;
      for (; i + LANES <= n; i += LANES) {
        for (int l = 0; l < LANES; ++l) one(i + l, l);
#if defined(__GNUC__) || defined(__clang__)
        // The next block's operands (ahead of them in memory): requested while this one's
        // arithmetic runs, so that their loads overlap it; to L2 (locality 1), measured faster
        // than to L1 or further ahead (docs/performance.md, "The exact tier").
        if (i + LANES <= ahead) {
          __builtin_prefetch(a + n + i, 0, 1);
          __builtin_prefetch(b + n + i, 0, 1);
          __builtin_prefetch(a + n + i + LANES / 2, 0, 1);
          __builtin_prefetch(b + n + i + LANES / 2, 0, 1);
        }
#endif
      }
      for (int l = 0; i + l < n; ++l) one(i + l, l);
      block_top = top_of(largest, zero);
      if (block_top <= t) break;
      if (attempt > 0 || block_top > MAX_TOP) return false;  // also infinities and NaNs
      flush();
      top = block_top;
    }
    std::int64_t any = 0;
    for (int l = 0; l < LANES; ++l) any |= odd[l];
    if constexpr (FUSED_PRODUCT_ERROR) {
      // A product and its fused error are exact unless the product is below 2^-968: nonzero,
      // or 0 from nonzero operands (rare enough to look for only in blocks with a zero product).
      std::int64_t most = std::numeric_limits<std::int64_t>::max();
      for (int l = 0; l < LANES; ++l) most = least[l] < most ? least[l] : most;
      constexpr auto tiny = static_cast<std::int64_t>(std::uint64_t(1023 - 968) << 52);
      if (most >= 0 && most < tiny - 1) return false;
      if (most < 0) {
        std::int64_t lost = 0;  // products lost to underflow
        for (int k = 0; k < n; ++k)
          lost |= static_cast<std::int64_t>((bits_of(p[k]) & DOUBLE_MAGNITUDE) < tiny) &
                  static_cast<std::int64_t>(a[k] != 0) & static_cast<std::int64_t>(b[k] != 0);
        if (lost) return false;
      }
    }
    if (any) {
      missed_first_try();
      return false;
    }
    retry_length = RETRY;
    for (int l = 0; l < LANES; ++l) {
      bin[0][l] = p0[l] - c0;
      bin[1][l] = p1[l] - c1;
      error_bin[0][l] = e0[l] - d0;
      error_bin[1][l] = e1[l] - d1;
    }
    // The products decide the sign of an exact zero (as terms); only a block of zeros can leave
    // every one -0.
    bool not_neg_zero = !zero;
    for (int k = 0; zero && k < n; ++k) not_neg_zero |= bits_of(p[k]) != DOUBLE_NEG_ZERO;
    total.flags |= Int::SAW_TERM | (not_neg_zero ? Int::SAW_NOT_NEG_ZERO : 0u);
    if (block_top < top - REFRESH) {
      flush_keeping_top();
      top = block_top;
    }
    parts += incoming;
    return true;
  }
#endif

  /// The integer with the bins (and those below) added.
  KOKKOS_INLINE_FUNCTION const Int& finish() {
    flush();
    if constexpr (Depth > 0) total.merge(below.finish());
    return total;
  }

 private:
  KOKKOS_INLINE_FUNCTION void missed_first_try() {
    retry = retry_length;
    retry_length = 2 * retry_length < MAX_RETRY ? 2 * retry_length : MAX_RETRY;
  }
  KOKKOS_INLINE_FUNCTION void flush_keeping_top() {
    const int keep = top;
    flush();
    top = keep;
  }

  /// The offset of a bin whose parts are multiples of 2^boundary: 1.5 * 2^(boundary + 52).
  KOKKOS_FORCEINLINE_FUNCTION static double boundary_constant(int boundary) {
    return 1.5 * power_of_two(boundary + 52);
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
  /// least = min(least, |x| - 1) as unsigned bits: 0 (no bits) wraps to the largest.
  KOKKOS_FORCEINLINE_FUNCTION static void keep_least_nonzero(std::uint64_t& least,
                                                             std::uint64_t b) {
    const std::uint64_t m = (b & DOUBLE_MAGNITUDE) - 1;
    least = m < least ? m : least;
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

  /// Splits the block into copies of the top L levels, kept when the block's top (returned) is
  /// at most the bins' (and finite), and, for L < LEVELS, nothing is left below the last of them
  /// (else `left`). With every level, what is left below goes to the bins below.
  template <int L>
  KOKKOS_INLINE_FUNCTION int split_block(const double* x, int n, bool& all_zero, bool& left) {
    const int t = top > MAX_TOP ? MAX_TOP : top;
    double c[L];
    for (int j = 0; j < L; ++j) c[j] = boundary_constant(t - (j + 1) * WIDTH);
    // Local bins: the compiler keeps them in registers (x could alias the members). Lane arrays
    // of integers for the flags: a bool accumulator would keep the loop scalar.
    double local[L][LANES];
    std::int64_t largest[LANES] = {}, residue[LANES] = {};
    // With every level, what lies below the last one, for the bins below.
    double rest[L == LEVELS ? EXACT_RUN_BLOCK : 1];
    init_local<L>(c, local);
    split_terms<L, L == LEVELS>(x, n, local, largest, residue, rest);
    const int block_top = top_of(largest, all_zero);
    if (block_top > t) return block_top;
    std::int64_t any = 0;
    for (int l = 0; l < LANES; ++l) any |= residue[l];
    left = false;
    if constexpr (L < LEVELS) {
      if (any) {
        left = true;
        return block_top;
      }
    } else {
      if (any) {
        if constexpr (Depth > 0) {
          below.template add_block<false>(rest, n);
        } else {
          for (int k = 0; k < n; ++k)
            if (rest[k] != 0) total.add(rest[k]);
        }
      }
    }
    for (int j = 0; j < L; ++j)
      for (int l = 0; l < LANES; ++l) bin[j][l] = local[j][l] - c[j];
    return block_top;
  }

  /// local: the bins offset by c (see extract).
  template <int L>
  KOKKOS_INLINE_FUNCTION void init_local(const double* c, double (&local)[L][LANES]) const {
    for (int j = 0; j < L; ++j)
      for (int l = 0; l < LANES; ++l) local[j][l] = bin[j][l] + c[j];
  }

  /// One pass of split_block into local; Rest: also keeps each term's residue below the last
  /// boundary.
  template <int L, bool Rest>
  KOKKOS_INLINE_FUNCTION static void split_terms(const double* x, int n, double (&local)[L][LANES],
                                                 std::int64_t (&largest)[LANES],
                                                 std::int64_t (&residue)[LANES], double* rest) {
    const auto one = [&](int at, int l) {
      keep_largest(largest[l], bits_of(x[at]));
      double v = x[at];
      for (int j = 0; j < L; ++j) extract(v, local[j][l]);
      residue[l] |= static_cast<std::int64_t>(bits_of(v));
      if constexpr (Rest) rest[at] = v;
    };
    int i = 0;
    for (; i + LANES <= n; i += LANES)
      for (int l = 0; l < LANES; ++l) one(i + l, l);
    for (int l = 0; i + l < n; ++l) one(i + l, l);
  }

  /// One extraction into a bin offset by c = 1.5 * 2^(boundary + 52), exact for |v| <
  /// 2^(boundary + 40) while the bin stays within 2^(boundary + 51) of c, in c's binade, whose
  /// ulp is 2^boundary: the bin takes the multiple of 2^boundary nearest v (the rounding of
  /// their sum) and v keeps the rest (that rounding's error, +0 when none, even from a -0).
  /// Three additions; how a tie rounds depends on the bin, so only a pass from the same bins
  /// splits a term the same way again.
  KOKKOS_FORCEINLINE_FUNCTION static void extract(double& v, double& bin) {
    const double sum = bin + v;
    v = (bin - sum) + v;
    bin = sum;
  }
};

}  // namespace strided::detail

#endif
