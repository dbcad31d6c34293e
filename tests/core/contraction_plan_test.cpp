// Unit tests of the backend-free contraction planner (core/strided/core/contraction.hpp) and the
// einsum order (einsum_order.hpp). No Kokkos: each plan is executed here by plain loops that do
// exactly what the plan says (pack with its strides, sum its trace axes, loop its batches, read
// its matrices with its strides) and compared, exactly, with a loop einsum. Integer-valued
// doubles keep every sum exact, so any wrong stride, order or pairing shows.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "strided/core/contraction.hpp"
#include "strided/core/einsum_order.hpp"

namespace {

using strided::Error;
using strided::ErrorCode;
using strided::detail::ContractionLayout;
using strided::detail::ContractionOperand;
using strided::detail::LayoutRef;

/// A tensor in its own buffer: extents, signed strides, origin offset.
struct Tensor {
  std::string labels;
  std::vector<std::size_t> extents;
  std::vector<std::ptrdiff_t> strides;
  std::vector<double> buffer;
  std::ptrdiff_t origin = 0;
  LayoutRef layout() const { return {extents.size(), extents.data(), strides.data()}; }
  double& at(const std::vector<std::size_t>& index) {
    std::ptrdiff_t offset = origin;
    for (std::size_t k = 0; k < index.size(); ++k)
      offset += static_cast<std::ptrdiff_t>(index[k]) * strides[k];
    return buffer[static_cast<std::size_t>(offset)];
  }
};

/// Calls f(index) for every index of `extents` (row-major).
template <class F>
void for_each_index(const std::vector<std::size_t>& extents, F f) {
  std::size_t total = 1;
  for (std::size_t e : extents) total *= e;
  std::vector<std::size_t> index(extents.size(), 0);
  for (std::size_t n = 0; n < total; ++n) {
    f(index);
    for (std::size_t k = extents.size(); k-- > 0;) {
      if (++index[k] < extents[k]) break;
      index[k] = 0;
    }
  }
}

/// A random layout of `labels`: a random memory order, some axes reversed, gaps between axes,
/// values in [-3, 3].
Tensor make_tensor(const std::string& labels, const std::map<char, std::size_t>& extent,
                   std::mt19937& rng, bool dense_row_major = false) {
  Tensor t;
  t.labels = labels;
  for (char ch : labels) t.extents.push_back(extent.at(ch));
  const std::size_t rank = labels.size();
  std::vector<std::size_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  if (!dense_row_major) std::shuffle(order.begin(), order.end(), rng);
  t.strides.assign(rank, 0);
  std::ptrdiff_t running = 1;
  for (std::size_t k = rank; k-- > 0;) {
    const std::size_t axis = order[k];
    const std::ptrdiff_t gap = dense_row_major                                      ? 1
                               : std::uniform_int_distribution<int>(1, 4)(rng) == 1 ? 2
                                                                                    : 1;
    t.strides[axis] = running * gap;
    running *= gap * static_cast<std::ptrdiff_t>(std::max<std::size_t>(t.extents[axis], 1));
  }
  t.buffer.assign(static_cast<std::size_t>(running), 0.0);
  if (!dense_row_major)
    for (std::size_t axis = 0; axis < rank; ++axis)
      if (t.extents[axis] > 1 && rng() % 4 == 0) {  // reversed axis
        t.origin += static_cast<std::ptrdiff_t>(t.extents[axis] - 1) * t.strides[axis];
        t.strides[axis] = -t.strides[axis];
      }
  std::uniform_int_distribution<int> value(-3, 3);
  for (double& v : t.buffer) v = value(rng);
  return t;
}

/// c = alpha * a . b + beta * c by the definition.
std::vector<double> loop_einsum(Tensor a, Tensor b, Tensor c, double alpha, double beta) {
  std::map<char, std::size_t> extent;
  for (const Tensor* t : {&a, &b, &c})
    for (std::size_t k = 0; k < t->labels.size(); ++k) extent[t->labels[k]] = t->extents[k];
  std::string all;
  for (const auto& [ch, e] : extent) all.push_back(ch);
  std::vector<std::size_t> all_extents;
  for (char ch : all) all_extents.push_back(extent[ch]);
  std::map<std::ptrdiff_t, double> sums;
  const auto pick = [&](const Tensor& t, const std::vector<std::size_t>& index) {
    std::vector<std::size_t> own;
    for (char ch : t.labels) own.push_back(index[all.find(ch)]);
    return own;
  };
  for_each_index(c.extents, [&](const std::vector<std::size_t>& index) {
    double& out = c.at(index);
    out = beta * out;
  });
  for_each_index(all_extents, [&](const std::vector<std::size_t>& index) {
    c.at(pick(c, index)) += alpha * a.at(pick(a, index)) * b.at(pick(b, index));
  });
  return c.buffer;
}

/// Executes `plan` with plain loops, exactly as the backend does with kernels.
std::vector<double> run_plan(const ContractionLayout& plan, Tensor a, Tensor b, Tensor c,
                             double alpha, double beta) {
  struct Matrix {
    const double* data;
    std::ptrdiff_t rs, cs;
    const std::vector<std::ptrdiff_t>* batch;
  };
  std::vector<double> packed_a, packed_b, packed_c;
  const auto pack = [](const ContractionOperand& op, Tensor& x, std::vector<double>& buffer) {
    buffer.assign(op.packed_size, 0.0);
    std::vector<std::size_t> kept;
    for (std::size_t axis = 0; axis < x.extents.size(); ++axis)
      if (std::find(op.trace_axes.begin(), op.trace_axes.end(), axis) == op.trace_axes.end())
        kept.push_back(axis);
    for_each_index(x.extents, [&](const std::vector<std::size_t>& index) {
      std::ptrdiff_t at = 0;
      for (std::size_t k = 0; k < kept.size(); ++k)
        at += static_cast<std::ptrdiff_t>(index[kept[k]]) * op.packed_strides[k];
      buffer[static_cast<std::size_t>(at)] += x.at(index);
    });
  };
  const auto matrix = [&](const ContractionOperand& op, Tensor& x, std::vector<double>& buffer) {
    if (op.packed) {
      pack(op, x, buffer);
      return Matrix{buffer.data(), op.row_stride, op.col_stride, &op.batch_strides};
    }
    return Matrix{x.buffer.data() + x.origin, op.row_stride, op.col_stride, &op.batch_strides};
  };
  const Matrix ma = matrix(plan.a, a, packed_a), mb = matrix(plan.b, b, packed_b);
  // The GEMM's orientation: c^T = b^T a^T when swapped.
  const Matrix& first = plan.swapped ? mb : ma;
  const Matrix& second = plan.swapped ? ma : mb;
  const std::size_t rows = plan.swapped ? plan.n : plan.m, cols = plan.swapped ? plan.m : plan.n;
  double* out = c.buffer.data() + c.origin;
  if (plan.c.packed) {
    pack(plan.c, c, packed_c);
    out = packed_c.data();
  }
  for_each_index(plan.batch_extents, [&](const std::vector<std::size_t>& index) {
    std::ptrdiff_t oa = 0, ob = 0, oc = 0;
    for (std::size_t d = 0; d < index.size(); ++d) {
      oa += static_cast<std::ptrdiff_t>(index[d]) * plan.a.batch_strides[d];
      ob += static_cast<std::ptrdiff_t>(index[d]) * plan.b.batch_strides[d];
      oc += static_cast<std::ptrdiff_t>(index[d]) * plan.c.batch_strides[d];
    }
    const std::ptrdiff_t o1 = plan.swapped ? ob : oa, o2 = plan.swapped ? oa : ob;
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) {
        double sum = 0;
        for (std::size_t k = 0; k < plan.k; ++k)
          sum += first.data[o1 + static_cast<std::ptrdiff_t>(i) * first.rs +
                            static_cast<std::ptrdiff_t>(k) * first.cs] *
                 second.data[o2 + static_cast<std::ptrdiff_t>(k) * second.rs +
                             static_cast<std::ptrdiff_t>(j) * second.cs];
        double& target = out[oc + static_cast<std::ptrdiff_t>(i) * plan.c.row_stride +
                             static_cast<std::ptrdiff_t>(j) * plan.c.col_stride];
        target = alpha * sum + beta * target;
      }
  });
  if (plan.c.packed) {  // copy back
    for_each_index(c.extents, [&](const std::vector<std::size_t>& index) {
      std::ptrdiff_t at = 0;
      for (std::size_t k = 0; k < index.size(); ++k)
        at += static_cast<std::ptrdiff_t>(index[k]) * plan.c.packed_strides[k];
      c.at(index) = packed_c[static_cast<std::size_t>(at)];
    });
  }
  return c.buffer;
}

