#ifndef STRIDED_BACKENDS_COMMON_EXACT_INTEGER_HPP
#define STRIDED_BACKENDS_COMMON_EXACT_INTEGER_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The exact tier's state: a sum of doubles (and of exact products of doubles) held as one
// fixed-point integer, so that adding is associative and the result, rounded once at the end,
// has the same bits in any order and on any partition (threads, tiles, devices, MPI ranks).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

namespace strided::detail {

KOKKOS_FORCEINLINE_FUNCTION std::uint64_t bits_of(double x) {
  std::uint64_t b;
  __builtin_memcpy(&b, &x, sizeof b);
  return b;
}
KOKKOS_FORCEINLINE_FUNCTION double double_of(std::uint64_t b) {
  double x;
  __builtin_memcpy(&x, &b, sizeof x);
  return x;
}
KOKKOS_FORCEINLINE_FUNCTION float float_of(std::uint32_t b) {
  float x;
  __builtin_memcpy(&x, &b, sizeof x);
  return x;
}

inline constexpr std::uint64_t DOUBLE_FRACTION = (std::uint64_t(1) << 52) - 1;
inline constexpr std::uint64_t DOUBLE_IMPLICIT = std::uint64_t(1) << 52;
inline constexpr std::uint64_t DOUBLE_MAGNITUDE = ~(std::uint64_t(1) << 63);
inline constexpr std::uint64_t DOUBLE_NEG_ZERO = std::uint64_t(1) << 63;
inline constexpr std::uint64_t LOW32 = 0xffffffffu;

/// A double's integer significand m and bit position p: |x| = m * 2^(p - 1074).
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t significand_of(std::uint64_t b) {
  const std::uint64_t field = (b >> 52) & 0x7ff;
  return (b & DOUBLE_FRACTION) | (field ? DOUBLE_IMPLICIT : 0);
}
KOKKOS_FORCEINLINE_FUNCTION int position_of(std::uint64_t b) {
  const int field = static_cast<int>((b >> 52) & 0x7ff);
  return field ? field - 1 : 0;
}

/// The floating types a result is rounded to: precision, bias and bit layout.
template <class T>
struct FloatFormat;
template <>
struct FloatFormat<double> {
  using Bits = std::uint64_t;
  static constexpr int precision = 53, bias = 1023, max_field = 2047, min_exponent = -1074;
  KOKKOS_FORCEINLINE_FUNCTION static double make(Bits b) { return double_of(b); }
};
template <>
struct FloatFormat<float> {
  using Bits = std::uint32_t;
  static constexpr int precision = 24, bias = 127, max_field = 255, min_exponent = -149;
  KOKKOS_FORCEINLINE_FUNCTION static float make(Bits b) { return float_of(b); }
};

/// A signed integer N in units of 2^-(1074 + Shift), held as Chunks signed 64-bit digits of
/// 32 bits each (digit j weighs 2^(32 j)), with room in every digit for carries: adding costs
/// three digit updates and no carry propagation until `normalize`. Plus the IEEE special values
/// seen and what the sign of an exact zero needs. Shift 0 holds any sum of doubles (and of
/// exact products of floats); Shift 1074 holds any sum of exact products of doubles. A plain
/// value: copied across spaces and over MPI as bytes.
template <int Chunks, int Shift>
struct ExactInteger {
  static constexpr int chunks = Chunks;
  static constexpr int unit_shift = Shift;
  /// Adds between normalizations: each changes a digit by less than 2^34.
  static constexpr std::uint32_t NORMALIZE_EVERY = std::uint32_t(1) << 26;

  enum Flag : std::uint32_t {
    SAW_NAN = 1,
    SAW_POS_INF = 2,
    SAW_NEG_INF = 4,
    SAW_TERM = 8,          ///< some term was added
    SAW_NOT_NEG_ZERO = 16  ///< some term was not -0 (an exact zero is -0 only without one)
  };

  std::int64_t digit[Chunks] = {};
  std::uint32_t flags = 0;
  std::uint32_t pending = 0;

