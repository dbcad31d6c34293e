#ifndef STRIDED_BACKENDS_BODIES_MAP_BODY_HPP
#define STRIDED_BACKENDS_BODIES_MAP_BODY_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "strided/backends/common/stream_store.hpp"
#include "strided/backends/common/tile_walk.hpp"
#include "strided/backends/common/tuple.hpp"
#include "strided/backends/common/unroll.hpp"
#include "strided/backends/host/rows_ahead.hpp"
#include "strided/backends/host/simd_transpose.hpp"
#include "strided/backends/host/thread_stage.hpp"
#include "strided/backends/host/two_runs.hpp"
#include "strided/base/element_ops.hpp"
#include "strided/core/machine.hpp"
#include "strided/core/magnitude.hpp"
#include "strided/core/plan.hpp"

namespace strided::detail {

/// One operand of a kernel as the loops see it: pointer to the logical origin and its element op.
template <class T, class Op>
struct OperandRef {
  using value_type = std::remove_cv_t<T>;
  using op_type = Op;
  T* ptr;
  KOKKOS_FORCEINLINE_FUNCTION value_type read(std::ptrdiff_t i) const {
    return Op::apply(static_cast<value_type>(ptr[i]));
  }
};

/// The destination of a kernel: pointer to the logical origin and its element op.
template <class T, class Op>
struct DstRef {
  using value_type = T;
  using op_type = Op;
  T* ptr;
  /// The stored form of v. Ops are involutions: writing v through a view with op `Op` stores
  /// Op(v). Every kernel stores through here.
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION static T through_op(const V& v) {
    return Op::apply(static_cast<T>(v));
  }
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION void store(std::ptrdiff_t at, const V& v) const {
    ptr[at] = through_op(v);
  }
};

template <class F, class = void>
struct has_plain_copy : std::false_type {};
template <class F>
struct has_plain_copy<F, std::void_t<decltype(F::is_plain_copy)>> : std::true_type {};

/// Element functions that may run twice on an element (the built-ins): see `repeatable`.
template <class F, class = void>
struct is_repeatable : std::false_type {};
template <class F>
struct is_repeatable<F, std::void_t<decltype(F::repeatable)>> : std::bool_constant<F::repeatable> {
};

/// dst = f(src...) over an n0 x n1 block. The unit-stride case is a plain indexed loop the
/// compiler vectorizes; a destination that streams along axis 0 while a source streams along
/// axis 1 goes through B x B blocks; other strides step by their own stride (broadcast too).
/// With `stream`, whole destination lines are written with non-temporal stores. Both flags come
/// from the plan (Plan::stream_stores, moves_by_blocks), so explain() describes what runs.
template <class Dst, class F, class... Srcs>
struct MapBody {
  Dst dst;
  Tuple<Srcs...> srcs;
  F f;
  bool stream = false;
  bool by_blocks = false;
  bool column_bands = false;  ///< Plan::column_bands
  /// Where run_tiles queues the next tile's source rows for a paced fetch (Plan::paced_fetch):
  /// set on its thread's copy of the body, null elsewhere.
  RowsAhead* next_tile_rows = nullptr;

  KOKKOS_INLINE_FUNCTION void operator()(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                         const std::ptrdiff_t* s0, const std::ptrdiff_t* s1) const {
    run(off, n0, n1, s0, s1, std::make_index_sequence<sizeof...(Srcs)>{});
  }
  /// A gathered block: element (i, j) of operand k at off[k] + t1[k][j] + t0[k][i]; the
  /// destination is fastest along i, the first source along j (see gather_short_axes).
  KOKKOS_INLINE_FUNCTION void gather(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                     const std::ptrdiff_t (*t0)[GATHER_MAX],
                                     const std::ptrdiff_t (*t1)[GATHER_MAX]) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if (staged_gather(off, n0, n1, t0, t1, std::make_index_sequence<sizeof...(Srcs)>{})) return;
#endif
    gather_impl(off, n0, n1, t0, t1, std::make_index_sequence<sizeof...(Srcs)>{});
  }
  /// Called once after a thread's last tile.
  KOKKOS_INLINE_FUNCTION void done() const {
    if (stream) stream_fence();
  }

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  /// A streamed tile whose destination elements form runs of whole lines and more that start
  /// off a line (a large std::vector's buffer starts 16 bytes past one), in full blocks: it runs
  /// into a per-thread stage at its destination offsets, then each run goes out with streaming
  /// stores for its whole lines. Walked straight to the destination, each row of a few lines
  /// stored its two partial lines plainly, read from memory first (a 24-d permutation by rows of
  /// 32 elements: 33 ms, 14 ms on a line-aligned destination). False (nothing done) when the
  /// tile does not qualify. Host threads only.
  template <int N>
  bool walk_staged(const Plan<N>& p, const TileCursor<N>& tile) const {
    if constexpr (can_stream_v<value_type>) {
      if (!stream || p.gathered || p.rank < 2) return false;
      std::ptrdiff_t origin[N] = {}, stride[MAX_PLAN_RANK];
      std::size_t extent[MAX_PLAN_RANK], len[MAX_PLAN_RANK];
      tile_origin(p, tile, origin, extent);
      const std::ptrdiff_t start = origin[0];
      int r = 0;
      for (int i = 0; i < p.rank; ++i) {
        if (extent[i] < p.blocks[i]) return false;  // a ragged tile
        if (p.blocks[i] == 1) continue;
        if (p.strides[0][i] <= 0) return false;
        int j = r++;  // the tile's axes by stride, smallest first
        for (; j > 0 && stride[j - 1] > p.strides[0][i]; --j) {
          stride[j] = stride[j - 1];
          len[j] = len[j - 1];
        }
        stride[j] = p.strides[0][i];
        len[j] = p.blocks[i];
      }
      // Runs of `run` contiguous elements (the axes that are dense from stride 1), the other
      // axes stepping between them; the stage spans the tile's offsets.
      std::size_t run = 1, span = 1;
      int dense = 0;
      for (; dense < r && stride[dense] == static_cast<std::ptrdiff_t>(run); ++dense)
        run *= len[dense];
      for (int j = 0; j < r; ++j) span += (len[j] - 1) * static_cast<std::size_t>(stride[j]);
      // Worth it when the walk's rows are short: a row of at least 64 lines has few partial
      // lines, and the stage would double its trips through the caches.
      const std::size_t row = p.strides[0][0] != 1 ? 1
                              : p.strides[0][1] == static_cast<std::ptrdiff_t>(p.blocks[0])
                                  ? p.blocks[0] * p.blocks[1]
                                  : p.blocks[0];
      value_type* const d = dst.ptr + start;
      if (run < 4 * LINE || row >= 64 * LINE || span > stage_elements<value_type>() ||
          reinterpret_cast<std::uintptr_t>(d) % 64 == 0)
        return false;
      value_type* const stage = thread_stage<value_type, stage_elements<value_type>(), 64>();
      // The stage holds the values as stored (through the destination's op): copied out as
      // they are.
      MapBody staged{Dst{stage}, srcs, f, false, by_blocks};
      std::ptrdiff_t base[N] = {};
      base[0] = -start;
      walk_tile(p, tile, staged, base);
      std::size_t index[MAX_PLAN_RANK] = {};
      std::ptrdiff_t at = 0;
      while (true) {
        copy_out_streamed(d + at, stage + at, run);
        int j = dense;
        for (; j < r; ++j) {
          at += stride[j];
          if (++index[j] < len[j]) break;
          at -= static_cast<std::ptrdiff_t>(len[j]) * stride[j];
          index[j] = 0;
        }
        if (j >= r) return true;
      }
    }
    (void)p, (void)tile;
    return false;
  }