ContractionLayout plan_of(const std::string& spec, const Tensor& a, const Tensor& b,
                          const Tensor& c) {
  return strided::detail::plan_contraction(strided::detail::parse_contraction(spec), a.layout(),
                                           b.layout(), c.layout(), false, false);
}

TEST(ContractionPlan, ParsesAndClassesLabels) {
  const auto labels = strided::detail::parse_contraction(" bik , bkj -> bij ");
  EXPECT_EQ(labels.a, "bik");
  EXPECT_EQ(labels.b, "bkj");
  EXPECT_EQ(labels.c, "bij");
  std::mt19937 rng(1);
  const std::map<char, std::size_t> e{{'b', 3}, {'i', 4}, {'k', 5}, {'j', 6}, {'t', 2}};
  const Tensor a = make_tensor("bitk", e, rng, true), b = make_tensor("bkj", e, rng, true),
               c = make_tensor("bij", e, rng, true);
  const ContractionLayout plan = plan_of("bitk,bkj->bij", a, b, c);
  EXPECT_EQ(plan.batch, "b");
  EXPECT_EQ(plan.left, "i");
  EXPECT_EQ(plan.right, "j");
  EXPECT_EQ(plan.contracted, "k");
  EXPECT_EQ(plan.a.trace_axes, std::vector<std::size_t>{2});
  EXPECT_EQ(plan.m, 4u);
  EXPECT_EQ(plan.n, 6u);
  EXPECT_EQ(plan.k, 5u);
  EXPECT_EQ(plan.trace, 2u);
  EXPECT_EQ(plan.batches, 3u);
  EXPECT_TRUE(plan.a.packed);  // trace axes are summed into a buffer
}

