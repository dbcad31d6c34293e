// Global reductions over MPI ranks (run by ctest under mpirun at 1, 2, 3 and 4 ranks). Every
// rank builds the same global tensor from one seed, keeps its slab of a split (along each axis,
// uneven, with empty ranks, each local part in its own random layout) and reduces it with
// strided::mpi. Each result must equal the MPFR oracle's correctly rounded exact value of the
// whole tensor: the same bits whatever the split and however many ranks run.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <strided/mpi.hpp>
#include <strided/strided.hpp>

#include "../exact/mpfr_oracle.hpp"
#include "../exec_spaces.hpp"
#include "../expect_error.hpp"
#include "../kernels/test_layouts.hpp"

namespace {

using strided_test::for_each_index;
using strided_test::Hard;
using strided_test::oracle_sum;
using strided_test::random_operand;
using strided_test::same_result;

int rank_of() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size_of() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// A global tensor (row-major values) and the slab [first, last) of it along `axis` that this
/// rank holds, in a random local layout.
struct Slab {
  std::vector<std::size_t> global;
  std::size_t axis = 0, first = 0, last = 0;
  strided_test::Operand<double> local;
};

/// Rank r's slab of a split of extent n into `ranks` uneven parts: part sizes grow with the
/// rank (rank 0 often empty), so no two splits agree.
std::pair<std::size_t, std::size_t> part_of(std::size_t n, int ranks, int r, int variant) {
  const auto edge = [&](int k) {
    const double t = static_cast<double>(k) / ranks;
    return static_cast<std::size_t>(std::floor(n * (variant % 2 ? t * t : std::sqrt(t))));
  };
  return {r == 0 ? 0 : edge(r), r == ranks - 1 ? n : edge(r + 1)};
}

std::size_t flat_index(const std::vector<std::size_t>& extents, const std::vector<std::size_t>& i) {
  std::size_t f = 0;
  for (std::size_t k = 0; k < extents.size(); ++k) f = f * extents[k] + i[k];
  return f;
}

Slab slab_of(const std::vector<std::size_t>& global, std::size_t axis,
             const std::vector<double>& values, int variant, std::mt19937& layout_rng) {
  const auto [first, last] = part_of(global[axis], size_of(), rank_of(), variant);
  std::vector<std::size_t> extents = global;
  extents[axis] = last - first;
  auto local = random_operand<double>(extents, layout_rng);
  for_each_index(extents, [&](const std::vector<std::size_t>& i) {
    std::vector<std::size_t> g = i;
    g[axis] += first;
    strided_test::write(local.view, i, values[flat_index(global, g)]);
  });
  return Slab{global, axis, first, last, std::move(local)};
}

template <class Exec>
class MpiTest : public ::testing::Test {};
TYPED_TEST_SUITE(MpiTest, strided_test::ExecSpaces, strided_test::ExecSpaceNames);

TYPED_TEST(MpiTest, FullReductionsHaveTheExactBitsForEverySplit) {
  const TypeParam exec;
  const std::vector<std::size_t> global = {7, 40, 9};
  std::mt19937_64 rng(2024);                                        // the same on every rank
  std::mt19937 layout_rng(static_cast<unsigned>(100 + rank_of()));  // not the same
  for (int k = 0; k < static_cast<int>(Hard::Count); ++k) {
    const Hard kind = static_cast<Hard>(k);
    const auto x = strided_test::hard_values(kind, 7 * 40 * 9, rng);
    const auto y =
        strided_test::hard_values(static_cast<Hard>((k + 2) % int(Hard::Count)), 7 * 40 * 9, rng);
    const double sum = oracle_sum<double>(x), dot = oracle_sum<double>(x, &y),
                 squares = oracle_sum<double>(x, &x);
    for (std::size_t axis = 0; axis < global.size(); ++axis)
      for (int variant = 0; variant < 2; ++variant) {
        SCOPED_TRACE(::testing::Message() << "kind " << k << ", split along " << axis
                                          << ", variant " << variant << ", rank " << rank_of());
        const Slab a = slab_of(global, axis, x, variant, layout_rng);
        const Slab b = slab_of(global, axis, y, variant, layout_rng);
        EXPECT_TRUE(same_result(strided::mpi::sum(exec, a.local.view, MPI_COMM_WORLD), sum));
        EXPECT_TRUE(
            same_result(strided::mpi::dot(exec, a.local.view, b.local.view, MPI_COMM_WORLD), dot));
        EXPECT_TRUE(
            same_result(strided::mpi::sum_squares(exec, a.local.view, MPI_COMM_WORLD), squares));
        auto pending = strided::mpi::isum(exec, a.local.view, MPI_COMM_WORLD);
        auto pending_dot = strided::mpi::idot(exec, a.local.view, b.local.view, MPI_COMM_WORLD);
        auto pending_squares = strided::mpi::isum_squares(exec, a.local.view, MPI_COMM_WORLD);
        auto pending_max = strided::mpi::imax(exec, a.local.view, MPI_COMM_WORLD);
        EXPECT_TRUE(same_result(pending.wait(), sum));
        EXPECT_TRUE(same_result(pending_dot.wait(), dot));
        EXPECT_TRUE(same_result(pending_squares.wait(), squares));
        // The extremes, NaN propagating.
        double mx = -INFINITY, mn = INFINITY;
        bool nan = false;
        for (double v : x) {
          nan = nan || std::isnan(v);
          mx = std::max(mx, v);
          mn = std::min(mn, v);
        }
        const double gmax = strided::mpi::max(exec, a.local.view, MPI_COMM_WORLD);
        const double gimax = pending_max.wait();
        EXPECT_TRUE(same_result(gimax, gmax));
        EXPECT_TRUE(same_result(strided::mpi::min(exec, a.local.view, MPI_COMM_WORLD),
                                strided::mpi::imin(exec, a.local.view, MPI_COMM_WORLD).wait()));
        const double gmin = strided::mpi::imin(exec, a.local.view, MPI_COMM_WORLD).wait();
        if (nan) {
          EXPECT_TRUE(std::isnan(gmax) && std::isnan(gmin));
        } else {
          EXPECT_EQ(gmax, mx);
          EXPECT_EQ(gmin, mn);
        }
      }
  }
}

TYPED_TEST(MpiTest, FloatsAndComplexRoundOnce) {
  const TypeParam exec;
  const std::size_t n = 1000;
  const auto [first, last] = part_of(n, size_of(), rank_of(), 1);
  std::mt19937_64 rng(99);
  std::vector<double> re(n), im(n);
  std::vector<float> f(n);
  for (std::size_t i = 0; i < n; ++i) {
    re[i] = std::ldexp(strided_test::random_unit(rng) - 0.5, int(rng() % 400) - 200);
    im[i] = -std::ldexp(strided_test::random_unit(rng), int(rng() % 60) - 30);
    f[i] = static_cast<float>(
        std::ldexp(strided_test::random_unit(rng) - 0.5, int(rng() % 200) - 100));
  }
  std::vector<double> fd(f.begin(), f.end());
  auto c = strided::StridedArray<Kokkos::complex<double>>::row_major({last - first});
  auto g = strided::StridedArray<float>::col_major({last - first});
  for (std::size_t i = first; i < last; ++i) {
    c.data()[i - first] = Kokkos::complex<double>(re[i], im[i]);
    g.data()[i - first] = f[i];
  }
  const auto s = strided::mpi::sum(exec, c.view(), MPI_COMM_WORLD);
  EXPECT_TRUE(same_result(s.real(), oracle_sum<double>(re)));
  EXPECT_TRUE(same_result(s.imag(), oracle_sum<double>(im)));
  EXPECT_TRUE(
      same_result(strided::mpi::sum(exec, g.view(), MPI_COMM_WORLD), oracle_sum<float>(fd)));
  EXPECT_TRUE(same_result(strided::mpi::dot<double>(exec, g.view(), g.view(), MPI_COMM_WORLD),
                          oracle_sum<double>(fd, &fd)));
}

TYPED_TEST(MpiTest, AxisReductionsOverSplitAxes) {
  const TypeParam exec;
  const std::vector<std::size_t> global = {5, 60, 4};
  std::mt19937_64 rng(5);
  std::mt19937 layout_rng(static_cast<unsigned>(300 + rank_of()));
  const auto x = strided_test::hard_values(Hard::Cancelling, 5 * 60 * 4, rng);
  const auto y = strided_test::hard_values(Hard::WideRange, 5 * 60 * 4, rng);
  // Reduce axis 1 (split over ranks), keep 0 and 2; reduce axes 0 and 1 (1 split).
  for (const std::vector<std::size_t>& axes : std::vector<std::vector<std::size_t>>{{1}, {1, 0}}) {
    const Slab a = slab_of(global, 1, x, 0, layout_rng);
    const Slab b = slab_of(global, 1, y, 0, layout_rng);
    std::vector<std::size_t> kept, kept_extents;
    for (std::size_t k = 0; k < 3; ++k)
      if (std::find(axes.begin(), axes.end(), k) == axes.end()) {
        kept.push_back(k);
        kept_extents.push_back(global[k]);
      }
    for (int root : {-1, size_of() - 1}) {
      SCOPED_TRACE(::testing::Message()
                   << axes.size() << " axes, root " << root << ", rank " << rank_of());
      auto sums = random_operand<double>(kept_extents, layout_rng);
      auto dots = random_operand<double>(kept_extents, layout_rng);
      auto squares = random_operand<double>(kept_extents, layout_rng);
      strided_test::fill(sums.view, 3);  // what a rank that is not the root must keep
      strided_test::fill(dots.view, 3);
      const auto before = sums.buffer;
      if (root < 0) {
        strided::mpi::sum_axes(exec, sums.view, a.local.view, axes, MPI_COMM_WORLD);
        strided::mpi::dot_axes(exec, dots.view, a.local.view, b.local.view, axes, MPI_COMM_WORLD);
        strided::mpi::sum_squares_axes(exec, squares.view, a.local.view, axes, MPI_COMM_WORLD);
      } else {
        strided::mpi::sum_axes(exec, sums.view, a.local.view, axes, MPI_COMM_WORLD,
                               strided::mpi::Root{root});
        strided::mpi::dot_axes(exec, dots.view, a.local.view, b.local.view, axes, MPI_COMM_WORLD,
                               strided::mpi::Root{root});
        strided::mpi::sum_squares_axes(exec, squares.view, a.local.view, axes, MPI_COMM_WORLD,
                                       strided::mpi::Root{root});
      }
      if (root >= 0 && rank_of() != root) {
        EXPECT_TRUE(std::memcmp(sums.buffer.data(), before.data(), before.size() * 8) == 0);
        continue;
      }
      for_each_index(kept_extents, [&](const std::vector<std::size_t>& out) {
        std::vector<double> xs, ys;
        for_each_index(global, [&](const std::vector<std::size_t>& i) {
          for (std::size_t k = 0; k < kept.size(); ++k)
            if (i[kept[k]] != out[k]) return;
          xs.push_back(x[flat_index(global, i)]);
          ys.push_back(y[flat_index(global, i)]);
        });
        EXPECT_TRUE(same_result(strided_test::read(sums.view, out), oracle_sum<double>(xs)));
        EXPECT_TRUE(same_result(strided_test::read(dots.view, out), oracle_sum<double>(xs, &ys)));
        EXPECT_TRUE(
            same_result(strided_test::read(squares.view, out), oracle_sum<double>(xs, &xs)));
      });
    }
  }
}

TYPED_TEST(MpiTest, BadArgumentsRaiseBeforeTheCollective) {
  const TypeParam exec;
  auto a = strided::StridedArray<double>::row_major({3, 4});
  auto d = strided::StridedArray<double>::row_major({3});
  strided_test::expect_error([&] { (void)strided::mpi::sum(exec, a.view(), MPI_COMM_NULL); },
                             strided::ErrorCode::InvalidArgument, "mpi::sum");
  strided_test::expect_error(
      [&] {
        strided::mpi::sum_axes(exec, d.view(), a.view(), {1}, MPI_COMM_WORLD,
                               strided::mpi::Root{size_of()});
      },
      strided::ErrorCode::InvalidArgument, "mpi::sum_axes");
  strided_test::expect_error(
      [&] { strided::mpi::sum_axes(exec, d.view(), a.view(), {0}, MPI_COMM_WORLD); },
      strided::ErrorCode::ShapeMismatch, "mpi::sum_axes");
  // A negative root: the message names the function, as every error's does.
  strided_test::expect_error(
      [&] {
        strided::mpi::sum_squares_axes(exec, d.view(), a.view(), {1}, MPI_COMM_WORLD,
                                       strided::mpi::Root{-1});
      },
      strided::ErrorCode::InvalidArgument, "mpi::sum_squares_axes");
  strided_test::expect_error(
      [&] {
        strided::mpi::dot_axes(exec, d.view(), a.view(), a.view(), {1}, MPI_COMM_WORLD,
                               strided::mpi::Root{-1});
      },
      strided::ErrorCode::InvalidArgument, "mpi::dot_axes");
}

// Every form also exists without exec (mpi.hpp): each instance-less call on host memory gives
// the bits of its form on DefaultHostExecutionSpace.
TEST(MpiInstanceLess, EveryFormWithoutExecHasTheBitsOfTheDefaultHostSpace) {
  const Kokkos::DefaultHostExecutionSpace host;
  std::mt19937 layout_rng(7 + rank_of());
  std::mt19937_64 rng(99);
  const auto x = strided_test::hard_values(Hard::Cancelling, 5 * 6 * 7, rng);
  const auto y = strided_test::hard_values(Hard::WideRange, 5 * 6 * 7, rng);
  const Slab a = slab_of({5, 6, 7}, 1, x, 0, layout_rng);
  const Slab b = slab_of({5, 6, 7}, 1, y, 0, layout_rng);
  const auto& u = a.local.view;
  const auto& v = b.local.view;
  EXPECT_TRUE(same_result(strided::mpi::sum(u, MPI_COMM_WORLD),
                          strided::mpi::sum(host, u, MPI_COMM_WORLD)));
  EXPECT_TRUE(same_result(strided::mpi::isum(u, MPI_COMM_WORLD).wait(),
                          strided::mpi::sum(host, u, MPI_COMM_WORLD)));
  EXPECT_TRUE(same_result(strided::mpi::isum<float>(u, MPI_COMM_WORLD).wait(),
                          strided::mpi::sum<float>(host, u, MPI_COMM_WORLD)));
  EXPECT_TRUE(same_result(strided::mpi::idot(u, v, MPI_COMM_WORLD).wait(),
                          strided::mpi::dot(host, u, v, MPI_COMM_WORLD)));
  EXPECT_TRUE(same_result(strided::mpi::isum_squares(u, MPI_COMM_WORLD).wait(),
                          strided::mpi::sum_squares(host, u, MPI_COMM_WORLD)));
  EXPECT_TRUE(same_result(strided::mpi::imax(u, MPI_COMM_WORLD).wait(),
                          strided::mpi::max(host, u, MPI_COMM_WORLD)));
  EXPECT_TRUE(same_result(strided::mpi::imin(u, MPI_COMM_WORLD).wait(),
                          strided::mpi::min(host, u, MPI_COMM_WORLD)));
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int result = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    result = RUN_ALL_TESTS();
    // Every rank must pass: a failure on any rank fails the run.
    MPI_Allreduce(MPI_IN_PLACE, &result, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return result;
}
