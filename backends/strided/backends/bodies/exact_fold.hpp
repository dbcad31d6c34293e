#ifndef STRIDED_BACKENDS_BODIES_EXACT_FOLD_HPP
#define STRIDED_BACKENDS_BODIES_EXACT_FOLD_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The body of an exact reduction for the tile walk: the elements' terms are staged into blocks
// (unit-stride runs of one double source are read in place) and added to one exact sum per
// component. Any walk order and any split of the tiles gives the same integers.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "strided/backends/common/exact_terms.hpp"
#include "strided/backends/common/tile_walk.hpp"
#include "strided/backends/common/tuple.hpp"
#include "strided/base/arithmetic.hpp"

namespace strided::detail {

template <class Terms, class... Srcs>
struct ExactFold {
  using Int = typename Terms::Int;
  static constexpr int K = Terms::components;
  static constexpr int PER = Terms::per_element;
  static constexpr int ELEMENTS = EXACT_BLOCK / PER;  ///< elements per staged block
  /// Unit-stride runs of a single real double source are the terms themselves.
  static constexpr bool IN_PLACE = sizeof...(Srcs) == 1 &&
                                   std::is_same_v<Terms, SumTerms<double>> &&
                                   (std::is_same_v<typename Srcs::value_type, double> && ...);

  /// ... and so are unit-stride runs of real double products (dot, sum_squares), by blocks of
  /// vectorized products and errors (host code: the block barrier keeps products rounded).
  static constexpr bool PRODUCTS_IN_PLACE =
      (std::is_same_v<Terms, DotTerms<double, double>> ||
       std::is_same_v<Terms, SquareTerms<double>>)&&(std::is_same_v<typename Srcs::value_type,
                                                                    double> &&
                                                     ...);

  Tuple<Srcs...> srcs;
  ExactSum<Int> sum[K];
  double stage[K][EXACT_BLOCK];
  int staged = 0;

  KOKKOS_INLINE_FUNCTION explicit ExactFold(const Tuple<Srcs...>& s) : srcs(s) {}

  KOKKOS_INLINE_FUNCTION void operator()(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                         const std::ptrdiff_t* s0, const std::ptrdiff_t* s1) {
    run(off, n0, n1, s0, s1, std::make_index_sequence<sizeof...(Srcs)>{});
  }

  KOKKOS_INLINE_FUNCTION void gather(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                     const std::ptrdiff_t (*t0)[GATHER_MAX],
                                     const std::ptrdiff_t (*t1)[GATHER_MAX]) {
    gather_impl(off, n0, n1, t0, t1, std::make_index_sequence<sizeof...(Srcs)>{});
  }

  /// The components' integers, once every element is in.
  KOKKOS_INLINE_FUNCTION void finish(Int* out) {
    drain();
    for (int c = 0; c < K; ++c) out[c] = sum[c].finish();
  }

 private:
  template <class... V>
  KOKKOS_FORCEINLINE_FUNCTION void push(const V&... values) {
    double* out[K];
    for (int c = 0; c < K; ++c) out[c] = stage[c] + staged * PER;
    Terms::produce(sum, out, values...);
    if (++staged == ELEMENTS) drain();
  }
  KOKKOS_INLINE_FUNCTION void drain() {
    if (staged == 0) return;
    for (int c = 0; c < K; ++c)
      sum[c].template add_block<Terms::terms_are_values>(stage[c], staged * PER);
    staged = 0;
  }

  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void run(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                  const std::ptrdiff_t* s0, const std::ptrdiff_t* s1,
                                  std::index_sequence<I...>) {
    for (std::size_t j = 0; j < n1; ++j) {
      const std::ptrdiff_t base[] = {(off[I] + static_cast<std::ptrdiff_t>(j) * s1[I])...};
      if constexpr (IN_PLACE) {
        if (s0[0] == 1) {
          const double* x = get<0>(srcs).ptr + base[0];
          for (std::size_t i = 0; i < n0; i += EXACT_RUN_BLOCK)
            sum[0].template add_block<true>(
                x + i, static_cast<int>(n0 - i < EXACT_RUN_BLOCK ? n0 - i : EXACT_RUN_BLOCK));
          continue;
        }
      }
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
      if constexpr (PRODUCTS_IN_PLACE) {
        if (((s0[I] == 1) && ...)) {
          const double* x[] = {(get<I>(srcs).ptr + base[I])...};
          const double* y = sizeof...(Srcs) == 1 ? x[0] : x[sizeof...(Srcs) - 1];
          for (std::size_t i = 0; i < n0; i += EXACT_RUN_BLOCK)
            products_in_place(x[0] + i, y + i, n0 - i);
          continue;
        }
      }
#endif
      for (std::size_t i = 0; i < n0; ++i) {
        const auto at = static_cast<std::ptrdiff_t>(i);
        push(get<I>(srcs).read(base[I] + at * s0[I])...);
      }
    }
  }

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  /// The first n = min(left, EXACT_RUN_BLOCK) of the `left` products a[i] * b[i] of a run, in
  /// one pass of the exact sum's add_products (which prefetches the next block's), or else (that
  /// pass refused them, or refused recent blocks) as blocks p[0, m), e[0, m) of its terms.
  void products_in_place(const double* a, const double* b, std::size_t left) {
    constexpr std::size_t B = EXACT_RUN_BLOCK;
    const int n = static_cast<int>(left < B ? left : B);
    const int ahead = static_cast<int>(left - n < B ? left - n : B);
    auto& s = sum[0];
    if (s.products_first()) {
      double products[EXACT_RUN_BLOCK];
      for (int i = 0; i < n; ++i) products[i] = a[i] * b[i];
      materialize_block(products);  // rounded products: never contracted into what reads them
      if (s.add_products(a, b, products, n, ahead)) return;
    }
    // Short blocks, each multiplied just before its terms are split: the loads from memory
    // interleave with the arithmetic, and the hardware's prefetch keeps streaming.
    constexpr int H = EXACT_BLOCK / 2;
    for (int at = 0; at < n; at += H)
      product_terms_in_place(a + at, b + at, n - at < H ? n - at : H);
  }

