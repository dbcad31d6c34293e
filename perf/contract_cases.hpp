#ifndef STRIDED_PERF_CONTRACT_CASES_HPP
#define STRIDED_PERF_CONTRACT_CASES_HPP

// The contractions of issue 28's benchmarks, shared by strided-bench (bench_contract.cpp) and
// strided-report (the T rows, report/workloads_contract.cpp): cases of the TCCG set (Springer &
// Bientinesi's 48 benchmark contractions, written C-A-B: "abc-bda-dc" is c[abc] = a[bda] * b[dc],
// the spec "bda,dc->abc"), every tensor column-major as in TCCG (the first label is the
// contiguous one), f64, with extents scaled down from TCCG's so that one contraction takes
// about 0.1-0.4 s on one core of Kokkos Kernels' native GEMM.
//
// Beside strided::contract, each case holds what it is judged against:
//  - the bare GEMM: KokkosBlas::gemm("N", "N") on LayoutRight views of operands packed once,
//    untimed: a (m x k), b (k x n), c (m x n), where m fuses the free labels of a (in c's
//    order), n those of b, k the contracted ones (in a's order); the limit of TTGT;
//  - plain packing then the same GEMM: plain nested loops (in the destination's order) copy each
//    operand that is not already a row-major GEMM operand into one, the GEMM runs, and a plain
//    loop writes c back when c is not a row-major (m x n) matrix (a column-major c always is
//    written back); the group orders are chosen among each group's orders in the operands to
//    pack the fewest elements, as one would by hand;
//  - a plain loop einsum (each c element summed over the contracted labels), for small cases.
// Values are multiples of 1/4 below 2^18 and k < 2^12, so every sum is exact in any order: the
// results are compared with the bare GEMM's with a tolerance that only rounding could need.
#include <KokkosBlas3_gemm.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <strided/contract.hpp>
#include <strided/strided.hpp>

