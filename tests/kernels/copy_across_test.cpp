// copy_across (pack, one contiguous transfer, unpack) forced on host spaces, where it can be
// checked against the reference: permuted, reversed, gapped and broadcast layouts on both sides,
// both staging sides, and copy_into routed through it by Options::stage_copies.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "../expect_error.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::random_operand;

template <class Exec>
class CopyAcrossTest : public ::testing::Test {};
TYPED_TEST_SUITE(CopyAcrossTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

/// dst's logical elements equal op(src)'s, and nothing outside dst's elements was written.
template <class D, class S>
void expect_copied(const strided_test::Operand<D>& dst, const S& src) {
  std::vector<bool> logical(dst.buffer.size(), false);
  const auto origin = dst.view.data() - dst.buffer.data();
  strided_test::for_each_index(dst.view.extents(), [&](const std::vector<std::size_t>& i) {
    logical[static_cast<std::size_t>(origin + strided_test::offset_of(dst.view, i))] = true;
    ASSERT_EQ(strided_test::read(dst.view, i), static_cast<D>(strided_test::read(src, i)));
  });
  for (std::size_t e = 0; e < logical.size(); ++e)
    if (!logical[e]) {
      ASSERT_EQ(dst.buffer[e], strided_test::sentinel<D>()) << "element " << e;
    }
}

TYPED_TEST(CopyAcrossTest, AnyLayoutsOnBothSidesEitherStaging) {
  std::mt19937 rng(83);
  const TypeParam exec;
  const Kokkos::Serial other;
  for (std::size_t rank : {0, 1, 2, 3, 4, 5, 8}) {
    for (int trial = 0; trial < 4; ++trial) {
      const auto extents = strided_test::random_extents(rank, 3000, rng, trial == 3);
      for (auto staging :
           {strided::Staging::Auto, strided::Staging::OnSource, strided::Staging::OnDestination}) {
        SCOPED_TRACE(::testing::Message() << "rank " << rank << " trial " << trial << " staging "
                                          << static_cast<int>(staging));
        auto src = random_operand<double>(extents, rng);
        strided_test::fill(src.view, 11);
        auto dst = random_operand<double>(extents, rng);
        strided::copy_across(exec, dst.view, other, src.view, staging);
        expect_copied(dst, src.view);
        // The other way round, and from a reversed source.
        auto back = random_operand<double>(extents, rng);
        strided::copy_across(other, back.view, exec, rank > 0 ? dst.view.reverse(0) : dst.view,
                             staging);
        expect_copied(back, rank > 0 ? dst.view.reverse(0) : dst.view);
      }
    }
  }
}

TYPED_TEST(CopyAcrossTest, ConvertsTypesAndAppliesOps) {
  std::mt19937 rng(89);
  const TypeParam exec;
  auto z = random_operand<std::complex<double>>({7, 5, 3}, rng);
  strided_test::fill(z.view, 3);
  auto out = random_operand<std::complex<double>>({3, 5, 7}, rng);
  const auto adjoint_like = z.view.permute({2, 1, 0}).conj();
  strided::copy_across(exec, out.view, exec, adjoint_like);
  expect_copied(out, adjoint_like);

  auto i = random_operand<int>({40, 30}, rng);
  strided_test::fill(i.view, 5);
  auto d = random_operand<double>({30, 40}, rng);
  strided::copy_across(exec, d.view, exec, i.view.transpose());
  expect_copied(d, i.view.transpose());

  // A broadcast source (stride 0) fills every destination element.
  auto row = random_operand<double>({1, 9}, rng);
  strided_test::fill(row.view, 8);
  auto full = random_operand<double>({6, 9}, rng);
  strided::copy_across(exec, full.view, exec, row.view.broadcast({6, 9}),
                       strided::Staging::OnDestination);
  expect_copied(full, row.view.broadcast({6, 9}));
}

TYPED_TEST(CopyAcrossTest, CopyIntoGoesThroughItWhenStaged) {
  std::mt19937 rng(97);
  const TypeParam exec;
  strided::Options staged = strided::default_options();
  staged.stage_copies = true;
  auto src = random_operand<float>({20, 30, 4}, rng);
  strided_test::fill(src.view, 2);
  auto dst = random_operand<float>({4, 20, 30}, rng);
  const auto permuted = src.view.permute({2, 0, 1});
  strided::copy_into(exec, dst.view, permuted, staged);
  expect_copied(dst, permuted);
  // copy_across packs the whole source before anything is written, so reversing a view onto
  // itself works there. copy_into accepts the same inputs staged or not (errors do not depend
  // on the options): it refuses the overlap either way, before writing.
  auto v = random_operand<double>({7, 5}, rng, {false, false, false});
  strided_test::fill(v.view, 4);
  std::vector<double> reversed;
  strided_test::for_each_index(v.view.extents(), [&](const std::vector<std::size_t>& i) {
    reversed.push_back(strided_test::read(v.view.reverse(0), i));
  });
  const auto before = v.buffer;
  for (const strided::Options& o : {staged, strided::default_options()})
    strided_test::expect_error([&] { strided::copy_into(exec, v.view, v.view.reverse(0), o); },
                               strided::ErrorCode::OverlappingInputOutput, "copy_into");
  EXPECT_EQ(v.buffer, before);
  strided::copy_across(exec, v.view, exec, v.view.reverse(0));
  std::size_t k = 0;
  strided_test::for_each_index(v.view.extents(), [&](const std::vector<std::size_t>& i) {
    EXPECT_EQ(strided_test::read(v.view, i), reversed[k++]);
  });
}

TYPED_TEST(CopyAcrossTest, BadArgumentsFailBeforeAnythingIsWritten) {
  std::mt19937 rng(101);
  const TypeParam exec;
  auto src = random_operand<double>({4, 5}, rng);
  auto dst = random_operand<double>({5, 4}, rng);
  strided_test::expect_error([&] { strided::copy_across(exec, dst.view, exec, src.view); },
                             strided::ErrorCode::ShapeMismatch, "copy_across");
  auto one = random_operand<double>({1, 5}, rng);
  strided_test::expect_error(
      [&] {
        strided::copy_across(exec, one.view.broadcast({4, 5}), exec, src.view);
      },
      strided::ErrorCode::NonInjectiveOutput, "copy_across");
  for (double x : dst.buffer) EXPECT_EQ(x, strided_test::sentinel<double>());
  for (double x : one.buffer) EXPECT_EQ(x, strided_test::sentinel<double>());
}

}  // namespace