TEST(ContractionPlan, RowMajorMatricesAreReadInPlace) {
  std::mt19937 rng(2);
  const std::map<char, std::size_t> e{{'i', 70}, {'k', 9}, {'j', 130}};
  const Tensor a = make_tensor("ik", e, rng, true), b = make_tensor("kj", e, rng, true),
               c = make_tensor("ij", e, rng, true);
  const ContractionLayout plan = plan_of("ik,kj->ij", a, b, c);
  EXPECT_FALSE(plan.a.packed);
  EXPECT_FALSE(plan.b.packed);
  EXPECT_FALSE(plan.c.packed);
  EXPECT_FALSE(plan.swapped);
  EXPECT_EQ(plan.c.row_stride, 130);
  EXPECT_EQ(plan.c.col_stride, 1);
  // A transposed output is still a GEMM-ready matrix (column-major).
  Tensor ct = c;
  ct.strides = {1, 70};
  const ContractionLayout transposed = plan_of("ik,kj->ij", a, b, ct);
  EXPECT_FALSE(transposed.c.packed);
  EXPECT_EQ(transposed.c.row_stride, 1);
  EXPECT_EQ(transposed.c.col_stride, 70);
  // b with k contiguous is packed row-major for a long GEMM (m >= 64).
  Tensor bt = b;
  bt.strides = {1, 9};  // k contiguous
  const ContractionLayout packed_b = plan_of("ik,kj->ij", a, bt, c);
  EXPECT_TRUE(packed_b.b.packed);
  EXPECT_TRUE(packed_b.b.row_major);
}

/// `t` column-major (its first label fastest), dense.
Tensor column_major(Tensor t) {
  std::ptrdiff_t running = 1;
  for (std::size_t k = 0; k < t.extents.size(); ++k) {
    t.strides[k] = running;
    running *= static_cast<std::ptrdiff_t>(t.extents[k]);
  }
  return t;
}