  /// Fetches into L2, row by row, the source rows of a streamed transpose's `tile` (its first
  /// slab) that its column bands will read, while the thread still runs the tile before: a band
  /// takes one line from each of the tile's rows, an order no hardware prefetcher follows, and
  /// lines asked for a row at a time come from open DRAM pages (an 8192^2 transpose at 1 thread
  /// on an AMD EPYC guest: 62 ms in bands of source rows, 55 ms in column bands of fetched
  /// tiles; docs/performance.md, CPU pass 23). A paced plan only queues them in `next_tile_rows`,
  /// and the tile before fetches a few per block (run_column_bands). Host threads only. `fetch(line
  /// start)` is called for each line fetched at once (the tests record them).
  template <int N, class Fetch>
  void fetch_tile(const Plan<N>& p, const TileCursor<N>& tile, Fetch&& fetch) const {
    if (p.paced_fetch && next_tile_rows) {
      *next_tile_rows = RowsAhead{};
      queue_tile(p, tile, *next_tile_rows);
      return;
    }
    each_tile_source_rows(
        p, tile,
        [&](const auto* first, std::ptrdiff_t pitch, std::size_t bytes, std::size_t rows) {
          fetch_rows(first, pitch, bytes, rows, fetch);
        },
        std::make_index_sequence<sizeof...(Srcs)>{});
  }
  template <int N>
  void fetch_tile(const Plan<N>& p, const TileCursor<N>& tile) const {
    fetch_tile(p, tile, [](const char* line) { simd::fetch_line_l2(line); });
  }

  /// Adds to `rows` each source's rows of `tile` that its column bands read (nothing unless the
  /// plan runs them, streamed).
  template <int N>
  void queue_tile(const Plan<N>& p, const TileCursor<N>& tile, RowsAhead& rows) const {
    each_tile_source_rows(
        p, tile,
        [&](const auto* first, std::ptrdiff_t pitch, std::size_t bytes, std::size_t count) {
          rows.add(first, pitch, bytes, count);
        },
        std::make_index_sequence<sizeof...(Srcs)>{});
  }
#endif

 private:
  using value_type = typename Dst::value_type;

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  /// Calls `f(first byte, pitch in bytes, row bytes, rows)` for each source's rows of `tile` that
  /// its column bands read (nothing unless the plan runs them, streamed).
  template <int N, class RowsFn, std::size_t... I>
  void each_tile_source_rows(const Plan<N>& p, const TileCursor<N>& tile, RowsFn&& f,
                             std::index_sequence<I...>) const {
    if (!p.column_bands || !stream) return;
    std::ptrdiff_t off[N] = {};
    std::size_t len[MAX_PLAN_RANK] = {};  // (rank >= 2 here, which GCC cannot see)
    tile_origin(p, tile, off, len);
    (f(get<I>(srcs).ptr + off[I + 1],
       p.strides[I + 1][0] * static_cast<std::ptrdiff_t>(sizeof(*get<I>(srcs).ptr)),
       len[1] * sizeof(*get<I>(srcs).ptr), len[0]),
     ...);
  }
#endif

  /// A plain copy between one element type with no ops: unit runs are memcpy.
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION static constexpr bool is_memcpy() {
    if constexpr (sizeof...(I) != 1 || !has_plain_copy<F>::value) {
      return false;
    } else {
      using Src = std::tuple_element_t<0, std::tuple<Srcs...>>;
      return std::is_same_v<typename Src::value_type, value_type> &&
             acts_as_identity_v<typename Src::op_type, value_type> &&
             acts_as_identity_v<typename Dst::op_type, value_type> &&
             std::is_trivially_copyable_v<value_type>;
    }
  }

  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void gather_impl(const std::ptrdiff_t* off, std::size_t n0,
                                               std::size_t n1,
                                               const std::ptrdiff_t (*t0)[GATHER_MAX],
                                               const std::ptrdiff_t (*t1)[GATHER_MAX],
                                               std::index_sequence<I...>) const {
    // B x B blocks as in run_transposed: the sources are read along j (their fast group), the
    // destination written along i (its fast group), each through whole lines.
    // Sources whose group is one unit-stride run read B runs per band, their next band's lines
    // prefetched a band ahead; others (W2: runs of one line) are prefetched blocks ahead.
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    bool scattered = false;
    ((scattered = scattered || !runs_unit(t1[I + 1], n1)), ...);
#endif
    // Bands start on the destination's lines, in each of its group's contiguous runs: a group
    // of 30 x 6 doubles starts mid-line in every other tile (30^5 reversed), a buffer that
    // starts mid-line does so everywhere, and bands from the group's start would leave no line
    // whole to stream.
    const std::size_t run = contiguous_run(t0[0], n0);
    // A built-in function's partial bands (the lead, the run's ragged end) run as whole bands
    // shifted over their neighbour, through the in-register transposes: element by element,
    // their scattered stores took 40% of a 6-d reversal's time in a buffer that starts
    // mid-line. Not in place: a source that is the destination (the one overlap the entry
    // checks let through, and it starts where the destination does) would be read rewritten.
    bool overlap = is_repeatable<F>::value;
    ((overlap = overlap && reinterpret_cast<std::uintptr_t>(get<I>(srcs).ptr + off[I + 1]) !=
                               reinterpret_cast<std::uintptr_t>(dst.ptr + off[0])),
     ...);
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    // Whether every destination row of the group starts on a line when a band does.
    bool rows_on_lines = stream && !scattered;
    for (std::size_t j = 0; rows_on_lines && j < n1; ++j)
      rows_on_lines =
          magnitude(t1[0][j]) * sizeof(value_type) % simd::stream_alignment<value_type>() == 0;
#endif
    std::size_t bi = 0;
    for (std::size_t i0 = 0; i0 < n0; i0 += bi) {
      const std::size_t r0 = i0 / run * run, end = r0 + run;  // i0's run
      const std::size_t lead = i0 == r0 ? line_lead(dst.ptr + (off[0] + t0[0][r0] + t1[0][0])) : 0;
      bi = lead != 0 ? lead : B;
      if (end - i0 < bi) bi = end - i0;
      // The band that runs: [a0, a0 + w).
      const bool shifted = overlap && bi < B && run >= B;
      const std::size_t a0 = shifted ? (i0 == r0 ? r0 : end - B) : i0;
      const std::size_t w = shifted ? B : bi;
      // A band whose destination elements are one contiguous line stores (streams) it whole.
      bool dense = w == B;
      for (std::size_t i = 1; dense && i < B; ++i) dense = t0[0][a0 + i] == t0[0][a0] + ii(i);
      std::size_t j_start = 0;
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
      if constexpr (simd::transposable_v<value_type>) {
        if (dense && !scattered) {  // every source's band of j is one unit-stride line
          if (rows_on_lines && streams_rows(dst.ptr + (off[0] + t0[0][a0]), 0))
            gathered_band<true>(off, a0, n0, n1, t0, t1, std::index_sequence<I...>{});
          else
            gathered_band<false>(off, a0, n0, n1, t0, t1, std::index_sequence<I...>{});
          j_start = n1 - n1 % B;
        }
      }
#endif
      for (std::size_t j0 = j_start; j0 < n1; j0 += B) {
        const std::size_t bj = n1 - j0 < B ? n1 - j0 : B;
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
        if constexpr (simd::transposable_v<value_type>) {
          bool unit_lines = dense && bj == B;  // every source's band of j is one unit-stride line
          ((unit_lines = unit_lines && runs_unit(t1[I + 1] + j0)), ...);
          if (unit_lines) {
            std::ptrdiff_t from[sizeof...(I)][B] = {};
            value_type* to[B] = {};
            STRIDED_SIMD_UNROLL
            for (std::size_t k = 0; k < B; ++k) {
              ((from[I][k] = off[I + 1] + t0[I + 1][a0 + k] + t1[I + 1][j0]), ...);
              to[k] = dst.ptr + (off[0] + t1[0][j0 + k] + t0[0][a0]);
            }
            bool aligned = stream;
            for (std::size_t k = 0; aligned && k < B; ++k) aligned = streams_rows(to[k], 0);
            // Gathered source lines lie in no order a hardware prefetcher follows: fetch the
            // lines of the block GATHER_PREFETCH blocks ahead (into the next band at a band's
            // end) while this one moves (docs/performance.md, CPU pass 5). Sources read in
            // runs start B new rows each band, as run_transposed's do: fetch the next band's
            // lines at j0 (prefetch_next_band; CPU pass 8). Into L2 only: on an AMD Zen 4 guest
            // that ran W2 1.3x and W9's gathered ranks 1.1-1.2x faster than into L1 (CPU pass 15).
            std::size_t pi = a0, pj = j0 + GATHER_PREFETCH * B;
            if (pj >= n1) pj -= n1, pi += B;
            if (!scattered) pi = a0 + B, pj = j0;
            if (pj < n1 && pi + B <= n0) {
              STRIDED_SIMD_UNROLL
              for (std::size_t k = 0; k < B; ++k)
                (simd::prefetch_rows<1, simd::FetchInto::l2>(
                     get<I>(srcs).ptr + (off[I + 1] + t0[I + 1][pi + k] + t1[I + 1][pj]), 0),
                 ...);
            }
            transpose_through_f(from, to, aligned, std::index_sequence<I...>{});
            continue;
          }
        }
#endif
        value_type buffer[B * B];
        for (std::size_t i = 0; i < w; ++i) {
          const std::ptrdiff_t row[] = {(off[I + 1] + t0[I + 1][a0 + i])...};
          for (std::size_t j = 0; j < bj; ++j)
            buffer[j * B + i] = write(f(get<I>(srcs).read(row[I] + t1[I + 1][j0 + j])...));
        }
        for (std::size_t j = 0; j < bj; ++j) {
          value_type* d = dst.ptr + (off[0] + t1[0][j0 + j]);
          if (dense)
            store_row(d + t0[0][a0], buffer + j * B, stream);
          else
            for (std::size_t i = 0; i < w; ++i) d[t0[0][a0 + i]] = buffer[j * B + i];
        }
      }
    }
  }

