#ifndef STRIDED_TESTS_FUZZ_PROGRAM_HPP
#define STRIDED_TESTS_FUZZ_PROGRAM_HPP

// The fuzz program over one element type (Program<Value>), shared by the two translation units
// that instantiate it (program_double.cpp, program_complex.cpp: they compile in parallel).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "byte_stream.hpp"
#include "fuzz_program.hpp"
#include "reference_model.hpp"

namespace strided_fuzz {

// One copy per translation unit: each instantiates a single element type.
namespace {

using strided::ErrorCode;
using Codes = std::vector<ErrorCode>;

constexpr std::size_t kSlots = 4;
constexpr std::size_t kMaxElements = 1024;  // kernels run on views of at most this many elements
constexpr int kMaxSteps = 24;

std::string names(const Codes& codes) {
  std::string out;
  for (ErrorCode c : codes) out += std::string(out.empty() ? "" : " or ") + strided::to_string(c);
  return out.empty() ? "success" : out;
}

template <class T>
std::string list(const std::vector<T>& values) {
  std::string out = "[";
  for (const T& v : values) out += (out.size() > 1 ? ", " : "") + std::to_string(v);
  return out + "]";
}

template <class Value>
std::string text(const Value& v) {
  char out[64];
  std::snprintf(out, sizeof out, "(%g, %g)", real_part(v), imag_part(v));
  return out;
}

bool contains(const Codes& codes, ErrorCode code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

/// Calls f with the view as its kernels see it: conjugated or not (two view types).
template <class Value, class F>
void visit(const Operand<Value>& a, F&& f) {
  if (a.conj)
    f(a.view.conj());
  else
    f(a.view);
}

/// x + 2y: exact on the program's integer-valued elements.
struct ZipFn {
  template <class Value>
  Value operator()(const Value& x, const Value& y) const {
    return x + y + y;
  }
};

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// reduce_axes' user functions: a function pointer for the map, a function object for the fold.
struct LargestRealPart {
  template <class Value>
  static double map(const Value& x) {
    return real_part(x) + 1;
  }
  double operator()(double a, double b) const { return a < b ? b : a; }
};

/// A write the reference expects: buffer position and value.
template <class Value>
struct Write {
  std::size_t at;
  Value value;
};

/// The program over one buffer of `Value`s (Complex or double).
template <class Value>
class Program {
  using View = strided::StridedView<Value>;
  using Operand = strided_fuzz::Operand<Value>;
  using Write = strided_fuzz::Write<Value>;

 public:
  Program(const std::uint8_t* data, std::size_t size) : m_in(data, size) {
    m_length = m_in.below(1025);
    m_buffer.reset(new Value[m_length]);  // exactly m_length: ASan flags any access past it
    for (std::size_t i = 0; i < m_length; ++i)
      m_buffer[i] = make(double(int(i % 13) - 6), double(int(i * 7 % 11) - 5));
  }

  void run() {
    for (int step = 0; step < kMaxSteps && !m_in.exhausted(); ++step) {
      switch (m_in.byte() % 11) {
        case 0:
          new_view();
          break;
        case 1:
          new_view_like();
          break;
        case 2:
          transform();
          break;
        case 3:
          set_options();
          break;
        case 4:
          copy();
          break;
        case 5:
          update();
          break;
        case 6:
          zip();
          break;
        case 7:
          full_reduction();
          break;
        case 8:
          reduce_axes();
          break;
        case 9:
          symmetrize();
          break;
        default:
          planned_copy();
          break;
      }
    }
  }

 private:
  // ---- views ----------------------------------------------------------------------------------

  void new_view() {
    const std::size_t slot = m_in.below(kSlots);
    const std::uint8_t r = m_in.byte();
    const std::size_t rank = r < 224 ? r % 5 : 5 + m_in.below(76);  // past INLINE_RANK and 64
    std::vector<std::size_t> dims(rank);
    std::vector<std::ptrdiff_t> strides(rank);
    for (std::size_t k = 0; k < rank; ++k) {
      const std::uint8_t e = rank > 8 ? m_in.byte() : 255;
      dims[k] = e < 160 ? 1 : e < 224 ? 2 : m_in.extent();
      strides[k] = m_in.stride();
    }
    if (m_in.byte() == 255) strides.push_back(1);  // StrideLengthMismatch
    const std::uint8_t o = m_in.byte();
    const std::ptrdiff_t offset = o < 200   ? static_cast<std::ptrdiff_t>(m_in.below(m_length + 1))
                                  : o < 240 ? static_cast<std::ptrdiff_t>(m_in.word())
                                            : -static_cast<std::ptrdiff_t>(o % 8) - 1;
    const std::size_t claimed = m_in.byte() < 224 ? m_length : m_in.below(m_length + 1);

    Codes codes;
    if (strides.size() != dims.size())
      codes = {ErrorCode::StrideLengthMismatch};
    else if (!fits(dims, strides, offset, claimed))
      codes = {ErrorCode::OffsetOverflow};
    std::optional<View> made;
    expect_outcome("StridedView(" + list(dims) + ", " + list(strides) + ")", codes,
                   [&] { made.emplace(m_buffer.get(), claimed, dims, strides, offset); });
    if (made) keep(slot, Operand{*made, false});
  }

  /// The contract's construction rule, decided exactly: an empty layout always fits; otherwise
  /// the element count fits std::ptrdiff_t and every reachable position lies in [0, claimed).
  static bool fits(const std::vector<std::size_t>& dims, const std::vector<std::ptrdiff_t>& strides,
                   std::ptrdiff_t offset, std::size_t claimed) {
    const Wide count = exact_count(dims);
    if (count == 0) return true;
    if (count >= (Wide(1) << 63) || offset < 0) return false;  // counts fit std::ptrdiff_t
    Wide low = offset, high = offset;
    for (std::size_t k = 0; k < dims.size(); ++k) {
      const Wide reach = Wide(dims[k] - 1) * Wide(strides[k]);  // |reach| < 2^127
      if (reach > (Wide(1) << 64) || -reach > (Wide(1) << 64)) return false;
      (reach < 0 ? low : high) += reach;
    }
    return low >= 0 && high < Wide(claimed);
  }

  /// A view with another slot's extents and a fresh layout: dense in a random axis order, with
  /// random signs and gaps, placed somewhere in the buffer; or that slot's view itself.
  void new_view_like() {
    const std::size_t slot = m_in.below(kSlots);
    const std::optional<Operand>& like = m_slots[m_in.below(kSlots)];
    if (!like) return;
    if (m_in.byte() < 48) {  // an alias: in-place calls and same-layout overlaps
      keep(slot, Operand{like->view, m_in.byte() % 2 == 1});
      return;
    }
    const std::vector<std::size_t> dims = extents_of(like->view);
    if (exact_count(dims) > Wide(kMaxElements)) return;
    std::vector<std::size_t> order(dims.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    for (std::size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[m_in.below(k)]);
    std::vector<std::ptrdiff_t> strides(dims.size(), 0);
    // An empty view may have huge extents: its strides, never used, saturate at 2^40.
    Wide step = 1 + Wide(m_in.below(2));
    Wide low = 0, high = 0;
    for (std::size_t k : order) {
      strides[k] = static_cast<std::ptrdiff_t>(m_in.byte() % 2 ? -step : step);
      const Wide reach = Wide(dims[k] > 0 ? dims[k] - 1 : 0) * strides[k];
      (reach < 0 ? low : high) += reach;
      step = std::min(step * Wide(std::max<std::size_t>(dims[k], 1)), Wide(1) << 40);
    }
    const Wide span = high - low + 1;
    if (span > Wide(m_length)) return;
    const auto offset = static_cast<std::ptrdiff_t>(
        -low + Wide(m_in.below(static_cast<std::size_t>(Wide(m_length) - span) + 1)));
    std::optional<View> made;
    expect_outcome("StridedView (a dense layout that fits)", {},
                   [&] { made.emplace(m_buffer.get(), m_length, dims, strides, offset); });
    keep(slot, Operand{*made, m_in.byte() % 2 == 1});
  }

  void keep(std::size_t slot, const Operand& operand) {
    check_view_invariants(operand.view, m_buffer.get(), m_length);
    m_slots[slot] = operand;
  }

  // ---- transforms -----------------------------------------------------------------------------

  using IndexMap = std::vector<std::size_t> (*)(const std::vector<std::size_t>&, const void*);

  void transform() {
    std::optional<Operand>& slot = m_slots[m_in.below(kSlots)];
    if (!slot) return;
    const View v = slot->view;
    const std::size_t rank = v.rank();
    switch (m_in.byte() % 7) {
      case 0:
        permute(slot, v);
        break;
      case 1:
        transpose(slot, v);
        break;
      case 2: {  // conj and adjoint compose the op; the metadata stays
        const auto c = v.conj();
        if (c.data() != v.data() || !(c.extents() == v.extents()) || !(c.strides() == v.strides()))
          fail("conj() changed the layout");
        slot->conj = !slot->conj;
        break;
      }
      case 3:
        slice(slot, v);
        break;
      case 4: {
        const std::size_t axis = m_in.below(rank + 1);
        const Codes codes = axis < rank ? Codes{} : Codes{ErrorCode::InvalidAxis};
        derive(
            slot, "reverse", codes, [&] { return v.reverse(axis); },
            [&](std::vector<std::size_t> i) {
              i[axis] = v.extent(axis) - 1 - i[axis];
              return i;
            });
        break;
      }
      case 5:
        broadcast(slot, v);
        break;
      default:
        diagonal(slot, v);
        break;
    }
  }

  void permute(std::optional<Operand>& slot, const View& v) {
    const std::size_t rank = v.rank();
    const std::size_t length = m_in.byte() < 232 ? rank : m_in.below(rank + 2);
    std::vector<std::size_t> perm(length);
    for (std::size_t k = 0; k < length; ++k) perm[k] = k;
    if (m_in.byte() < 216)
      for (std::size_t k = length; k > 1; --k) std::swap(perm[k - 1], perm[m_in.below(k)]);
    else
      for (std::size_t& p : perm) p = m_in.below(rank + 1);
    Codes codes;
    if (length != rank) {
      codes = {ErrorCode::RankMismatch};
    } else {
      std::vector<unsigned char> seen(rank + 1, 0);
      for (std::size_t p : perm) {
        if (p >= rank || seen[p]) codes = {ErrorCode::InvalidAxis};
        if (p < rank) seen[p] = 1;
      }
    }
    derive(
        slot, "permute", codes, [&] { return v.permute(perm); },
        [&](const std::vector<std::size_t>& i) {
          std::vector<std::size_t> j(rank);
          for (std::size_t k = 0; k < rank; ++k) j[perm[k]] = i[k];
          return j;
        });
  }

  /// transpose() and adjoint() (op types of their own) against permute({1, 0}).
  void transpose(std::optional<Operand>& slot, const View& v) {
    const Codes codes = v.rank() == 2 ? Codes{} : Codes{ErrorCode::RankMismatch};
    std::optional<View> swapped;
    expect_outcome("transpose", codes, [&] {
      const auto t = v.transpose();
      const auto a = v.adjoint();
      swapped.emplace(v.permute({1, 0}));
      if (t.data() != swapped->data() || !(t.extents() == swapped->extents()) ||
          !(t.strides() == swapped->strides()) || !(a.strides() == swapped->strides()))
        fail("transpose()/adjoint() differ from permute({1, 0})");
    });
    if (swapped) keep(slot_index(slot), Operand{*swapped, slot->conj});
  }

  void slice(std::optional<Operand>& slot, const View& v) {
    const std::size_t rank = v.rank();
    const std::size_t axis = m_in.below(rank + 1);
    const std::size_t n = axis < rank ? v.extent(axis) : 0;
    auto bound = [&] { return m_in.byte() < 240 ? m_in.below(n + 2) : std::size_t(m_in.word()); };
    const std::size_t begin = bound(), end = bound();
    const std::uint8_t s = m_in.byte();
    const std::ptrdiff_t step = s < 224 ? static_cast<std::ptrdiff_t>(s % 7) - 3 : m_in.stride();
    Codes codes;
    if (axis >= rank)
      codes = {ErrorCode::InvalidAxis};
    else if (step == 0 || (step > 0 && (begin > end || end > n)) ||
             (step < 0 && (end > begin || begin > n || (begin == n && end != begin))))
      codes = {ErrorCode::InvalidArgument};
    const Wide magnitude = step < 0 ? -Wide(step) : Wide(step);
    const Wide distance = step > 0 ? Wide(end) - Wide(begin) : Wide(begin) - Wide(end);
    const Wide expected = codes.empty() ? (distance + magnitude - 1) / magnitude : 0;
    derive(
        slot, "slice", codes,
        [&] {
          View r = v.slice(axis, begin, end, step);
          if (Wide(r.extent(axis)) != expected) fail("slice: wrong extent");
          return r;
        },
        [&](std::vector<std::size_t> i) {
          i[axis] = static_cast<std::size_t>(Wide(begin) + Wide(i[axis]) * Wide(step));
          return i;
        });
  }

  void broadcast(std::optional<Operand>& slot, const View& v) {
    const std::size_t rank = v.rank();
    std::vector<std::size_t> dims = extents_of(v);
    Codes codes;
    for (std::size_t k = 0; k < rank; ++k) {
      const std::uint8_t b = m_in.byte();
      if (b < 128 && dims[k] == 1) dims[k] = m_in.extent();
      if (b >= 250) dims[k] = m_in.extent();  // may differ from a non-1 extent
      if (dims[k] != v.extent(k) && v.extent(k) != 1) codes = {ErrorCode::ShapeMismatch};
    }
    if (m_in.byte() == 255) dims.push_back(1), codes = {ErrorCode::RankMismatch};
    // The element count must stay representable, as at construction.
    if (codes.empty() && exact_count(dims) >= (Wide(1) << 63)) codes = {ErrorCode::OffsetOverflow};
    derive(
        slot, "broadcast", codes, [&] { return v.broadcast(dims); },
        [&](std::vector<std::size_t> i) {
          for (std::size_t k = 0; k < rank; ++k)
            if (v.extent(k) == 1) i[k] = 0;
          return i;
        });
  }

  void diagonal(std::optional<Operand>& slot, const View& v) {
    const std::size_t rank = v.rank();
    const std::size_t a = m_in.below(rank + 1), b = m_in.below(rank + 1);
    const Codes codes = a < rank && b < rank && a != b ? Codes{} : Codes{ErrorCode::InvalidAxis};
    const std::size_t lo = std::min(a, b), hi = std::max(a, b);
    derive(
        slot, "diagonal", codes,
        [&] {
          const std::pair<std::size_t, std::size_t> pairs[] = {{a, b}};
          View r = v.diagonal(pairs);
          if (r.rank() != rank - 1 || r.extent(lo) != std::min(v.extent(a), v.extent(b)))
            fail("diagonal: wrong shape");
          return r;
        },
        [&](const std::vector<std::size_t>& i) {
          std::vector<std::size_t> j(i.begin(), i.end());
          j.insert(j.begin() + static_cast<std::ptrdiff_t>(hi), i[lo]);
          return j;
        });
  }

  /// Runs a transform; on success checks the new view's invariants and, for a small view, that
  /// each element is the parent's element at `parent_index(index)`.
  template <class Make, class ParentIndex>
  void derive(std::optional<Operand>& slot, const char* what, const Codes& codes, Make&& make,
              ParentIndex&& parent_index) {
    const View parent = slot->view;
    std::optional<View> made;
    expect_outcome(what, codes, [&] { made.emplace(make()); });
    if (!made) return;
    check_view_invariants(*made, m_buffer.get(), m_length);
    if (exact_count(extents_of(*made)) <= Wide(kMaxElements))
      for_each_index(extents_of(*made), [&](const std::vector<std::size_t>& i) {
        if (position(*made, m_buffer.get(), m_length, i) !=
            position(parent, m_buffer.get(), m_length, parent_index(i)))
          fail(std::string(what) + ": an element is not the parent's element it maps to");
      });
    slot->view = *made;
  }

  std::size_t slot_index(const std::optional<Operand>& slot) const {
    return static_cast<std::size_t>(&slot - m_slots.data());
  }

  // ---- options --------------------------------------------------------------------------------

  void set_options() {
    strided::Options& o = m_options;
    auto pick = [&](auto... values) {
      const std::size_t all[] = {static_cast<std::size_t>(values)...};
      return all[m_in.below(sizeof...(values))];
    };
    o.algorithm = static_cast<strided::Algorithm>(m_in.below(3));
    o.tile_policy = m_in.byte() % 2 ? strided::TilePolicy::MDRange : strided::TilePolicy::Range;
    o.stage_copies = m_in.byte() % 4 == 0;
    o.staging = static_cast<strided::Staging>(m_in.below(3));
    constexpr std::size_t most = std::numeric_limits<std::size_t>::max();
    o.planner.block_bytes = pick(32768, 0, 1, 256, 4096, 1 << 20, most);
    o.planner.cache_line = pick(64, 1, 8, 128, 0, most);
    o.planner.max_tile_elements = pick(1 << 16, 1, 7, 1000, 0, most);
    o.planner.weight_first_operand = m_in.byte() % 2 == 0;
    o.planner.transpose_row_bytes = pick(1024, 0, 8, 64, 4096, most);
    o.planner.stream_bytes = pick(std::size_t(16) << 20, 0, most);
    o.planner.gather = m_in.byte() % 2 == 0;
    o.planner.block_override = nullptr;
    if (m_in.byte() < 32) {
      for (std::size_t& b : m_override) b = 1 + m_in.below(9);
      o.planner.block_override = m_override.data();
    }
  }

  // ---- kernels --------------------------------------------------------------------------------

  const Operand* operand() {
    const std::optional<Operand>& slot = m_slots[m_in.below(kSlots)];
    return slot && slot->view.size() <= kMaxElements ? &*slot : nullptr;
  }
  std::string describe(const Operand& a) const {
    std::vector<std::ptrdiff_t> strides(a.view.strides().begin(), a.view.strides().end());
    return "{origin " + std::to_string(a.view.data() - m_buffer.get()) + ", extents " +
           list(extents_of(a.view)) + ", strides " + list(strides) + (a.conj ? ", conj}" : "}");
  }
  /// Names the operands of the kernel being checked, for failure messages.
  void operands(std::initializer_list<const Operand*> all) {
    m_context.clear();
    for (const Operand* a : all) {  // appended piece by piece: GCC 12 -O3 warns (-Wrestrict)
      m_context += ' ';             // about " " + std::string
      m_context += describe(*a);
    }
  }
  std::vector<std::size_t> at(const Operand& a) const {
    return positions(a.view, m_buffer.get(), m_length);
  }
  Value read(const Operand& a, std::size_t position) const {
    return through(a.conj, m_buffer[position]);
  }

  /// What every element-wise kernel checks: operands of one shape, an injective destination,
  /// and sources that are disjoint from it or have its exact layout (unless `overlap_ok`).
  Codes elementwise_codes(const Operand& dst, std::initializer_list<const Operand*> srcs,
                          bool overlap_ok) const {
    Codes codes;
    for (const Operand* s : srcs) {
      if (s->view.rank() != dst.view.rank())
        codes.push_back(ErrorCode::RankMismatch);
      else if (!(s->view.extents() == dst.view.extents()))
        codes.push_back(ErrorCode::ShapeMismatch);
    }
    if (!codes.empty()) return codes;
    const std::vector<std::size_t> d = at(dst);
    if (!injective(d, m_length)) codes.push_back(ErrorCode::NonInjectiveOutput);
    if (!overlap_ok)
      for (const Operand* s : srcs)
        if (share_an_element(d, at(*s), m_length) && !same_layout(dst.view, s->view))
          codes.push_back(ErrorCode::OverlappingInputOutput);
    return codes;
  }

  void copy() {
    const Operand* dst = operand();
    const Operand* src = operand();
    if (!dst || !src) return;
    operands({dst, src});
    const bool across = m_in.byte() % 3 == 0;
    const bool serial = m_in.byte() % 2 == 0;
    // copy_across stages, so an overlap is well defined there; copy_into refuses it staged or not.
    const Codes codes = elementwise_codes(*dst, {src}, across);
    std::vector<Write> writes;
    if (codes.empty()) {
      const std::vector<std::size_t> d = at(*dst), s = at(*src);
      for (std::size_t q = 0; q < d.size(); ++q)
        writes.push_back({d[q], through(dst->conj, read(*src, s[q]))});
    }
    expect_kernel(across ? "copy_across" : "copy_into", codes, writes, [&] {
      visit(*dst, [&](const auto& d) {
        visit(*src, [&](const auto& s) {
          on_host_space(serial, [&](const auto& exec) {
            if (across)
              strided::copy_across(exec, d, exec, s, m_options);
            else
              strided::copy_into(exec, d, s, m_options);
          });
        });
      });
    });
  }

  /// add, axpy with alpha 2, or copy_scale with alpha -1: exact on integer-valued elements.
  void update() {
    const Operand* dst = operand();
    const Operand* src = operand();
    if (!dst || !src) return;
    operands({dst, src});
    const int kind = m_in.byte() % 3;
    const char* what[] = {"add", "axpy", "copy_scale"};
    const Codes codes = elementwise_codes(*dst, {src}, false);
    std::vector<Write> writes;
    if (codes.empty()) {
      const std::vector<std::size_t> d = at(*dst), s = at(*src);
      for (std::size_t q = 0; q < d.size(); ++q) {
        const Value x = read(*src, s[q]), old = read(*dst, d[q]);
        const Value v = kind == 0 ? old + x : kind == 1 ? old + x + x : -x;
        writes.push_back({d[q], through(dst->conj, v)});
      }
    }
    expect_kernel(what[kind], codes, writes, [&] {
      visit(*dst, [&](const auto& d) {
        visit(*src, [&](const auto& s) {
          if (kind == 0)
            strided::add(host(), d, s, m_options);
          else if (kind == 1)
            strided::axpy(host(), d, s, 2.0, m_options);
          else
            strided::copy_scale(host(), d, s, -1.0, m_options);
        });
      });
    });
  }

  void zip() {
    const Operand* dst = operand();
    const Operand* a = operand();
    const Operand* b = operand();
    if (!dst || !a || !b) return;
    operands({dst, a, b});
    const Codes codes = elementwise_codes(*dst, {a, b}, false);
    std::vector<Write> writes;
    if (codes.empty()) {
      const std::vector<std::size_t> d = at(*dst), pa = at(*a), pb = at(*b);
      for (std::size_t q = 0; q < d.size(); ++q)
        writes.push_back({d[q], through(dst->conj, ZipFn{}(read(*a, pa[q]), read(*b, pb[q])))});
    }
    expect_kernel("zip_map_into", codes, writes, [&] {
      visit(*dst, [&](const auto& d) {
        visit(*a, [&](const auto& x) {
          visit(*b,
                [&](const auto& y) { strided::zip_map_into(host(), d, ZipFn{}, x, y, m_options); });
        });
      });
    });
  }

  /// sum, reduce with a caller's accumulator (the largest real part plus one, in a double), or
  /// dot of two views of one shape.
  void full_reduction() {
    const int kind = m_in.byte() % 3;
    if (kind == 2) return dot();
    const Operand* src = operand();
    if (!src) return;
    operands({src});
    const bool serial = m_in.byte() % 2 == 0;
    Value expected(0);
    double highest = -kInfinity;
    for (std::size_t p : at(*src)) {
      expected += read(*src, p);
      highest = std::max(highest, LargestRealPart::map(read(*src, p)));
    }
    Value got{}, got_exact{};
    expect_outcome(kind == 0 ? "sum" : "reduce", {}, [&] {
      visit(*src, [&](const auto& s) {
        on_host_space(serial, [&](const auto& exec) {
          if (kind == 0) {
            got = strided::sum(exec, s, m_options);
            got_exact = strided::sum(exec, s, strided::exact, m_options);
          } else
            got = Value(strided::reduce(exec, s, &LargestRealPart::map<Value>, LargestRealPart{},
                                        -kInfinity, m_options));
        });
      });
    });
    // Integer-valued elements: every fold order gives the exact sum (signed zeros compare equal).
    if (!(got == (kind == 0 ? expected : Value(highest))))
      fail(std::string(kind == 0 ? "sum" : "reduce") + " differs from the reference: " + text(got) +
           "; operands" + m_context);
    if (kind == 0 && !(got_exact == expected))
      fail("sum(exact) differs from the reference: " + text(got_exact) + "; operands" + m_context);
  }

  /// dot(a, b) (no conjugation but the operands' own ops); exact while the elements stay below
  /// 2^20 (then every product and partial sum of up to 1024 of them is an integer below 2^53).
  void dot() {
    const Operand* a = operand();
    const Operand* b = operand();
    if (!a || !b) return;
    operands({a, b});
    Codes codes;
    if (a->view.rank() != b->view.rank())
      codes = {ErrorCode::RankMismatch};
    else if (!(a->view.extents() == b->view.extents()))
      codes = {ErrorCode::ShapeMismatch};
    Value expected(0);
    bool exact = true;
    if (codes.empty()) {
      const std::vector<std::size_t> pa = at(*a), pb = at(*b);
      for (std::size_t q = 0; q < pa.size(); ++q) {
        const Value x = read(*a, pa[q]), y = read(*b, pb[q]);
        for (const double c : {real_part(x), imag_part(x), real_part(y), imag_part(y)})
          exact = exact && std::abs(c) < 1048576.0;
        expected += x * y;
      }
    }
    Value got{}, got_exact{};
    const bool ran = expect_outcome("dot", codes, [&] {
      visit(*a, [&](const auto& x) {
        visit(*b, [&](const auto& y) {
          got = strided::dot(host(), x, y, m_options);
          got_exact = strided::dot(host(), x, y, strided::exact, m_options);
        });
      });
    });
    if (ran && exact && !(got == expected))
      fail("dot differs from the reference: " + text(got) + ", expected " + text(expected) +
           "; operands" + m_context);
    if (ran && exact && !(got_exact == expected))
      fail("dot(exact) differs from the reference: " + text(got_exact) + ", expected " +
           text(expected) + "; operands" + m_context);
  }

  /// sum_axes, or reduce_axes with a caller's accumulator: the largest real part plus one, kept
  /// in a double and stored into the complex destination (exact in any order).
  void reduce_axes() {
    const Operand* dst = operand();
    const Operand* src = operand();
    if (!dst || !src) return;
    operands({dst, src});
    const bool user = m_in.byte() % 2 == 1;
    const std::size_t rank = src->view.rank();
    std::vector<std::size_t> axes(m_in.below(4));
    for (std::size_t& a : axes) a = m_in.below(rank + 2);
    std::vector<unsigned char> reduced(rank, 0);
    Codes codes;
    for (std::size_t a : axes) {
      if (a >= rank || reduced[a]) codes = {ErrorCode::InvalidAxis};
      if (a < rank) reduced[a] = 1;
    }
    std::vector<std::size_t> kept;
    for (std::size_t k = 0; k < rank; ++k)
      if (!reduced[k]) kept.push_back(src->view.extent(k));
    if (codes.empty()) {  // axes are validated before the destination's shape
      if (dst->view.rank() != kept.size())
        codes = {ErrorCode::RankMismatch};
      else if (extents_of(dst->view) != kept)
        codes = {ErrorCode::ShapeMismatch};
    }
    std::vector<Write> writes;
    if (codes.empty()) {
      const std::vector<std::size_t> d = at(*dst);
      if (!injective(d, m_length)) codes.push_back(ErrorCode::NonInjectiveOutput);
      if (share_an_element(d, at(*src), m_length) && !same_layout(dst->view, src->view))
        codes.push_back(ErrorCode::OverlappingInputOutput);
      std::vector<Value> acc(d.size(), Value(0));
      std::vector<double> highest(d.size(), -kInfinity);
      for_each_index(extents_of(src->view), [&](const std::vector<std::size_t>& i) {
        std::size_t q = 0;  // the kept index, linearized in for_each_index order
        for (std::size_t k = 0, j = 0; k < rank; ++k)
          if (!reduced[k]) q = q * kept[j++] + i[k];
        const Value x = read(*src, position(src->view, m_buffer.get(), m_length, i));
        acc[q] += x;
        highest[q] = std::max(highest[q], LargestRealPart::map(x));
      });
      for (std::size_t q = 0; q < d.size(); ++q)
        writes.push_back({d[q], through(dst->conj, user ? Value(highest[q]) : acc[q])});
    }
    expect_kernel(
        user ? "reduce_axes" : "sum_axes", codes, writes,
        [&] {
          visit(*dst, [&](const auto& d) {
            visit(*src, [&](const auto& s) {
              if (user)
                strided::reduce_axes(host(), d, s, axes, &LargestRealPart::map<Value>,
                                     LargestRealPart{}, -kInfinity, m_options);
              else
                strided::sum_axes(host(), d, s, axes, m_options);
            });
          });
        },
        /*exact_bits=*/false);
  }

  void symmetrize() {
    const Operand* dst = operand();
    const Operand* src = operand();
    if (!dst || !src) return;
    operands({dst, src});
    const bool conj = m_in.byte() % 2 == 1;
    const View& s = src->view;
    Codes codes;
    if (s.rank() != 2) {
      codes = {ErrorCode::RankMismatch};
    } else {  // the order of these checks is not part of the contract
      if (s.extent(0) != s.extent(1)) codes.push_back(ErrorCode::NonSquare);
      if (dst->view.rank() != 2) codes.push_back(ErrorCode::RankMismatch);
      if (!(dst->view.extents() == s.extents())) codes.push_back(ErrorCode::ShapeMismatch);
    }
    std::vector<Write> writes;
    if (codes.empty()) {
      const std::vector<std::size_t> d = at(*dst), p = at(*src);
      if (!injective(d, m_length)) codes.push_back(ErrorCode::NonInjectiveOutput);
      // The one overlap allowed is in place: the destination's own layout.
      if (share_an_element(d, p, m_length) && !same_layout(dst->view, s))
        codes.push_back(ErrorCode::OverlappingInputOutput);
      const std::size_t n = s.extent(0);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          const Value a = read(*src, p[i * n + j]);
          const Value b = through(conj, read(*src, p[j * n + i]));
          const Value half =
              make((real_part(a) + real_part(b)) / 2, (imag_part(a) + imag_part(b)) / 2);
          writes.push_back({d[i * n + j], through(dst->conj, half)});
        }
    }
    expect_kernel(conj ? "symmetrize_conj_into" : "symmetrize_into", codes, writes, [&] {
      visit(*dst, [&](const auto& dv) {
        visit(*src, [&](const auto& sv) {
          if (conj)
            strided::symmetrize_conj_into(host(), dv, sv, m_options);
          else
            strided::symmetrize_into(host(), dv, sv, m_options);
        });
      });
    });
  }

  /// make_plan, plan and explain for any two views of one shape (any size: the planner's
  /// arithmetic on huge extents), then a copy with the kept plan on small views.
  void planned_copy() {
    const std::optional<Operand>& dst = m_slots[m_in.below(kSlots)];
    const std::optional<Operand>& src = m_slots[m_in.below(kSlots)];
    if (!dst || !src) return;
    const View& d = dst->view;
    const View& s = src->view;
    const Codes shape = d.rank() != s.rank()            ? Codes{ErrorCode::RankMismatch}
                        : !(d.extents() == s.extents()) ? Codes{ErrorCode::ShapeMismatch}
                                                        : Codes{};
    std::optional<strided::KernelPlan<2>> kept;
    expect_outcome("make_plan", shape, [&] { kept.emplace(strided::make_plan(d, s, m_options)); });
    if (!kept) return;
    const std::string count = std::to_string(d.size()) + " elements";
    if (kept->plan().count != d.size() || strided::explain(*kept).find(count) == std::string::npos)
      fail("make_plan/explain: wrong element count");
    const auto reduction = strided::plan(s, m_options);
    if (reduction.count != s.size()) fail("plan: wrong element count");
    if (strided::explain(reduction).empty()) fail("explain: empty");

    const Operand* run_dst = operand();  // the plan is run on any operands: PlanMismatch
    const Operand* run_src = operand();
    if (!run_dst || !run_src) return;
    operands({run_dst, run_src});
    const bool planned_layout = same_layout(run_dst->view, d) && same_layout(run_src->view, s) &&
                                run_dst->view.strides() == d.strides() &&
                                run_src->view.strides() == s.strides();
    const Codes usual = elementwise_codes(*run_dst, {run_src}, false);
    Codes codes = usual;
    if (!planned_layout) codes.push_back(ErrorCode::PlanMismatch);
    std::vector<Write> writes;
    if (usual.empty()) {
      const std::vector<std::size_t> pd = at(*run_dst), ps = at(*run_src);
      for (std::size_t q = 0; q < pd.size(); ++q)
        writes.push_back({pd[q], through(run_dst->conj, read(*run_src, ps[q]))});
    }
    // A kept plan may also match other layouts it suits (an origin elsewhere): success is then
    // allowed, and must be right.
    expect_kernel(
        "copy_into with a kept plan", codes, writes,
        [&] {
          visit(*run_dst, [&](const auto& dv) {
            visit(*run_src, [&](const auto& sv) { strided::copy_into(host(), *kept, dv, sv); });
          });
        },
        true, /*success_allowed=*/usual.empty());
  }

  // ---- checking -------------------------------------------------------------------------------

  static Kokkos::DefaultHostExecutionSpace host() { return Kokkos::DefaultHostExecutionSpace(); }

  template <class F>
  static void on_host_space(bool serial, F&& f) {
#ifdef KOKKOS_ENABLE_SERIAL
    if (serial && !std::is_same_v<Kokkos::Serial, Kokkos::DefaultHostExecutionSpace>) {
      f(Kokkos::Serial());
      return;
    }
#endif
    (void)serial;
    f(host());
  }

  /// Runs `call`; it must throw strided::Error with one of `codes`, or succeed when `codes` is
  /// empty. Returns whether it succeeded.
  template <class Call>
  bool expect_outcome(const std::string& what, const Codes& codes, Call&& call,
                      bool success_allowed = false) {
    try {
      call();
    } catch (const strided::Error& e) {
      if (!contains(codes, e.code()))
        fail(what + " threw " + e.what() + "; expected " + names(codes) + "; operands" + m_context);
      return false;
    }
    if (!codes.empty() && !success_allowed)
      fail(what + " succeeded; expected " + names(codes) + "; operands" + m_context);
    return true;
  }

  /// A kernel: on an error the buffer must be untouched; on success exactly `writes` happened.
  template <class Call>
  void expect_kernel(const char* what, const Codes& codes, const std::vector<Write>& writes,
                     Call&& call, bool exact_bits = true, bool success_allowed = false) {
    std::vector<Value> before(m_buffer.get(), m_buffer.get() + m_length);
    const bool ran = expect_outcome(what, codes, call, success_allowed);
    std::vector<Value> expected = before;
    std::vector<unsigned char> written(m_length, 0);
    if (ran)
      for (const Write& w : writes) expected[w.at] = w.value, written[w.at] = 1;
    for (std::size_t i = 0; i < m_length; ++i) {
      const bool same = exact_bits || !written[i]
                            ? std::memcmp(&expected[i], &m_buffer[i], sizeof(Value)) == 0
                            : expected[i] == m_buffer[i];
      if (!same)
        fail(std::string(what) +
             (ran ? " wrote a wrong value at position " : " threw but changed position ") +
             std::to_string(i) + " (" + text(m_buffer[i]) + ", expected " + text(expected[i]) +
             "); operands" + m_context);
    }
  }

  /// An element from its parts (a double keeps the real part).
  static Value make(double re, double im) {
    if constexpr (std::is_same_v<Value, double>) {
      (void)im;
      return re;
    } else {
      return Value(re, im);
    }
  }

  ByteStream m_in;
  std::size_t m_length = 0;
  std::unique_ptr<Value[]> m_buffer;
  std::array<std::optional<Operand>, kSlots> m_slots;
  strided::Options m_options;
  std::string m_context;  // the operands of the kernel being checked
  std::array<std::size_t, strided::detail::MAX_PLAN_RANK> m_override{};
};

}  // namespace

}  // namespace strided_fuzz

#endif
