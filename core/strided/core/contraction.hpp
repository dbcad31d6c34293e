#ifndef STRIDED_CORE_CONTRACTION_HPP
#define STRIDED_CORE_CONTRACTION_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// How a binary contraction c = alpha * a . b + beta * c runs as GEMMs (TTGT): its einsum labels
// parsed and classed, the order of each axis group, which operands the GEMM reads in place and
// which are packed (or have trace axes summed) into a GEMM-ready buffer first, and the batch loop.
// Backend-free: the public header executes this with copies, axis sums and Kokkos Kernels.

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "strided/core/error.hpp"
#include "strided/core/layout.hpp"

namespace strided::detail {

/// The labels of a, b and c, one ASCII letter per axis.
struct ContractionLabels {
  std::string a, b, c;
};

/// "bik,bkj->bij": letters are labels (case-sensitive), spaces are ignored, the output may be
/// empty (a rank-0 c). Errors: InvalidArgument for anything else, or a label that repeats inside
/// one operand (diagonals are not supported), or an output label in no input, from `function`.
inline ContractionLabels parse_contraction(std::string_view spec,
                                           const char* function = "contract") {
  ContractionLabels labels;
  std::string* parts[] = {&labels.a, &labels.b, &labels.c};
  int part = 0;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    const char ch = spec[i];
    if (ch == ' ') continue;
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
      parts[part]->push_back(ch);
    } else if (ch == ',' && part == 0) {
      part = 1;
    } else if (ch == '-' && part == 1 && i + 1 < spec.size() && spec[i + 1] == '>') {
      part = 2;
      ++i;
    } else {
      throw_error(ErrorCode::InvalidArgument, function, "spec \"", spec,
                  "\" is not of the form \"ab,bc->ac\" (unexpected '", ch, "' at ", i, ")");
    }
  }
  if (part != 2)
    throw_error(ErrorCode::InvalidArgument, function, "spec \"", spec,
                "\" needs two inputs and an output: \"ab,bc->ac\"");
  const char* names[] = {"first input", "second input", "output"};
  for (int k = 0; k < 3; ++k)
    for (std::size_t i = 0; i < parts[k]->size(); ++i)
      if (parts[k]->find((*parts[k])[i], i + 1) != std::string::npos)
        throw_error(ErrorCode::InvalidArgument, function, "label '", (*parts[k])[i],
                    "' repeats in the ", names[k], " of \"", spec,
                    "\" (diagonals are not supported)");
  for (char ch : labels.c)
    if (labels.a.find(ch) == std::string::npos && labels.b.find(ch) == std::string::npos)
      throw_error(ErrorCode::InvalidArgument, function, "output label '", ch,
                  "' is in no input of \"", spec, "\"");
  return labels;
}

/// A group of labels fused into one GEMM dimension of one operand: extent and stride, or not
/// fusable. `unit` marks a dimension of extent <= 1, whose stride does not matter.
struct FusedGroup {
  std::size_t extent = 1;
  std::ptrdiff_t stride = 0;
  bool fuses = true;
  bool unit() const { return extent <= 1; }
};

/// How the GEMMs read one operand: in place, or from the library's workspace where it was
/// packed (or its trace axes summed) with `packed_strides`.
struct ContractionOperand {
  bool packed = false;
  std::vector<std::size_t> trace_axes;            ///< summed out first (an input's own labels)
  std::vector<std::ptrdiff_t> packed_strides;     ///< per kept axis, in the operand's order
  std::size_t packed_size = 0;                    ///< elements of the packed buffer
  std::ptrdiff_t row_stride = 0, col_stride = 0;  ///< of the GEMM matrix (in the buffer read)
  std::vector<std::ptrdiff_t> batch_strides;      ///< per fused batch dimension
  bool row_major = true;                          ///< the packed buffer's matrix order
};