  /// The full blocks of one dense band [a0, a0 + B) of a gathered block whose sources' groups
  /// are each one unit-stride run: source rows stepped rather than looked up, the next band's
  /// lines prefetched into L2 a band ahead, destination rows from the table.
  template <bool Streamed, std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void gathered_band(const std::ptrdiff_t* off, std::size_t a0,
                                                 std::size_t n0, std::size_t n1,
                                                 const std::ptrdiff_t (*t0)[GATHER_MAX],
                                                 const std::ptrdiff_t (*t1)[GATHER_MAX],
                                                 std::index_sequence<I...> seq) const {
    const bool fetch = a0 + 2 * B <= n0;
    std::ptrdiff_t from[sizeof...(I)][B] = {}, ahead[sizeof...(I)][B] = {};
    STRIDED_SIMD_UNROLL
    for (std::size_t k = 0; k < B; ++k) {
      ((from[I][k] = off[I + 1] + t0[I + 1][a0 + k] + t1[I + 1][0]), ...);
      ((ahead[I][k] = fetch ? off[I + 1] + t0[I + 1][a0 + B + k] + t1[I + 1][0] : 0), ...);
    }
    value_type* const out = dst.ptr + (off[0] + t0[0][a0]);
    for (std::size_t j0 = 0; j0 + B <= n1; j0 += B) {
      if (fetch) {
        STRIDED_SIMD_UNROLL
        for (std::size_t k = 0; k < B; ++k)
          (simd::prefetch_rows<1, simd::FetchInto::l2>(get<I>(srcs).ptr + ahead[I][k], 0), ...);
      }
      value_type* to[B] = {};
      STRIDED_SIMD_UNROLL
      for (std::size_t k = 0; k < B; ++k) to[k] = out + t1[0][j0 + k];
      transpose_through_f(from, to, Streamed, seq);
      STRIDED_SIMD_UNROLL
      for (std::size_t k = 0; k < B; ++k) ((from[I][k] += ii(B), ahead[I][k] += ii(B)), ...);
    }
  }

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  /// A streamed gathered block whose destination is runs that follow one another along j (run
  /// j + 1 starts where run j ends, for segments of two or more runs) starting off the line
  /// grid, as in a std::vector: the block is gathered into a per-thread stage laid out as the
  /// destination, on the line grid, then each segment is copied out as one run, its whole lines
  /// streamed and only its two ends stored plainly. Gathered straight into such a destination, the
  /// bands shifted over each run's lead and ragged end stored plainly into four of a 32-element
  /// run's five lines, and ran 2x slower than from a line-aligned buffer (docs/performance.md, CPU
  /// pass 16). False (nothing done) when the block does not qualify or exceeds the stage.
  template <std::size_t... I>
  bool staged_gather(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                     const std::ptrdiff_t (*t0)[GATHER_MAX], const std::ptrdiff_t (*t1)[GATHER_MAX],
                     std::index_sequence<I...>) const {
    if constexpr (simd::transposable_v<value_type> && can_stream_v<value_type>) {
      constexpr std::size_t N = sizeof...(I) + 1;
      const std::size_t run = contiguous_run(t0[0], n0);
      if (!stream || n1 < 2 || run < B || n0 % run != 0 || n0 * n1 > stage_elements<value_type>() ||
          line_lead(dst.ptr + (off[0] + t0[0][0] + t1[0][0])) == 0)
        return false;
      for (std::size_t i = 0; i < n0; i += run)
        if (!runs_unit(t0[0] + i, run)) return false;
      // Segments of `seg` runs along j that follow one another (a group may span several).
      std::size_t seg = 1;
      while (seg < n1 && t1[0][seg] == t1[0][0] + ii(seg * run)) ++seg;
      if (seg < 2 || n1 % seg != 0) return false;
      for (std::size_t h = 0; h < n1; h += seg)
        for (std::size_t j = 1; j < seg; ++j)
          if (t1[0][h + j] != t1[0][h] + ii(j * run)) return false;
      value_type* const stage = thread_stage<value_type, stage_elements<value_type>(), N>();
      // The destination's tables on the stage: group g's run j at (g * n1 + j) * run.
      std::ptrdiff_t s0[N][GATHER_MAX], s1[N][GATHER_MAX], at[N];
      for (std::size_t k = 1; k < N; ++k) {
        for (std::size_t i = 0; i < n0; ++i) s0[k][i] = t0[k][i];
        for (std::size_t j = 0; j < n1; ++j) s1[k][j] = t1[k][j];
        at[k] = off[k];
      }
      for (std::size_t i = 0; i < n0; ++i) s0[0][i] = ii(i / run * run * n1 + i % run);
      for (std::size_t j = 0; j < n1; ++j) s1[0][j] = ii(j * run);
      at[0] = 0;
      // The stage holds the values as stored (through the destination's op): copied out as
      // they are.
      const MapBody staged{Dst{stage}, srcs, f, false, true};
      staged.gather_impl(at, n0, n1, s0, s1, std::index_sequence<I...>{});
      for (std::size_t g = 0; g < n0; g += run)
        for (std::size_t h = 0; h < n1; h += seg)
          copy_out_streamed(dst.ptr + (off[0] + t0[0][g] + t1[0][h]), stage + (g * n1 + h * run),
                            seg * run);
      return true;
    }
    (void)off, (void)n0, (void)n1, (void)t0, (void)t1;
    return false;
  }

  /// d[0 .. n) = from[0 .. n) (staged values, already through f and the op): the whole lines
  /// of d with streaming stores, its two partial ends plainly.
  static void copy_out_streamed(value_type* d, const value_type* from, std::size_t n) {
    for_each_streamed_line(
        d, n, [&](std::size_t at) { d[at] = from[at]; },
        [&](std::size_t at) {
          for (std::size_t w = 0; w < LINE; w += stream_width<value_type>)
            stream_store(d + at + w, from + at + w);
        });
  }

  /// Elements of value_type in a cache line.
  static constexpr std::size_t LINE = 64 / sizeof(value_type);