namespace strided_contract_cases {

using Exec = Kokkos::DefaultHostExecutionSpace;
using Array = strided::StridedArray<double>;
using Matrix = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// A case: its TCCG name and the extent of each label.
struct CaseSpec {
  std::string name;                  ///< "abc-bda-dc"
  std::map<char, std::size_t> size;  ///< label -> extent
};

/// The TCCG cases of the benchmarks, scaled (TCCG's own double-precision extents in comments).
inline std::vector<CaseSpec> tccg_cases() {
  return {
      // a plain GEMM (TCCG: a 5136, b 5120, c 5136)
      {"ab-ac-cb", {{'a', 840}, {'b', 832}, {'c', 840}}},
      // m fuses two labels, n = 24 (TCCG: a b d 312, c 24)
      {"abc-bda-dc", {{'a', 160}, {'b', 160}, {'c', 24}, {'d', 312}}},
      // b's free label is its contiguous one (TCCG: a 312, b 296, c 296, d 312)
      {"abc-acd-db", {{'a', 160}, {'b', 144}, {'c', 144}, {'d', 160}}},
      // a permuted 4-d a, n = 24 (TCCG: a b d e 72, c 24)
      {"abcd-ebad-ce", {{'a', 48}, {'b', 48}, {'c', 24}, {'d', 48}, {'e', 72}}},
      // TCCG's most bandwidth-bound: a 5-d a, n 24, k 32 (TCCG: a e 48, b d f 32, c 24)
      {"abcde-efbad-cf", {{'a', 24}, {'b', 24}, {'c', 24}, {'d', 24}, {'e', 24}, {'f', 32}}},
      // m = 56: a 2-d a, a 4-d b (TCCG: all 72)
      {"abcd-ea-ebcd", {{'a', 52}, {'b', 52}, {'c', 52}, {'d', 52}, {'e', 52}}},
      // two contracted labels, n = 56 (TCCG: all 72)
      {"abc-adec-ebd", {{'a', 56}, {'b', 56}, {'c', 56}, {'d', 56}, {'e', 56}}},
      // every group of two labels (TCCG: all 72)
      {"abcd-aebf-dfce", {{'a', 28}, {'b', 28}, {'c', 28}, {'d', 28}, {'e', 28}, {'f', 28}}},
      // 6-d c, three labels per free group, k = 24 (TCCG: a d g 24, others 16)
      {"abcdef-dega-gfbc",
       {{'a', 16}, {'b', 16}, {'c', 16}, {'d', 16}, {'e', 16}, {'f', 16}, {'g', 24}}},
      // the same shapes with the free groups' sides swapped (TCCG's last case)
      {"abcdef-gfbc-dega",
       {{'a', 16}, {'b', 16}, {'c', 16}, {'d', 16}, {'e', 16}, {'f', 16}, {'g', 24}}},
  };
}

/// Small cases, where a plain loop einsum is also timed.
inline std::vector<CaseSpec> small_cases() {
  return {
      {"ab-ac-cb", {{'a', 128}, {'b', 128}, {'c', 128}}},
      {"abc-bda-dc", {{'a', 48}, {'b', 48}, {'c', 24}, {'d', 48}}},
  };
}

/// Cases of 16 x 16 x 16 GEMMs for the kept-plan rows: a plain GEMM and a permuted 3-d one.
inline std::vector<CaseSpec> plan_cases() {
  return {
      {"ab-ac-cb", {{'a', 16}, {'b', 16}, {'c', 16}}},
      {"abc-bda-dc", {{'a', 4}, {'b', 4}, {'c', 16}, {'d', 16}}},
  };
}

/// "abc-bda-dc" -> "bda,dc->abc".
inline std::string einsum_spec(const std::string& name) {
  const std::size_t d1 = name.find('-'), d2 = name.find('-', d1 + 1);
  return name.substr(d1 + 1, d2 - d1 - 1) + "," + name.substr(d2 + 1) + "->" + name.substr(0, d1);
}

/// A value of flat element n of operand `salt`: multiples of 1/4 below 2^18.
inline double value(std::size_t n, std::size_t salt) {
  return static_cast<double>((n * 7 + salt * 7919) % 1000003) * 0.25;
}

inline std::string filtered(const std::string& labels, const std::string& keep) {
  std::string out;
  for (char ch : labels)
    if (keep.find(ch) != std::string::npos) out += ch;
  return out;
}

/// Up to 8 axes of a plain loop nest, outermost first.
constexpr std::size_t max_axes = 8;
struct Nest {
  std::size_t rank = 0;
  std::array<std::size_t, max_axes> extent{};
  std::array<std::ptrdiff_t, max_axes> dst{}, src{};
};

/// dst = src elementwise, in the order of `nest` (its first axis split across threads, the
/// others plain nested loops, written once for any rank as an odometer around the innermost).
inline void plain_copy(double* dst, const double* src, const Nest& nest) {
  if (nest.rank == 0) {
    *dst = *src;
    return;
  }
  Kokkos::parallel_for(
      "peer::plain_pack", Kokkos::RangePolicy<Exec>(0, nest.extent[0]), [=](std::size_t i0) {
        const std::size_t r = nest.rank, last = r - 1;
        double* d = dst + static_cast<std::ptrdiff_t>(i0) * nest.dst[0];
        const double* s = src + static_cast<std::ptrdiff_t>(i0) * nest.src[0];
        if (r == 1) {
          *d = *s;
          return;
        }
        const std::size_t n = nest.extent[last];
        const std::ptrdiff_t ds = nest.dst[last], ss = nest.src[last];
        std::array<std::size_t, max_axes> at{};  // the middle axes 1 .. last - 1
        while (true) {
          std::ptrdiff_t od = 0, os = 0;
          for (std::size_t k = 1; k < last; ++k) {
            od += static_cast<std::ptrdiff_t>(at[k]) * nest.dst[k];
            os += static_cast<std::ptrdiff_t>(at[k]) * nest.src[k];
          }
          double* dd = d + od;
          const double* sp = s + os;
          for (std::size_t i = 0; i < n; ++i)
            dd[static_cast<std::ptrdiff_t>(i) * ds] = sp[static_cast<std::ptrdiff_t>(i) * ss];
          bool done = true;
          for (std::size_t k = last; k-- > 1;) {
            if (++at[k] < nest.extent[k]) {
              done = false;
              break;
            }
            at[k] = 0;
          }
          if (done) return;
        }
      });
}

/// One operand: its labels and its column-major array.
struct Tensor {
  std::string labels;
  Array array;
  std::ptrdiff_t stride(char label) const { return array.stride(labels.find(label)); }
  /// Labels from the largest stride to the smallest (column-major: the labels reversed).
  std::string order() const { return std::string(labels.rbegin(), labels.rend()); }
};

/// A GEMM-ready row-major buffer of `rows ++ cols` labels (or an operand read in place).
struct Packed {
  std::string rows, cols;  ///< label orders
  bool in_place = false;
  std::vector<double> buffer;
  Nest nest;  ///< the copy from (or, for c, to) the operand, in the packed order
};

/// One contraction with its data, the bare GEMM's packed operands and result, and the plain
/// packing peer's plan and buffers.
class Case {
 public:
  explicit Case(const CaseSpec& spec)
      : m_name(spec.name),
        m_spec(einsum_spec(spec.name)),
        m_sizes(spec.size),
        m_a(make(part(spec.name, 1), spec.size, 1, true)),
        m_b(make(part(spec.name, 2), spec.size, 2, true)),
        m_c(make(part(spec.name, 0), spec.size, 0, false)) {
    for (char ch : m_c.labels) (m_a.labels.find(ch) != std::string::npos ? m_left : m_right) += ch;
    for (char ch : m_a.labels)
      if (m_c.labels.find(ch) == std::string::npos) m_contracted += ch;
    for (char ch : m_a.labels + m_b.labels)
      if (m_a.labels.find(ch) != std::string::npos && m_b.labels.find(ch) != std::string::npos &&
          m_c.labels.find(ch) != std::string::npos)
        throw std::logic_error(m_name + ": batch labels are not in the TCCG set");
    m_m = extent_of(m_left);
    m_n = extent_of(m_right);
    m_k = extent_of(m_contracted);

    // The bare GEMM's operands, packed once (groups in c's and a's orders).
    const std::string left = filtered(m_c.order(), m_left), right = filtered(m_c.order(), m_right);
    const std::string con = filtered(m_a.order(), m_contracted);
    m_bare_a = pack_plan(m_a, left, con, false);
    m_bare_b = pack_plan(m_b, con, right, false);
    m_bare_c = pack_plan(m_c, left, right, false);
    m_bare_a.buffer.resize(m_m * m_k);
    m_bare_b.buffer.resize(m_k * m_n);
    m_bare_c.buffer.resize(m_m * m_n);
    plain_copy(m_bare_a.buffer.data(), m_a.array.data(), m_bare_a.nest);
    plain_copy(m_bare_b.buffer.data(), m_b.array.data(), m_bare_b.nest);
    Kokkos::fence();

    // The plain packing peer: the group orders that pack the fewest elements.
    std::size_t best = ~std::size_t(0);
    // The same GEMM as the bare one (c = a b, row-major), so a column-major c is written back.
    for (const std::string& l : orders(m_left, m_c, m_a))
      for (const std::string& r : orders(m_right, m_c, m_b))
        for (const std::string& k : orders(m_contracted, m_a, m_b)) {
          const Packed pa = pack_plan(m_a, l, k, true), pb = pack_plan(m_b, k, r, true);
          const Packed pc = pack_plan(m_c, l, r, true);
          const std::size_t cost = (pa.in_place ? 0 : m_a.array.size()) +
                                   (pb.in_place ? 0 : m_b.array.size()) +
                                   (pc.in_place ? 0 : m_c.array.size());
          if (cost < best) {
            best = cost;
            m_peer_a = pa;
            m_peer_b = pb;
            m_peer_c = pc;
          }
        }
    for (Packed* p : {&m_peer_a, &m_peer_b, &m_peer_c})
      if (!p->in_place) p->buffer.resize(extent_of(p->rows) * extent_of(p->cols));
    // c is written back in its own order (the destination's): its labels outermost first.
    const std::string packed = m_peer_c.rows + m_peer_c.cols, c_order = m_c.order();
    m_back.rank = c_order.size();
    for (std::size_t k = 0; k < c_order.size(); ++k) {
      const std::size_t at = packed.find(c_order[k]);
      m_back.extent[k] = m_peer_c.nest.extent[at];
      m_back.dst[k] = m_peer_c.nest.src[at];
      m_back.src[k] = m_peer_c.nest.dst[at];
    }
  }