  /// n <= EXACT_BLOCK / 2 products a[i] * b[i] as the block p[0, n), e[0, n) of one exact sum.
  void product_terms_in_place(const double* a, const double* b, int n) {
    constexpr int H = EXACT_BLOCK / 2;
    double block[EXACT_BLOCK];
    double* const products = block;
    double* const errors = block + H;  // a fixed offset: the loops below vectorize
    for (int i = 0; i < n; ++i) products[i] = a[i] * b[i];
    materialize_block(block);  // rounded products: never contracted into what reads them
    auto& s = sum[0];
    std::int64_t any_unsplit = 0, seen = 0;  // integer reductions: the loop vectorizes
    for (int i = 0; i < n; ++i) {
      const double p = products[i];
      errors[i] = product_error(a[i], b[i], p);
      any_unsplit |= !product_splits(a[i], b[i], p);
      seen |= static_cast<std::int64_t>(bits_of(p)) != static_cast<std::int64_t>(DOUBLE_NEG_ZERO);
    }
    s.total.flags |= Int::SAW_TERM | (seen ? Int::SAW_NOT_NEG_ZERO : 0u);
    if (any_unsplit) {  // rare: products near underflow or overflow, infinities, NaNs
      for (int k = 0; k < n; ++k) {
        if (product_splits(a[k], b[k], products[k])) continue;
        products[k] = errors[k] = 0;
        if (a[k] - a[k] == 0 && b[k] - b[k] == 0)
          s.total.add_product(a[k], b[k]);
        else
          s.total.add(a[k] * b[k]);
      }
    }
    if (n < H)  // a short run: the errors follow the products
      for (int k = 0; k < n; ++k) products[n + k] = errors[k];
    s.template add_block<false>(block, 2 * n);
  }
#endif

  template <std::size_t... I>
  KOKKOS_INLINE_FUNCTION void gather_impl(const std::ptrdiff_t* off, std::size_t n0, std::size_t n1,
                                          const std::ptrdiff_t (*t0)[GATHER_MAX],
                                          const std::ptrdiff_t (*t1)[GATHER_MAX],
                                          std::index_sequence<I...>) {
    for_each_gathered_row<sizeof...(I)>(off, n1, t1, [&](const std::ptrdiff_t* row) {
      for (std::size_t i = 0; i < n0; ++i) push(get<I>(srcs).read(row[I] + t0[I][i])...);
    });
  }
};

/// Chunk c of a plan's tiles, folded exactly into out[c * K, c * K + K) (any memory space),
/// normalized (MergeChunks adds them digit by digit).
template <int N, class Fold>
struct ExactChunks {
  using Int = typename Fold::Int;
  const Plan<N>* plan;
  decltype(Fold::srcs) srcs;
  Int* out;
  std::size_t chunks;
  KOKKOS_INLINE_FUNCTION void operator()(std::size_t c) const {
    const std::size_t tiles = plan->tile_count;
    Fold fold(srcs);
    for_each_tile(*plan, c * tiles / chunks, (c + 1) * tiles / chunks,
                  [&](std::size_t, const TileCursor<N>& tile) { walk_tile(*plan, tile, fold); });
    fold.finish(out + c * Fold::K);
    for (int k = 0; k < Fold::K; ++k) out[c * Fold::K + k].normalize();
  }
};

}  // namespace strided::detail

#endif