  /// The n elements from d in order: plain(e) for those before d's first line boundary, line(e)
  /// for each whole line from there (e its first element), plain(e) for the rest. A line is
  /// never split between streaming and plain stores (a partly streamed line is read first).
  template <class Plain, class Line>
  static void for_each_streamed_line(value_type* d, std::size_t n, const Plain& plain,
                                     const Line& line) {
    std::size_t e = 0;
    for (; e < n && reinterpret_cast<std::uintptr_t>(d + e) % 64 != 0; ++e) plain(e);
    for (; e + LINE <= n; e += LINE) line(e);
    for (; e < n; ++e) plain(e);
  }
#endif

  /// Elements from d to the next line boundary (0 when d is on one, or not element-aligned).
  KOKKOS_FORCEINLINE_FUNCTION static std::size_t line_lead(const value_type* d) {
    const auto a = reinterpret_cast<std::uintptr_t>(d);
    if (a % sizeof(value_type) != 0) return 0;
    return (B - a / sizeof(value_type) % B) % B;
  }

  /// The length of the runs of unit steps that offsets t[0 .. n) are made of when they are all
  /// equal and at least a block long, else n (the whole group as one run).
  KOKKOS_FORCEINLINE_FUNCTION static std::size_t contiguous_run(const std::ptrdiff_t* t,
                                                                std::size_t n) {
    std::size_t r = 1;
    while (r < n && t[r] == t[0] + ii(r)) ++r;
    if (r < B || n % r != 0) return n;
    for (std::size_t k = r; k < n; k += r)
      if (!runs_unit(t + k, r)) return n;
    return r;
  }

  /// Whether offsets t[0 .. n) step by one element.
  KOKKOS_FORCEINLINE_FUNCTION static bool runs_unit(const std::ptrdiff_t* t, std::size_t n = B) {
    for (std::size_t k = 1; k < n; ++k)
      if (t[k] != t[0] + ii(k)) return false;
    return true;
  }

  /// How many blocks ahead a gathered block prefetches its sources' lines.
  static constexpr std::size_t GATHER_PREFETCH = 4;
  /// How many blocks ahead the mixed walk prefetches its transposed sources.
  static constexpr std::size_t PREFETCH_AHEAD = 2;

  /// Side of the square blocks of the transposed path: one cache line of the destination.
  static constexpr std::size_t B = simd::line_block_side<value_type>;

  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void run(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                       const std::ptrdiff_t* s0, const std::ptrdiff_t* s1,
                                       std::index_sequence<I...> seq) const {
    bool unit = s0[0] == 1;
    ((unit = unit && s0[I + 1] == 1), ...);
    if (by_blocks && s0[0] == 1 && n0 >= B && n1 >= B) {
      run_transposed(off, n0, n1, s0, s1, seq);
      return;
    }
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (can_stream_v<value_type>) {
      if (stream && unit && n1 > 1 && s1[0] == ii(n0) && !lines_of_rows(dst.ptr + off[0], n0)) {
        stream_as_one_run(off, n0, n1, s1, seq);
        return;
      }
    }
#endif
    for (std::size_t j = 0; j < n1; ++j) {
      const std::ptrdiff_t jj = static_cast<std::ptrdiff_t>(j);
      value_type* d = dst.ptr + (off[0] + jj * s1[0]);
      if (unit) {
        // The sources from this row's start: with the bases in locals, the vectorizer sees unit
        // steps. Indexed from off[] and s1[] (memory it cannot prove the stores leave alone),
        // GCC -O2 -march=native gathered one source 8 elements at a time (2.3x slower).
        const Tuple<Srcs...> row{Srcs{get<I>(srcs).ptr + (off[I + 1] + jj * s1[I + 1])}...};
        std::size_t i = 0;
        if constexpr (is_memcpy<I...>()) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
          if (!stream) {
            const value_type* from = (get<I>(srcs).ptr, ...) + (off[1] + jj * s1[1]);
            if (from != d) std::memcpy(d, from, n0 * sizeof(value_type));
            continue;
          }
#endif
        }
        if constexpr (can_stream_v<value_type>) {
          if (stream) {
            constexpr std::size_t W = stream_width<value_type>;
            for (; i < n0 && !stream_aligned(d + i); ++i)
              d[i] = write(f(get<I>(row).read(ii(i))...));
            for (; i + W <= n0; i += W) {
              value_type v[W];
              for (std::size_t w = 0; w < W; ++w) v[w] = write(f(get<I>(row).read(ii(i + w))...));
              stream_store(d + i, v);
            }
          }
        }
        unit_run(d, i, n0, get<I>(row)...);
      } else {
        const std::ptrdiff_t sd = s0[0];
        for (std::size_t i = 0; i < n0; ++i)
          d[ii(i) * sd] =
              write(f(get<I>(srcs).read(off[I + 1] + jj * s1[I + 1] + ii(i) * s0[I + 1])...));
      }
    }
  }

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  /// Whether destination rows of n elements from d, each following the last, all start on a
  /// cache line and are whole lines.
  static bool lines_of_rows(const value_type* d, std::size_t n) {
    return reinterpret_cast<std::uintptr_t>(d) % 64 == 0 && n * sizeof(value_type) % 64 == 0;
  }

  /// A streamed tile whose destination rows follow one another (s1[0] == n0) but are not whole
  /// lines each (a buffer 16 bytes past a line, as std::vector's, or rows of 15 elements): the
  /// tile's destination as one run, streamed line by line from its first line boundary, each
  /// line's elements taken from the source rows they come from. Row by row, every line that a
  /// row boundary crosses was stored plainly, and so read from memory before being written.
  template <std::size_t... I>
  void stream_as_one_run(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                         const std::ptrdiff_t* s1, std::index_sequence<I...>) const {
    constexpr std::size_t W = stream_width<value_type>;
    value_type* const d = dst.ptr + off[0];
    std::ptrdiff_t row[sizeof...(I) + 1] = {off[I + 1]...};  // each source's current row
    std::size_t i = 0;                                       // the position in that row
    const auto step = [&](std::size_t by) {
      if ((i += by) < n0) return;
      i = 0;
      ((row[I] += s1[I + 1]), ...);
    };
    const auto next = [&] {
      const value_type v = write(f(get<I>(srcs).read(row[I] + ii(i))...));
      step(1);
      return v;
    };
    // One streaming store of W elements from e, each from the source row it comes from.
    const auto store = [&](std::size_t e) STRIDED_LAMBDA_INLINE {
      value_type v[W];
      if (i + W <= n0) {  // inside one row: a plain loop the compiler vectorizes
        for (std::size_t w = 0; w < W; ++w)
          v[w] = write(f(get<I>(srcs).read(row[I] + ii(i + w))...));
        step(W);
      } else if (n0 >= W) {  // the end of one row and the start of the next
        const std::size_t k = n0 - i;
        const Tuple<Run<typename Srcs::value_type, W>...> runs(
            two_runs<W>(get<I>(srcs).ptr + row[I] + ii(i), k,
                        get<I>(srcs).ptr + row[I] + s1[I + 1] - ii(k))...);
        for (std::size_t w = 0; w < W; ++w)
          v[w] = write(f(Srcs::op_type::apply(get<I>(runs).e[w])...));
        step(k);
        step(W - k);
      } else {
        for (std::size_t w = 0; w < W; ++w) v[w] = next();
      }
      stream_store(d + e, v);
    };
    // for_each_streamed_line's walk, written out: GCC -O2 kept that function out of line here,
    // with i and row in memory behind the lambdas' references.
    const std::size_t n = n0 * n1;
    std::size_t e = 0;
    for (; e < n && reinterpret_cast<std::uintptr_t>(d + e) % 64 != 0; ++e) d[e] = next();
    for (; e + LINE <= n; e += LINE)
      for (std::size_t w = 0; w < LINE; w += W) store(e + w);
    for (; e < n; ++e) d[e] = next();
  }

  /// W elements of one source, on the stack.
  template <class T, std::size_t W>
  struct Run {
    T e[W];
  };
  /// a[0 .. k) then b[k .. W) (see simd::load_two_runs).
  template <std::size_t W, class T>
  static Run<std::remove_cv_t<T>, W> two_runs(const T* a, std::size_t k, const T* b) {
    Run<std::remove_cv_t<T>, W> run;
    simd::load_two_runs<W>(a, k, b, run.e);
    return run;
  }
