#ifndef STRIDED_TESTS_EXACT_MPFR_ORACLE_HPP
#define STRIDED_TESTS_EXACT_MPFR_ORACLE_HPP

// The exact tier's oracle, independent of the library: MPFR sums the terms (or the products,
// each exact at 106 bits) at 4400 bits, which holds any such sum exactly, then rounds once into
// the target format's precision and exponent range (subnormals included). Plus data built to
// defeat naive summation.
#include <mpfr.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace strided_test {

/// Exact enough for any sum of 2^40 products of doubles (2^-2148 to 2^2088).
inline constexpr mpfr_prec_t ORACLE_PRECISION = 4400;

/// The sum, rounded once to R (float or double) by IEEE rules.
template <class R>
R oracle_round(mpfr_t exact) {
  constexpr bool is_double = std::is_same_v<R, double>;
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  // The format's exponent range in MPFR's convention (significand in [1/2, 1)).
  mpfr_set_emin(is_double ? -1073 : -148);
  mpfr_set_emax(is_double ? 1024 : 128);
  mpfr_t r;
  mpfr_init2(r, is_double ? 53 : 24);
  int t = mpfr_set(r, exact, MPFR_RNDN);
  t = mpfr_check_range(r, t, MPFR_RNDN);
  mpfr_subnormalize(r, t, MPFR_RNDN);
  const R value = is_double ? static_cast<R>(mpfr_get_d(r, MPFR_RNDN))
                            : static_cast<R>(mpfr_get_flt(r, MPFR_RNDN));
  mpfr_clear(r);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  return value;
}

/// sum(terms), or sum(a[i] * b[i]) when b is given, correctly rounded to R.
template <class R>
R oracle_sum(const std::vector<double>& a, const std::vector<double>* b = nullptr) {
  // mpfr_t is an array type (not a vector element): hold the structs it wraps.
  std::vector<__mpfr_struct> terms(a.size());
  std::vector<mpfr_ptr> pointers(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    pointers[i] = &terms[i];
    mpfr_init2(pointers[i], 110);
    mpfr_set_d(pointers[i], a[i], MPFR_RNDN);
    if (b) mpfr_mul_d(pointers[i], pointers[i], (*b)[i], MPFR_RNDN);  // exact at 110 bits
  }
  mpfr_t total;
  mpfr_init2(total, ORACLE_PRECISION);
  mpfr_sum(total, pointers.data(), pointers.size(), MPFR_RNDN);
  const R r = oracle_round<R>(total);
  mpfr_clear(total);
  for (mpfr_ptr t : pointers) mpfr_clear(t);
  return r;
}

/// Same bits, or both NaN (the payload of a NaN is not part of the contract).
template <class R>
bool same_result(R got, R want) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  return std::memcmp(&got, &want, sizeof(R)) == 0;
}

/// Kinds of adversarial data, each of `n` values.
enum class Hard {
  WideRange,     ///< magnitudes from 1e-300 to 1e300, both signs
  Cancelling,    ///< pairs x, -x (shuffled) plus a few tiny values: the sum is nearly nothing
  Subnormal,     ///< subnormals among small normals
  NearOverflow,  ///< magnitudes near DBL_MAX whose sum stays finite (or not)
  Ties,          ///< halfway cases: 1 + 2^-53 (to even) and 1 + 2^-53 + 2^-1000 (up)
  Specials,      ///< an infinity or a NaN among ordinary values
  Count
};

inline double random_unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1p-53;  // [0, 1)
}

inline std::vector<double> hard_values(Hard kind, std::size_t n, std::mt19937_64& rng) {
  std::vector<double> x(n);
  const auto sign = [&] { return rng() % 2 ? -1.0 : 1.0; };
  switch (kind) {
    case Hard::WideRange:
      for (auto& v : x) v = sign() * std::ldexp(0.5 + random_unit(rng), int(rng() % 1990) - 995);
      break;
    case Hard::Cancelling: {
      for (std::size_t i = 0; i + 1 < n; i += 2) {
        x[i] = sign() * std::ldexp(0.5 + random_unit(rng), int(rng() % 200) - 100);
        x[i + 1] = -x[i];
      }
      if (n % 2) x[n - 1] = std::ldexp(1.0, -1000);
      if (n > 4) x[n / 2] += std::ldexp(1.0, -60) * x[n / 2];  // leaves about 2^-60 of it
      std::shuffle(x.begin(), x.end(), rng);
      break;
    }
    case Hard::Subnormal:
      for (auto& v : x)
        v = rng() % 3 ? sign() * std::ldexp(random_unit(rng), -1022 - int(rng() % 40))
                      : sign() * std::ldexp(0.5 + random_unit(rng), -1000 + int(rng() % 30));
      break;
    case Hard::NearOverflow:
      for (std::size_t i = 0; i < n; ++i)
        x[i] = (i % 2 ? -1.0 : 1.0) * std::numeric_limits<double>::max() *
               (0.5 + random_unit(rng) / 2);
      if (n % 2 == 0 && n > 0) x[0] = std::numeric_limits<double>::max();
      break;
    case Hard::Ties:
      for (auto& v : x) v = 0;
      if (n > 0) x[0] = 1.0;
      if (n > 1) x[n - 1] = 0x1p-53;
      if (n > 2 && rng() % 2) x[n / 2] = 0x1p-1000;
      break;
    case Hard::Specials:
      for (auto& v : x) v = sign() * random_unit(rng);
      if (n > 0) {
        const double specials[] = {std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::quiet_NaN()};
        x[rng() % n] = specials[rng() % 3];
        if (rng() % 2) x[rng() % n] = specials[rng() % 3];
      }
      break;
    case Hard::Count:
      break;
  }
  return x;
}

}  // namespace strided_test

#endif
