#ifndef STRIDED_TESTS_CONTRACT_EINSUM_ORACLE_HPP
#define STRIDED_TESTS_CONTRACT_EINSUM_ORACLE_HPP

// A plain loop einsum of two operands, independent of the library's kernels: it reads elements
// through data() and the strides (with the view's op applied), sums every product of one output
// element in long double (std::complex<long double> for complex types), and returns
// alpha * sum + beta * c for every element of C in row-major order of C's logical index, with an
// error bound for a floating-point evaluation in the element type: the sum of the magnitudes of
// every term scaled by the unit roundoff and the number of terms (the classical bound of a
// recursive or blocked summation, gamma_n * sum |x_i|, with room for the products and the scaling).

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <strided/strided.hpp>

namespace strided_test {

/// The three label strings of "ab,bc->ac", spaces removed. Throws std::invalid_argument on a spec
/// the oracle cannot read (the tests only give it valid ones).
struct EinsumSpec {
  std::string a, b, c;
};

inline EinsumSpec parse_einsum(std::string_view spec) {
  std::string s;
  for (char ch : spec)
    if (ch != ' ') s.push_back(ch);
  const std::size_t arrow = s.find("->");
  const std::size_t comma = s.find(',');
  if (arrow == std::string::npos || comma == std::string::npos || comma > arrow)
    throw std::invalid_argument("einsum oracle: malformed spec " + std::string(spec));
  return {s.substr(0, comma), s.substr(comma + 1, arrow - comma - 1), s.substr(arrow + 2)};
}

/// The oracle's accumulator: long double, or std::complex<long double>.
template <class T>
struct OracleTraits {
  using acc = long double;
  static acc widen(const T& x) { return static_cast<long double>(x); }
  static T narrow(const acc& x) { return static_cast<T>(x); }
  static long double magnitude(const acc& x) { return std::fabs(x); }
  static bool is_nan(const T& x) { return std::isnan(x); }
  static double unit_roundoff() { return std::numeric_limits<T>::epsilon() / 2; }
};
template <class R>
struct OracleTraits<Kokkos::complex<R>> {
  using acc = std::complex<long double>;
  static acc widen(const Kokkos::complex<R>& x) { return acc(x.real(), x.imag()); }
  static Kokkos::complex<R> narrow(const acc& x) {
    return Kokkos::complex<R>(static_cast<R>(x.real()), static_cast<R>(x.imag()));
  }
  static long double magnitude(const acc& x) { return std::fabs(x.real()) + std::fabs(x.imag()); }
  static bool is_nan(const Kokkos::complex<R>& x) {
    return std::isnan(x.real()) || std::isnan(x.imag());
  }
  static double unit_roundoff() { return std::numeric_limits<R>::epsilon() / 2; }
};
template <class R>
struct OracleTraits<std::complex<R>> {
  using acc = std::complex<long double>;
  static acc widen(const std::complex<R>& x) { return acc(x.real(), x.imag()); }
  static std::complex<R> narrow(const acc& x) {
    return std::complex<R>(static_cast<R>(x.real()), static_cast<R>(x.imag()));
  }
  static long double magnitude(const acc& x) { return std::fabs(x.real()) + std::fabs(x.imag()); }
  static bool is_nan(const std::complex<R>& x) {
    return std::isnan(x.real()) || std::isnan(x.imag());
  }
  static double unit_roundoff() { return std::numeric_limits<R>::epsilon() / 2; }
};

/// The element of `v` at the multi-index `i` (one entry per axis), with the view's op applied:
/// offsets computed from the strides, so that any rank works (operator() takes a fixed pack).
template <class V>
typename V::value_type oracle_read(const V& v, const std::vector<std::size_t>& i) {
  std::ptrdiff_t offset = 0;
  for (std::size_t k = 0; k < i.size(); ++k)
    offset += static_cast<std::ptrdiff_t>(i[k]) * v.stride(k);
  return V::op_type::apply(static_cast<typename V::value_type>(v.data()[offset]));
}

/// What C must hold after the call: values in row-major order of C's logical index, and for each
/// the bound on |got - want| (see the file comment).
template <class T>
struct EinsumExpected {
  std::vector<T> value;
  std::vector<long double> bound;
  std::vector<std::size_t> c_extents;
  std::size_t terms = 0;  ///< products summed per output element (contracted and trace lengths)
};

/// alpha * einsum(spec, a, b) + beta * c, evaluated by loops. beta == 0 ignores c (a NaN there
/// does not reach the result); alpha == 0 ignores a and b. The operands must agree (the tests
/// call the oracle only on valid contractions; it throws std::invalid_argument otherwise).
template <class VC, class VA, class VB, class T>
EinsumExpected<T> einsum_oracle(std::string_view spec, const VC& c, const VA& a, const VB& b,
                                const T& alpha, const T& beta) {
  using Tr = OracleTraits<T>;
  using Acc = typename Tr::acc;
  const EinsumSpec s = parse_einsum(spec);
  if (s.a.size() != a.rank() || s.b.size() != b.rank() || s.c.size() != c.rank())
    throw std::invalid_argument("einsum oracle: rank mismatch");
  // Every label's extent (0 when absent), checked for agreement.
  std::size_t extent_of[128] = {};
  bool seen[128] = {};
  const auto note = [&](const std::string& labels, const auto& v) {
    for (std::size_t k = 0; k < labels.size(); ++k) {
      const auto l = static_cast<unsigned char>(labels[k]);
      if (seen[l] && extent_of[l] != v.extent(k))
        throw std::invalid_argument("einsum oracle: extents of a label disagree");
      seen[l] = true;
      extent_of[l] = v.extent(k);
    }
  };
  note(s.a, a);
  note(s.b, b);
  note(s.c, c);
  // Summed labels: in an input and not in the output (contracted and trace axes), once each.
  std::string summed;
  for (const std::string* in : {&s.a, &s.b})
    for (char l : *in)
      if (s.c.find(l) == std::string::npos && summed.find(l) == std::string::npos)
        summed.push_back(l);
  std::vector<std::size_t> summed_extents;
  std::size_t terms = 1;
  for (char l : summed) {
    summed_extents.push_back(extent_of[static_cast<unsigned char>(l)]);
    terms *= summed_extents.back();
  }
  EinsumExpected<T> out;
  out.terms = terms;
  for (std::size_t k = 0; k < c.rank(); ++k) out.c_extents.push_back(c.extent(k));
  std::size_t count = 1;
  for (std::size_t e : out.c_extents) count *= e;
  out.value.reserve(count);
  out.bound.reserve(count);
  if (count == 0) return out;

  // Value of each label during the loops; an operand's offset is the sum over its labels of the
  // label's value times the operand's stride on that axis (no label repeats inside an operand).
  std::size_t value_of[128] = {};
  const auto offset = [&](const std::string& labels, const auto& v) {
    std::ptrdiff_t o = 0;
    for (std::size_t k = 0; k < labels.size(); ++k)
      o += static_cast<std::ptrdiff_t>(value_of[static_cast<unsigned char>(labels[k])]) *
           v.stride(k);
    return o;
  };
  const auto element = [&](const std::string& labels, const auto& v) {
    using V = std::decay_t<decltype(v)>;
    using E = typename V::value_type;
    return Tr::widen(
        static_cast<T>(V::op_type::apply(static_cast<E>(v.data()[offset(labels, v)]))));
  };
  const long double u = Tr::unit_roundoff();
  const Acc wa = Tr::widen(alpha), wb = Tr::widen(beta);
  const bool zero_alpha = Tr::magnitude(wa) == 0, zero_beta = Tr::magnitude(wb) == 0;
  std::vector<std::size_t> ci(c.rank(), 0);
  std::vector<std::size_t> si(summed.size(), 0);
  for (std::size_t n = 0; n < count; ++n) {
    for (std::size_t k = 0; k < c.rank(); ++k) value_of[static_cast<unsigned char>(s.c[k])] = ci[k];
    Acc sum = Acc(0);
    long double magnitude = 0;
    if (!zero_alpha && terms > 0) {
      for (std::size_t t = 0; t < terms; ++t) {
        for (std::size_t k = 0; k < summed.size(); ++k)
          value_of[static_cast<unsigned char>(summed[k])] = si[k];
        const Acc x = element(s.a, a);
        const Acc y = element(s.b, b);
        sum += x * y;
        magnitude += Tr::magnitude(x) * Tr::magnitude(y);
        for (std::size_t k = summed.size(); k-- > 0;) {
          if (++si[k] < summed_extents[k]) break;
          si[k] = 0;
        }
      }
    }
    Acc result = zero_alpha ? Acc(0) : wa * sum;
    long double bound_magnitude = Tr::magnitude(wa) * magnitude;
    if (!zero_beta) {
      const Acc old = element(s.c, c);
      result += wb * old;
      bound_magnitude += Tr::magnitude(wb) * Tr::magnitude(old);
    }
    out.value.push_back(Tr::narrow(result));
    // n products and adds, the alpha and beta products, one more for complex arithmetic, and a
    // factor 4 for complex multiplication's own rounding (two products and an add per part).
    const long double steps = static_cast<long double>(terms) + 4;
    const long double factor = strided::detail::is_complex_v<T> ? 4 : 1;
    out.bound.push_back(factor * steps * u * bound_magnitude +
                        std::numeric_limits<long double>::min());
    for (std::size_t k = c.rank(); k-- > 0;) {
      if (++ci[k] < out.c_extents[k]) break;
      ci[k] = 0;
    }
  }
  return out;
}

/// Every element of `c` (read through the strides, op applied) is within the bound of the
/// expected value, and none is NaN.
template <class VC, class T>
::testing::AssertionResult matches_oracle(const VC& c, const EinsumExpected<T>& want) {
  using Tr = OracleTraits<T>;
  if (c.rank() != want.c_extents.size()) return ::testing::AssertionFailure() << "rank differs";
  std::vector<std::size_t> ci(c.rank(), 0);
  std::size_t failures = 0;
  std::ostringstream message;
  for (std::size_t n = 0; n < want.value.size(); ++n) {
    const T got = oracle_read(c, ci);
    const long double err = Tr::magnitude(Tr::widen(got) - Tr::widen(want.value[n]));
    if (Tr::is_nan(got) || !(err <= want.bound[n])) {
      if (failures < 8) {
        message << "\n  C[";
        for (std::size_t k = 0; k < ci.size(); ++k) message << (k ? "," : "") << ci[k];
        message << "] = " << Tr::widen(got) << ", want " << Tr::widen(want.value[n]) << " (|error| "
                << err << " > bound " << want.bound[n] << ")";
      }
      ++failures;
    }
    for (std::size_t k = c.rank(); k-- > 0;) {
      if (++ci[k] < want.c_extents[k]) break;
      ci[k] = 0;
    }
  }
  if (failures == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << failures << " of " << want.value.size() << " elements differ from the oracle ("
         << want.terms << " terms each):" << message.str();
}

}  // namespace strided_test

#endif
