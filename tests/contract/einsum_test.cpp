// strided::einsum (the N-ary front end of the contract component) on every execution space,
// against loops over every label: one input (sums and permutations), two (one contract call),
// three and four (a greedy order of pairwise contractions through intermediates), a label shared
// by three inputs, a conjugated complex input, every error with the output left unwritten, and
// the bits of Kokkos::Serial. Values are small integers, so every sum is exact in any order and
// the comparisons are exact.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <strided/einsum.hpp>
#include <strided/strided.hpp>

#include "../default_options_guard.hpp"
#include "../exec_spaces.hpp"
#include "../kernels/test_layouts.hpp"

// A named namespace: the unity build compiles this file with the contraction suite.
namespace einsum_test {

using Complex = Kokkos::complex<double>;
using strided::StridedView;
using strided_test::Operand;

template <class Exec>
class EinsumTest : public ::testing::Test {};
TYPED_TEST_SUITE(EinsumTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

/// Label extents of a test: each label one extent.
using Extents = std::map<char, std::size_t>;

template <class T>
Operand<T> operand_of(const std::string& labels, const Extents& e, std::mt19937& rng) {
  std::vector<std::size_t> extents;
  for (char ch : labels) extents.push_back(e.at(ch));
  Operand<T> x = strided_test::random_operand<T>(extents, rng);
  std::uniform_int_distribution<int> value(-3, 3);
  strided_test::for_each_index(extents, [&](const std::vector<std::size_t>& i) {
    if constexpr (strided::detail::is_complex_v<T>)
      strided_test::write(x.view, i, T(value(rng), value(rng)));
    else
      strided_test::write(x.view, i, T(value(rng)));
  });
  return x;
}

/// The einsum by its definition: a loop over every label, products of the inputs (ops applied).
template <class T, class... V>
std::vector<T> by_definition(const std::vector<std::string>& inputs, const std::string& output,
                             const Extents& e, const V&... views) {
  std::string all;
  std::vector<std::size_t> all_extents;
  for (const auto& [ch, n] : e) {
    bool used = output.find(ch) != std::string::npos;
    for (const auto& labels : inputs) used = used || labels.find(ch) != std::string::npos;
    if (!used) continue;  // a label of the test, not of this spec
    all.push_back(ch);
    all_extents.push_back(n);
  }
  std::vector<std::size_t> out_extents;
  std::size_t size = 1;
  for (char ch : output) {
    out_extents.push_back(e.at(ch));
    size *= e.at(ch);
  }
  std::vector<T> out(size, T(0));
  const auto index_of = [&](const std::string& labels, const std::vector<std::size_t>& i) {
    std::vector<std::size_t> own;
    for (char ch : labels) own.push_back(i[all.find(ch)]);
    return own;
  };
  strided_test::for_each_index(all_extents, [&](const std::vector<std::size_t>& i) {
    T product(1);
    std::size_t k = 0;
    ((product = product * strided_test::read(views, index_of(inputs[k++], i))), ...);
    std::size_t at = 0;
    for (char ch : output) at = at * e.at(ch) + i[all.find(ch)];
    out[at] += product;
  });
  return out;
}

/// The output's elements in row-major order of its axes.
template <class T>
std::vector<T> elements(const StridedView<T>& v) {
  std::vector<T> out;
  strided_test::for_each_index(v.extents(), [&](const std::vector<std::size_t>& i) {
    out.push_back(strided_test::read(v, i));
  });
  return out;
}

template <class T>
StridedView<const T> in(const Operand<T>& x) {
  return StridedView<const T>(x.view);
}

TYPED_TEST(EinsumTest, ChainsOfThreeAndFourInputs) {
  const TypeParam exec;
  std::mt19937 rng(4101);
  for (int trial = 0; trial < 6; ++trial) {
    const Extents e{{'i', 1 + rng() % 5},
                    {'j', 1 + rng() % 6},
                    {'k', 1 + rng() % 4},
                    {'l', 1 + rng() % 5},
                    {'m', 1 + rng() % 3}};
    auto a = operand_of<double>("ij", e, rng), b = operand_of<double>("jk", e, rng),
         c = operand_of<double>("kl", e, rng), d = operand_of<double>("lm", e, rng);
    auto out = operand_of<double>("li", e, rng);
    strided::einsum(exec, "ij,jk,kl->li", out.view, in(a), in(b), in(c));
    EXPECT_EQ(elements(out.view),
              by_definition<double>({"ij", "jk", "kl"}, "li", e, a.view, b.view, c.view));
    auto out4 = operand_of<double>("mi", e, rng);
    strided::einsum(exec, "ij,jk,kl,lm->mi", out4.view, in(a), in(b), in(c), in(d));
    EXPECT_EQ(elements(out4.view), by_definition<double>({"ij", "jk", "kl", "lm"}, "mi", e, a.view,
                                                         b.view, c.view, d.view));
    // A ring to a scalar: the trace of a product.
    auto ring = operand_of<double>("li", e, rng);
    auto scalar = operand_of<double>("", e, rng);
    strided::einsum(exec, "ij,jk,kl,li->", scalar.view, in(a), in(b), in(c), in(ring));
    EXPECT_EQ(elements(scalar.view), by_definition<double>({"ij", "jk", "kl", "li"}, "", e, a.view,
                                                           b.view, c.view, ring.view));
  }
}

TYPED_TEST(EinsumTest, ALabelSharedByThreeInputsStaysUntilTheEnd) {
  const TypeParam exec;
  std::mt19937 rng(4102);
  const Extents e{{'i', 7}, {'j', 5}};
  auto a = operand_of<double>("ij", e, rng), b = operand_of<double>("ij", e, rng),
       c = operand_of<double>("ji", e, rng);
  auto out = operand_of<double>("i", e, rng);
  strided::einsum(exec, "ij,ij,ji->i", out.view, in(a), in(b), in(c));
  EXPECT_EQ(elements(out.view),
            by_definition<double>({"ij", "ij", "ji"}, "i", e, a.view, b.view, c.view));
}

TYPED_TEST(EinsumTest, OneInputSumsAndPermutes) {
  const TypeParam exec;
  std::mt19937 rng(4103);
  const Extents e{{'i', 4}, {'j', 6}, {'k', 3}};
  auto a = operand_of<double>("ijk", e, rng);
  auto summed = operand_of<double>("ki", e, rng);
  strided::einsum(exec, "ijk->ki", summed.view, in(a));
  EXPECT_EQ(elements(summed.view), by_definition<double>({"ijk"}, "ki", e, a.view));
  auto permuted = operand_of<double>("kji", e, rng);
  strided::einsum(exec, "ijk->kji", permuted.view, in(a));
  EXPECT_EQ(elements(permuted.view), by_definition<double>({"ijk"}, "kji", e, a.view));
}

// As contract's trace sums: a one-input sum folds in tiles, and its bits must not follow the
// process's planner settings.
TYPED_TEST(EinsumTest, OneInputSumBitsDoNotDependOnTheDefaultPlannerSettings) {
  const TypeParam exec;
  std::mt19937 rng(4105);
  const Extents e{{'i', 4}, {'j', 3000}, {'k', 3}};
  auto a = operand_of<double>("ijk", e, rng);
  std::uniform_real_distribution<double> real(-1, 1);  // rounding errors that depend on order
  strided_test::for_each_index(a.view.extents(), [&](const std::vector<std::size_t>& i) {
    strided_test::write(a.view, i, real(rng));
  });
  auto plain = operand_of<double>("ki", e, rng), odd = operand_of<double>("ki", e, rng);
  strided::einsum(exec, "ijk->ki", plain.view, in(a));
  {
    const strided_test::DefaultOptionsGuard guard;
    strided::set_default_options(strided_test::odd_planner_defaults(guard.saved));
    strided::einsum(exec, "ijk->ki", odd.view, in(a));
  }
  EXPECT_EQ(elements(plain.view), elements(odd.view));
}

TYPED_TEST(EinsumTest, TwoInputsGiveContractsBits) {
  const TypeParam exec;
  std::mt19937 rng(4104);
  const Extents e{{'i', 33}, {'j', 29}, {'k', 31}};
  auto a = operand_of<double>("ik", e, rng), b = operand_of<double>("kj", e, rng);
  std::uniform_real_distribution<double> real(-1, 1);  // rounding errors that depend on order
  strided_test::for_each_index(a.view.extents(), [&](const std::vector<std::size_t>& i) {
    strided_test::write(a.view, i, real(rng));
  });
  auto via_einsum = operand_of<double>("ji", e, rng),
       via_contract = operand_of<double>("ji", e, rng);
  strided::einsum(exec, "ik,kj->ji", via_einsum.view, in(a), in(b));
  strided::contract(exec, "ik,kj->ji", via_contract.view, in(a), in(b));
  EXPECT_EQ(elements(via_einsum.view), elements(via_contract.view));
}

TYPED_TEST(EinsumTest, ConjugatedComplexInput) {
  const TypeParam exec;
  std::mt19937 rng(4105);
  const Extents e{{'i', 4}, {'j', 5}, {'k', 3}, {'l', 6}};
  auto a = operand_of<Complex>("ij", e, rng), b = operand_of<Complex>("jk", e, rng),
       c = operand_of<Complex>("kl", e, rng);
  auto out = operand_of<Complex>("il", e, rng);
  strided::einsum(exec, "ij,jk,kl->il", out.view, in(a), in(b).conj(), in(c));
  EXPECT_EQ(elements(out.view),
            by_definition<Complex>({"ij", "jk", "kl"}, "il", e, a.view, in(b).conj(), c.view));
}

TYPED_TEST(EinsumTest, ErrorsLeaveTheOutputUnwritten) {
  const TypeParam exec;
  std::mt19937 rng(4106);
  const Extents e{{'i', 4}, {'j', 5}, {'k', 3}};
  auto a = operand_of<double>("ij", e, rng), b = operand_of<double>("jk", e, rng);
  auto out = operand_of<double>("ik", e, rng);
  const std::vector<double> before = out.buffer;
  const auto code_of = [&](auto call) {
    try {
      call();
    } catch (const strided::Error& error) {
      return error.code();
    }
    ADD_FAILURE() << "no error";
    return strided::ErrorCode::MpiError;
  };
  using strided::ErrorCode;
  EXPECT_EQ(code_of([&] { strided::einsum(exec, "ij,jk,kk->ik", out.view, in(a), in(b), in(b)); }),
            ErrorCode::InvalidArgument);  // a label repeated in one operand
  EXPECT_EQ(code_of([&] { strided::einsum(exec, "ij,jk->ik", out.view, in(a), in(b), in(b)); }),
            ErrorCode::InvalidArgument);  // two label lists, three operands
  EXPECT_EQ(code_of([&] { strided::einsum(exec, "ij,jk,kl->iz", out.view, in(a), in(b), in(b)); }),
            ErrorCode::InvalidArgument);  // an output label in no input
  EXPECT_EQ(code_of([&] { strided::einsum(exec, "ijx,jk,kj->ik", out.view, in(a), in(b), in(b)); }),
            ErrorCode::RankMismatch);
  EXPECT_EQ(code_of([&] { strided::einsum(exec, "ij,jk,jk->ik", out.view, in(a), in(b), in(a)); }),
            ErrorCode::ShapeMismatch);
  EXPECT_EQ(code_of([&] {
              strided::einsum(exec, "ik,ij,jk->ik", out.view, StridedView<const double>(out.view),
                              in(a), in(b));
            }),
            ErrorCode::OverlappingInputOutput);
  const StridedView<double> repeated(out.view.data(), 1, {4, 3}, {0, 0});
  EXPECT_EQ(code_of([&] { strided::einsum(exec, "ij,jk,kk->ik", repeated, in(a), in(b), in(b)); }),
            ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([&] {
              strided::einsum(exec, "ij,jk,kl->ik", repeated, in(a), in(b),
                              in(operand_of<double>("kl", {{'k', 3}, {'l', 2}}, rng)));
            }),
            ErrorCode::NonInjectiveOutput);
  EXPECT_EQ(out.buffer, before);
}

TYPED_TEST(EinsumTest, SameBitsAsSerial) {
  const TypeParam exec;
  std::mt19937 rng(4107);
  const Extents e{{'i', 70}, {'j', 90}, {'k', 40}, {'l', 60}};
  auto a = operand_of<double>("ij", e, rng), b = operand_of<double>("jk", e, rng),
       c = operand_of<double>("kl", e, rng);
  std::uniform_real_distribution<double> real(-1, 1);
  for (auto* x : {&a, &b, &c})
    strided_test::for_each_index(x->view.extents(), [&](const std::vector<std::size_t>& i) {
      strided_test::write(x->view, i, real(rng));
    });
  auto here = operand_of<double>("li", e, rng), serial = operand_of<double>("li", e, rng);
  strided::einsum(exec, "ij,jk,kl->li", here.view, in(a), in(b), in(c));
  strided::einsum(Kokkos::Serial(), "ij,jk,kl->li", serial.view, in(a), in(b), in(c));
  const std::vector<double> x = elements(here.view), y = elements(serial.view);
  ASSERT_EQ(x.size(), y.size());
  EXPECT_EQ(0, std::memcmp(x.data(), y.data(), x.size() * sizeof(double)));
}

}  // namespace einsum_test
