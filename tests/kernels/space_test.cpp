// Every kernel family with its operands in the memory of the space it runs on: on a GPU build the
// suite runs on Kokkos::DefaultExecutionSpace (device memory, the device algorithm), then on every
// host space. Each result is compared with the same call on Kokkos::Serial over host copies of the
// same buffers: whole buffers byte for byte for element-wise kernels (padding and guard areas
// included), bits for reductions.
//
// Every KOKKOS_LAMBDA is in a free function (nvcc's rules for extended lambdas).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include <strided/strided.hpp>

#include "../exec_spaces.hpp"
#include "test_layouts.hpp"

namespace {

using strided_test::Operand;
using strided_test::random_operand;
using Complex = Kokkos::complex<double>;

/// A 64-byte element: its 32 x 33 transpose block would not fit a GPU's team scratch.
struct Wide {
  double v[8];
  Wide() = default;
  KOKKOS_INLINE_FUNCTION explicit Wide(double x) {
    for (int i = 0; i < 8; ++i) v[i] = x + i;
  }
  KOKKOS_INLINE_FUNCTION bool operator==(const Wide& o) const {
    for (int i = 0; i < 8; ++i)
      if (v[i] != o.v[i]) return false;
    return true;
  }
};

/// A random-layout operand on the host and the same bytes in Exec's memory, with a view of the
/// same layout over each.
template <class T, class Exec>
struct SpaceOperand {
  using Memory = typename Exec::memory_space;
  Operand<T> host;
  Kokkos::View<T*, Memory> storage;
  strided::StridedView<T, strided::Identity, Memory> view;

  SpaceOperand(const std::vector<std::size_t>& extents, std::mt19937& rng, std::size_t salt)
      : host(random_operand<T>(extents, rng)),
        storage(Kokkos::view_alloc(Kokkos::WithoutInitializing, "space_operand"),
                host.buffer.size()),
        view(storage.data(), host.buffer.size(), host.view.extents(), host.view.strides(),
             host.view.data() - host.buffer.data()) {
    if (salt > 0) strided_test::fill(host.view, salt);
    upload();
  }
  SpaceOperand(const SpaceOperand&) = delete;
  SpaceOperand& operator=(const SpaceOperand&) = delete;

  using HostBytes = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  HostBytes host_bytes() { return HostBytes(host.buffer.data(), host.buffer.size()); }
  void upload() { Kokkos::deep_copy(storage, host_bytes()); }
  /// The space's bytes, as a host vector.
  std::vector<T> download() const {
    std::vector<T> out(host.buffer.size());
    Kokkos::deep_copy(HostBytes(out.data(), out.size()), storage);
    return out;
  }
};

template <class T>
void expect_same_bytes(const std::vector<T>& got, const std::vector<T>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k)
    ASSERT_EQ(std::memcmp(&got[k], &want[k], sizeof(T)), 0) << "element " << k << " of the buffer";
}