  const std::string& name() const { return m_name; }
  const std::string& spec() const { return m_spec; }
  std::size_t m() const { return m_m; }
  std::size_t n() const { return m_n; }
  std::size_t k() const { return m_k; }
  double flops() const { return 2.0 * double(m_m) * double(m_n) * double(m_k); }
  /// Logical bytes: a and b read once, c written once.
  double bytes() const {
    return double(m_a.array.size() + m_b.array.size() + m_c.array.size()) * sizeof(double);
  }
  double mib() const { return bytes() / double(1 << 20); }
  Array& c() { return m_c.array; }
  const Array& a() const { return m_a.array; }
  const Array& b() const { return m_b.array; }

  /// "a:256 b:256 c:24 d:312 (233.6 MiB); GEMM 65536 x 24 x 312; plain packing: a, c".
  std::string describe() const {
    std::string text;
    for (const auto& [label, extent] : m_sizes)
      text += (text.empty() ? "" : " ") + std::string(1, label) + ":" + std::to_string(extent);
    char tail[160];
    std::snprintf(tail, sizeof tail, " (%.1f MiB of operands); GEMM m x n x k = %zu x %zu x %zu",
                  mib(), m_m, m_n, m_k);
    std::string packs;
    if (!m_peer_a.in_place) packs += " a";
    if (!m_peer_b.in_place) packs += " b";
    if (!m_peer_c.in_place) packs += " c(back)";
    return text + tail + "; the plain peer packs:" + (packs.empty() ? " nothing" : packs);
  }