  /// Records a term for the special values and the sign of zero (not its magnitude).
  KOKKOS_FORCEINLINE_FUNCTION void note_term(std::uint64_t b) {
    flags |= SAW_TERM | (b != DOUBLE_NEG_ZERO ? SAW_NOT_NEG_ZERO : 0u);
  }

  /// Adds +-v * 2^p units (v < 2^64).
  KOKKOS_FORCEINLINE_FUNCTION void add_shifted(std::uint64_t v, int p, bool negative) {
    const int c = p >> 5, r = p & 31;
    const std::uint64_t lo = (v & LOW32) << r;
    const std::uint64_t hi = (v >> 32) << r;
    const auto d0 = static_cast<std::int64_t>(lo & LOW32);
    const auto d1 = static_cast<std::int64_t>((lo >> 32) + (hi & LOW32));
    const auto d2 = static_cast<std::int64_t>(hi >> 32);
    if (negative) {
      digit[c] -= d0;
      digit[c + 1] -= d1;
      digit[c + 2] -= d2;
    } else {
      digit[c] += d0;
      digit[c + 1] += d1;
      digit[c + 2] += d2;
    }
    if (++pending >= NORMALIZE_EVERY) normalize();
  }

  /// Adds x exactly, or records it when it is infinite or NaN (not a term: see note_term).
  KOKKOS_INLINE_FUNCTION void add(double x) {
    const std::uint64_t b = bits_of(x);
    if (((b >> 52) & 0x7ff) == 0x7ff) {
      flags |= (b & DOUBLE_FRACTION) ? SAW_NAN : (b >> 63) ? SAW_NEG_INF : SAW_POS_INF;
      return;
    }
    const std::uint64_t m = significand_of(b);
    if (m != 0) add_shifted(m, position_of(b) + Shift, (b >> 63) != 0);
  }

  /// Adds a * b exactly (an integer product of the significands), for finite a and b; needs the
  /// wide form (Shift >= 1074), where every such product has a place.
  KOKKOS_INLINE_FUNCTION void add_product(double a, double b) {
    static_assert(Shift >= 1074, "strided: exact products of doubles need the wide accumulator");
    const std::uint64_t ba = bits_of(a), bb = bits_of(b);
    const std::uint64_t ma = significand_of(ba), mb = significand_of(bb);
    if (ma == 0 || mb == 0) return;
    const bool negative = ((ba ^ bb) >> 63) != 0;
    const int p = position_of(ba) + position_of(bb) + Shift - 1074;
    const std::uint64_t a0 = ma & LOW32, a1 = ma >> 32, b0 = mb & LOW32, b1 = mb >> 32;
    add_shifted(a0 * b0, p, negative);
    add_shifted(a0 * b1, p + 32, negative);
    add_shifted(a1 * b0, p + 32, negative);
    add_shifted(a1 * b1, p + 64, negative);
  }

  /// Every digit but the last in [0, 2^32); the last holds the sign.
  KOKKOS_INLINE_FUNCTION void normalize() {
    for (int j = 0; j + 1 < Chunks; ++j) {
      const std::int64_t carry = digit[j] >> 32;  // floor(digit / 2^32)
      digit[j] -= carry * (std::int64_t(1) << 32);
      digit[j + 1] += carry;
    }
    pending = 0;
  }

  /// this += other: associative and commutative, exactly.
  KOKKOS_INLINE_FUNCTION void merge(const ExactInteger& other) {
    if (pending + other.pending + 1 >= NORMALIZE_EVERY) normalize();
    for (int j = 0; j < Chunks; ++j) digit[j] += other.digit[j];
    flags |= other.flags;
    pending += other.pending + 1;
    if (pending >= NORMALIZE_EVERY) normalize();
  }

