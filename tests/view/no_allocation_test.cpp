// The no-allocation promise (API.md, "Views" and "Precise semantics"): at rank <= INLINE_RANK,
// building views (from raw pointers and from Kokkos::Views), every transform, and element-wise
// kernels called without an execution-space instance perform no heap allocation after one
// warm-up call. This file replaces the global operator new/delete family with counting versions;
// every buffer is allocated before counting starts. A view of rank INLINE_RANK + 1 must allocate,
// which shows that the counter sees the library's allocations.
//
// ctest runs this binary at --threads=1; run it at 2 or more threads as well, where the
// larger sizes (above the 32768-element inline threshold) go through Kokkos::parallel_for.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <numeric>
#include <strided/strided.hpp>
#include <thread>
#include <utility>
#include <vector>

// ---- counting replacements of the global allocation functions --------------------------------

namespace {

std::atomic<std::size_t> g_allocations{0};

void* counted_malloc(std::size_t n) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
void* counted_aligned(std::size_t n, std::align_val_t alignment) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  std::size_t a = static_cast<std::size_t>(alignment);
  if (a < sizeof(void*)) a = sizeof(void*);
  void* p = nullptr;
  return posix_memalign(&p, a, n == 0 ? 1 : n) == 0 ? p : nullptr;
}
void* throwing(void* p) {
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
// Out of line: once a replaced operator delete is inlined next to its operator new, GCC at -O2
// takes the free() for a mismatched deallocation (-Wmismatched-new-delete).
[[gnu::noinline]] void release(void* p) noexcept {
  std::free(p);
}

}  // namespace