#endif

  /// d[i] = f(src[i]...) for i in [begin, n): operands rebased to the run's start, so that the
  /// loop is plain pointer indexing the compiler vectorizes.
  KOKKOS_FORCEINLINE_FUNCTION void unit_run(value_type* d, std::size_t begin, std::size_t n,
                                            const Srcs&... src) const {
    STRIDED_UNROLL_4
    for (std::size_t i = begin; i < n; ++i) d[i] = write(f(src.read(ii(i))...));
  }

  /// B x B blocks, walking along axis 1 (where a source streams) for each band of B rows of
  /// axis 0, so the sources read whole lines in order and every destination line is written
  /// whole by one block.
  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void run_transposed(const std::ptrdiff_t* off, std::size_t n0,
                                             std::size_t n1, const std::ptrdiff_t* s0,
                                             const std::ptrdiff_t* s1,
                                             std::index_sequence<I...> seq) const {
    // Some source streams along axis 0 too (as the destination does): stage the blocks, and
    // walk bands of axis-1 positions along axis 0, so that those sources and the destination
    // stream their lines in order and only the transposed sources cross lines.
    bool mixed = false;
    ((mixed = mixed || s0[I + 1] == 1 || s0[I + 1] == -1), ...);
    if (mixed && n0 >= B && n1 >= B && staged_tile(off, n0, n1, s0, s1, seq)) return;
    if (mixed && n0 >= B && n1 >= B) {
      for (std::size_t j0 = 0; j0 + B <= n1; j0 += B)
        for (std::size_t i0 = 0; i0 + B <= n0; i0 += B) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
          // The transposed sources cross B lines per block, in an order no hardware prefetcher
          // follows: fetch those of the block PREFETCH_AHEAD blocks on while this one runs.
          if (i0 + (PREFETCH_AHEAD + 1) * B <= n0)
            ((magnitude(s0[I + 1]) > 1
                  ? simd::prefetch_rows<B>(
                        get<I>(srcs).ptr + (off[I + 1] + ii(i0 + PREFETCH_AHEAD * B) * s0[I + 1] +
                                            ii(j0) * s1[I + 1]),
                        s0[I + 1])
                  : void()),
             ...);
#endif
          staged_block(off, i0, j0, s0, s1, seq);
        }
      // The ragged edges: the last columns of axis 1, then the last rows of axis 0.
      const std::size_t full0 = n0 - n0 % B, full1 = n1 - n1 % B;
      for (std::size_t i0 = 0; i0 < n0; i0 += B)
        for (std::size_t j0 = full1; j0 < n1; j0 += B)
          block<false>(off, i0, j0, n0 - i0 < B ? n0 - i0 : B, n1 - j0, s0, s1, seq);
      for (std::size_t j0 = 0; j0 < full1; j0 += B)
        for (std::size_t i0 = full0; i0 < n0; i0 += B)
          block<false>(off, i0, j0, n0 - i0, B, s0, s1, seq);
      return;
    }
    // Destination rows of whole lines that all start `lead` elements before a line boundary (a
    // buffer that starts mid-line, as a large std::vector does) run their bands from that
    // boundary on: every full block then streams whole lines, and only the lead band and the
    // ragged end store plainly. Staging such rows (below) cost a third of the bandwidth.
    const std::size_t lead =
        stream && magnitude(s1[0]) * sizeof(value_type) % 64 == 0 && n0 >= 2 * B
            ? line_lead(dst.ptr + off[0])
            : 0;
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if (lead == 0 && stream && !streams_rows(dst.ptr + off[0], s1[0]) &&
        staged_rows(off, n0, n1, s0, s1, seq))
      return;
#endif
    // Ragged edges of a built-in function's tile (n0, n1 >= B here) run as full blocks shifted
    // back to end at the edge, overlapping their neighbours: no source is the destination on
    // this path, so the overlap writes the same values again, and every element goes through
    // the in-register transposes (else a third of a 30 x 30 slab's elements went element by
    // element).
    // After a lead band, the ragged end runs element by element too: a block shifted back over
    // the last streamed line would read that line again to store into it.
    constexpr bool overlap = is_repeatable<F>::value;
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (simd::transposable_v<value_type>) {
      bool across = true;  // every source reads its lines along axis 1
      ((across = across && s1[I + 1] == 1), ...);
      if (across && column_bands && stream && n0 >= B && n1 >= B &&
          streams_rows(dst.ptr + (off[0] + ii(lead)), s1[0])) {
        run_column_bands(off, n0, n1, s0, s1, lead, seq);
        return;
      }
      const bool rows = across && lead == 0;
      if (rows) {
        for (std::size_t i0 = 0; i0 < n0; i0 += B) {
          if (n0 - i0 >= B || overlap) {
            const std::size_t a0 = block_start(i0, n0, overlap);
            if (stream && streams_rows(dst.ptr + (off[0] + ii(a0)), s1[0]))
              band_of_blocks<true>(off, a0, n0, n1, s0, s1, seq);
            else
              band_of_blocks<false>(off, a0, n0, n1, s0, s1, seq);
          } else {
            short_band(off, i0, n0 - i0, n1, s0, s1, seq);
          }
        }
        return;
      }
    }
