// strided::contract (issue 28) against a loop einsum (einsum_oracle.hpp) on every execution space:
// random contractions with 0 to 3 axes in each class (batch, free-left, free-right, contracted)
// and trace axes, over permuted, reversed, gapped and broadcast operands, in float, double and
// complex (conjugated operands included); alpha and beta (beta == 0 never reads C, alpha == 0
// never reads A or B); extents 0 and 1; rank-0 operands; Kokkos::Views of every layout; kept plans
// (the one-shot call's bits, PlanMismatch, explain); every error of the API, with C left unwritten;
// and the result's bits against Kokkos::Serial's under the host algorithm.
//
// To keep the build small the contraction is instantiated for few operand types: C is a
// StridedView<T>, A and B StridedView<const T> (with Conj for complex), T in {float, double,
// Kokkos::complex<double>}, plus two sets of Kokkos::Views.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <strided/contract.hpp>
#include <strided/strided.hpp>

#include "../default_options_guard.hpp"
#include "../exec_spaces.hpp"
#include "../expect_error.hpp"
#include "../kernels/test_layouts.hpp"
#include "einsum_oracle.hpp"

namespace {

using Complex = Kokkos::complex<double>;
using strided::Conj;
using strided::Identity;
using strided::StridedView;
using strided_test::einsum_oracle;
using strided_test::LayoutOptions;
using strided_test::matches_oracle;
using strided_test::Operand;
using strided_test::random_operand;

template <class Exec>
class ContractTest : public ::testing::Test {};
TYPED_TEST_SUITE(ContractTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

// ---- values and operands ----

template <class T>
T random_value(std::mt19937& rng) {
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  if constexpr (strided::detail::is_complex_v<T>) {
    const double re = d(rng);
    return T(re, d(rng));
  } else {
    return static_cast<T>(d(rng));
  }
}

template <class T>
T quiet_nan() {
  if constexpr (strided::detail::is_complex_v<T>) {
    using R = typename T::value_type;
    return T(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
  } else {
    return std::numeric_limits<T>::quiet_NaN();
  }
}

template <class T>
void fill_random(const StridedView<T>& v, std::mt19937& rng) {
  strided_test::for_each_index(v.extents(), [&](const std::vector<std::size_t>& i) {
    strided_test::write(v, i, random_value<T>(rng));
  });
}

template <class T>
void fill_with(const StridedView<T>& v, const T& x) {
  strided_test::for_each_index(
      v.extents(), [&](const std::vector<std::size_t>& i) { strided_test::write(v, i, x); });
}

/// An input: its storage and a view of it that may broadcast (stride 0) some axes of extent >= 2.
template <class T>
struct Input {
  Operand<T> storage;
  StridedView<T> view;
};

template <class T>
Input<T> make_input(const std::vector<std::size_t>& extents, const std::vector<bool>& broadcast,
                    std::mt19937& layout_rng, std::mt19937& value_rng, LayoutOptions options = {}) {
  std::vector<std::size_t> stored = extents;
  for (std::size_t k = 0; k < extents.size(); ++k)
    if (!broadcast.empty() && broadcast[k]) stored[k] = 1;
  Operand<T> storage = random_operand<T>(stored, layout_rng, options);
  fill_random(storage.view, value_rng);
  const StridedView<T> view = storage.view.broadcast(extents);
  return {std::move(storage), view};
}

/// The input as the contraction sees it: read-only, with op `Op` (Conj only for complex).
template <class Op, class T>
StridedView<const T, Op> input_view(const StridedView<T>& v) {
  const StridedView<const T> c(v);
  if constexpr (std::is_same_v<Op, Conj>) {
    return c.conj();
  } else {
    return c;
  }
}

/// A dense operand whose axes are laid out in `order` (outermost first), every stride positive.
template <class T>
Operand<T> dense_operand(const std::vector<std::size_t>& extents,
                         const std::vector<std::size_t>& order) {
  std::vector<std::ptrdiff_t> strides(extents.size(), 0);
  std::ptrdiff_t step = 1;
  for (std::size_t n = order.size(); n-- > 0;) {
    strides[order[n]] = step;
    step *= static_cast<std::ptrdiff_t>(std::max<std::size_t>(extents[order[n]], 1));
  }
  std::vector<T> buffer(static_cast<std::size_t>(step), strided_test::sentinel<T>());
  const StridedView<T> view(buffer.data(), buffer.size(), extents, strides);
  return Operand<T>(std::move(buffer), view);
}

/// The buffer positions of `op`'s logical elements.
template <class T>
std::vector<bool> element_positions(const Operand<T>& op) {
  std::vector<bool> mine(op.buffer.size(), false);
  const std::ptrdiff_t origin = op.view.data() - op.buffer.data();
  strided_test::for_each_index(op.view.extents(), [&](const std::vector<std::size_t>& i) {
    mine[static_cast<std::size_t>(origin + strided_test::offset_of(op.view, i))] = true;
  });
  return mine;
}

/// Every byte of `op`'s buffer outside its logical elements (gaps, guard area) is as `before`.
template <class T>
::testing::AssertionResult only_elements_written(const Operand<T>& op,
                                                 const std::vector<T>& before) {
  const std::vector<bool> mine = element_positions(op);
  for (std::size_t n = 0; n < op.buffer.size(); ++n)
    if (!mine[n] && std::memcmp(&op.buffer[n], &before[n], sizeof(T)) != 0)
      return ::testing::AssertionFailure() << "buffer position " << n << " outside C was written";
  return ::testing::AssertionSuccess();
}

/// The bits of C's logical elements, in row-major order of the logical index.
template <class V>
std::vector<unsigned char> element_bits(const V& v) {
  using T = typename V::value_type;
  std::vector<unsigned char> bits;
  strided_test::for_each_index(v.extents(), [&](const std::vector<std::size_t>& i) {
    const T x = strided_test::read(v, i);
    const auto* p = reinterpret_cast<const unsigned char*>(&x);
    bits.insert(bits.end(), p, p + sizeof(T));
  });
  return bits;
}

/// Runs a contraction on `exec` over the given views, compares C with the oracle (evaluated on C
/// before the call) and checks that nothing of C's buffer outside its elements changed.
template <class Exec, class T, class VA, class VB>
void contract_and_check(const Exec& exec, const std::string& spec, Operand<T>& c, const VA& a,
                        const VB& b, const T& alpha, const T& beta) {
  SCOPED_TRACE(spec);
  const auto want = einsum_oracle(spec, c.view, a, b, alpha, beta);
  const std::vector<T> before = c.buffer;
  strided::contract(exec, spec, c.view, a, b, alpha, beta);
  EXPECT_TRUE(matches_oracle(c.view, want));
  EXPECT_TRUE(only_elements_written(c, before));
}

// ---- random contractions ----

struct Case {
  std::string spec;
  std::vector<std::size_t> ea, eb, ec;
  std::vector<bool> broadcast_a, broadcast_b;
};

::std::ostream& operator<<(::std::ostream& os, const Case& k) {
  const auto list = [&](const std::vector<std::size_t>& e) {
    os << "[";
    for (std::size_t n = 0; n < e.size(); ++n) os << (n ? "," : "") << e[n];
    os << "]";
  };
  os << k.spec << " A";
  list(k.ea);
  os << " B";
  list(k.eb);
  os << " C";
  list(k.ec);
  return os;
}

struct CaseOptions {
  std::size_t max_axes = 3;      ///< per class: batch, free-left, free-right, contracted
  std::size_t max_trace = 2;     ///< trace axes of each input
  bool broadcast = true;         ///< stride-0 input axes
  bool degenerate = true;        ///< extents 0 and 1
  std::size_t max_work = 12000;  ///< product of all extents (the oracle's loop count)
};

Case random_case(std::mt19937& rng, const CaseOptions& o = {}) {
  std::string pool = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::shuffle(pool.begin(), pool.end(), rng);
  std::size_t next = 0;
  const auto take = [&](std::size_t most) {
    const std::size_t n = rng() % (most + 1);
    std::string s = pool.substr(next, n);
    next += n;
    return s;
  };
  const std::string batch = take(o.max_axes), left = take(o.max_axes), right = take(o.max_axes),
                    summed = take(o.max_axes), trace_a = take(o.max_trace),
                    trace_b = take(o.max_trace);
  std::string a = batch + left + summed + trace_a, b = batch + right + summed + trace_b,
              c = batch + left + right;
  std::shuffle(a.begin(), a.end(), rng);
  std::shuffle(b.begin(), b.end(), rng);
  std::shuffle(c.begin(), c.end(), rng);
  const std::string all = pool.substr(0, next);
  std::vector<std::size_t> extent(128, 0);
  std::size_t work = 1;
  for (char l : all) {
    extent[static_cast<unsigned char>(l)] = 1 + rng() % 6;
    work *= extent[static_cast<unsigned char>(l)];
  }
  while (work > o.max_work) {  // shrink random labels until the oracle's loops are short
    const char l = all[rng() % all.size()];
    std::size_t& e = extent[static_cast<unsigned char>(l)];
    if (e > 1) {
      work = work / e * (e - 1);
      --e;
    }
  }
  if (o.degenerate && !all.empty()) {
    if (rng() % 10 == 0) extent[static_cast<unsigned char>(all[rng() % all.size()])] = 0;
    if (rng() % 5 == 0) extent[static_cast<unsigned char>(all[rng() % all.size()])] = 1;
  }
  Case k;
  k.spec = a + "," + b + "->" + c;
  const auto shape = [&](const std::string& labels, std::vector<std::size_t>& e,
                         std::vector<bool>* broadcast) {
    for (char l : labels) {
      e.push_back(extent[static_cast<unsigned char>(l)]);
      if (broadcast) broadcast->push_back(o.broadcast && e.back() >= 2 && rng() % 6 == 0);
    }
  };
  shape(a, k.ea, &k.broadcast_a);
  shape(b, k.eb, &k.broadcast_b);
  shape(c, k.ec, nullptr);
  return k;
}

template <class T>
std::vector<std::pair<T, T>> scalings() {
  if constexpr (strided::detail::is_complex_v<T>) {
    return {{T(1), T(0)},         {T(1), T(1)},
            {T(0.5, -1.0), T(0)}, {T(-0.75, 0.25), T(1.5, -0.5)},
            {T(0), T(0.5, 2.0)},  {T(2.0, 0), T(-1.0, 0)}};
  } else {
    return {{T(1), T(0)},       {T(1), T(1)},   {T(-0.5), T(2)},
            {T(0.75), T(-1.5)}, {T(0), T(0.5)}, {T(2), T(0)}};
  }
}

/// `count` random contractions of T with ops OpA and OpB against the oracle; C is NaN-filled
/// whenever beta is 0.
template <class T, class OpA, class OpB, class Exec>
void random_contractions(const Exec& exec, unsigned seed, int count, const CaseOptions& o = {}) {
  std::mt19937 rng(seed);
  const auto scales = scalings<T>();
  for (int n = 0; n < count; ++n) {
    const Case k = random_case(rng, o);
    const auto [alpha, beta] = scales[static_cast<std::size_t>(n) % scales.size()];
    SCOPED_TRACE(::testing::Message()
                 << "case " << n << ": " << k << " alpha " << alpha << " beta " << beta);
    auto a = make_input<T>(k.ea, k.broadcast_a, rng, rng);
    auto b = make_input<T>(k.eb, k.broadcast_b, rng, rng);
    auto c = random_operand<T>(k.ec, rng);
    if (beta == T(0))
      fill_with(c.view, quiet_nan<T>());
    else
      fill_random(c.view, rng);
    contract_and_check(exec, k.spec, c, input_view<OpA>(a.view), input_view<OpB>(b.view), alpha,
                       beta);
    if (::testing::Test::HasFailure()) return;  // one failing case tells enough
  }
}

TYPED_TEST(ContractTest, RandomDoubleContractionsMatchTheOracle) {
  random_contractions<double, Identity, Identity>(TypeParam(), 2801, 250);
}

TYPED_TEST(ContractTest, RandomFloatContractionsMatchTheOracle) {
  random_contractions<float, Identity, Identity>(TypeParam(), 2802, 100);
}

TYPED_TEST(ContractTest, RandomComplexContractionsMatchTheOracle) {
  random_contractions<Complex, Identity, Identity>(TypeParam(), 2803, 40);
  random_contractions<Complex, Conj, Identity>(TypeParam(), 2804, 40);
  random_contractions<Complex, Identity, Conj>(TypeParam(), 2805, 40);
  random_contractions<Complex, Conj, Conj>(TypeParam(), 2806, 40);
}

/// Larger groups without the degenerate extents: several axes per class with extents >= 2.
TYPED_TEST(ContractTest, RandomMultiAxisGroupsMatchTheOracle) {
  CaseOptions o;
  o.degenerate = false;
  o.max_work = 60000;
  random_contractions<double, Identity, Identity>(TypeParam(), 2807, 40, o);
}

// ---- groups, traces, broadcasts ----

/// Groups that fuse in each operand alone but in another logical order in the other operand (the
/// strided-rs einsum2 bug): (j, k) is one stride run in A with j outer and in B with k outer, and
/// the same for free and batch groups against C.
TYPED_TEST(ContractTest, GroupsFuseOnlyInTheSameLogicalOrder) {
  const TypeParam exec;
  std::mt19937 rng(2810);
  {                                                        // contracted group
    auto a = dense_operand<double>({5, 3, 4}, {0, 1, 2});  // i j k: (j, k) fused, j outer
    auto b = dense_operand<double>({3, 4, 6}, {1, 0, 2});  // j k l: k outer, then j
    auto c = dense_operand<double>({5, 6}, {0, 1});
    fill_random(a.view, rng);
    fill_random(b.view, rng);
    fill_random(c.view, rng);
    contract_and_check(exec, "ijk,jkl->il", c, input_view<Identity>(a.view),
                       input_view<Identity>(b.view), 1.0, 0.0);
  }
  {  // free-left group: (i, j) with i outer in A, j outer in C
    auto a = dense_operand<double>({5, 3, 4}, {0, 1, 2});
    auto b = dense_operand<double>({4, 6}, {0, 1});
    auto c = dense_operand<double>({5, 3, 6}, {1, 0, 2});
    fill_random(a.view, rng);
    fill_random(b.view, rng);
    fill_random(c.view, rng);
    contract_and_check(exec, "ijk,kl->ijl", c, input_view<Identity>(a.view),
                       input_view<Identity>(b.view), 1.0, 0.5);
  }
  {  // free-right group: (l, m) with l outer in B, m outer in C
    auto a = dense_operand<double>({5, 4}, {0, 1});
    auto b = dense_operand<double>({4, 3, 7}, {0, 1, 2});
    auto c = dense_operand<double>({5, 3, 7}, {0, 2, 1});
    fill_random(a.view, rng);
    fill_random(b.view, rng);
    fill_random(c.view, rng);
    contract_and_check(exec, "ik,klm->ilm", c, input_view<Identity>(a.view),
                       input_view<Identity>(b.view), -1.0, 0.0);
  }
  {  // batch group: (p, q) with p outer in A, q outer in B, and in C p outer again
    auto a = dense_operand<double>({2, 3, 4, 5}, {0, 1, 2, 3});  // p q i k
    auto b = dense_operand<double>({2, 3, 5, 6}, {1, 0, 2, 3});  // p q k j
    auto c = dense_operand<double>({2, 3, 4, 6}, {0, 1, 2, 3});  // p q i j
    fill_random(a.view, rng);
    fill_random(b.view, rng);
    fill_random(c.view, rng);
    contract_and_check(exec, "pqik,pqkj->pqij", c, input_view<Identity>(a.view),
                       input_view<Identity>(b.view), 1.0, 0.0);
  }
  {  // everything row-major but the labels in other orders in each operand
    auto a = dense_operand<double>({4, 3, 5}, {0, 1, 2});  // k j i
    auto b = dense_operand<double>({3, 4, 6}, {0, 1, 2});  // j k l
    auto c = dense_operand<double>({6, 5}, {0, 1});        // l i
    fill_random(a.view, rng);
    fill_random(b.view, rng);
    fill_random(c.view, rng);
    contract_and_check(exec, "kji,jkl->li", c, input_view<Identity>(a.view),
                       input_view<Identity>(b.view), 1.0, 1.0);
  }
}

/// Labels in one input only and not in C are summed out first.
TYPED_TEST(ContractTest, TraceAxesAreSummedOut) {
  const TypeParam exec;
  std::mt19937 rng(2811);
  const LayoutOptions all;
  const std::vector<std::pair<std::string, std::vector<std::vector<std::size_t>>>> cases = {
      {"ijx,jk->ik", {{4, 5, 3}, {5, 6}, {4, 6}}},
      {"ij,jky->ik", {{4, 5}, {5, 6, 7}, {4, 6}}},
      {"xijy,zjkw->ik", {{2, 4, 5, 3}, {3, 5, 6, 2}, {4, 6}}},
      {"bix,bi->bi", {{3, 4, 5}, {3, 4}, {3, 4}}},  // batch and trace only
      {"x,y->", {{7}, {9}, {}}},                    // sum(a) * sum(b)
      {"xy,i->i", {{3, 4}, {5}, {5}}},              // A is all trace: sum(a) * b
      {"ix,jy->ij", {{4, 3}, {5, 2}, {4, 5}}},      // outer product of two row sums
  };
  for (const auto& [spec, e] : cases) {
    auto a = make_input<double>(e[0], {}, rng, rng, all);
    auto b = make_input<double>(e[1], {}, rng, rng, all);
    auto c = random_operand<double>(e[2], rng);
    fill_random(c.view, rng);
    contract_and_check(exec, spec, c, input_view<Identity>(a.view), input_view<Identity>(b.view),
                       1.0, 0.25);
  }
  // A broadcast trace axis: sum over x of the same value is 3 times it.
  auto a = make_input<double>({4, 5, 3}, {false, false, true}, rng, rng);
  auto b = make_input<double>({5, 6}, {}, rng, rng);
  auto c = random_operand<double>({4, 6}, rng);
  fill_with(c.view, quiet_nan<double>());
  contract_and_check(exec, "ijx,jk->ik", c, input_view<Identity>(a.view),
                     input_view<Identity>(b.view), 1.0, 0.0);
}

/// Inputs with stride-0 axes in every class.
TYPED_TEST(ContractTest, BroadcastInputs) {
  const TypeParam exec;
  std::mt19937 rng(2812);
  struct B {
    std::string spec;
    std::vector<std::size_t> ea, eb, ec;
    std::vector<bool> ba, bb;
  };
  const std::vector<B> cases = {
      {"ij,jk->ik", {5, 6}, {6, 7}, {5, 7}, {false, true}, {false, false}},  // contracted, in A
      {"ij,jk->ik", {5, 6}, {6, 7}, {5, 7}, {true, false}, {false, true}},   // both free
      {"ij,jk->ik", {5, 6}, {6, 7}, {5, 7}, {true, true}, {true, true}},     // all zero strides
      {"bij,bjk->bik", {3, 4, 5}, {3, 5, 6}, {3, 4, 6}, {true, false, false}, {false, false, true}},
      {"bij,bjk->bik", {3, 4, 5}, {3, 5, 6}, {3, 4, 6}, {false, false, false}, {true, true, false}},
      {"ijk,kjl->il", {4, 3, 5}, {5, 3, 6}, {4, 6}, {false, true, false}, {true, false, false}},
  };
  for (const auto& k : cases) {
    auto a = make_input<double>(k.ea, k.ba, rng, rng);
    auto b = make_input<double>(k.eb, k.bb, rng, rng);
    auto c = random_operand<double>(k.ec, rng);
    fill_random(c.view, rng);
    contract_and_check(exec, k.spec, c, input_view<Identity>(a.view), input_view<Identity>(b.view),
                       1.5, -1.0);
  }
}

/// More batch axes than a batch kernel's argument holds (9 that cannot fuse: random memory orders
/// with gaps), and batches large enough for one Kokkos Kernels GEMM each.
TYPED_TEST(ContractTest, ManyBatchAxesAndLargeBatches) {
  const TypeParam exec;
  std::mt19937 rng(2825);
  {
    auto a = make_input<double>({2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 5}, {}, rng, rng);  // a..i x z
    auto b = make_input<double>({5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 4}, {}, rng, rng);  // z i..a y
    auto c = random_operand<double>({2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 4}, rng);       // e..a f..i x y
    fill_random(c.view, rng);
    contract_and_check(exec, "abcdefghixz,zihgfedcbay->edcbafghixy", c,
                       input_view<Identity>(a.view), input_view<Identity>(b.view), 1.0, -1.0);
  }
  {
    auto a = make_input<double>({3, 40, 35}, {}, rng, rng);
    auto b = make_input<double>({35, 3, 30}, {}, rng, rng);
    auto c = random_operand<double>({30, 3, 40}, rng);
    fill_with(c.view, quiet_nan<double>());
    contract_and_check(exec, "bik,kbj->jbi", c, input_view<Identity>(a.view),
                       input_view<Identity>(b.view), 1.0, 0.0);
    fill_random(c.view, rng);
    contract_and_check(exec, "bik,kbj->jbi", c, input_view<Identity>(a.view),
                       input_view<Identity>(b.view), 0.5, 1.0);
  }
}

// ---- alpha and beta ----

/// beta == 0: C is written, never read; a NaN in C does not come out, also when nothing is summed.
TYPED_TEST(ContractTest, BetaZeroDoesNotReadC) {
  const TypeParam exec;
  std::mt19937 rng(2813);
  const std::vector<std::pair<std::string, std::vector<std::vector<std::size_t>>>> cases = {
      {"ik,kj->ij", {{9, 7}, {7, 8}, {9, 8}}}, {"bik,bkj->bij", {{3, 9, 7}, {3, 7, 8}, {3, 9, 8}}},
      {"ik,kj->ij", {{9, 0}, {0, 8}, {9, 8}}},  // empty sum: C becomes 0
      {"ij,ij->", {{6, 5}, {6, 5}, {}}},       {"i,j->ij", {{6}, {5}, {6, 5}}},
  };
  for (const auto& [spec, e] : cases) {
    auto a = make_input<double>(e[0], {}, rng, rng);
    auto b = make_input<double>(e[1], {}, rng, rng);
    auto c = random_operand<double>(e[2], rng);
    fill_with(c.view, quiet_nan<double>());
    contract_and_check(exec, spec, c, input_view<Identity>(a.view), input_view<Identity>(b.view),
                       0.5, 0.0);
    EXPECT_EQ(element_bits(c.view).size(), c.view.size() * sizeof(double));
  }
  auto a = make_input<Complex>({6, 4}, {}, rng, rng);
  auto b = make_input<Complex>({4, 5}, {}, rng, rng);
  auto c = random_operand<Complex>({6, 5}, rng);
  fill_with(c.view, quiet_nan<Complex>());
  contract_and_check(exec, "ik,kj->ij", c, input_view<Conj>(a.view), input_view<Identity>(b.view),
                     Complex(1, -1), Complex(0));
}

/// alpha == 0: A and B are not read (NaNs there do not come out); C becomes beta * C exactly.
TYPED_TEST(ContractTest, AlphaZeroReadsNeitherInput) {
  const TypeParam exec;
  std::mt19937 rng(2814);
  auto a = random_operand<double>({6, 4, 3}, rng);
  auto b = random_operand<double>({4, 5, 3}, rng);
  fill_with(a.view, quiet_nan<double>());
  fill_with(b.view, quiet_nan<double>());
  auto c = random_operand<double>({6, 5}, rng);
  fill_random(c.view, rng);
  const std::vector<std::size_t> shape = {6, 5};
  std::vector<double> want;
  strided_test::for_each_index(shape, [&](const std::vector<std::size_t>& i) {
    want.push_back(2 * strided_test::read(c.view, i));
  });
  const std::vector<double> before = c.buffer;
  strided::contract(exec, "ikx,kjx->ij", c.view, input_view<Identity>(a.view),
                    input_view<Identity>(b.view), 0.0, 2.0);
  std::size_t n = 0;
  strided_test::for_each_index(shape, [&](const std::vector<std::size_t>& i) {
    EXPECT_EQ(strided_test::read(c.view, i), want[n++]);
  });
  EXPECT_TRUE(only_elements_written(c, before));
  // alpha == 0 and beta == 0: zeros, whatever C and the inputs hold.
  fill_with(c.view, quiet_nan<double>());
  strided::contract(exec, "ikx,kjx->ij", c.view, input_view<Identity>(a.view),
                    input_view<Identity>(b.view), 0.0, 0.0);
  strided_test::for_each_index(shape, [&](const std::vector<std::size_t>& i) {
    EXPECT_EQ(strided_test::read(c.view, i), 0.0);
  });
}

// ---- sizes 0 and 1, rank 0 ----

TYPED_TEST(ContractTest, ExtentsZeroAndOne) {
  const TypeParam exec;
  std::mt19937 rng(2815);
  const std::vector<std::pair<std::string, std::vector<std::vector<std::size_t>>>> cases = {
      {"ik,kj->ij", {{5, 0}, {0, 4}, {5, 4}}},              // empty sum: beta * C
      {"ik,kj->ij", {{0, 3}, {3, 4}, {0, 4}}},              // empty output
      {"ik,kj->ij", {{5, 3}, {3, 0}, {5, 0}}},              // empty output
      {"bik,bkj->bij", {{0, 5, 3}, {0, 3, 4}, {0, 5, 4}}},  // empty batch
      {"ijx,jk->ik", {{4, 5, 0}, {5, 6}, {4, 6}}},          // empty trace: a sums to 0
      {"ik,kj->ij", {{1, 1}, {1, 1}, {1, 1}}},              // all ones
      {"bik,bkj->bij", {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}},
      {"ik,kj->ij", {{1, 7}, {7, 1}, {1, 1}}},  // a dot product
      {"ik,kj->ij", {{6, 1}, {1, 5}, {6, 5}}},  // an outer product, k = 1
      {"abik,abkj->abij", {{1, 3, 4, 1}, {1, 3, 1, 5}, {1, 3, 4, 5}}},
  };
  for (const auto& [spec, e] : cases) {
    for (const double beta : {0.0, 1.5}) {
      auto a = make_input<double>(e[0], {}, rng, rng);
      auto b = make_input<double>(e[1], {}, rng, rng);
      auto c = random_operand<double>(e[2], rng);
      if (beta == 0.0)
        fill_with(c.view, quiet_nan<double>());
      else
        fill_random(c.view, rng);
      contract_and_check(exec, spec, c, input_view<Identity>(a.view), input_view<Identity>(b.view),
                         2.0, beta);
    }
  }
}

TYPED_TEST(ContractTest, RankZeroOutput) {
  const TypeParam exec;
  std::mt19937 rng(2816);
  const std::vector<std::pair<std::string, std::vector<std::vector<std::size_t>>>> cases = {
      {"ij,ij->", {{6, 5}, {6, 5}, {}}},
      {"i,i->", {{40}, {40}, {}}},
      {"ijk,kji->", {{3, 4, 5}, {5, 4, 3}, {}}},
      {"ij,ij->", {{0, 5}, {0, 5}, {}}},  // empty sum: beta * C
  };
  for (const auto& [spec, e] : cases) {
    for (const double beta : {0.0, -0.5}) {
      auto a = make_input<double>(e[0], {}, rng, rng);
      auto b = make_input<double>(e[1], {}, rng, rng);
      auto c = random_operand<double>(e[2], rng);
      if (beta == 0.0)
        fill_with(c.view, quiet_nan<double>());
      else
        fill_random(c.view, rng);
      contract_and_check(exec, spec, c, input_view<Identity>(a.view), input_view<Identity>(b.view),
                         1.0, beta);
    }
  }
  // The Hermitian inner product <a, b> = sum conj(a) * b.
  auto a = make_input<Complex>({7, 6}, {}, rng, rng);
  auto b = make_input<Complex>({7, 6}, {}, rng, rng);
  auto c = random_operand<Complex>({}, rng);
  fill_random(c.view, rng);
  contract_and_check(exec, "ij,ij->", c, input_view<Conj>(a.view), input_view<Identity>(b.view),
                     Complex(1), Complex(0.5, 0.5));
}

/// Rank-0 inputs: a scalar times a tensor, the product of two scalars.
TYPED_TEST(ContractTest, RankZeroInputs) {
  const TypeParam exec;
  std::mt19937 rng(2817);
  const std::vector<std::pair<std::string, std::vector<std::vector<std::size_t>>>> cases = {
      {",->", {{}, {}, {}}},
      {"ij,->ij", {{4, 5}, {}, {4, 5}}},
      {",ij->ji", {{}, {4, 5}, {5, 4}}},
  };
  for (const auto& [spec, e] : cases) {
    auto a = make_input<double>(e[0], {}, rng, rng);
    auto b = make_input<double>(e[1], {}, rng, rng);
    auto c = random_operand<double>(e[2], rng);
    fill_random(c.view, rng);
    contract_and_check(exec, spec, c, input_view<Identity>(a.view), input_view<Identity>(b.view),
                       1.0, 1.0);
  }
}

/// Inputs may share memory with each other (a Gram matrix of one operand), and an output axis of
/// extent 1 may carry any stride, 0 included.
TYPED_TEST(ContractTest, AliasedInputsAndDegenerateOutputStrides) {
  const TypeParam exec;
  std::mt19937 rng(2826);
  {
    auto a = make_input<double>({9, 7}, {}, rng, rng);
    auto c = random_operand<double>({9, 9}, rng);
    fill_with(c.view, quiet_nan<double>());
    contract_and_check(exec, "ik,jk->ij", c, input_view<Identity>(a.view),
                       input_view<Identity>(a.view), 1.0, 0.0);
  }
  {
    auto a = make_input<Complex>({8, 6}, {}, rng, rng);
    auto c = random_operand<Complex>({8, 8}, rng);
    fill_random(c.view, rng);
    contract_and_check(exec, "ik,jk->ij", c, input_view<Identity>(a.view), input_view<Conj>(a.view),
                       Complex(1), Complex(0.5));
  }
  {
    auto a = make_input<double>({5, 1, 3}, {}, rng, rng);
    auto b = make_input<double>({3, 4}, {}, rng, rng);
    std::vector<double> buffer(5 * 4 + 2, 0.0);
    const StridedView<double> view(buffer.data(), buffer.size(), {5, 1, 4}, {4, 0, 1});
    Operand<double> c(std::move(buffer), view);
    fill_random(c.view, rng);
    contract_and_check(exec, "ixk,kj->ixj", c, input_view<Identity>(a.view),
                       input_view<Identity>(b.view), 1.0, 1.0);
  }
}

// ---- complex, float ----

/// Each op combination on a GEMM-shaped and a batched contraction, with permuted and reversed
/// layouts: conj(a) is not a (the data have nonzero imaginary parts everywhere).
TYPED_TEST(ContractTest, ConjugatedOperands) {
  const TypeParam exec;
  std::mt19937 rng(2818);
  for (const char* spec : {"ik,kj->ij", "bki,bjk->bij", "ikx,kj->ji"}) {
    const auto s = strided_test::parse_einsum(spec);
    std::vector<std::size_t> extent(128, 0);
    std::size_t next = 3;
    for (const std::string* labels : {&s.a, &s.b, &s.c})
      for (char l : *labels)
        if (extent[static_cast<unsigned char>(l)] == 0)
          extent[static_cast<unsigned char>(l)] = next++;
    const auto shape = [&](const std::string& labels) {
      std::vector<std::size_t> e;
      for (char l : labels) e.push_back(extent[static_cast<unsigned char>(l)]);
      return e;
    };
    // Random layouts (packed anyway), then dense unpermuted ones that the GEMM could read in
    // place: there only the op itself makes the operand packed.
    for (int combo = 0; combo < 8; ++combo) {
      const bool conj_a = combo & 1, conj_b = combo & 2, dense = combo & 4;
      SCOPED_TRACE(::testing::Message() << "conj(a) " << conj_a << " conj(b) " << conj_b
                                        << (dense ? " dense" : " random layouts"));
      const LayoutOptions layout = dense ? LayoutOptions{false, false, false} : LayoutOptions{};
      auto a = make_input<Complex>(shape(s.a), {}, rng, rng, layout);
      auto b = make_input<Complex>(shape(s.b), {}, rng, rng, layout);
      auto c = random_operand<Complex>(shape(s.c), rng, layout);
      fill_random(c.view, rng);
      const Complex alpha(0.5, 1.25), beta(-1, 0.5);
      if (!conj_a && !conj_b)
        contract_and_check(exec, spec, c, input_view<Identity>(a.view),
                           input_view<Identity>(b.view), alpha, beta);
      else if (conj_a && !conj_b)
        contract_and_check(exec, spec, c, input_view<Conj>(a.view), input_view<Identity>(b.view),
                           alpha, beta);
      else if (!conj_a && conj_b)
        contract_and_check(exec, spec, c, input_view<Identity>(a.view), input_view<Conj>(b.view),
                           alpha, beta);
      else
        contract_and_check(exec, spec, c, input_view<Conj>(a.view), input_view<Conj>(b.view), alpha,
                           beta);
    }
  }
}

TYPED_TEST(ContractTest, FloatContractions) {
  const TypeParam exec;
  std::mt19937 rng(2819);
  auto a = make_input<float>({40, 30, 3}, {}, rng, rng);
  auto b = make_input<float>({30, 50}, {}, rng, rng);
  auto c = random_operand<float>({3, 50, 40}, rng);
  fill_random(c.view, rng);
  contract_and_check(exec, "ikb,kj->bji", c, input_view<Identity>(a.view),
                     input_view<Identity>(b.view), 1.0f, -0.5f);
}

// ---- Kokkos::Views ----

template <class V>
void fill_kokkos(const V& v, std::mt19937& rng) {
  for (std::size_t i = 0; i < v.extent(0); ++i)
    for (std::size_t j = 0; j < v.extent(1); ++j)
      for (std::size_t k = 0; k < v.extent(2); ++k) v(i, j, k) = random_value<double>(rng);
}

/// A, B and C as Kokkos::Views of LayoutLeft, LayoutRight and LayoutStride (a permuted layout,
/// and a subview), in two arrangements.
TYPED_TEST(ContractTest, KokkosViewsOfEveryLayout) {
  const TypeParam exec;
  std::mt19937 rng(2820);
  using LL = Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  using LR = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using LS = Kokkos::View<double***, Kokkos::LayoutStride, Kokkos::HostSpace>;
  const std::size_t nb = 3, ni = 7, nk = 6, nj = 5;
  {  // C LayoutStride (j outermost, then b, then i), A LayoutLeft, B LayoutRight
    LL a("a", nb, ni, nk);
    LR b("b", nb, nk, nj);
    Kokkos::View<double*, Kokkos::HostSpace> storage("c", nb * ni * nj);
    Kokkos::LayoutStride layout(nb, ni, ni, 1, nj, nb * ni);  // (b, i, j): i fastest, j slowest
    LS c(storage.data(), layout);
    fill_kokkos(a, rng);
    fill_kokkos(b, rng);
    fill_kokkos(c, rng);
    const auto cv = strided::view(c);
    const auto want =
        einsum_oracle("bik,bkj->bij", cv, strided::view(a), strided::view(b), 0.5, 1.0);
    strided::contract(exec, "bik,bkj->bij", c, a, b, 0.5, 1.0);
    EXPECT_TRUE(matches_oracle(cv, want));
  }
  {  // C LayoutLeft, A LayoutStride (a subview), B LayoutRight of const elements
    LR whole("whole", nb + 1, ni + 2, nk);
    const auto a = Kokkos::subview(whole, Kokkos::make_pair(std::size_t(1), nb + 1),
                                   Kokkos::make_pair(std::size_t(1), ni + 1), Kokkos::ALL);
    LS as(a.data(), Kokkos::LayoutStride(nb, a.stride(0), ni, a.stride(1), nk, a.stride(2)));
    LR b_storage("b", nb, nk, nj);
    const Kokkos::View<const double***, Kokkos::LayoutRight, Kokkos::HostSpace> b = b_storage;
    LL c("c", nb, ni, nj);
    fill_kokkos(whole, rng);
    fill_kokkos(b_storage, rng);
    fill_kokkos(c, rng);
    const auto cv = strided::view(c);
    const auto want =
        einsum_oracle("bik,bkj->bij", cv, strided::view(as), strided::view(b), 1.0, 0.0);
    strided::contract(exec, "bik,bkj->bij", c, as, b, 1.0, 0.0);
    EXPECT_TRUE(matches_oracle(cv, want));
  }
}

// ---- kept plans ----

/// Two sets of operands of the same layouts (the same layout seed) and other values.
template <class T>
struct OperandSet {
  Input<T> a, b;
  Operand<T> c;
};

template <class T>
OperandSet<T> operand_set(const Case& k, unsigned layout_seed, unsigned value_seed) {
  std::mt19937 layouts(layout_seed), values(value_seed);
  auto a = make_input<T>(k.ea, k.broadcast_a, layouts, values);
  auto b = make_input<T>(k.eb, k.broadcast_b, layouts, values);
  auto c = random_operand<T>(k.ec, layouts);
  fill_random(c.view, values);
  return {std::move(a), std::move(b), std::move(c)};
}

template <class T, class OpA, class OpB, class Exec>
void plan_matches_one_shot(const Exec& exec, const Case& k, unsigned seed, const T& alpha,
                           const T& beta) {
  SCOPED_TRACE(::testing::Message() << k);
  auto first = operand_set<T>(k, seed, seed + 1);
  const auto plan = strided::make_contraction_plan(
      k.spec, first.c.view, input_view<OpA>(first.a.view), input_view<OpB>(first.b.view));
  auto kept = operand_set<T>(k, seed, seed + 2);      // fresh data, the same layouts
  auto one_shot = operand_set<T>(k, seed, seed + 2);  // the same values again
  const auto want = einsum_oracle(k.spec, kept.c.view, input_view<OpA>(kept.a.view),
                                  input_view<OpB>(kept.b.view), alpha, beta);
  strided::contract(exec, plan, kept.c.view, input_view<OpA>(kept.a.view),
                    input_view<OpB>(kept.b.view), alpha, beta);
  strided::contract(exec, k.spec, one_shot.c.view, input_view<OpA>(one_shot.a.view),
                    input_view<OpB>(one_shot.b.view), alpha, beta);
  EXPECT_TRUE(matches_oracle(kept.c.view, want));
  EXPECT_EQ(element_bits(kept.c.view), element_bits(one_shot.c.view));
  // A copy of the plan, executed again on the first set: the same bits as a one-shot call there.
  const auto copy = plan;
  auto again = operand_set<T>(k, seed, seed + 1);
  strided::contract(exec, copy, first.c.view, input_view<OpA>(first.a.view),
                    input_view<OpB>(first.b.view), alpha, beta);
  strided::contract(exec, k.spec, again.c.view, input_view<OpA>(again.a.view),
                    input_view<OpB>(again.b.view), alpha, beta);
  EXPECT_EQ(element_bits(first.c.view), element_bits(again.c.view));
}

TYPED_TEST(ContractTest, KeptPlanGivesTheOneShotBits) {
  const TypeParam exec;
  std::mt19937 rng(2821);
  CaseOptions o;
  o.max_work = 40000;
  for (int n = 0; n < 12; ++n) {
    const Case k = random_case(rng, o);
    plan_matches_one_shot<double, Identity, Identity>(exec, k, 100 + unsigned(n), 1.25, -0.5);
  }
  const Case gemm{"ik,kj->ij", {45, 38}, {38, 41}, {45, 41}, {}, {}};
  plan_matches_one_shot<double, Identity, Identity>(exec, gemm, 200, 1.0, 0.0);
  const Case batched{"bki,bkj->ibj", {6, 17, 13}, {6, 17, 19}, {13, 6, 19}, {}, {}};
  plan_matches_one_shot<Complex, Conj, Identity>(exec, batched, 201, Complex(1, 1), Complex(0.5));
  plan_matches_one_shot<Complex, Identity, Conj>(exec, batched, 202, Complex(1), Complex(0));
  const Case traced{"ikx,ykj->ij", {12, 9, 3}, {2, 9, 11}, {12, 11}, {}, {}};
  plan_matches_one_shot<float, Identity, Identity>(exec, traced, 203, 1.0f, 1.0f);
}

/// The overloads without an execution space run on Kokkos::DefaultHostExecutionSpace.
TEST(ContractDefaultHost, OverloadsWithoutASpace) {
  std::mt19937 rng(2822);
  auto a = make_input<double>({8, 6, 3}, {}, rng, rng);
  auto b = make_input<double>({6, 9, 3}, {}, rng, rng);
  auto c = random_operand<double>({3, 9, 8}, rng);
  fill_random(c.view, rng);
  const std::string spec = "ikb,kjb->bji";
  const auto va = input_view<Identity>(a.view);
  const auto vb = input_view<Identity>(b.view);
  const auto want = einsum_oracle(spec, c.view, va, vb, 1.0, 2.0);
  const std::vector<double> before = c.buffer;
  strided::contract(spec, c.view, va, vb, 1.0, 2.0);
  EXPECT_TRUE(matches_oracle(c.view, want));
  const std::vector<unsigned char> one_shot = element_bits(c.view);
  std::copy(before.begin(), before.end(), c.buffer.begin());
  const auto plan = strided::make_contraction_plan(spec, c.view, va, vb);
  strided::contract(plan, c.view, va, vb, 1.0, 2.0);
  EXPECT_EQ(element_bits(c.view), one_shot);
  std::copy(before.begin(), before.end(), c.buffer.begin());
  strided::contract(spec, c.view, va, vb);  // alpha 1, beta 0 by default
  const auto product = einsum_oracle(spec, c.view, va, vb, 1.0, 0.0);
  EXPECT_TRUE(matches_oracle(c.view, product));
}

template <class F>
void expect_error_c_untouched(strided::ErrorCode code, const std::vector<double>& c_buffer,
                              F&& call) {
  const std::vector<double> before = c_buffer;
  try {
    call();
    ADD_FAILURE() << "expected strided::Error " << strided::to_string(code);
  } catch (const strided::Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find("strided::"), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::memcmp(before.data(), c_buffer.data(), before.size() * sizeof(double)), 0)
      << "C was written before the error";
}

/// expect_error_c_untouched with the caller's line in the failure's trace.
#define EXPECT_CONTRACT_ERROR(code, c_buffer, call) \
  do {                                              \
    SCOPED_TRACE(#call);                            \
    expect_error_c_untouched(code, c_buffer, call); \
  } while (false)

TYPED_TEST(ContractTest, KeptPlanRefusesOtherLayouts) {
  const TypeParam exec;
  std::mt19937 rng(2823);
  auto a = random_operand<double>({6, 5}, rng, {false, false, false});
  auto b = random_operand<double>({5, 4}, rng, {false, false, false});
  auto c = random_operand<double>({6, 4}, rng, {false, false, false});
  fill_random(a.view, rng);
  fill_random(b.view, rng);
  fill_random(c.view, rng);
  const auto va = input_view<Identity>(a.view);
  const auto vb = input_view<Identity>(b.view);
  const auto plan = strided::make_contraction_plan("ik,kj->ij", c.view, va, vb);
  // C transposed in memory (same extents, other strides): random_operand without permutation
  // is column-major, this one row-major.
  auto ct = dense_operand<double>({6, 4}, {0, 1});
  fill_random(ct.view, rng);
  EXPECT_CONTRACT_ERROR(strided::ErrorCode::PlanMismatch, ct.buffer,
                        [&] { strided::contract(exec, plan, ct.view, va, vb, 1.0, 0.0); });
  // A reversed along k.
  EXPECT_CONTRACT_ERROR(strided::ErrorCode::PlanMismatch, c.buffer, [&] {
    strided::contract(exec, plan, c.view, va.reverse(1), vb, 1.0, 0.0);
  });
  // B with a gap between its rows (other strides), same extents.
  std::vector<double> gapped(5 * 6, 1.0);
  const StridedView<const double> bg(gapped.data(), gapped.size(), {5, 4}, {6, 1});
  EXPECT_CONTRACT_ERROR(strided::ErrorCode::PlanMismatch, c.buffer,
                        [&] { strided::contract(exec, plan, c.view, va, bg, 1.0, 0.0); });
  // Other extents: fewer rows of A and C.
  auto c5 = random_operand<double>({5, 4}, rng, {false, false, false});
  fill_random(c5.view, rng);
  EXPECT_CONTRACT_ERROR(strided::ErrorCode::PlanMismatch, c5.buffer, [&] {
    strided::contract(exec, plan, c5.view, va.slice(0, 0, 5), vb, 1.0, 0.0);
  });
  // Other element ops than planned (a conjugated operand is packed, a plain one need not be).
  {
    auto za = random_operand<Complex>({6, 5}, rng, {false, false, false});
    auto zb = random_operand<Complex>({5, 4}, rng, {false, false, false});
    auto zc = random_operand<Complex>({6, 4}, rng, {false, false, false});
    fill_random(za.view, rng);
    fill_random(zb.view, rng);
    fill_random(zc.view, rng);
    const auto zplan = strided::make_contraction_plan(
        "ik,kj->ij", zc.view, input_view<Identity>(za.view), input_view<Identity>(zb.view));
    const std::vector<Complex> before = zc.buffer;
    try {
      strided::contract(exec, zplan, zc.view, input_view<Conj>(za.view),
                        input_view<Identity>(zb.view), Complex(1), Complex(0));
      ADD_FAILURE() << "expected PlanMismatch for a conjugated operand";
    } catch (const strided::Error& e) {
      EXPECT_EQ(e.code(), strided::ErrorCode::PlanMismatch) << e.what();
    }
    EXPECT_EQ(std::memcmp(before.data(), zc.buffer.data(), before.size() * sizeof(Complex)), 0);
  }
  // The plan's own layouts still work afterwards.
  const auto want = einsum_oracle("ik,kj->ij", c.view, va, vb, 1.0, 0.0);
  strided::contract(exec, plan, c.view, va, vb, 1.0, 0.0);
  EXPECT_TRUE(matches_oracle(c.view, want));
}

TYPED_TEST(ContractTest, ExplainNamesTheGemm) {
  for (const Case& k : {Case{"ik,kj->ij", {20, 30}, {30, 40}, {20, 40}, {}, {}},
                        Case{"bki,bjk->bij", {4, 30, 20}, {4, 40, 30}, {4, 20, 40}, {}, {}},
                        Case{"abc,bcd->da", {5, 6, 7}, {6, 7, 8}, {8, 5}, {}, {}}}) {
    auto set = operand_set<double>(k, 300, 301);
    const auto plan = strided::make_contraction_plan(
        k.spec, set.c.view, input_view<Identity>(set.a.view), input_view<Identity>(set.b.view));
    const std::string text = strided::explain(plan);
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    EXPECT_FALSE(text.empty());
    EXPECT_NE(lower.find("gemm"), std::string::npos) << text;
  }
}

// ---- errors ----

/// Every error of the API, thrown before anything is written (C's buffer keeps its bytes), from
/// the one-shot call and from make_contraction_plan.
TYPED_TEST(ContractTest, ErrorsLeaveCUntouched) {
  using strided::ErrorCode;
  const TypeParam exec;
  std::vector<double> abuf(64, 1.0), bbuf(64, 2.0), cbuf(64, 3.0);
  const auto view = [](std::vector<double>& buf, std::vector<std::size_t> e,
                       std::vector<std::ptrdiff_t> s) {
    return StridedView<double>(buf.data(), buf.size(), e, s);
  };
  const StridedView<const double> a = view(abuf, {3, 4}, {4, 1});  // i k
  const StridedView<const double> b = view(bbuf, {4, 5}, {5, 1});  // k j
  const StridedView<double> c = view(cbuf, {3, 5}, {5, 1});        // i j
  const auto one_shot = [&](const std::string& spec, const StridedView<double>& cc,
                            const StridedView<const double>& aa,
                            const StridedView<const double>& bb) {
    return [&exec, spec, cc, aa, bb] { strided::contract(exec, spec, cc, aa, bb, 1.0, 0.0); };
  };
  const auto planned = [](const std::string& spec, const StridedView<double>& cc,
                          const StridedView<const double>& aa,
                          const StridedView<const double>& bb) {
    return [spec, cc, aa, bb] { (void)strided::make_contraction_plan(spec, cc, aa, bb); };
  };
  // Sanity: the valid call works (so the errors below are the spec's or the operands' doing).
  strided::contract(exec, "ik,kj->ij", c, a, b, 1.0, 0.0);
  EXPECT_EQ(c(0, 0), 8.0);
  std::fill(cbuf.begin(), cbuf.end(), 3.0);

  // Malformed specs.
  for (const char* spec : {"ik,kj", "ik kj->ij", "ikkj->ij", "ik,kj,->ij", "ik,k1->ij",
                           "ik,kj->i_j", "ik,kj=>ij", "ik->ij,kj", "ik,kj->ij->ij", "ik,k-j->ij"}) {
    SCOPED_TRACE(spec);
    EXPECT_CONTRACT_ERROR(ErrorCode::InvalidArgument, cbuf, one_shot(spec, c, a, b));
  }
  EXPECT_CONTRACT_ERROR(ErrorCode::InvalidArgument, cbuf, planned("ik,kj", c, a, b));
  // Label counts that are not the ranks.
  for (const char* spec : {"ikx,kj->ij", "ik,kjx->ij", "ik,kj->kij", "ik,kj->i"}) {
    SCOPED_TRACE(spec);
    EXPECT_CONTRACT_ERROR(ErrorCode::RankMismatch, cbuf, one_shot(spec, c, a, b));
  }
  EXPECT_CONTRACT_ERROR(ErrorCode::RankMismatch, cbuf, planned("ikx,kj->ij", c, a, b));
  // A label repeated inside one operand (a diagonal), in A, B or C.
  {
    const StridedView<const double> sq = view(abuf, {4, 4}, {4, 1});
    const StridedView<double> csq = view(cbuf, {3, 3}, {3, 1});
    EXPECT_CONTRACT_ERROR(ErrorCode::InvalidArgument, cbuf,
                          one_shot("kk,kj->j", view(cbuf, {5}, {1}), sq, b));
    EXPECT_CONTRACT_ERROR(ErrorCode::InvalidArgument, cbuf,
                          one_shot("ik,jj->ij", c, a, view(bbuf, {5, 5}, {5, 1})));
    EXPECT_CONTRACT_ERROR(ErrorCode::InvalidArgument, cbuf,
                          one_shot("ik,ki->ii", csq, a, view(bbuf, {4, 3}, {3, 1})));
    EXPECT_CONTRACT_ERROR(ErrorCode::InvalidArgument, cbuf,
                          planned("kk,kj->j", view(cbuf, {5}, {1}), sq, b));
  }
  // An output label in no input.
  EXPECT_CONTRACT_ERROR(ErrorCode::InvalidArgument, cbuf, one_shot("ik,kj->iz", c, a, b));
  EXPECT_CONTRACT_ERROR(ErrorCode::InvalidArgument, cbuf, planned("ik,kj->zj", c, a, b));
  // Extents of one label that disagree: k between A and B, i between A and C, j between B and C,
  // a batch label between all three.
  EXPECT_CONTRACT_ERROR(ErrorCode::ShapeMismatch, cbuf,
                        one_shot("ik,kj->ij", c, a, view(bbuf, {3, 5}, {5, 1})));
  EXPECT_CONTRACT_ERROR(ErrorCode::ShapeMismatch, cbuf,
                        one_shot("ik,kj->ij", view(cbuf, {4, 5}, {5, 1}), a, b));
  EXPECT_CONTRACT_ERROR(ErrorCode::ShapeMismatch, cbuf,
                        one_shot("ik,kj->ij", view(cbuf, {3, 6}, {6, 1}), a, b));
  EXPECT_CONTRACT_ERROR(ErrorCode::ShapeMismatch, cbuf,
                        one_shot("bk,bk->b", view(cbuf, {3}, {1}), a, view(bbuf, {4, 4}, {4, 1})));
  EXPECT_CONTRACT_ERROR(ErrorCode::ShapeMismatch, cbuf,
                        planned("ik,kj->ij", c, a, view(bbuf, {3, 5}, {5, 1})));
  // Outputs that are not injective: a stride 0 on an extent > 1, axes that overlap.
  EXPECT_CONTRACT_ERROR(ErrorCode::NonInjectiveOutput, cbuf,
                        one_shot("ik,kj->ij", view(cbuf, {3, 5}, {0, 1}), a, b));
  EXPECT_CONTRACT_ERROR(ErrorCode::NonInjectiveOutput, cbuf,
                        one_shot("ik,kj->ij", view(cbuf, {3, 5}, {1, 1}), a, b));
  EXPECT_CONTRACT_ERROR(ErrorCode::NonInjectiveOutput, cbuf,
                        one_shot("ik,kj->ij", view(cbuf, {3, 5}, {2, 1}), a, b));
  EXPECT_CONTRACT_ERROR(ErrorCode::NonInjectiveOutput, cbuf,
                        planned("ik,kj->ij", view(cbuf, {3, 5}, {0, 1}), a, b));
  // An output that overlaps an input: C is A, C shares part of B's buffer, C interleaves with A.
  {
    const StridedView<double> c_is_a = view(abuf, {4, 4}, {4, 1});
    const StridedView<const double> a_sq(c_is_a);
    const StridedView<const double> b44 = view(bbuf, {4, 4}, {4, 1});
    EXPECT_CONTRACT_ERROR(ErrorCode::OverlappingInputOutput, abuf,
                          one_shot("ik,kj->ij", c_is_a, a_sq, b44));
    // A kept plan checks the addresses at each execution (planning depends on layouts only).
    std::vector<double> other(16, 0.0);
    const auto plan =
        strided::make_contraction_plan("ik,kj->ij", view(other, {4, 4}, {4, 1}), a_sq, b44);
    EXPECT_CONTRACT_ERROR(ErrorCode::OverlappingInputOutput, abuf,
                          [&] { strided::contract(exec, plan, c_is_a, a_sq, b44, 1.0, 0.0); });
    const StridedView<double> c_in_b = view(bbuf, {3, 5}, {5, 1});  // B's first 15 elements
    const StridedView<const double> b_tail(view(bbuf, {4, 5}, {5, 1}).slice(0, 0, 4));
    EXPECT_CONTRACT_ERROR(ErrorCode::OverlappingInputOutput, bbuf,
                          one_shot("ik,kj->ij", c_in_b, a, b_tail));
    // C two elements further along A's buffer: they share elements 2 to 11.
    const StridedView<double> c_shift(abuf.data(), abuf.size(), {3, 5}, {5, 1}, 2);
    const StridedView<const double> a_rows = view(abuf, {3, 4}, {4, 1});
    EXPECT_CONTRACT_ERROR(ErrorCode::OverlappingInputOutput, abuf,
                          one_shot("ik,kj->ij", c_shift, a_rows, b));
  }
}

// Planning errors name the function called: make_contraction_plan, not contract.
TEST(ContractErrors, AKeptPlansErrorsNameMakeContractionPlan) {
  std::vector<double> buffer(3 * 16);
  const StridedView<double> c(buffer.data(), 16, {4, 4}, {4, 1});
  const StridedView<const double> a(buffer.data() + 16, 16, {4, 4}, {4, 1}),
      b(buffer.data() + 32, 16, {4, 4}, {4, 1});
  strided_test::expect_error([&] { (void)strided::make_contraction_plan("ab,bc", c, a, b); },
                             strided::ErrorCode::InvalidArgument, "make_contraction_plan");
  strided_test::expect_error([&] { (void)strided::make_contraction_plan("abd,bc->ac", c, a, b); },
                             strided::ErrorCode::RankMismatch, "make_contraction_plan");
  const StridedView<double> rows_alike(buffer.data(), 4, {4, 4}, {0, 1});
  strided_test::expect_error(
      [&] { (void)strided::make_contraction_plan("ab,bc->ac", rows_alike, a, b); },
      strided::ErrorCode::NonInjectiveOutput, "make_contraction_plan");
}

// ---- bits ----

/// The result on Exec (under the run's algorithm) has the bits of the result on Kokkos::Serial
/// under the host algorithm, and of a second run on Exec.
template <class T, class OpA, class OpB, class Exec>
void same_bits_as_serial(const Exec& exec, const Case& k, unsigned seed, const T& alpha,
                         const T& beta) {
  SCOPED_TRACE(::testing::Message() << k);
  auto here = operand_set<T>(k, seed, seed + 1);
  auto twice = operand_set<T>(k, seed, seed + 1);
  auto serial = operand_set<T>(k, seed, seed + 1);
  const auto want = einsum_oracle(k.spec, here.c.view, input_view<OpA>(here.a.view),
                                  input_view<OpB>(here.b.view), alpha, beta);
  strided::contract(exec, k.spec, here.c.view, input_view<OpA>(here.a.view),
                    input_view<OpB>(here.b.view), alpha, beta);
  strided::contract(exec, k.spec, twice.c.view, input_view<OpA>(twice.a.view),
                    input_view<OpB>(twice.b.view), alpha, beta);
#ifdef KOKKOS_ENABLE_SERIAL
  {
    const strided_test::DefaultOptionsGuard guard;
    strided::Options host = guard.saved;
    host.algorithm = strided::Algorithm::Host;
    strided::set_default_options(host);
    strided::contract(Kokkos::Serial(), k.spec, serial.c.view, input_view<OpA>(serial.a.view),
                      input_view<OpB>(serial.b.view), alpha, beta);
  }
#endif
  EXPECT_TRUE(matches_oracle(here.c.view, want));
  const auto bits = element_bits(here.c.view);
#ifdef KOKKOS_ENABLE_SERIAL
  EXPECT_EQ(bits, element_bits(serial.c.view)) << "bits differ from Kokkos::Serial's";
#endif
  EXPECT_EQ(bits, element_bits(twice.c.view)) << "bits differ from run to run";
}

TYPED_TEST(ContractTest, SameBitsAsSerial) {
  const TypeParam exec;
  // Sizes that take several of Kokkos Kernels' GEMM blocks and several threads' shares.
  const std::vector<Case> cases = {
      {"ik,kj->ij", {96, 80}, {80, 88}, {96, 88}, {}, {}},
      {"ki,jk->ji", {80, 96}, {88, 80}, {88, 96}, {}, {}},
      {"bik,bkj->bij", {9, 24, 30}, {9, 30, 20}, {9, 24, 20}, {}, {}},
      {"abc,bcd->da", {40, 6, 7}, {6, 7, 50}, {50, 40}, {}, {}},
      {"ixk,kjy->ji", {60, 3, 50}, {50, 70, 2}, {70, 60}, {}, {}},
      {"ik,kj->ij", {64, 70}, {70, 60}, {64, 60}, {false, true}, {true, false}},
      {"bik,kbj->jbi", {3, 40, 35}, {35, 3, 30}, {30, 3, 40}, {}, {}},  // a GEMM per batch
  };
  unsigned seed = 400;
  for (const Case& k : cases) {
    same_bits_as_serial<double, Identity, Identity>(exec, k, seed, 1.0, 0.0);
    same_bits_as_serial<double, Identity, Identity>(exec, k, seed + 10, -0.75, 1.5);
    seed += 20;
  }
  same_bits_as_serial<float, Identity, Identity>(exec, cases[0], 500, 1.0f, 0.5f);
  same_bits_as_serial<float, Identity, Identity>(exec, cases[2], 501, 1.0f, 0.0f);
  const Case z{"ik,kj->ij", {40, 50}, {50, 44}, {40, 44}, {}, {}};
  same_bits_as_serial<Complex, Conj, Identity>(exec, z, 502, Complex(1, -0.5), Complex(0));
  same_bits_as_serial<Complex, Identity, Conj>(exec, cases[2], 503, Complex(1), Complex(0.5, 1));
}

// docs/contraction.md: the bits depend only on the operands. A trace sum folds in tiles, so it
// must not take the process's planner settings.
TYPED_TEST(ContractTest, TraceBitsDoNotDependOnTheDefaultPlannerSettings) {
  const TypeParam exec;
  const Case k{"itk,kj->ij", {6, 3000, 4}, {4, 5}, {6, 5}, {}, {}};  // a long trace axis t
  auto plain = operand_set<double>(k, 700, 701);
  auto odd = operand_set<double>(k, 700, 701);
  auto kept = operand_set<double>(k, 700, 701);
  strided::contract(exec, k.spec, plain.c.view, input_view<Identity>(plain.a.view),
                    input_view<Identity>(plain.b.view));
  {
    const strided_test::DefaultOptionsGuard guard;
    strided::set_default_options(strided_test::odd_planner_defaults(guard.saved));
    strided::contract(exec, k.spec, odd.c.view, input_view<Identity>(odd.a.view),
                      input_view<Identity>(odd.b.view));
    const auto plan = strided::make_contraction_plan(
        k.spec, kept.c.view, input_view<Identity>(kept.a.view), input_view<Identity>(kept.b.view));
    strided::contract(exec, plan, kept.c.view, input_view<Identity>(kept.a.view),
                      input_view<Identity>(kept.b.view));
  }
  const auto bits = element_bits(plain.c.view);
  EXPECT_EQ(bits, element_bits(odd.c.view));
  EXPECT_EQ(bits, element_bits(kept.c.view));
}

}  // namespace