/// GEMMs smaller than this (m * n * k) run one per thread (a batched serial GEMM) when there are
/// several; larger ones are one Kokkos Kernels GEMM each. Depends on shapes only, so the choice,
/// and with it the bits, never depends on the thread count.
inline constexpr std::size_t SMALL_GEMM_VOLUME = std::size_t(1) << 15;

/// The blocks of c that Kokkos Kernels' native GEMM gives each team (GEMMImpl's blockA0 x blockB1
/// in Kokkos Kernels 3.4 through 4.6): a GEMM of 25600 x 24 computes 64-wide blocks of which 24
/// columns are real; its transpose, 24 x 25600, fills every block (3x faster, measured).
inline constexpr std::size_t GEMM_BLOCK_ROWS = 24, GEMM_BLOCK_COLS = 64;

/// The fraction of the computed blocks' elements that are c's.
inline double gemm_block_fill(std::size_t rows, std::size_t cols) {
  if (rows == 0 || cols == 0) return 1;
  const auto fill = [](std::size_t n, std::size_t block) {
    return static_cast<double>(n) / static_cast<double>((n + block - 1) / block * block);
  };
  return fill(rows, GEMM_BLOCK_ROWS) * fill(cols, GEMM_BLOCK_COLS);
}

/// The whole decision: GEMM shape, batch loop and each operand's route.
struct ContractionLayout {
  ContractionLabels labels;
  std::string batch, left, right, contracted;  ///< groups, in their chosen (shared) order
  std::size_t m = 1, n = 1, k = 1;             ///< c (m x n) = a (m x k) b (k x n)
  /// The GEMM computes c^T (n x m) = b^T a^T: its first operand is b (right x contracted), its
  /// second a (contracted x left), and each operand's row/col strides are of that matrix.
  bool swapped = false;
  std::size_t trace = 1;                   ///< product of the trace extents (0: a sum of none)
  std::vector<std::size_t> batch_extents;  ///< fused batch dimensions
  std::size_t batches = 1;
  bool batched_serial = false;  ///< many small GEMMs, one thread each
  ContractionOperand a, b, c;
};