// Packed, the GEMM's first operand is row-major as c is, even where its pack would read longer
// runs column-major (TCCG's abc-adec-ebd: a's unit axis among the GEMM's rows). Kokkos Kernels'
// GEMM ran 4-8% slower on the column-major buffer.
TEST(ContractionPlan, PackedFirstOperandsAreRowMajor) {
  std::mt19937 rng(7);
  const std::map<char, std::size_t> e{{'a', 8}, {'b', 6}, {'c', 9}, {'d', 5}, {'e', 7}};
  const Tensor a = column_major(make_tensor("adec", e, rng, true));
  const Tensor b = column_major(make_tensor("ebd", e, rng, true));
  const Tensor c = column_major(make_tensor("abc", e, rng, true));
  for (const bool transposed : {false, true}) {
    // (a, b) and (b, a): each operand is the GEMM's first in one of them.
    const ContractionLayout plan =
        transposed ? plan_of("ebd,adec->abc", b, a, c) : plan_of("adec,ebd->abc", a, b, c);
    const strided::detail::ContractionOperand& first = plan.swapped ? plan.b : plan.a;
    ASSERT_TRUE(first.packed);
    EXPECT_TRUE(first.row_major);
    EXPECT_EQ(first.col_stride, 1);
    EXPECT_EQ(transposed ? run_plan(plan, b, a, c, 1.0, 0.0) : run_plan(plan, a, b, c, 1.0, 0.0),
              loop_einsum(a, b, c, 1.0, 0.0));
  }
}

// Kokkos Kernels' GEMM computes c in 24 x 64 blocks: a 25600 x 24 product runs transposed
// (24 x 25600), and the transposed operands are still read in place.
TEST(ContractionPlan, SkinnyProductsRunTransposed) {
  std::mt19937 rng(6);
  const std::map<char, std::size_t> e{{'i', 2560}, {'k', 7}, {'j', 24}};
  const Tensor a = make_tensor("ik", e, rng, true), b = make_tensor("kj", e, rng, true),
               c = make_tensor("ij", e, rng, true);
  const ContractionLayout plan = plan_of("ik,kj->ij", a, b, c);
  EXPECT_TRUE(plan.swapped);
  EXPECT_FALSE(plan.c.packed);
  EXPECT_EQ(plan.c.row_stride, 1);  // c^T's rows are c's columns
  EXPECT_EQ(plan.c.col_stride, 24);
  EXPECT_EQ(run_plan(plan, a, b, c, 1.0, 0.0), loop_einsum(a, b, c, 1.0, 0.0));
  EXPECT_NE(strided::detail::describe(plan).find("c^T (24 x 2560)"), std::string::npos);
}

// strided-rs' einsum2 fused each operand's contracted group in its own memory order, pairing
// a's (j, k) with b's (k, j): a silent wrong result. One logical order must serve both.
TEST(ContractionPlan, SharedGroupsFuseInOneOrderInEveryOperand) {
  std::mt19937 rng(3);
  const std::map<char, std::size_t> e{{'i', 3}, {'j', 4}, {'k', 5}, {'l', 2}};
  Tensor a = make_tensor("ijk", e, rng, true);  // j outer, k inner
  Tensor b = make_tensor("jkl", e, rng, true);
  b.strides = {2, 8, 1};  // k outer, j, then l: the (k, j) order
  const Tensor c = make_tensor("il", e, rng, true);
  const ContractionLayout plan = plan_of("ijk,jkl->il", a, b, c);
  EXPECT_EQ(plan.contracted.size(), 2u);
  EXPECT_TRUE(plan.a.packed || plan.b.packed);
  EXPECT_EQ(run_plan(plan, a, b, c, 1.0, 0.0), loop_einsum(a, b, c, 1.0, 0.0));
}