  // ---- the variants: each writes c (or, for the bare GEMM, its own packed c) ----

  void contract() {
    strided::contract(Exec(), m_spec, m_c.array.view(), m_a.array.view(), m_b.array.view());
  }
  void contract(const strided::ContractionPlan& plan) {
    strided::contract(Exec(), plan, m_c.array.view(), m_a.array.view(), m_b.array.view());
  }
  strided::ContractionPlan plan() {
    return strided::make_contraction_plan(m_spec, m_c.array.view(), m_a.array.view(),
                                          m_b.array.view());
  }

  /// The bare GEMM on the operands packed once: its result stays in the bare c buffer.
  void bare_gemm() {
    const Matrix a(m_bare_a.buffer.data(), m_m, m_k), b(m_bare_b.buffer.data(), m_k, m_n);
    const Matrix c(m_bare_c.buffer.data(), m_m, m_n);
    KokkosBlas::gemm("N", "N", 1.0, a, b, 0.0, c);
  }

  /// Plain loops pack what needs it, the same GEMM, a plain loop writes c back if needed.
  void plain_pack_gemm() {
    const double* a = m_a.array.data();
    const double* b = m_b.array.data();
    if (!m_peer_a.in_place) {
      plain_copy(m_peer_a.buffer.data(), a, m_peer_a.nest);
      a = m_peer_a.buffer.data();
    }
    if (!m_peer_b.in_place) {
      plain_copy(m_peer_b.buffer.data(), b, m_peer_b.nest);
      b = m_peer_b.buffer.data();
    }
    double* c = m_peer_c.in_place ? m_c.array.data() : m_peer_c.buffer.data();
    KokkosBlas::gemm("N", "N", 1.0, Matrix(const_cast<double*>(a), m_m, m_k),
                     Matrix(const_cast<double*>(b), m_k, m_n), 0.0, Matrix(c, m_m, m_n));
    if (!m_peer_c.in_place) plain_copy(m_c.array.data(), m_peer_c.buffer.data(), m_back);
    Kokkos::fence();
  }