namespace contraction_impl {

struct ContractionOperandRef {
  const std::string* labels;
  LayoutRef layout;
  bool must_pack;  ///< an element op to apply, or trace axes to sum
};

inline std::size_t position(const std::string& labels, char ch) {
  return labels.find(ch);
}

inline std::ptrdiff_t magnitude(std::ptrdiff_t s) {
  return s < 0 ? -s : s;
}

/// `group`'s labels ordered as `x` lays them out: largest |stride| first (stable).
inline std::string order_by(const std::string& group, const ContractionOperandRef& x) {
  std::string order = group;
  std::stable_sort(order.begin(), order.end(), [&](char p, char q) {
    return magnitude(x.layout.strides[position(*x.labels, p)]) >
           magnitude(x.layout.strides[position(*x.labels, q)]);
  });
  return order;
}

/// `group` (in this order) fused in x: consecutive labels of extent > 1 must nest exactly.
inline FusedGroup fuse(const std::string& group, const ContractionOperandRef& x) {
  FusedGroup fused;
  bool first = true;
  for (char ch : group) {
    const std::size_t axis = position(*x.labels, ch);
    const std::size_t e = x.layout.extents[axis];
    const std::ptrdiff_t s = x.layout.strides[axis];
    fused.extent *= e;
    if (e == 1) continue;
    if (!first && fused.stride != s * static_cast<std::ptrdiff_t>(e)) fused.fuses = false;
    fused.stride = s;
    first = false;
  }
  return fused;
}

/// Whether a GEMM can read x in place as a (rows x cols) matrix: both groups fuse, strides are
/// positive (Kokkos' LayoutStride), and one of them is 1 (BLAS-like: the other is a leading
/// dimension, so the GEMM's block loads read whole lines).
inline bool gemm_ready(const FusedGroup& rows, const FusedGroup& cols) {
  if (!rows.fuses || !cols.fuses) return false;
  if (rows.unit() && cols.unit()) return true;
  if (rows.unit()) return cols.stride > 0;
  if (cols.unit()) return rows.stride > 0;
  if (rows.stride <= 0 || cols.stride <= 0) return false;
  return (cols.stride == 1 && rows.stride >= static_cast<std::ptrdiff_t>(cols.extent)) ||
         (rows.stride == 1 && cols.stride >= static_cast<std::ptrdiff_t>(rows.extent));
}

/// Whether the GEMM reads x's (rows x cols) matrix in place: GEMM-ready and, unless
/// `columns_contiguous_ok`, with its unit stride along the columns (Kokkos Kernels' blocked GEMM
/// runs measurably slower on a b whose k axis is contiguous; packing it costs one pass).
inline bool in_place(const FusedGroup& rows, const FusedGroup& cols, bool columns_contiguous_ok) {
  if (!gemm_ready(rows, cols)) return false;
  return columns_contiguous_ok || cols.unit() || rows.unit() || cols.stride == 1;
}

/// Whether x's axis of smallest |stride| (among those of extent > 1) carries one of `group`'s
/// labels.
inline bool smallest_stride_in(const std::string& group, const ContractionOperandRef& x) {
  std::ptrdiff_t smallest = -1;
  bool in_group = false;
  for (std::size_t axis = 0; axis < x.labels->size(); ++axis) {
    if (x.layout.extents[axis] <= 1) continue;
    const std::ptrdiff_t s = magnitude(x.layout.strides[axis]);
    if (smallest < 0 || s < smallest) {
      smallest = s;
      in_group = group.find((*x.labels)[axis]) != std::string::npos;
    }
  }
  return in_group;
}

inline std::size_t extent_of(const std::string& group, const ContractionOperandRef& x) {
  std::size_t n = 1;
  for (char ch : group) n *= x.layout.extents[position(*x.labels, ch)];
  return n;
}

/// Candidate orders of a group: as each operand holding it lays it out (duplicates dropped).
inline std::vector<std::string> candidates(const std::string& group,
                                           const ContractionOperandRef& first,
                                           const ContractionOperandRef& second) {
  std::vector<std::string> orders{order_by(group, first)};
  const std::string other = order_by(group, second);
  if (other != orders[0]) orders.push_back(other);
  return orders;
}

/// Packs x's kept axes densely: batch outermost, then the outer matrix group, then the inner one
/// (the group holding x's smallest-stride axis, so that the pack reads x in long runs).
inline void plan_packing(ContractionOperand& op, const ContractionOperandRef& x,
                         const std::string& batch, const std::string& rows, const std::string& cols,
                         bool force_row_major) {
  op.packed = true;
  std::ptrdiff_t smallest = -1;
  bool inner_is_cols = true;
  for (const std::string* group : {&rows, &cols})
    for (char ch : *group) {
      const std::size_t axis = position(*x.labels, ch);
      if (x.layout.extents[axis] <= 1) continue;
      const std::ptrdiff_t s = magnitude(x.layout.strides[axis]);
      if (smallest < 0 || s < smallest) {
        smallest = s;
        inner_is_cols = group == &cols;
      }
    }
  if (force_row_major) inner_is_cols = true;
  op.row_major = inner_is_cols;
  const std::string& inner = inner_is_cols ? cols : rows;
  const std::string& outer = inner_is_cols ? rows : cols;
  op.packed_strides.assign(x.labels->size(), 0);
  std::ptrdiff_t running = 1;
  const auto lay = [&](const std::string& group) {
    for (auto it = group.rbegin(); it != group.rend(); ++it) {
      const std::size_t axis = position(*x.labels, *it);
      op.packed_strides[axis] = running;
      running *= static_cast<std::ptrdiff_t>(x.layout.extents[axis]);
    }
  };
  lay(inner);
  const std::ptrdiff_t outer_stride = running;
  lay(outer);
  lay(batch);
  op.packed_size = static_cast<std::size_t>(running);
  op.row_stride = inner_is_cols ? outer_stride : 1;
  op.col_stride = inner_is_cols ? 1 : outer_stride;
  // Trace axes are not in the buffer: their entries are dropped by the caller.
}

}  // namespace contraction_impl