#endif
    const bool overlap_i = overlap && lead == 0;
    for (std::size_t i0 = 0, band = 0; i0 < n0; i0 += band) {
      band = i0 == 0 && lead != 0 ? lead : B;
      const std::size_t bi = band == B && overlap_i ? B : (n0 - i0 < band ? n0 - i0 : band);
      for (std::size_t j0 = 0; j0 < n1; j0 += B) {
        const std::size_t bj = (overlap && bi == B) || n1 - j0 >= B ? B : n1 - j0;
        prefetch_next_band(off, i0, j0, n0, s0, s1, seq);
        if (bi == B && bj == B)
          block<true>(off, block_start(i0, n0, overlap_i), block_start(j0, n1, overlap), B, B, s0,
                      s1, seq);
        else
          block<false>(off, i0, j0, bi, bj, s0, s1, seq);
      }
    }
  }

  /// A streamed tile whose sources all read along axis 1 with unit stride, its destination rows
  /// on lines from `lead` on: by bands of B destination rows, each walking the tile's source rows
  /// one line apiece (their column band) and writing its B destination rows in order, whole
  /// lines streamed. The tile's lines were fetched into L2 while the tile before it ran
  /// (fetch_tile). Bands of B source rows across the tile instead wrote one line to each of the
  /// tile's destination rows per band (docs/performance.md, CPU pass 23). The partial lines
  /// before `lead` go element by element; the ragged ends as in band_of_blocks: full blocks
  /// shifted back over their neighbours for the built-in functions, else element by element.
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void run_column_bands(const std::ptrdiff_t* off, std::size_t n0,
                                                    std::size_t n1, const std::ptrdiff_t* s0,
                                                    const std::ptrdiff_t* s1, std::size_t lead,
                                                    std::index_sequence<I...> seq) const {
    constexpr bool overlap = is_repeatable<F>::value;
    const std::size_t end = n0 - (n0 - lead) % B;  // full blocks in [lead, end)
    // A paced plan's next tile: as many of its lines per full block, the rest after the tile
    // (run_tiles). A loop of its own, so that the unpaced one stays as tight as before.
    const std::size_t blocks = (n1 + B - 1) / B * ((end - lead) / B);
    const std::size_t per_block =
        next_tile_rows && blocks > 0 ? (next_tile_rows->lines_left() + blocks - 1) / blocks : 0;
    if (per_block > 0)
      column_bands_of_blocks<true>(off, n1, s0, s1, lead, end, per_block, seq);
    else
      column_bands_of_blocks<false>(off, n1, s0, s1, lead, end, 0, seq);
    if (lead > 0) short_band(off, 0, lead, n1, s0, s1, seq);
    if (end == n0) return;
    if constexpr (overlap) {  // (n0 >= lead + B: the shifted block stays clear of the lead)
      band_of_blocks<false>(off, n0 - B, n0, n1, s0, s1, seq);
    } else {
      short_band(off, end, n0 - end, n1, s0, s1, seq);
    }
  }

  /// run_column_bands' bands over the full blocks [lead, end) of axis 0, each band's ragged end
  /// included; a paced one fetches `per_block` lines of the next tile before each full block.
  template <bool Paced, std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void column_bands_of_blocks(const std::ptrdiff_t* off, std::size_t n1,
                                                          const std::ptrdiff_t* s0,
                                                          const std::ptrdiff_t* s1,
                                                          std::size_t lead, std::size_t end,
                                                          [[maybe_unused]] std::size_t per_block,
                                                          std::index_sequence<I...> seq) const {
    constexpr bool overlap = is_repeatable<F>::value;
    const std::ptrdiff_t pitch = s1[0];
    for (std::size_t j0 = 0; j0 < n1; j0 += B) {
      if (n1 - j0 < B && !overlap) {
        for (std::size_t i0 = lead; i0 < end; i0 += B)
          block<false>(off, i0, j0, B, n1 - j0, s0, s1, seq);
        break;
      }
      const std::size_t a1 = block_start(j0, n1, overlap);
      value_type* to[B] = {};
      std::ptrdiff_t from[sizeof...(I)][B] = {};
      STRIDED_SIMD_UNROLL
      for (std::size_t k = 0; k < B; ++k) {
        to[k] = dst.ptr + (off[0] + ii(a1 + k) * pitch + ii(lead));
        ((from[I][k] = off[I + 1] + ii(lead + k) * s0[I + 1] + ii(a1)), ...);
      }
      for (std::size_t i0 = lead; i0 < end; i0 += B) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
        if constexpr (Paced) next_tile_rows->step(per_block);
#endif
        transpose_through_f(from, to, true, seq);
        STRIDED_SIMD_UNROLL
        for (std::size_t k = 0; k < B; ++k) {
          to[k] += B;
          ((from[I][k] += ii(B) * s0[I + 1]), ...);
        }
      }
    }
  }

  /// The `rows` (at most B) rows of axis 0 from i0, across the tile's n1 columns, element by
  /// element in blocks of up to B columns: a band too short for the in-register transposes.
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void short_band(const std::ptrdiff_t* off, std::size_t i0,
                                              std::size_t rows, std::size_t n1,
                                              const std::ptrdiff_t* s0, const std::ptrdiff_t* s1,
                                              std::index_sequence<I...> seq) const {
    for (std::size_t j0 = 0; j0 < n1; j0 += B)
      block<false>(off, i0, j0, rows, n1 - j0 < B ? n1 - j0 : B, s0, s1, seq);
  }

  /// The B rows of axis 0 from i0 (all inside n0), every source reading its lines along axis 1
  /// with unit stride: full blocks through the in-register transposes, row pointers stepped
  /// rather than recomputed (a transpose waits on its loads: the fewer instructions a block
  /// takes, the more blocks' loads the core keeps in flight), then the ragged end.
  template <bool Streamed, std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void band_of_blocks(const std::ptrdiff_t* off, std::size_t i0,
                                                  std::size_t n0, std::size_t n1,
                                                  const std::ptrdiff_t* s0,
                                                  const std::ptrdiff_t* s1,
                                                  std::index_sequence<I...> seq) const {
    const std::ptrdiff_t pitch = s1[0];
    value_type* const out = dst.ptr + (off[0] + ii(i0));
    std::ptrdiff_t from[sizeof...(I)][B] = {};
    STRIDED_SIMD_UNROLL
    for (std::size_t k = 0; k < B; ++k) ((from[I][k] = off[I + 1] + ii(i0 + k) * s0[I + 1]), ...);
    const std::size_t full1 = n1 - n1 % B;
    for (std::size_t j0 = 0; j0 < full1; j0 += B) {
      prefetch_next_band(off, i0, j0, n0, s0, s1, seq);
      value_type* to[B] = {};
      STRIDED_SIMD_UNROLL
      for (std::size_t k = 0; k < B; ++k) to[k] = out + ii(j0 + k) * pitch;
      transpose_through_f(from, to, Streamed, seq);
      STRIDED_SIMD_UNROLL
      for (std::size_t k = 0; k < B; ++k) ((from[I][k] += ii(B)), ...);
    }
    if (full1 == n1) return;
    if constexpr (is_repeatable<F>::value)
      transposed_block(off, i0, n1 - B, s0, s1, out - ii(i0), pitch, Streamed, seq);
    else
      block<false>(off, i0, full1, B, n1 - full1, s0, s1, seq);
  }

  /// Elements of T in a per-thread stage (MAP_STAGE_BYTES: the planner caps the tiles of a
  /// transpose with a source that streams along axis 0 to it).
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::size_t stage_elements() {
    return MAP_STAGE_BYTES / sizeof(T);
  }

  /// A streamed tile whose destination rows do not start on line boundaries (rows of 300
  /// doubles: every other one starts mid-line), for a built-in function whose sources all read
  /// along axis 1: the blocks go to a per-thread stage of line-aligned rows first, then each
  /// destination row is written from it, its whole lines with non-temporal stores and its two
  /// partial ends plainly (the neighbouring tiles complete those lines in cache). Blocks written
  /// straight to such rows cannot stream, and every line they store is read from memory first
  /// (docs/performance.md, CPU pass 5). False (nothing done) when the tile does not qualify or
  /// exceeds the stage.
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION bool staged_rows(const std::ptrdiff_t* off, std::size_t n0,
                                               std::size_t n1, const std::ptrdiff_t* s0,
                                               const std::ptrdiff_t* s1,
                                               std::index_sequence<I...> seq) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (simd::transposable_v<value_type> && can_stream_v<value_type> &&
                  is_repeatable<F>::value) {
      bool rows = true;
      ((rows = rows && s1[I + 1] == 1), ...);
      const std::size_t pitch = (n0 + B - 1) / B * B;  // stage rows of whole lines
      // Rows of 8 lines or more: shorter ones are mostly partial lines (17 x 17 slabs of a
      // rank-6 reversal ran 1.4x slower staged).
      if (!rows || n0 * sizeof(value_type) < 512 || n1 < B ||
          pitch * n1 > stage_elements<value_type>())
        return false;
      value_type* const stage =
          thread_stage<value_type, stage_elements<value_type>(), sizeof...(I) + 1>();
      for (std::size_t i0 = 0; i0 < n0; i0 += B)
        for (std::size_t j0 = 0; j0 < n1; j0 += B) {
          prefetch_next_band(off, i0, j0, n0, s0, s1, seq);
          transposed_block(off, block_start(i0, n0, true), block_start(j0, n1, true), s0, s1, stage,
                           static_cast<std::ptrdiff_t>(pitch), false, seq);
        }
      for (std::size_t j = 0; j < n1; ++j)
        copy_out_streamed(dst.ptr + (off[0] + ii(j) * s1[0]), stage + j * pitch, n0);
      return true;
    }
#endif
    (void)off, (void)n0, (void)n1, (void)s0, (void)s1, (void)seq;
    return false;
  }

  /// The whole tile when some sources stream along axis 0 and others along axis 1 (A + B^T), on
  /// host threads: each source that reads along axis 1 is first staged transposed, its lines
  /// read in order by bands of rows through the in-register transposes, so that the tile then
  /// runs as plain unit-stride lines along axis 0. Walking the blocks instead pulls one line from
  /// each of the tile's rows, a power-of-two stride apart (docs/performance.md, CPU pass 3).
  /// Stages raw elements: the staged source reads them through its own op. False (nothing
  /// done) when a source's elements are not 4, 8 or 16 bytes or its tile exceeds the stage.
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION bool staged_tile(const std::ptrdiff_t* off, std::size_t n0,
                                               std::size_t n1, const std::ptrdiff_t* s0,
                                               const std::ptrdiff_t* s1,
                                               std::index_sequence<I...> seq) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr ((simd::transposable_v<typename Srcs::value_type> && ...)) {
      const bool across = ((s1[I + 1] == 1 && magnitude(s0[I + 1]) > 1) || ...);
      if (!across || ((n0 * n1 > stage_elements<typename Srcs::value_type>()) || ...)) return false;
      constexpr std::size_t N = sizeof...(I) + 1;
      std::ptrdiff_t at[N], t0[N], t1[N];
      at[0] = off[0];
      t0[0] = s0[0];
      t1[0] = s1[0];
      // The rows of the sources that stream along axis 0 are fetched while the others are
      // staged: they are read only after, by the lines below.
      RowsAhead ahead;
      (fetch_rows_ahead(get<I>(srcs).ptr + off[I + 1], n0, n1, s0[I + 1], s1[I + 1], ahead), ...);
      const MapBody lines{
          dst, Tuple<Srcs...>(stage_source<I>(off, n0, n1, s0, s1, at, t0, t1, ahead)...), f,
          stream, false};
      lines.run(at, n0, n1, t0, t1, seq);
      return true;
    }