  /// A plain loop einsum: each c element, in c's order, summed over the contracted labels.
  void einsum_loop() {
    const std::string con = m_contracted;
    Nest out;  // c's labels, outermost first (column-major: last label outermost)
    const std::string order = m_c.order();
    out.rank = order.size();
    std::array<std::ptrdiff_t, max_axes> sa{}, sb{};
    for (std::size_t k = 0; k < order.size(); ++k) {
      out.extent[k] = m_sizes.at(order[k]);
      out.dst[k] = m_c.stride(order[k]);
      sa[k] = m_a.labels.find(order[k]) != std::string::npos ? m_a.stride(order[k]) : 0;
      sb[k] = m_b.labels.find(order[k]) != std::string::npos ? m_b.stride(order[k]) : 0;
    }
    Nest sum;  // the contracted labels: src = a's strides, dst = b's
    sum.rank = con.size();
    for (std::size_t k = 0; k < con.size(); ++k) {
      sum.extent[k] = m_sizes.at(con[k]);
      sum.src[k] = m_a.stride(con[k]);
      sum.dst[k] = m_b.stride(con[k]);
    }
    double* c = m_c.array.data();
    const double* a = m_a.array.data();
    const double* b = m_b.array.data();
    const std::size_t cells = m_c.array.size();
    Kokkos::parallel_for("peer::einsum_loop", Kokkos::RangePolicy<Exec>(0, cells),
                         [=](std::size_t flat) {
                           std::ptrdiff_t oc = 0, oa = 0, ob = 0;
                           for (std::size_t k = out.rank; k-- > 0;) {
                             const std::size_t i = flat % out.extent[k];
                             flat /= out.extent[k];
                             oc += static_cast<std::ptrdiff_t>(i) * out.dst[k];
                             oa += static_cast<std::ptrdiff_t>(i) * sa[k];
                             ob += static_cast<std::ptrdiff_t>(i) * sb[k];
                           }
                           double acc = 0;
                           std::array<std::size_t, max_axes> at{};
                           while (true) {
                             std::ptrdiff_t pa = oa, pb = ob;
                             for (std::size_t k = 0; k < sum.rank; ++k) {
                               pa += static_cast<std::ptrdiff_t>(at[k]) * sum.src[k];
                               pb += static_cast<std::ptrdiff_t>(at[k]) * sum.dst[k];
                             }
                             acc += a[pa] * b[pb];
                             std::size_t k = sum.rank;
                             while (k > 0 && ++at[k - 1] == sum.extent[k - 1]) at[--k] = 0;
                             if (k == 0) break;
                           }
                           c[oc] = acc;
                         });
    Kokkos::fence();
  }

  // ---- checks ----

  /// Every element of c against the bare GEMM's result.
  bool c_matches_bare() const { return matches(m_c.array.data()); }

  /// 2000 sampled elements of the bare GEMM's result against sums over the contracted labels.
  bool bare_matches_einsum() const {
    std::mt19937 rng(1234);
    for (int s = 0; s < 2000; ++s) {
      std::map<char, std::size_t> at;
      for (char ch : m_c.labels) at[ch] = rng() % m_sizes.at(ch);
      double want = 0;
      const std::size_t cells = extent_of(m_contracted);
      for (std::size_t flat = 0; flat < cells; ++flat) {
        std::size_t rest = flat;
        for (char ch : m_contracted) {
          at[ch] = rest % m_sizes.at(ch);
          rest /= m_sizes.at(ch);
        }
        want += element(m_a, at) * element(m_b, at);
      }
      std::ptrdiff_t o = 0;
      for (char ch : m_c.labels) o += static_cast<std::ptrdiff_t>(at[ch]) * bare_stride(ch);
      if (!close(m_bare_c.buffer[static_cast<std::size_t>(o)], want)) return false;
    }
    return true;
  }

  /// Fills c with -1 (no contraction here yields it), so a variant that writes nothing fails.
  void poison() {
    double* c = m_c.array.data();
    const std::size_t size = m_c.array.size();
    Kokkos::parallel_for("peer::poison", Kokkos::RangePolicy<Exec>(0, size),
                         [=](std::size_t i) { c[i] = -1; });
    Kokkos::fence();
  }
  void poison_bare() { std::fill(m_bare_c.buffer.begin(), m_bare_c.buffer.end(), -1.0); }

 private:
  std::size_t extent_of(const std::string& labels) const {
    std::size_t n = 1;
    for (char ch : labels) n *= m_sizes.at(ch);
    return n;
  }