/// Plans the contraction of a (labels.a) and b (labels.b) into c (labels.c). `pack_a`/`pack_b`:
/// the operand has an element op, which the GEMM cannot apply. Errors: RankMismatch (a label
/// count differs from its operand's rank), ShapeMismatch (one label's extents disagree), from
/// `function`.
inline ContractionLayout plan_contraction(const ContractionLabels& labels, LayoutRef a, LayoutRef b,
                                          LayoutRef c, bool pack_a, bool pack_b,
                                          const char* function = "contract") {
  using namespace contraction_impl;
  const std::pair<const std::string*, LayoutRef> operands[] = {
      {&labels.a, a}, {&labels.b, b}, {&labels.c, c}};
  const char* names[] = {"first input", "second input", "output"};
  for (int k = 0; k < 3; ++k)
    if (operands[k].first->size() != operands[k].second.rank)
      throw_error(ErrorCode::RankMismatch, function, "the ", names[k], " has ",
                  operands[k].first->size(), " labels (\"", *operands[k].first, "\") but rank ",
                  operands[k].second.rank);
  // One extent per label.
  for (int k = 0; k < 3; ++k)
    for (std::size_t i = 0; i < operands[k].first->size(); ++i)
      for (int j = 0; j < k; ++j) {
        const std::size_t at = operands[j].first->find((*operands[k].first)[i]);
        if (at != std::string::npos &&
            operands[j].second.extents[at] != operands[k].second.extents[i])
          throw_error(ErrorCode::ShapeMismatch, function, "label '", (*operands[k].first)[i],
                      "' has extent ", operands[j].second.extents[at], " in the ", names[j],
                      " and ", operands[k].second.extents[i], " in the ", names[k]);
      }

  ContractionLayout plan;
  plan.labels = labels;
  std::string trace_a, trace_b;
  for (char ch : labels.a) {
    const bool in_b = labels.b.find(ch) != std::string::npos;
    const bool in_c = labels.c.find(ch) != std::string::npos;
    (in_b ? (in_c ? plan.batch : plan.contracted) : (in_c ? plan.left : trace_a)).push_back(ch);
  }
  for (char ch : labels.b)
    if (labels.a.find(ch) == std::string::npos)
      (labels.c.find(ch) != std::string::npos ? plan.right : trace_b).push_back(ch);

  const ContractionOperandRef xa{&labels.a, a, pack_a || !trace_a.empty()};
  const ContractionOperandRef xb{&labels.b, b, pack_b || !trace_b.empty()};
  const ContractionOperandRef xc{&labels.c, c, false};
  plan.m = extent_of(plan.left, xc);
  plan.n = extent_of(plan.right, xc);
  plan.k = extent_of(plan.contracted, xa);
  plan.trace = extent_of(trace_a, xa) * extent_of(trace_b, xb);
  for (char ch : trace_a) plan.a.trace_axes.push_back(position(labels.a, ch));
  for (char ch : trace_b) plan.b.trace_axes.push_back(position(labels.b, ch));

  // The GEMM's orientation: the one whose blocks hold more of c; on a tie, the one that writes
  // c row-major (its unit-stride axis among the GEMM's columns): Kokkos Kernels' GEMM ran 10-15%
  // faster writing a row-major c than a column-major one (784^3 and 768^3, 1 thread).
  const double kept_fill = gemm_block_fill(plan.m, plan.n);
  const double swapped_fill = gemm_block_fill(plan.n, plan.m);
  plan.swapped =
      swapped_fill > kept_fill || (swapped_fill == kept_fill && smallest_stride_in(plan.left, xc));
  // Each operand's matrix in the GEMM: (rows, cols) groups, and whether it is the GEMM's second
  // operand, which is packed row-major unless the GEMM is too short to pay for the pass.
  const bool second_column_major_ok = (plan.swapped ? plan.n : plan.m) < 64;
  struct Role {
    const std::string* rows;
    const std::string* cols;
    bool second;
  };
  const auto role_a = [&](const std::string& l, const std::string& q) {
    return plan.swapped ? Role{&q, &l, true} : Role{&l, &q, false};
  };
  const auto role_b = [&](const std::string& q, const std::string& r) {
    return plan.swapped ? Role{&r, &q, false} : Role{&q, &r, true};
  };
  const auto role_c = [&](const std::string& l, const std::string& r) {
    return plan.swapped ? Role{&r, &l, false} : Role{&l, &r, false};
  };
  const auto reads_in_place = [&](const ContractionOperandRef& x, const Role& role) {
    return !x.must_pack && in_place(fuse(*role.rows, x), fuse(*role.cols, x),
                                    !role.second || second_column_major_ok);
  };

  // Group orders: each group shared by two operands is fused in one logical order in both (an
  // order chosen per operand would pair the wrong elements). Try each operand's own order and
  // keep the combination that packs the fewest elements (c counts twice: read and written).
  const auto lefts = candidates(plan.left, xc, xa);
  const auto rights = candidates(plan.right, xc, xb);
  const auto inners = candidates(plan.contracted, xa, xb);
  std::size_t best = static_cast<std::size_t>(-1);
  for (const auto& l : lefts)
    for (const auto& r : rights)
      for (const auto& q : inners) {
        std::size_t cost = 0;
        if (!reads_in_place(xa, role_a(l, q))) cost += plan.m * plan.k;
        if (!reads_in_place(xb, role_b(q, r))) cost += plan.k * plan.n;
        if (!reads_in_place(xc, role_c(l, r))) cost += 2 * plan.m * plan.n;
        if (cost < best) {
          best = cost;
          plan.left = l;
          plan.right = r;
          plan.contracted = q;
        }
      }
  plan.batch = order_by(plan.batch, xc);

  // A packed c is row-major: the GEMM writes contiguous rows fastest (see gemm_on).
  const auto route = [&](ContractionOperand& op, const ContractionOperandRef& x, const Role& role,
                         bool row_major) {
    if (reads_in_place(x, role)) {
      const FusedGroup r = fuse(*role.rows, x), q = fuse(*role.cols, x);
      op.row_stride = r.unit() ? 1 : r.stride;
      op.col_stride = q.unit() ? 1 : q.stride;
      return;
    }
    plan_packing(op, x, plan.batch, *role.rows, *role.cols,
                 row_major || (role.second && !second_column_major_ok));
  };
  // Packed, the GEMM's first operand is row-major too, whatever the order its pack reads in:
  // Kokkos Kernels' GEMM on a column-major first operand ran 4-8% slower than on a row-major
  // one (TCCG's abc-adec-ebd, 3136 x 56 x 3136, Intel Xeon at 1 thread; docs/contraction.md).
  const Role ra = role_a(plan.left, plan.contracted), rb = role_b(plan.contracted, plan.right);
  route(plan.a, xa, ra, !ra.second);
  route(plan.b, xb, rb, !rb.second);
  route(plan.c, xc, role_c(plan.left, plan.right), true);

  // Batch dimensions, fused where consecutive ones nest in all three operands.
  const auto batch_stride = [&](const ContractionOperand& op, const ContractionOperandRef& x,
                                char ch) {
    const std::size_t axis = position(*x.labels, ch);
    return op.packed ? op.packed_strides[axis] : x.layout.strides[axis];
  };
  struct Dim {
    std::size_t extent;
    std::ptrdiff_t s[3];
  };
  std::vector<Dim> dims;
  for (char ch : plan.batch) {
    const Dim d{
        xc.layout.extents[position(labels.c, ch)],
        {batch_stride(plan.a, xa, ch), batch_stride(plan.b, xb, ch), batch_stride(plan.c, xc, ch)}};
    if (d.extent == 1) continue;
    if (!dims.empty()) {
      Dim& last = dims.back();
      const auto e = static_cast<std::ptrdiff_t>(d.extent);
      if (last.s[0] == d.s[0] * e && last.s[1] == d.s[1] * e && last.s[2] == d.s[2] * e) {
        last.extent *= d.extent;
        last.s[0] = d.s[0];
        last.s[1] = d.s[1];
        last.s[2] = d.s[2];
        continue;
      }
    }
    dims.push_back(d);
  }
  for (const Dim& d : dims) {
    plan.batch_extents.push_back(d.extent);
    plan.a.batch_strides.push_back(d.s[0]);
    plan.b.batch_strides.push_back(d.s[1]);
    plan.c.batch_strides.push_back(d.s[2]);
  }
  plan.batches = extent_of(plan.batch, xc);
  plan.batched_serial = plan.batches > 1 && plan.m * plan.n * plan.k < SMALL_GEMM_VOLUME;

  // A packed input keeps only its non-trace axes; drop the trace entries (0 placeholders).
  for (auto* op : {&plan.a, &plan.b}) {
    if (!op->packed || op->trace_axes.empty()) continue;
    std::vector<std::ptrdiff_t> kept;
    for (std::size_t axis = 0; axis < op->packed_strides.size(); ++axis)
      if (std::find(op->trace_axes.begin(), op->trace_axes.end(), axis) == op->trace_axes.end())
        kept.push_back(op->packed_strides[axis]);
    op->packed_strides = kept;
  }
  return plan;
}