#endif
    (void)off, (void)n0, (void)n1, (void)s0, (void)s1, (void)seq;
    return false;
  }

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  /// Adds a staged tile's source to `ahead` when it reads its rows of n0 elements along axis 0
  /// (forwards or backwards): a source staged_tile does not stage.
  template <class T>
  static void fetch_rows_ahead(const T* base, std::size_t n0, std::size_t n1, std::ptrdiff_t s0,
                               std::ptrdiff_t s1, RowsAhead& ahead) {
    if (magnitude(s0) != 1 || s1 == 0 || s1 == 1) return;
    ahead.add(s0 == 1 ? base : base - ii(n0 - 1), s1 * ii(sizeof(T)), n0 * sizeof(T), n1);
  }

  /// Source K of staged_tile: itself (offset and strides copied to at/t0/t1), or, when it reads
  /// along axis 1, its tile transposed into the thread's stage K (element (i, j) at j * n0 + i).
  template <std::size_t K>
  KOKKOS_FORCEINLINE_FUNCTION auto stage_source(const std::ptrdiff_t* off, std::size_t n0,
                                                std::size_t n1, const std::ptrdiff_t* s0,
                                                const std::ptrdiff_t* s1, std::ptrdiff_t* at,
                                                std::ptrdiff_t* t0, std::ptrdiff_t* t1,
                                                RowsAhead& ahead) const {
    using Src = std::tuple_element_t<K, std::tuple<Srcs...>>;
    using T = typename Src::value_type;
    const Src& src = get<K>(srcs);
    const std::ptrdiff_t ls = s0[K + 1];
    if (s1[K + 1] != 1 || magnitude(ls) <= 1) {
      at[K + 1] = off[K + 1];
      t0[K + 1] = ls;
      t1[K + 1] = s1[K + 1];
      return src;
    }
    constexpr std::size_t L = simd::line_block_side<T>;
    T* to = thread_stage<T, stage_elements<T>(), K>();
    const T* from = src.ptr + off[K + 1];
    const auto ld = static_cast<std::ptrdiff_t>(n0);
    std::size_t i = 0;
    for (; i + L <= n0; i += L) {
      std::size_t j = 0;
      // The next band's lines are fetched a band ahead, as gathered_band does (into L2).
      const bool fetch = i + 2 * L <= n0;
      for (; j + L <= n1; j += L) {
        if (fetch) simd::prefetch_rows<L, simd::FetchInto::l2>(from + ii(i + L) * ls + ii(j), ls);
        simd::transpose_block<L, false>(from + ii(i) * ls + ii(j), ls, to + j * n0 + i, ld);
        ahead.step(L * L * sizeof(T) / 64);  // as many lines as the block's
      }
      for (; j < n1; ++j)
        for (std::size_t k = 0; k < L; ++k) to[j * n0 + i + k] = from[ii(i + k) * ls + ii(j)];
    }
    for (; i < n0; ++i)
      for (std::size_t j = 0; j < n1; ++j) to[j * n0 + i] = from[ii(i) * ls + ii(j)];
    at[K + 1] = 0;
    t0[K + 1] = 1;
    t1[K + 1] = ld;
    return Src{to};
  }
#endif

  /// A full block when some sources stream along axis 0 and others along axis 1 (A + B^T):
  /// each source is first read into its own block buffer along its own fast axis (reading a
  /// power-of-two source across its lines would pile all of them into one cache set), then
  /// combined and stored as block() does.
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void staged_block(const std::ptrdiff_t* off, std::size_t i0,
                                                std::size_t j0, const std::ptrdiff_t* s0,
                                                const std::ptrdiff_t* s1,
                                                std::index_sequence<I...>) const {
    SourceBlocks<std::index_sequence<I...>, typename Srcs::value_type...> in;
    (stage(get<I>(srcs), in.template at<I>(), off[I + 1] + ii(i0) * s0[I + 1] + ii(j0) * s1[I + 1],
           s0[I + 1], s1[I + 1]),
     ...);
    value_type buffer[B * B];
    for (std::size_t e = 0; e < B * B; ++e) buffer[e] = write(f(in.template at<I>()[e]...));
    for (std::size_t j = 0; j < B; ++j)
      store_row(dst.ptr + (off[0] + ii(j0 + j) * s1[0] + ii(i0)), buffer + j * B, stream);
  }

  /// Element (i, j) of a source's block into to[j * B + i], walking its faster axis innermost.
  template <class Src, class T>
  KOKKOS_FORCEINLINE_FUNCTION static void stage(const Src& src, T* to, std::ptrdiff_t base,
                                                std::ptrdiff_t s0, std::ptrdiff_t s1) {
    const bool along_axis0 = magnitude(s0) <= magnitude(s1);
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (simd::transposable_v<T> && acts_as_identity_v<typename Src::op_type, T> &&
                  std::is_same_v<typename Src::value_type, T>) {
      if (s1 == 1) {  // its lines run along axis 1: B of them, transposed in registers
        simd::transpose_block<B, false>(src.ptr + base, s0, to, static_cast<std::ptrdiff_t>(B));
        return;
      }
    }
#endif
    for (std::size_t a = 0; a < B; ++a)
      for (std::size_t b = 0; b < B; ++b) {
        const std::size_t i = along_axis0 ? b : a, j = along_axis0 ? a : b;
        to[j * B + i] = src.read(base + ii(i) * s0 + ii(j) * s1);
      }
  }

  /// One B x B buffer per source, each of its own element type.
  template <class Seq, class... Ts>
  struct SourceBlocks;
  template <std::size_t K, class T>
  struct SourceBlock {
    alignas(64) T values[B * B];
  };
  template <std::size_t... K, class... Ts>
  struct SourceBlocks<std::index_sequence<K...>, Ts...> : SourceBlock<K, Ts>... {
    template <std::size_t J, class T>
    KOKKOS_FORCEINLINE_FUNCTION static T* pick(SourceBlock<J, T>& leaf) {
      return leaf.values;
    }
    template <std::size_t J>
    KOKKOS_FORCEINLINE_FUNCTION auto* at() {
      return pick<J>(*this);
    }
  };

  /// One block: compute in the sources' order (axis 1 fastest) into a buffer, then store it in
  /// the destination's order (axis 0 fastest). `Full` blocks have compile-time bounds.
  template <bool Full, std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void block(const std::ptrdiff_t* off, std::size_t i0, std::size_t j0,
                                         std::size_t bi, std::size_t bj, const std::ptrdiff_t* s0,
                                         const std::ptrdiff_t* s1,
                                         std::index_sequence<I...>) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (Full && simd::transposable_v<value_type>) {
      bool rows = true;  // every source reads its lines along axis 1
      ((rows = rows && s1[I + 1] == 1), ...);
      if (rows) {
        value_type* const out = dst.ptr + off[0];
        transposed_block(off, i0, j0, s0, s1, out, s1[0],
                         stream && streams_rows(out + (ii(j0) * s1[0] + ii(i0)), s1[0]),
                         std::index_sequence<I...>{});
        return;
      }
    }