  /// N rounded to T once (to nearest, ties to even), with IEEE's special values: NaN from a NaN
  /// or from +inf and -inf together; an exact zero is +0 unless every term was -0.
  template <class T>
  KOKKOS_INLINE_FUNCTION T round() const {
    using F = FloatFormat<T>;
    using Bits = typename F::Bits;
    constexpr int P = F::precision;
    const Bits sign_bit = Bits(1) << (sizeof(Bits) * 8 - 1);
    const Bits infinity = Bits(F::max_field) << (P - 1);
    if ((flags & SAW_NAN) || ((flags & SAW_POS_INF) && (flags & SAW_NEG_INF)))
      return F::make(infinity | (Bits(1) << (P - 2)));
    if (flags & (SAW_POS_INF | SAW_NEG_INF))
      return F::make(infinity | ((flags & SAW_NEG_INF) ? sign_bit : 0));
    ExactInteger n = *this;
    n.normalize();
    const bool negative = n.digit[Chunks - 1] < 0;
    if (negative) {
      for (int j = 0; j < Chunks; ++j) n.digit[j] = -n.digit[j];
      n.normalize();
    }
    int h = Chunks - 1;
    while (h >= 0 && n.digit[h] == 0) --h;
    const Bits sign = negative ? sign_bit : 0;
    if (h < 0)
      return F::make((flags & SAW_TERM) && !(flags & SAW_NOT_NEG_ZERO) ? sign_bit : Bits(0));
    int top = 32 * h;
    for (auto d = static_cast<std::uint64_t>(n.digit[h]); d > 1; d >>= 1) ++top;
    // The ulp of the result: P bits below the top one, or the type's smallest subnormal.
    constexpr int lowest_ulp = Shift + 1074 + F::min_exponent;
    int ulp = top - (P - 1) < lowest_ulp ? lowest_ulp : top - (P - 1);
    std::uint64_t q = n.bits_at(ulp, P);
    if (ulp > 0 && n.bit(ulp - 1) && ((q & 1) || n.any_below(ulp - 1))) ++q;
    if (q >> P) {
      q >>= 1;
      ++ulp;
    }
    // q * 2^(ulp - Shift - 1074): subnormal below 2^(P-1), else normal or infinite.
    if (q < (std::uint64_t(1) << (P - 1))) return F::make(sign | static_cast<Bits>(q));
    const long field = long(ulp) - Shift - 1074 + (P - 1) + F::bias;
    if (field >= F::max_field) return F::make(sign | infinity);
    return F::make(sign | (static_cast<Bits>(field) << (P - 1)) |
                   static_cast<Bits>(q - (std::uint64_t(1) << (P - 1))));
  }

 private:
  // On a normalized, non-negative value: its bits [k, k + count), one bit, any bit below k.
  KOKKOS_INLINE_FUNCTION std::uint64_t bits_at(int k, int count) const {
    std::uint64_t r = 0;
    const int c = k >> 5, s = k & 31;
    for (int i = 0; i < 3 && c + i < Chunks; ++i) {
      const auto v = static_cast<std::uint64_t>(digit[c + i]);
      const int shift = 32 * i - s;
      r |= shift < 0 ? v >> -shift : shift < 64 ? v << shift : 0;
    }
    return count >= 64 ? r : r & ((std::uint64_t(1) << count) - 1);
  }
  KOKKOS_INLINE_FUNCTION bool bit(int k) const {
    return (static_cast<std::uint64_t>(digit[k >> 5]) >> (k & 31)) & 1;
  }
  KOKKOS_INLINE_FUNCTION bool any_below(int k) const {
    if (static_cast<std::uint64_t>(digit[k >> 5]) & ((std::uint64_t(1) << (k & 31)) - 1))
      return true;
    for (int j = 0; j < (k >> 5); ++j)
      if (digit[j] != 0) return true;
    return false;
  }
};

/// The two accumulators: any sum of doubles; any sum of exact products of doubles. Sized for
/// 2^63 terms of the largest magnitude.
using NarrowInteger = ExactInteger<68, 0>;
using WideInteger = ExactInteger<134, 1074>;

}  // namespace strided::detail

#endif