/// What `explain` prints for a contraction plan.
inline std::string describe(const ContractionLayout& p) {
  std::ostringstream out;
  out << "contraction \"" << p.labels.a << "," << p.labels.b << "->" << p.labels.c << "\"\n";
  const auto group = [](const std::string& g) { return g.empty() ? std::string("-") : g; };
  out << "  groups: batch " << group(p.batch) << ", left " << group(p.left) << ", right "
      << group(p.right) << ", contracted " << group(p.contracted) << "\n";
  if (p.swapped)
    out << "  GEMM: c^T (" << p.n << " x " << p.m << ") = b^T (" << p.n << " x " << p.k
        << ") * a^T (" << p.k << " x " << p.m << ")";
  else
    out << "  GEMM: c (" << p.m << " x " << p.n << ") = a (" << p.m << " x " << p.k << ") * b ("
        << p.k << " x " << p.n << ")";
  if (p.batches != 1)
    out << ", " << p.batches << " batches in " << p.batch_extents.size() << " loop dimension"
        << (p.batch_extents.size() == 1 ? "" : "s") << " ("
        << (p.batched_serial ? "one small GEMM per thread: KokkosBatched::SerialGemm"
                             : "one KokkosBlas::gemm per batch")
        << ")";
  else
    out << " (KokkosBlas::gemm)";
  out << "\n";
  const auto operand = [&](const char* name, const ContractionOperand& op) {
    out << "  " << name << ": ";
    if (!op.trace_axes.empty()) {
      out << "trace axes";
      for (std::size_t axis : op.trace_axes) out << " " << axis;
      out << " summed into a " << (op.row_major ? "row" : "column") << "-major buffer of "
          << op.packed_size << " elements";
    } else if (op.packed) {
      out << "packed into a " << (op.row_major ? "row" : "column") << "-major buffer of "
          << op.packed_size << " elements";
    } else {
      out << "read in place";
    }
    out << "; matrix strides (" << op.row_stride << ", " << op.col_stride << ")\n";
  };
  operand("a", p.a);
  operand("b", p.b);
  operand("c", p.c);
  return out.str();
}

}  // namespace strided::detail

#endif