/// The reference: f(options) on Serial under the host algorithm, whatever the run's algorithm
/// (ctest also runs this suite with --strided-algorithm=device, which the space under test then
/// uses through the default options).
template <class F>
auto reference(F&& f) {
  strided::Options host = strided::default_options();
  host.algorithm = strided::Algorithm::Host;
  return f(static_cast<const strided::Options&>(host));
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class Exec>
class SpaceTest : public ::testing::Test {};
TYPED_TEST_SUITE(SpaceTest, strided_test::KernelSpaces, strided_test::ExecSpaceNames);

// ---- element-wise -------------------------------------------------------------------------------

/// Runs `kernel(exec, dst, srcs...)` on Exec with the space's views and on Serial with the host
/// views, and compares the destinations' whole buffers.
template <class Exec, class T, class Kernel, class... Srcs>
void check_elementwise(const Kernel& kernel, SpaceOperand<T, Exec>& dst, Srcs&... srcs) {
  kernel(Exec(), dst.view, srcs.view...);
  Exec().fence();
  reference([&](const strided::Options& host) {
    kernel(Kokkos::Serial(), dst.host.view, srcs.host.view..., host);
  });
  expect_same_bytes(dst.download(), dst.host.buffer);
}

struct CopyKernel {
  template <class E, class D, class S>
  void operator()(const E& exec, const D& dst, const S& src,
                  const strided::Options& o = strided::default_options()) const {
    strided::copy_into(exec, dst, src, o);
  }
};

template <class Exec>
void copies_at_many_ranks() {
  std::mt19937 rng(101);
  for (std::size_t rank : {0, 1, 2, 3, 4, 5, 6, 8, 12, 25}) {
    for (int trial = 0; trial < 4; ++trial) {
      SCOPED_TRACE(::testing::Message() << "rank " << rank << " trial " << trial);
      const auto extents = strided_test::random_extents(rank, 3000, rng, trial % 2 == 1);
      SpaceOperand<double, Exec> dst(extents, rng, 0), src(extents, rng, 3);
      check_elementwise(CopyKernel{}, dst, src);
    }
  }
  // Large: several tiles per call, a flat plan of many rows per team, transposes and gathers.
  for (const auto& extents : std::vector<std::vector<std::size_t>>{
           {1 << 18}, {513, 511}, {64, 48, 33}, {2, 3, 4, 5, 6, 7, 8}, {8, 8, 8, 8, 8, 8}}) {
    SpaceOperand<double, Exec> dst(extents, rng, 0), src(extents, rng, 5);
    check_elementwise(CopyKernel{}, dst, src);
    SpaceOperand<float, Exec> fdst(extents, rng, 0), fsrc(extents, rng, 6);
    check_elementwise(CopyKernel{}, fdst, fsrc);
  }
}
TYPED_TEST(SpaceTest, CopiesAtManyRanksAndLayouts) {
  copies_at_many_ranks<TypeParam>();
}

template <class Exec>
void wide_elements() {
  std::mt19937 rng(102);
  for (const auto& extents :
       std::vector<std::vector<std::size_t>>{{100, 70}, {40, 50, 3}, {1000}}) {
    SpaceOperand<Wide, Exec> dst(extents, rng, 0), src(extents, rng, 0);
    for (std::size_t k = 0; k < src.host.buffer.size(); ++k)
      for (int i = 0; i < 8; ++i) src.host.buffer[k].v[i] = static_cast<double>(k * 8 + i);
    src.upload();
    check_elementwise(CopyKernel{}, dst, src);
  }
  // Transposed layouts without random choices: dst row-major, src column-major.
  std::vector<std::size_t> e = {96, 80};
  Kokkos::View<Wide**, Kokkos::LayoutRight, typename Exec::memory_space> d("d", e[0], e[1]);
  Kokkos::View<Wide**, Kokkos::LayoutLeft, typename Exec::memory_space> s("s", e[0], e[1]);
  auto hs = Kokkos::create_mirror_view(s);
  for (std::size_t i = 0; i < e[0]; ++i)
    for (std::size_t j = 0; j < e[1]; ++j)
      for (int k = 0; k < 8; ++k) hs(i, j).v[k] = static_cast<double>((i * e[1] + j) * 8 + k);
  Kokkos::deep_copy(s, hs);
  strided::copy_into(Exec(), d, s);
  auto hd = Kokkos::create_mirror_view(d);
  Kokkos::deep_copy(hd, d);
  for (std::size_t i = 0; i < e[0]; ++i)
    for (std::size_t j = 0; j < e[1]; ++j) ASSERT_TRUE(hd(i, j) == hs(i, j)) << i << ", " << j;
}
TYPED_TEST(SpaceTest, ElementsTooLargeForScratchBlocks) {
  wide_elements<TypeParam>();
}

struct ArithmeticKernels {
  template <class E, class D, class S>
  void operator()(const E& exec, const D& dst, const S& src,
                  const strided::Options& o = strided::default_options()) const {
    strided::add(exec, dst, src, o);
    strided::axpy(exec, dst, src, 0.375, o);
    strided::mul(exec, dst, src, o);
    strided::add(exec, dst, src.reverse(0), o);
  }
};
struct ScaleKernel {
  template <class E, class D, class S>
  void operator()(const E& exec, const D& dst, const S& src,
                  const strided::Options& o = strided::default_options()) const {
    strided::copy_scale(exec, dst, src.permute({1, 0, 2}), 1.5, o);
  }
};
struct ConjKernel {
  template <class E, class D, class S>
  void operator()(const E& exec, const D& dst, const S& src,
                  const strided::Options& o = strided::default_options()) const {
    strided::copy_conj(exec, dst, src.conj(), o);
    strided::axpy(exec, dst, src.conj(), Complex(0.5, -0.25), o);
  }
};

template <class Exec>
void arithmetic() {
  std::mt19937 rng(103);
  for (const auto& extents : std::vector<std::vector<std::size_t>>{{37, 41, 5}, {300, 300, 3}}) {
    SpaceOperand<double, Exec> dst(extents, rng, 7), src(extents, rng, 8);
    check_elementwise(ArithmeticKernels{}, dst, src);
    const std::vector<std::size_t> swapped = {extents[1], extents[0], extents[2]};
    SpaceOperand<double, Exec> sdst(extents, rng, 0), ssrc(swapped, rng, 9);
    check_elementwise(ScaleKernel{}, sdst, ssrc);
    SpaceOperand<Complex, Exec> cdst(extents, rng, 10), csrc(extents, rng, 11);
    check_elementwise(ConjKernel{}, cdst, csrc);
  }
}
TYPED_TEST(SpaceTest, AddAxpyMulScaleConj) {
  arithmetic<TypeParam>();
}

template <class D, class A, class B>
void fused_multiply_into(const D& dst, const A& a, const B& b,
                         const strided::Options& o = strided::default_options()) {
  strided::zip_map_into(
      typename D::memory_space::execution_space(), dst,
      KOKKOS_LAMBDA(double x, double y, double z) { return x * 0.5 + y - z; }, dst, a, b, o);
}
struct ZipKernel {
  template <class E, class D, class A, class B>
  void operator()(const E& exec, const D& dst, const A& a, const B& b,
                  const strided::Options& o = strided::default_options()) const {
    strided::zip_map_into(exec, dst, strided::detail::AddFn{}, a, b, o);
    strided::map_into(exec, dst, a.reverse(1), strided::detail::ConjFn{}, o);
  }
};

template <class Exec>
void zips() {
  std::mt19937 rng(104);
  for (const auto& extents : std::vector<std::vector<std::size_t>>{{17, 19, 23}, {129, 257}}) {
    SpaceOperand<double, Exec> dst(extents, rng, 1), a(extents, rng, 2), b(extents, rng, 3);
    check_elementwise(ZipKernel{}, dst, a, b);
  }
}
TYPED_TEST(SpaceTest, ZipAndMapOfBuiltInFunctions) {
  zips<TypeParam>();
}

/// A device lambda through zip_map_into, compared with the same lambda on the host (x * 0.5 is
/// exact, so a contraction into a fused multiply-add cannot change the bits).
template <class Exec>
void lambdas() {
  std::mt19937 rng(105);
  const std::vector<std::size_t> extents = {61, 67, 3};
  SpaceOperand<double, Exec> dst(extents, rng, 1), a(extents, rng, 2), b(extents, rng, 3);
  fused_multiply_into(dst.view, a.view, b.view);
  Exec().fence();
  reference([&](const strided::Options& host) {
    fused_multiply_into(dst.host.view, a.host.view, b.host.view, host);
  });
  expect_same_bytes(dst.download(), dst.host.buffer);
}
TYPED_TEST(SpaceTest, UserLambdas) {
  lambdas<TypeParam>();
}

struct SymmetrizeKernel {
  template <class E, class D, class S>
  void operator()(const E& exec, const D& dst, const S& src,
                  const strided::Options& o = strided::default_options()) const {
    strided::symmetrize_into(exec, dst, src, o);
    strided::symmetrize_into(exec, src, src, o);
  }
};
struct HermitianKernel {
  template <class E, class D, class S>
  void operator()(const E& exec, const D& dst, const S& src,
                  const strided::Options& o = strided::default_options()) const {
    strided::symmetrize_conj_into(exec, dst, src, o);
  }
};

template <class Exec>
void symmetrize() {
  std::mt19937 rng(106);
  for (std::size_t n : {5, 130, 300}) {
    SpaceOperand<double, Exec> dst({n, n}, rng, 0), src({n, n}, rng, 4);
    check_elementwise(SymmetrizeKernel{}, dst, src);
    expect_same_bytes(src.download(), src.host.buffer);  // in place
    SpaceOperand<Complex, Exec> cdst({n, n}, rng, 0), csrc({n, n}, rng, 5);
    check_elementwise(HermitianKernel{}, cdst, csrc);
  }
}
TYPED_TEST(SpaceTest, SymmetrizeInAndOutOfPlace) {
  symmetrize<TypeParam>();
}

// ---- reductions ---------------------------------------------------------------------------------

/// Inexact values: any other fold order changes low bits.
template <class T, class Exec>
void fill_inexact(SpaceOperand<T, Exec>& x, double salt) {
  std::size_t n = 0;
  strided_test::for_each_index(x.host.view.extents(), [&](const std::vector<std::size_t>& i) {
    const double v = std::sin(salt + 0.37 * static_cast<double>(n++));
    strided_test::write(x.host.view, i, static_cast<T>(v));
  });
  x.upload();
}

template <class D, class S>
void max_abs_axes(const D& dst, const S& src, std::size_t axis,
                  const strided::Options& o = strided::default_options()) {
  strided::reduce_axes(
      typename D::memory_space::execution_space(), dst, src, {axis},
      KOKKOS_LAMBDA(double x) { return x < 0 ? -x : x; },
      KOKKOS_LAMBDA(double x, double y) { return x < y ? y : x; }, 0.0, o);
}
/// The map ends in a division: a final multiply could be contracted into the fold's add, and user
/// functions are compiled as users compile them (API.md), so its bits would then depend on how
/// each algorithm inlines it (this suite also builds with -O3 -march=native).
template <class S>
double sum_of_cubes(const S& src, const strided::Options& o = strided::default_options()) {
  return strided::reduce(
      typename S::memory_space::execution_space(), src,
      KOKKOS_LAMBDA(double x) { return x * x * x / 3.0; },
      KOKKOS_LAMBDA(double x, double y) { return x + y; }, 0.0, o);
}

template <class Exec>
void full_reductions() {
  std::mt19937 rng(107);
  const Exec exec;
  const Kokkos::Serial serial;
  // One tile, a few tiles, many tiles (several TeamFold teams), strided and permuted.
  for (const auto& extents : std::vector<std::vector<std::size_t>>{
           {256}, {3000}, {1 << 20}, {700, 900}, {33, 65, 129}, {2, 3, 4, 5, 6, 7, 8, 9}}) {
    SCOPED_TRACE(::testing::Message()
                 << "extents of rank " << extents.size() << ", first " << extents[0]);
    SpaceOperand<double, Exec> a(extents, rng, 0), b(extents, rng, 0);
    SpaceOperand<float, Exec> f(extents, rng, 0), g(extents, rng, 0);
    fill_inexact(a, 1.0);
    fill_inexact(b, 2.0);
    fill_inexact(f, 3.0);
    fill_inexact(g, 4.0);
    // Every result as a double (exact for floats), in a fixed order.
    const auto results = [](const auto& ex, const auto& x, const auto& y, const auto& p,
                            const auto& q, const strided::Options& o) {
      return std::vector<double>{
          strided::sum(ex, x, o), strided::sum_squares(ex, x, o), strided::max(ex, x, o),
          strided::min(ex, x, o), strided::product(ex, p, o), strided::dot(ex, x, y, o),
          strided::dot<double>(ex, p, q, o), strided::dot(ex, p, q.reverse(0), o),
          sum_of_cubes(x, o),
          // The exact tier, through the same algorithm on a device.
          strided::sum(ex, x, strided::exact, o), strided::sum_squares(ex, x, strided::exact, o),
          strided::dot(ex, x, y.reverse(0), strided::exact, o),
          strided::sum<double>(ex, p, strided::exact, o),
          strided::dot<double>(ex, p, q, strided::exact, o)};
    };
    const auto got = results(exec, a.view, b.view, f.view, g.view, strided::default_options());
    const auto want = reference([&](const strided::Options& host) {
      return results(serial, a.host.view, b.host.view, f.host.view, g.host.view, host);
    });
    for (std::size_t k = 0; k < want.size(); ++k)
      EXPECT_TRUE(same_bits(got[k], want[k]))
          << "result " << k << ": " << got[k] << " vs " << want[k];
  }
}
TYPED_TEST(SpaceTest, FullReductionsGiveSerialBits) {
  full_reductions<TypeParam>();
}

template <class Exec>
void axis_reductions() {
  std::mt19937 rng(108);
  const Exec exec;
  const Kokkos::Serial serial;
  // Few long reductions (buffered partials), many short ones (one output per lane), a rank-0
  // result, and permuted sources.
  for (const auto& extents : std::vector<std::vector<std::size_t>>{
           {3, 200000}, {300, 700}, {700, 300}, {40, 50, 60}, {1 << 16}}) {
    SCOPED_TRACE(::testing::Message()
                 << "extents of rank " << extents.size() << ", first " << extents[0]);
    SpaceOperand<double, Exec> a(extents, rng, 0), b(extents, rng, 0);
    fill_inexact(a, 5.0);
    fill_inexact(b, 6.0);
    for (std::size_t axis = 0; axis < extents.size(); ++axis) {
      std::vector<std::size_t> kept;
      for (std::size_t k = 0; k < extents.size(); ++k)
        if (k != axis) kept.push_back(extents[k]);
      SpaceOperand<double, Exec> d(kept, rng, 0);
      const auto check = [&](const char* what) {
        SCOPED_TRACE(::testing::Message() << what << " over axis " << axis);
        expect_same_bytes(d.download(), d.host.buffer);
      };
      strided::sum_axes(exec, d.view, a.view, {axis});
      reference([&](const strided::Options& host) {
        strided::sum_axes(serial, d.host.view, a.host.view, {axis}, host);
      });
      check("sum_axes");
      strided::sum_squares_axes(exec, d.view, a.view, {axis});
      reference([&](const strided::Options& host) {
        strided::sum_squares_axes(serial, d.host.view, a.host.view, {axis}, host);
      });
      check("sum_squares_axes");
      strided::dot_axes(exec, d.view, a.view, b.view, {axis});
      reference([&](const strided::Options& host) {
        strided::dot_axes(serial, d.host.view, a.host.view, b.host.view, {axis}, host);
      });
      check("dot_axes");
      strided::dot_axes(exec, d.view, a.view, b.view, {axis}, strided::exact);
      reference([&](const strided::Options& host) {
        strided::dot_axes(serial, d.host.view, a.host.view, b.host.view, {axis}, strided::exact,
                          host);
      });
      check("dot_axes exact");
      strided::sum_axes(exec, d.view, a.view, {axis}, strided::exact);
      reference([&](const strided::Options& host) {
        strided::sum_axes(serial, d.host.view, a.host.view, {axis}, strided::exact, host);
      });
      check("sum_axes exact");
      strided::max_axes(exec, d.view, a.view, {axis});
      reference([&](const strided::Options& host) {
        strided::max_axes(serial, d.host.view, a.host.view, {axis}, host);
      });
      check("max_axes");
      max_abs_axes(d.view, a.view, axis);
      reference([&](const strided::Options& host) {
        max_abs_axes(d.host.view, a.host.view, axis, host);
      });
      check("reduce_axes with lambdas");
      // reduce_axis returns its array in the space's memory.
      const auto r = strided::reduce_axis(exec, a.view, axis, strided::detail::Convert<double>{},
                                          strided::detail::Plus{}, 0.0);
      const auto h = reference([&](const strided::Options& host) {
        return strided::reduce_axis(serial, a.host.view, axis, strided::detail::Convert<double>{},
                                    strided::detail::Plus{}, 0.0, host);
      });
      static_assert(
          std::is_same_v<typename decltype(r)::memory_space, typename Exec::memory_space>);
      auto back = Kokkos::create_mirror_view(r.storage());
      Kokkos::deep_copy(back, r.storage());
      ASSERT_EQ(back.extent(0), h.size());
      for (std::size_t k = 0; k < h.size(); ++k)
        ASSERT_TRUE(same_bits(back(k), h.data()[k])) << "reduce_axis element " << k;
    }
    // Every axis at once: a rank-0 destination.
    SpaceOperand<double, Exec> all(std::vector<std::size_t>{}, rng, 0);
    std::vector<std::size_t> axes(extents.size());
    for (std::size_t k = 0; k < axes.size(); ++k) axes[k] = k;
    strided::sum_axes(exec, all.view, a.view, axes);
    reference([&](const strided::Options& host) {
      strided::sum_axes(serial, all.host.view, a.host.view, axes, host);
    });
    expect_same_bytes(all.download(), all.host.buffer);
  }
}
TYPED_TEST(SpaceTest, AxisReductionsGiveSerialBits) {
  axis_reductions<TypeParam>();
}

// ---- across memory spaces -----------------------------------------------------------------------

template <class Exec>
void across_spaces() {
  std::mt19937 rng(109);
  for (const auto& extents :
       std::vector<std::vector<std::size_t>>{{30, 40, 50}, {1 << 16}, {7, 1, 9}}) {
    // Host source, space destination (any layouts), then back into another host layout.
    SpaceOperand<double, Exec> there(extents, rng, 0);
    auto src = random_operand<double>(extents, rng);
    strided_test::fill(src.view, 12);
    strided::copy_into(Exec(), there.view, src.view);
    reference([&](const strided::Options& host) {
      strided::copy_into(Kokkos::Serial(), there.host.view, src.view, host);
    });
    expect_same_bytes(there.download(), there.host.buffer);
    auto back = random_operand<double>(extents, rng);
    strided::copy_into(Exec(), back.view, there.view.conj());
    strided_test::for_each_index(extents, [&](const std::vector<std::size_t>& i) {
      ASSERT_EQ(strided_test::read(back.view, i), strided_test::read(src.view, i));
    });
  }
}
TYPED_TEST(SpaceTest, CopiesBetweenHostAndSpaceMemory) {
  across_spaces<TypeParam>();
}

// ---- kept plans ---------------------------------------------------------------------------------

/// A kept plan runs on a space from one copy of itself in the space's memory, made at its first
/// run there (host spaces read it in place: no copy). Runs after the first give the bits of
/// Serial too, on operands other than the ones the plan was made with.
template <class Exec>
void kept_plans() {
  std::mt19937 rng(110);
  const Exec exec;
  const Kokkos::Serial serial;
  const std::size_t copies_per_plan = strided::compat::is_host_space_v<Exec> ? 0 : 1;
  const std::vector<std::size_t> extents{96, 70, 3};
  SpaceOperand<double, Exec> src(extents, rng, 0);
  const std::vector<std::size_t> kept_extents{96, 3};
  SpaceOperand<double, Exec> d(kept_extents, rng, 0);
  const auto transposed = src.view.permute({2, 0, 1});
  const std::vector<std::size_t> t_extents(transposed.extents().begin(),
                                           transposed.extents().end());
  SpaceOperand<double, Exec> t(t_extents, rng, 0);
  const auto copy_plan = strided::make_plan(t.view, transposed);
  const auto sum_plan = strided::make_plan(src.view);
  const auto axes_plan = strided::make_axes_plan(d.view, src.view, {1});
  for (int run = 0; run < 3; ++run) {
    SCOPED_TRACE(::testing::Message() << "run " << run);
    fill_inexact(src, 7.0 + run);  // a plan holds layouts, not data
    strided::copy_into(exec, copy_plan, t.view, src.view.permute({2, 0, 1}));
    reference([&](const strided::Options& host) {
      strided::copy_into(serial, t.host.view, src.host.view.permute({2, 0, 1}), host);
    });
    expect_same_bytes(t.download(), t.host.buffer);
    const double got = strided::sum(exec, sum_plan, src.view);
    const double exact = strided::sum(exec, sum_plan, src.view, strided::exact);
    reference([&](const strided::Options& host) {
      EXPECT_TRUE(same_bits(got, strided::sum(serial, src.host.view, host)));
      EXPECT_TRUE(same_bits(exact, strided::sum(serial, src.host.view, strided::exact, host)));
    });
    strided::sum_axes(exec, axes_plan, d.view, src.view);
    reference([&](const strided::Options& host) {
      strided::sum_axes(serial, d.host.view, src.host.view, {1}, host);
    });
    expect_same_bytes(d.download(), d.host.buffer);
    strided::sum_axes(exec, axes_plan, d.view, src.view, strided::exact);
    reference([&](const strided::Options& host) {
      strided::sum_axes(serial, d.host.view, src.host.view, {1}, strided::exact, host);
    });
    expect_same_bytes(d.download(), d.host.buffer);
    // The full reduction's plan serves its exact tier from the same copy, and the axis plan's
    // layout both axis folds.
    EXPECT_EQ(copy_plan.state().copies->size(), copies_per_plan);
    EXPECT_EQ(sum_plan.state().copies->size(), copies_per_plan);
    EXPECT_EQ(axes_plan.state().copies->size(), copies_per_plan);
  }
}
TYPED_TEST(SpaceTest, KeptPlansRunFromOneCopyPerSpace) {
  kept_plans<TypeParam>();
}

}  // namespace