TEST(ContractionPlan, ReportsBadSpecsAndShapes) {
  const auto code_of = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return e.code();
    }
    ADD_FAILURE() << "no error";
    return ErrorCode::MpiError;
  };
  using strided::detail::parse_contraction;
  EXPECT_EQ(code_of([] { parse_contraction("ab,bc"); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([] { parse_contraction("ab->a"); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([] { parse_contraction("ab,bc,cd->ad"); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([] { parse_contraction("a1,b->a"); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([] { parse_contraction("aab,b->a"); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([] { parse_contraction("ab,bc->acc"); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(code_of([] { parse_contraction("ab,bc->ad"); }), ErrorCode::InvalidArgument);
  std::mt19937 rng(4);
  const Tensor a = make_tensor("ik", {{'i', 2}, {'k', 3}}, rng, true);
  const Tensor b = make_tensor("kj", {{'k', 4}, {'j', 3}}, rng, true);
  const Tensor c = make_tensor("ij", {{'i', 2}, {'j', 3}}, rng, true);
  EXPECT_EQ(code_of([&] { plan_of("ik,kj->ij", a, b, c); }), ErrorCode::ShapeMismatch);
  EXPECT_EQ(code_of([&] { plan_of("ikx,kj->ij", a, b, c); }), ErrorCode::RankMismatch);
}

// Random contractions: 0-3 axes in each class, traces, random memory orders, reversed and
// gapped axes, extents 0-4; the plan executed by loops equals the loop einsum exactly.
TEST(ContractionPlan, RandomPlansComputeTheEinsum) {
  std::mt19937 rng(5);
  int packed = 0, in_place = 0, swapped = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::string pool = "abcdefghijklmnopqrstuvwxyz";
    std::shuffle(pool.begin(), pool.end(), rng);
    std::size_t next = 0;
    std::string la, lb, lc;
    std::map<char, std::size_t> e;
    const auto take = [&](int n, bool in_a, bool in_b, bool in_c) {
      for (int i = 0; i < n; ++i) {
        const char ch = pool[next++];
        e[ch] = std::uniform_int_distribution<std::size_t>(0, 9)(rng) == 0
                    ? 0
                    : std::uniform_int_distribution<std::size_t>(1, 4)(rng);
        if (in_a) la.push_back(ch);
        if (in_b) lb.push_back(ch);
        if (in_c) lc.push_back(ch);
      }
    };
    std::uniform_int_distribution<int> count(0, 3), traces(0, 1);
    take(count(rng) % 3, true, true, true);  // batch
    take(count(rng), true, false, true);     // left
    take(count(rng), false, true, true);     // right
    take(count(rng), true, true, false);     // contracted
    take(traces(rng), true, false, false);   // trace of a
    take(traces(rng), false, true, false);   // trace of b
    for (std::string* l : {&la, &lb, &lc}) std::shuffle(l->begin(), l->end(), rng);
    const Tensor a = make_tensor(la, e, rng), b = make_tensor(lb, e, rng),
                 c = make_tensor(lc, e, rng);
    const std::string spec = la + "," + lb + "->" + lc;
    const ContractionLayout plan = plan_of(spec, a, b, c);
    (plan.a.packed ? packed : in_place)++;
    swapped += plan.swapped ? 1 : 0;
    if (plan.k == 0 || plan.trace == 0) continue;  // the backend scales c instead
    const double beta = trial % 3 == 0 ? 0.0 : 2.0;
    ASSERT_EQ(run_plan(plan, a, b, c, 3.0, beta), loop_einsum(a, b, c, 3.0, beta))
        << spec << "\n"
        << strided::detail::describe(plan);
  }
  EXPECT_GT(packed, 20);
  EXPECT_GT(in_place, 20);
  EXPECT_GT(swapped, 5);
}

TEST(EinsumOrder, ParsesAndOrdersGreedily) {
  std::string output;
  const auto inputs = strided::detail::parse_einsum("ij,jk,kl->il", output);
  ASSERT_EQ(inputs.size(), 3u);
  EXPECT_EQ(output, "il");
  // j is huge: contracting a with b first gives a small (i x k) result; b with c a large one.
  const std::map<char, std::size_t> e{{'i', 2}, {'j', 50}, {'k', 3}, {'l', 40}};
  const auto steps =
      strided::detail::greedy_einsum_order(inputs, output, [&](char ch) { return e.at(ch); });
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].left, 0u);
  EXPECT_EQ(steps[0].right, 1u);
  EXPECT_EQ(steps[0].labels, "ik");
  EXPECT_EQ(steps[1].left, 2u);
  EXPECT_EQ(steps[1].right, 3u);
  EXPECT_EQ(steps[1].labels, "il");
  // A label shared by three operands stays in the first result.
  const auto three = strided::detail::parse_einsum("ij,ij,ij->i", output);
  const auto shared =
      strided::detail::greedy_einsum_order(three, output, [](char) { return std::size_t(3); });
  EXPECT_EQ(shared[0].labels, "ij");
  EXPECT_THROW(strided::detail::parse_einsum("ij,jk", output), Error);
  EXPECT_THROW(strided::detail::parse_einsum("ij,jk->iz", output), Error);
}

}  // namespace