void* operator new(std::size_t n) {
  return throwing(counted_malloc(n));
}
void* operator new[](std::size_t n) {
  return throwing(counted_malloc(n));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return counted_malloc(n);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return throwing(counted_aligned(n, a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return throwing(counted_aligned(n, a));
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_aligned(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_aligned(n, a);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  release(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  release(p);
}

namespace {

using strided::INLINE_RANK;
using strided::StridedView;

/// Keeps the optimizer from proving a value unused (allocation elision of new/delete pairs is
/// allowed even for replaced operators).
template <class T>
void escape(const T& value) {
#if defined(__GNUC__)
  __asm__ __volatile__("" : : "r"(&value) : "memory");
#else
  static const void* volatile sink;
  sink = &value;
#endif
}

template <class F>
std::size_t count_allocations(F&& f) {
  const std::size_t before = g_allocations.load();
  f();
  return g_allocations.load() - before;
}

TEST(NoAllocation, CounterSeesAllocations) {
  EXPECT_GE(count_allocations([] {
              int* p = new int(3);
              escape(p);
              delete p;
            }),
            1u);
  EXPECT_GE(count_allocations([] {
              std::vector<double> v(100);
              escape(v);
            }),
            1u);
  EXPECT_EQ(count_allocations([] {
              std::array<double, 100> a{};
              escape(a);
            }),
            0u);
}

// ---- views and transforms ---------------------------------------------------------------------

/// Every view-building path and every transform of a rank-R view of extents 2 (axis 0: 1).
template <std::size_t R>
void build_and_transform(double* buffer, std::size_t length) {
  std::array<std::size_t, R> dims{};
  std::array<std::ptrdiff_t, R> strides{};
  std::array<std::size_t, R> grown{};
  std::array<std::size_t, R> reversed_axes{};
  std::size_t dims_c[R];
  long strides_c[R];
  std::ptrdiff_t s = 1;
  for (std::size_t k = 0; k < R; ++k) {
    dims[k] = dims_c[k] = (k == 0 ? 1 : 2);
    grown[k] = 2;
    strides[k] = strides_c[k] = s;
    s *= static_cast<std::ptrdiff_t>(dims[k]);
    reversed_axes[k] = R - 1 - k;
  }
  ASSERT_LE(static_cast<std::size_t>(s), length);
  const std::size_t n = count_allocations([&] {
    const StridedView<double> v(buffer, length, dims, strides);
    const StridedView<double> vc(buffer, length, dims_c, strides_c, 0);
    const StridedView<const double> cv(buffer, length, dims, strides);
    const StridedView<const double> converted = v;
    const auto copy = v;
    auto assigned = vc;
    assigned = copy;
    const auto permuted = v.permute(reversed_axes);
    const auto conj = v.conj();
    const auto conj2 = conj.conj();
    const auto broadcast = v.broadcast(grown);
    const auto sliced = v.slice(R - 1, R == 1 ? 0 : 1, R == 1 ? 1 : 2);
    const auto sliced_back = v.slice(R - 1, R == 1 ? 0 : 1, 0, -1);
    escape(v);
    escape(cv);
    escape(converted);
    escape(assigned);
    escape(permuted);
    escape(conj2);
    escape(broadcast);
    escape(sliced);
    escape(sliced_back);
    for (std::size_t k = 0; k < R; ++k) {
      const auto reversed = v.reverse(k);
      escape(reversed);
    }
    if constexpr (R >= 2) {
      const auto diagonal = v.diagonal({{0, R - 1}});
      const std::array<std::pair<std::size_t, std::size_t>, 1> pairs{{{R - 1, 0}}};
      const auto diagonal2 = permuted.diagonal(pairs);
      escape(diagonal);
      escape(diagonal2);
    }
    if constexpr (R == 2) {
      const auto t = v.transpose();
      const auto a = v.adjoint();
      const auto aa = a.adjoint();
      const auto i = v.permute({1, 0});
      const StridedView<double> lit(buffer, length, {1, 2}, {1, 1});
      escape(t);
      escape(aa);
      escape(i);
      escape(lit);
    }
    if constexpr (R == 3) {
      const StridedView<double> lit(buffer, length, {1, 2, 2}, {4, 2, 1});
      const auto i = lit.permute({2, 0, 1});
      escape(i);
    }
    // A chain of transforms and an element read.
    const auto chain = v.reverse(R - 1).conj().permute(reversed_axes).broadcast(grown);
    escape(chain);
    volatile double x = 0;
    if constexpr (R == 1) x = v(0);
    if constexpr (R == 8) x = chain(1, 1, 1, 1, 1, 1, 1, 1);
    (void)x;
  });
  EXPECT_EQ(n, 0u) << "rank " << R;
}

template <std::size_t... R>
void build_and_transform_all(double* buffer, std::size_t length, std::index_sequence<R...>) {
  (build_and_transform<R + 1>(buffer, length), ...);
}

TEST(NoAllocation, ViewsAndTransformsUpToInlineRank) {
  static_assert(INLINE_RANK >= 8);
  std::vector<double> buffer(std::size_t(1) << INLINE_RANK, 1.0);
  build_and_transform_all(buffer.data(), buffer.size(), std::make_index_sequence<INLINE_RANK>{});
  // Rank 0 as well.
  EXPECT_EQ(count_allocations([&] {
              const StridedView<double> v(buffer.data(), 1, {}, {});
              const auto p = v.permute({});
              escape(p);
            }),
            0u);
}

TEST(NoAllocation, RankAboveInlineRankAllocates) {
  constexpr std::size_t R = INLINE_RANK + 1;
  std::vector<double> buffer(16, 1.0);
  std::array<std::size_t, R> dims{};
  std::array<std::ptrdiff_t, R> strides{};
  dims.fill(1);
  strides.fill(1);
  const std::size_t n = count_allocations([&] {
    const StridedView<double> v(buffer.data(), buffer.size(), dims, strides);
    escape(v);
  });
  EXPECT_GE(n, 1u) << "a rank-" << R << " view must put its metadata on the heap";
  const StridedView<double> v(buffer.data(), buffer.size(), dims, strides);
  EXPECT_GE(count_allocations([&] {
              const auto r = v.reverse(0);
              escape(r);
            }),
            1u);
}

// ---- views of Kokkos::Views -------------------------------------------------------------------

template <class T, std::size_t R>
struct Pointers {
  using type = typename Pointers<T, R - 1>::type*;
};
template <class T>
struct Pointers<T, 0> {
  using type = T;
};

template <std::size_t R, class Layout, std::size_t... I>
auto make_kokkos_view(std::index_sequence<I...>) {
  return Kokkos::View<typename Pointers<double, R>::type, Layout, Kokkos::HostSpace>(
      "kv", (static_cast<void>(I), std::size_t(2))...);
}

template <std::size_t R>
void wrap_kokkos_views() {
  const auto right = make_kokkos_view<R, Kokkos::LayoutRight>(std::make_index_sequence<R>{});
  const auto left = make_kokkos_view<R, Kokkos::LayoutLeft>(std::make_index_sequence<R>{});
  const Kokkos::View<typename Pointers<const double, R>::type, Kokkos::LayoutLeft,
                     Kokkos::HostSpace>
      const_left = left;
  const std::size_t n = count_allocations([&] {
    const auto a = strided::view(right);
    const auto b = strided::view(left);
    const auto c = strided::view(const_left);
    const auto ra = a.reverse(0).conj();
    const auto sb = b.slice(0, 1, 0, -1);
    escape(a);
    escape(c);
    escape(ra);
    escape(sb);
  });
  EXPECT_EQ(n, 0u) << "rank " << R;
}

template <std::size_t... R>
void wrap_kokkos_views_all(std::index_sequence<R...>) {
  (wrap_kokkos_views<R + 1>(), ...);
}

TEST(NoAllocation, ViewsOfKokkosViews) {
  wrap_kokkos_views_all(std::make_index_sequence<8>{});
  // Subviews (LayoutStride) and rank 0; the subviews are made before counting.
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> a("a", 4, 5, 6);
  const auto sub = Kokkos::subview(a, Kokkos::pair<int, int>(1, 3), 2, Kokkos::ALL);
  Kokkos::View<double, Kokkos::HostSpace> scalar("scalar");
  EXPECT_EQ(count_allocations([&] {
              const auto v = strided::view(sub);
              const auto s = strided::view(scalar);
              const auto t = v.transpose();
              escape(s);
              escape(t);
            }),
            0u);
}

// ---- element-wise kernels ---------------------------------------------------------------------

/// Buffers and layouts made before counting; the views are built inside the counted region.
struct Operands {
  explicit Operands(std::vector<std::size_t> extents) : dims(std::move(extents)) {
    rank = dims.size();
    count = 1;
    for (std::size_t e : dims) count *= e;
    col.resize(rank);
    row.resize(rank);
    std::ptrdiff_t s = 1;
    for (std::size_t k = 0; k < rank; ++k) {
      col[k] = s;
      s *= static_cast<std::ptrdiff_t>(dims[k]);
    }
    s = 1;
    for (std::size_t k = rank; k-- > 0;) {
      row[k] = s;
      s *= static_cast<std::ptrdiff_t>(dims[k]);
    }
    squeezed = dims;
    squeezed[rank - 1] = 1;
    d.assign(count, 0.0);
    a.resize(count);
    b.resize(count);
    c.resize(count);
    zd.assign(count, {});
    zs.resize(count);
    for (std::size_t n = 0; n < count; ++n) {
      a[n] = static_cast<double>(n % 97);
      b[n] = static_cast<double>(n % 13);
      c[n] = static_cast<double>(n % 7);
      zs[n] = {static_cast<double>(n % 5), static_cast<double>(n % 3)};
    }
  }

  std::vector<std::size_t> dims, squeezed;
  std::vector<std::ptrdiff_t> col, row;
  std::size_t rank = 0, count = 0;
  std::vector<double> d, a, b, c;
  std::vector<std::complex<double>> zd, zs;
};

struct Twice {
  double operator()(double x) const { return 2.0 * x + 1.0; }
};
struct Minus {
  double operator()(double x, double y) const { return x - y; }
};
struct MulAdd {
  double operator()(double x, double y, double z) const { return x * y + z; }
};

/// Each kernel once as a warm-up, then counted; results are spot-checked after counting.
void check_kernels(Operands& o) {
  SCOPED_TRACE(testing::Message() << "rank " << o.rank << ", " << o.count << " elements");
  // dst col-major; a row-major (a transposed layout); b col-major reversed on axis 0; c with
  // its last axis broadcast.
  auto dst = [&] { return StridedView<double>(o.d.data(), o.count, o.dims, o.col); };
  auto src_a = [&] { return StridedView<const double>(o.a.data(), o.count, o.dims, o.row); };
  auto src_b = [&] {
    return StridedView<const double>(o.b.data(), o.count, o.dims, o.col).reverse(0);
  };
  auto src_c = [&] {
    return StridedView<const double>(o.c.data(), o.count, o.squeezed, o.col).broadcast(o.dims);
  };
  const auto zdst = [&] {
    return StridedView<std::complex<double>>(o.zd.data(), o.count, o.dims, o.col);
  };
  const auto zsrc = [&] {
    return StridedView<const std::complex<double>>(o.zs.data(), o.count, o.dims, o.row).conj();
  };
  const auto expect_none = [](const char* what, auto&& call) {
    call();  // warm-up: first-call statics, the default instance, OpenMP thread start
    const std::size_t first = count_allocations(call);
    const std::size_t second = count_allocations(call);
    EXPECT_EQ(first, 0u) << what;
    EXPECT_EQ(second, 0u) << what;
  };

  const auto sum = [](const std::vector<double>& v) {
    return std::accumulate(v.begin(), v.end(), 0.0);
  };
  // Values are small integers: sums are exact in any order, so they check what each kernel wrote.
  expect_none("copy_into", [&] { strided::copy_into(dst(), src_a()); });
  EXPECT_EQ(sum(o.d), sum(o.a));
  expect_none("map_into", [&] { strided::map_into(dst(), src_a(), Twice{}); });
  EXPECT_EQ(sum(o.d), 2.0 * sum(o.a) + static_cast<double>(o.count));
  expect_none("zip_map_into, 2 sources",
              [&] { strided::zip_map_into(dst(), Minus{}, src_a(), src_b()); });
  EXPECT_EQ(sum(o.d), sum(o.a) - sum(o.b));
  expect_none("zip_map_into, 3 sources",
              [&] { strided::zip_map_into(dst(), MulAdd{}, src_a(), src_b(), src_c()); });
  expect_none("copy_scale", [&] { strided::copy_scale(dst(), src_b(), 2.0); });
  EXPECT_EQ(sum(o.d), 2.0 * sum(o.b));
  expect_none("add", [&] { strided::add(dst(), src_a()); });  // three calls
  EXPECT_EQ(sum(o.d), 2.0 * sum(o.b) + 3.0 * sum(o.a));
  expect_none("axpy", [&] { strided::axpy(dst(), src_c(), 0.5); });
  expect_none("mul", [&] { strided::mul(dst(), src_c()); });
  // Destination and source of one dense layout (the small-call fast path, where there is one).
  const auto src_dense = [&] {
    return StridedView<const double>(o.a.data(), o.count, o.dims, o.col);
  };
  expect_none("copy_into, same dense layout", [&] { strided::copy_into(dst(), src_dense()); });
  EXPECT_EQ(o.d, o.a);
  expect_none("add, same dense layout", [&] { strided::add(dst(), src_dense()); });
  EXPECT_EQ(o.d[o.count - 1], 4.0 * o.a[o.count - 1]);
  expect_none("copy_into, complex conj source", [&] { strided::copy_into(zdst(), zsrc()); });
  EXPECT_EQ(o.zd[0], std::conj(o.zs[0]));
  expect_none("copy_conj", [&] { strided::copy_conj(zdst(), zsrc()); });
  EXPECT_EQ(o.zd[o.count - 1], o.zs[o.count - 1]);
  // Kokkos::Views as operands are wrapped without allocating too.
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> kd(o.d.data(),
                                                                                       o.count);
  Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> ka(
      o.a.data(), o.count);
  expect_none("copy_into, Kokkos::Views", [&] { strided::copy_into(kd, ka); });
  EXPECT_EQ(o.d, o.a);
}

std::vector<std::vector<std::size_t>> small_shapes() {
  // One shape per rank 1..INLINE_RANK, each below the 32768-element inline threshold.
  return {{4096},          {64, 64},           {16, 16, 16},          {8, 8, 8, 8},
          {4, 8, 4, 8, 4}, {4, 4, 4, 4, 4, 4}, {4, 4, 4, 4, 4, 4, 2}, {4, 4, 4, 4, 2, 2, 2, 4}};
}

TEST(NoAllocation, KernelsUpToInlineRankSmall) {
  const auto shapes = small_shapes();
  ASSERT_EQ(shapes.size(), INLINE_RANK);
  for (const auto& shape : shapes) {
    Operands o(shape);
    ASSERT_LT(o.count, std::size_t(32768));
    check_kernels(o);
  }
}

/// Identity that records whether it ran off the calling thread (the parallel path was taken).
struct RecordsThread {
  std::thread::id caller;
  std::atomic<bool>* off_caller;
  double operator()(double x) const {
    if (std::this_thread::get_id() != caller) off_caller->store(true, std::memory_order_relaxed);
    return x;
  }
};

TEST(NoAllocation, KernelsLarge) {
  const int threads = Kokkos::DefaultHostExecutionSpace{}.concurrency();
  {
    // The Kokkos::parallel_for path itself (OpenMP/Threads backend) allocates nothing either.
    Operands o({256, 512});
    std::atomic<bool> off_caller{false};
    const RecordsThread f{std::this_thread::get_id(), &off_caller};
    auto call = [&] {
      strided::map_into(StridedView<double>(o.d.data(), o.count, o.dims, o.col),
                        StridedView<const double>(o.a.data(), o.count, o.dims, o.row), f);
    };
    call();
    EXPECT_EQ(count_allocations(call), 0u) << threads << " threads";
    EXPECT_EQ(o.d[1], o.a[512]);
    if (threads > 1) {
      EXPECT_TRUE(off_caller.load()) << "expected the parallel path at " << threads << " threads";
    }
  }
  // Above the inline threshold: with more than one thread these run through Kokkos::parallel_for.
  for (const std::vector<std::size_t>& shape :
       {std::vector<std::size_t>{256, 512}, std::vector<std::size_t>{4, 4, 4, 4, 4, 4, 4, 4},
        std::vector<std::size_t>{40000}}) {
    Operands o(shape);
    ASSERT_GT(o.count, std::size_t(32768));
    check_kernels(o);
  }
}

}  // namespace

namespace {

// A rank-8 permuted copy on a Kokkos::Serial instance (made before counting: creating an
// instance allocates in Kokkos 4), whose source is the same permutation of another buffer,
// reversed twice on one axis, or the destination itself; over a spread of the permutations of
// two shapes.
TEST(NoAllocation, PermutedRank8CopiesOnAnInstance) {
  const Kokkos::Serial serial;
  const Kokkos::DefaultHostExecutionSpace host;
  std::vector<double> from(256), to(256, 0.0);
  std::iota(from.begin(), from.end(), 0.0);
  std::array<std::size_t, 8> perm{0, 1, 2, 3, 4, 5, 6, 7};
  const std::array<std::size_t, 8> dims{2, 2, 2, 2, 2, 2, 2, 2}, mixed{4, 1, 2, 2, 1, 4, 2, 1};
  int checked = 0;
  for (const auto& shape : {dims, mixed}) {
    std::array<std::ptrdiff_t, 8> strides{};  // column-major
    std::ptrdiff_t s = 1;
    for (std::size_t k = 0; k < 8; ++k) {
      strides[k] = s;
      s *= static_cast<std::ptrdiff_t>(shape[k]);
    }
    int n = 0;
    do {
      if (n++ % 97 != 0) continue;  // a spread of the 40320 permutations
      const auto copy = [&](const auto& exec) {
        const auto dst = StridedView<double>(to.data(), to.size(), shape, strides).permute(perm);
        const auto src = StridedView<const double>(from.data(), from.size(), shape, strides)
                             .permute(perm)
                             .reverse(2)
                             .reverse(2);
        strided::copy_into(exec, dst, src);
      };
      copy(serial);
      EXPECT_EQ(count_allocations([&] { copy(serial); }), 0u) << "Serial, permutation " << n;
      copy(host);
      EXPECT_EQ(count_allocations([&] { copy(host); }), 0u) << "host space, permutation " << n;
      // In place: the source is the destination's own layout, reached through the reversals.
      const auto in_place = [&] {
        const auto dst = StridedView<double>(to.data(), to.size(), shape, strides).permute(perm);
        strided::copy_into(serial, dst, dst.reverse(2).reverse(2));
      };
      in_place();
      EXPECT_EQ(count_allocations(in_place), 0u) << "in place, permutation " << n;
      ++checked;
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  EXPECT_EQ(to, from);
  EXPECT_GT(checked, 800);
}

// The first call of an instantiation allocates nothing either (a user's first call in a time
// step): each counted call below is the first of its instantiation in this program (float
// elements, which no other test here uses, and lambdas of their own), after a warm-up of a
// neighbouring instantiation (the same copy from a source of non-const elements). Function-local
// static labels, built on first use, allocated here.
// The first transposed plan of a process reads the machine's caches (the L2 sizes its tiles):
// that reading allocates nothing either.
TEST(NoAllocation, DetectingTheMachine) {
  strided::detail::MachineInfo m;
  EXPECT_EQ(count_allocations([&] { m = strided::detail::detect_machine(); }), 0u);
  EXPECT_GT(m.l2_bytes, 0u);
}

TEST(NoAllocation, FirstCallOfEachInstantiation) {
  const Kokkos::Serial serial;
  std::vector<float> from(256), to(256, 0.0f);
  std::iota(from.begin(), from.end(), 0.0f);
  const std::array<std::size_t, 8> shape{2, 2, 2, 2, 2, 2, 2, 2}, perm{3, 1, 7, 0, 5, 2, 6, 4};
  std::array<std::ptrdiff_t, 8> strides{};
  for (std::size_t k = 0; k < 8; ++k) strides[k] = std::ptrdiff_t(1) << k;
  const auto dst = StridedView<float>(to.data(), to.size(), shape, strides).permute(perm);
  const auto src_mutable =
      StridedView<float>(from.data(), from.size(), shape, strides).permute(perm).reverse(2);
  strided::copy_into(serial, dst, src_mutable.reverse(2));  // the warm-up
  const auto src = StridedView<const float>(from.data(), from.size(), shape, strides).permute(perm);
  EXPECT_EQ(count_allocations([&] { strided::copy_into(serial, dst, src.reverse(2).reverse(2)); }),
            0u);
  EXPECT_EQ(to, from);
  EXPECT_EQ(count_allocations(
                [&] { strided::map_into(serial, dst, src, [](float x) { return x + 1.0f; }); }),
            0u);
  EXPECT_EQ(to[255], 256.0f);
  float sum = 0.0f;
  EXPECT_EQ(count_allocations([&] { sum = strided::sum(serial, src); }), 0u);
  EXPECT_EQ(sum, 255.0f * 256.0f / 2.0f);
  double total = 0.0;
  EXPECT_EQ(count_allocations([&] { total = strided::dot<double>(serial, src, src); }), 0u);
  EXPECT_EQ(total, 255.0 * 256.0 * 511.0 / 6.0);
  float top = 0.0f;
  EXPECT_EQ(count_allocations([&] { top = strided::max(serial, src.reverse(0)); }), 0u);
  EXPECT_EQ(top, 255.0f);
  EXPECT_EQ(count_allocations([&] {
              total = strided::reduce(
                  serial, src, [](float x) { return double(x); },
                  [](double a, double b) { return a + b; }, 0.0);
            }),
            0u);
  EXPECT_EQ(total, 255.0 * 256.0 / 2.0);
}

}  // namespace