#endif
    const std::size_t ni = Full ? B : bi, nj = Full ? B : bj;
    value_type buffer[B * B];
    for (std::size_t i = 0; i < ni; ++i) {
      // Each source's offset of element (i0 + i, j0), then steps of its axis-1 stride.
      const std::ptrdiff_t row[] = {(off[I + 1] + ii(i0 + i) * s0[I + 1] + ii(j0) * s1[I + 1])...};
      for (std::size_t j = 0; j < nj; ++j)
        buffer[j * B + i] = write(f(get<I>(srcs).read(row[I] + ii(j) * s1[I + 1])...));
    }
    for (std::size_t j = 0; j < nj; ++j) {
      value_type* d = dst.ptr + (off[0] + ii(j0 + j) * s1[0] + ii(i0));
      if constexpr (Full)
        store_row(d, buffer + j * B, stream);
      else
        for (std::size_t i = 0; i < ni; ++i) d[i] = buffer[j * B + i];
    }
  }

  /// A full block whose sources all read along axis 1 with unit stride: B source rows in, B
  /// rows out through the in-register transposes, row j0 + k at out + (j0 + k) * pitch + i0
  /// (the destination, or staged_rows' stage), with non-temporal stores when `streamed`.
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void transposed_block(const std::ptrdiff_t* off, std::size_t i0,
                                                    std::size_t j0, const std::ptrdiff_t* s0,
                                                    const std::ptrdiff_t* s1, value_type* out,
                                                    std::ptrdiff_t pitch, bool streamed,
                                                    std::index_sequence<I...> seq) const {
    std::ptrdiff_t from[sizeof...(I)][B] = {};
    value_type* to[B] = {};
    STRIDED_SIMD_UNROLL
    for (std::size_t k = 0; k < B; ++k) {
      ((from[I][k] = off[I + 1] + ii(i0 + k) * s0[I + 1] + ii(j0) * s1[I + 1]), ...);
      to[k] = out + (ii(j0 + k) * pitch + ii(i0));
    }
    transpose_through_f(from, to, streamed, seq);
  }

  /// Where a block of B starting at i0 of an axis of n >= B elements runs: at i0, or, at a
  /// ragged end when `overlap`, shifted back to end at n (over its neighbour).
  KOKKOS_FORCEINLINE_FUNCTION static std::size_t block_start(std::size_t i0, std::size_t n,
                                                             bool overlap) {
    return overlap && n - i0 < B ? n - B : i0;
  }

  /// A band of blocks reads B source lines side by side, often one page; the next band starts
  /// another page, where the hardware prefetchers start over: fetch the lines of the next band
  /// (rows i0 + B ..) at j0 now, for the sources that read along axis 1. Into L1: into L2 the
  /// 8192^2 transpose ran 12% faster from a page boundary but 5% slower from 192 bytes past one,
  /// where Kokkos 3.4 puts a View's data (AMD Zen 4, CPU pass 15). Host code.
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void prefetch_next_band(const std::ptrdiff_t* off, std::size_t i0,
                                                      std::size_t j0, std::size_t n0,
                                                      const std::ptrdiff_t* s0,
                                                      const std::ptrdiff_t* s1,
                                                      std::index_sequence<I...>) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if (i0 + 2 * B <= n0)
      ((magnitude(s1[I + 1]) == 1
            ? simd::prefetch_rows<B>(
                  get<I>(srcs).ptr + (off[I + 1] + ii(i0 + B) * s0[I + 1] + ii(j0) * s1[I + 1]),
                  s0[I + 1])
            : void()),
       ...);
#else
    (void)off, (void)i0, (void)j0, (void)n0, (void)s0, (void)s1;
#endif
  }

  /// Element j of row i of every source (operand k's row i starts at from[k][i], unit stride)
  /// into element i of destination row j, for i, j < B. A plain copy transposes straight from
  /// the source. Sources of the destination's element size without an op are transposed into
  /// block buffers and f runs along the destination's rows; for others f runs along the source
  /// rows (vectorized) into a row buffer, which is then transposed.
  template <std::size_t... I>
  KOKKOS_FORCEINLINE_FUNCTION void transpose_through_f(const std::ptrdiff_t (*from)[B],
                                                       value_type* const* to, bool streamed,
                                                       std::index_sequence<I...>) const {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    if constexpr (!is_memcpy<I...>() && (transposes_raw<Srcs>() && ...)) {
      // Each source's block is transposed first and f then runs along the destination's rows,
      // whose results leave as whole rows. Computing along the source rows and transposing the
      // results made every row of the transpose wait on a failed store forwarding: in-cache
      // transposes through a function ran 3x slower than plain copies (CPU pass 17). Rows of
      // other element types than float and double stream only through the transposes.
      if (!streamed || can_stream_v<value_type>) {
        SourceBlocks<std::index_sequence<I...>, typename Srcs::value_type...> in;
        (transpose_raw(get<I>(srcs).ptr, from[I], in.template at<I>()), ...);
        alignas(64) value_type out[B * B];
        for (std::size_t e = 0; e < B * B; ++e) out[e] = write(f(in.template at<I>()[e]...));
        STRIDED_SIMD_UNROLL
        for (std::size_t j = 0; j < B; ++j) store_row(to[j], out + j * B, streamed);
        return;
      }
    }
#endif
    const value_type* rows[B] = {};
    alignas(64) value_type computed[is_memcpy<I...>() ? 1 : B * B];
    for (std::size_t i = 0; i < B; ++i) {
      if constexpr (is_memcpy<I...>()) {
        rows[i] = (get<I>(srcs).ptr, ...) + (from[I][i], ...);
      } else {
        for (std::size_t j = 0; j < B; ++j)
          computed[i * B + j] = write(f(get<I>(srcs).read(from[I][i] + ii(j))...));
        rows[i] = computed + i * B;
      }
    }
    if (streamed)
      simd::transpose_rows<B, true>(rows, to);
    else
      simd::transpose_rows<B, false>(rows, to);
  }

  /// A source whose B x B blocks go through the in-register transposes as raw elements: its op
  /// changes nothing, and its elements are the destination's size (the blocks' side).
  template <class Src>
  KOKKOS_INLINE_FUNCTION static constexpr bool transposes_raw() {
    using T = typename Src::value_type;
    return simd::transposable_v<T> && sizeof(T) == sizeof(value_type) &&
           acts_as_identity_v<typename Src::op_type, T>;
  }

  /// Element j of the source row at base + rows[i] into to[j * B + i], for i, j < B.
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static void transpose_raw(const T* base, const std::ptrdiff_t* rows,
                                                        T* to) {
    const T* in[B] = {};
    T* out[B] = {};
    STRIDED_SIMD_UNROLL
    for (std::size_t k = 0; k < B; ++k) {
      in[k] = base + rows[k];
      out[k] = to + k * B;
    }
    simd::transpose_rows<B, false>(in, out);
  }

  /// Whether rows d + j * stride can all take the transposes' streaming stores.
  KOKKOS_FORCEINLINE_FUNCTION static bool streams_rows(const value_type* d, std::ptrdiff_t stride) {
    constexpr std::size_t A = simd::stream_alignment<value_type>();
    return reinterpret_cast<std::uintptr_t>(d) % A == 0 &&
           magnitude(stride) * sizeof(value_type) % A == 0;
  }

  /// B contiguous destination elements from a block buffer: one line, streamed when `streamed`.
  KOKKOS_FORCEINLINE_FUNCTION static void store_row(value_type* d, const value_type* v,
                                                    bool streamed) {
    if constexpr (can_stream_v<value_type>) {
      if (streamed) {
        stream_row<B>(d, v);
        return;
      }
    }
    for (std::size_t i = 0; i < B; ++i) d[i] = v[i];
  }

  KOKKOS_FORCEINLINE_FUNCTION static std::ptrdiff_t ii(std::size_t i) {
    return static_cast<std::ptrdiff_t>(i);
  }

  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION static value_type write(const V& v) {
    return Dst::through_op(v);
  }
};

}  // namespace strided::detail

#endif