  static Tensor make(const std::string& labels, const std::map<char, std::size_t>& size,
                     std::size_t salt, bool fill) {
    std::vector<std::size_t> dims;
    for (char ch : labels) dims.push_back(size.at(ch));
    Tensor t{labels, Array::col_major(dims)};
    if (fill) {
      double* p = t.array.data();
      Kokkos::parallel_for("peer::fill", Kokkos::RangePolicy<Exec>(0, t.array.size()),
                           [=](std::size_t n) { p[n] = value(n, salt); });
      Kokkos::fence();
    }
    return t;
  }

  /// A group's orders as two operands lay it out (one if they agree).
  static std::vector<std::string> orders(const std::string& group, const Tensor& x,
                                         const Tensor& y) {
    std::vector<std::string> out{filtered(x.order(), group)};
    const std::string other = filtered(y.order(), group);
    if (other != out[0]) out.push_back(other);
    return out;
  }

  /// The copy of x into a row-major (rows x cols) buffer, in the buffer's order; in place when
  /// x already is that matrix (and `may_read_in_place`).
  Packed pack_plan(const Tensor& x, const std::string& rows, const std::string& cols,
                   bool may_read_in_place) {
    Packed p;
    p.rows = rows;
    p.cols = cols;
    const std::string order = rows + cols;
    p.in_place = may_read_in_place && order == x.order();
    p.nest.rank = order.size();
    std::ptrdiff_t stride = 1;
    for (std::size_t k = order.size(); k-- > 0;) {
      p.nest.extent[k] = m_sizes.at(order[k]);
      p.nest.dst[k] = stride;
      p.nest.src[k] = x.stride(order[k]);
      stride *= static_cast<std::ptrdiff_t>(p.nest.extent[k]);
    }
    return p;
  }

  /// The bare c's stride of a label of c.
  std::ptrdiff_t bare_stride(char label) const {
    const std::string order = m_bare_c.rows + m_bare_c.cols;
    const std::size_t at = order.find(label);
    return m_bare_c.nest.dst[at];
  }

  static double element(const Tensor& t, const std::map<char, std::size_t>& at) {
    std::ptrdiff_t o = 0;
    for (char ch : t.labels) o += static_cast<std::ptrdiff_t>(at.at(ch)) * t.stride(ch);
    return t.array.data()[o];
  }

  static bool close(double got, double want) {
    return std::abs(got - want) <= 1e-12 * std::abs(want) + 1e-9;
  }

  bool matches(const double* c) const {
    // Walk c's elements (column-major) with the bare result's strides alongside.
    const std::size_t size = m_c.array.size();
    std::vector<std::size_t> at(m_c.labels.size(), 0);
    std::ptrdiff_t o = 0;
    for (std::size_t flat = 0; flat < size; ++flat) {
      if (!close(c[flat], m_bare_c.buffer[static_cast<std::size_t>(o)])) return false;
      for (std::size_t k = 0; k < at.size(); ++k) {
        const char ch = m_c.labels[k];
        o += bare_stride(ch);
        if (++at[k] < m_sizes.at(ch)) break;
        o -= static_cast<std::ptrdiff_t>(at[k]) * bare_stride(ch);
        at[k] = 0;
      }
    }
    return true;
  }

  static std::string part(const std::string& name, int which) {
    const std::size_t d1 = name.find('-'), d2 = name.find('-', d1 + 1);
    if (which == 0) return name.substr(0, d1);
    return which == 1 ? name.substr(d1 + 1, d2 - d1 - 1) : name.substr(d2 + 1);
  }

  std::string m_name, m_spec;
  std::map<char, std::size_t> m_sizes;
  Tensor m_a, m_b, m_c;
  std::string m_left, m_right, m_contracted;  ///< groups, in c's and a's label order
  std::size_t m_m = 1, m_n = 1, m_k = 1;
  Packed m_bare_a, m_bare_b, m_bare_c;
  Packed m_peer_a, m_peer_b, m_peer_c;
  Nest m_back;  ///< the plain peer's copy of its c buffer back into c, in c's order
};

}  // namespace strided_contract_cases

#endif
