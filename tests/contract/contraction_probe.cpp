// Prints the bits of a set of tensor contractions (strided::contract) of inexact data (sin/cos),
// one line each: a 128-bit hash of every result bit and three raw elements in hex. The first
// argument names the execution space, as for the determinism probe: "serial", "parallel", "device"
// (the device algorithm on the host-parallel space) or "default" (Kokkos::DefaultExecutionSpace
// with the operands in its memory space: the GPU on a CUDA or HIP build); `--threads=N` sets the
// host thread count. The determinism test (determinism/compare_runs.cmake) runs it in separate
// processes at several thread counts and on Serial, and requires identical output.
//
// The sizes make Kokkos Kernels' GEMM use several blocks of C and the host-parallel space split
// the work across threads (150 x 130 x 170), and one case runs many small batches. The probe's own
// arithmetic (the data) is integer indexing and sin/cos of exact integers: nothing a compiler
// could contract.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <strided/contract.hpp>
#include <strided/strided.hpp>

#include "../determinism/probe_space.hpp"
#include "../test_session.hpp"

namespace {

using Complex = Kokkos::complex<double>;

/// Two independent 64-bit hashes of a byte stream (FNV-1a and a splitmix64 chain over 8-byte
/// words): 128 bits, so that a single changed bit anywhere shows.
class BitsHash {
 public:
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      m_fnv = (m_fnv ^ p[i]) * 1099511628211ull;
      m_word |= std::uint64_t(p[i]) << (8 * m_filled);
      if (++m_filled == 8) flush();
    }
  }
  std::uint64_t fnv() const { return m_fnv; }
  std::uint64_t mix() {
    if (m_filled > 0) flush();
    return m_mix;
  }

 private:
  static std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  void flush() {
    m_mix = splitmix(m_mix ^ m_word) + m_count++;
    m_word = 0;
    m_filled = 0;
  }
  std::uint64_t m_fnv = 1469598103934665603ull;
  std::uint64_t m_mix = 0x243f6a8885a308d3ull;
  std::uint64_t m_word = 0, m_count = 0;
  unsigned m_filled = 0;
};

template <class T>
std::string hex(const T& x) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &x, sizeof(T));
  std::string s;
  char two[3];
  for (std::size_t k = sizeof(T); k-- > 0;) {
    std::snprintf(two, sizeof two, "%02x", bytes[k]);
    s += two;
  }
  return s;
}

/// An operand in memory space `Mem`: a buffer and a strided view of it. `order` lists the axes
/// from the outermost in memory to the innermost; axes in `reversed` walk backwards; `gap`
/// elements of padding follow each axis.
template <class T, class Mem>
struct Tensor {
  Kokkos::View<T*, Mem> storage;
  strided::StridedView<T, strided::Identity, Mem> view;
};

template <class T>
T wave(std::int64_t n, std::int64_t salt) {
  const std::int64_t m = n * 7 + salt * 1000003;  // integer arithmetic: nothing to contract
  if constexpr (std::is_same_v<T, Complex>) {
    return Complex(std::sin(double(m)), std::cos(double(m * 3 + 1)));
  } else {
    return static_cast<T>(std::sin(double(m)));
  }
}

template <class F>
void for_each_index(const std::vector<std::size_t>& extents, F&& f) {
  for (std::size_t e : extents)
    if (e == 0) return;
  std::vector<std::size_t> i(extents.size(), 0);
  while (true) {
    f(i);
    std::size_t k = extents.size();
    while (k > 0) {
      --k;
      if (++i[k] < extents[k]) break;
      i[k] = 0;
      if (k == 0) return;
    }
    if (extents.empty()) return;
  }
}

template <class T, class Mem>
Tensor<T, Mem> make_tensor(const char* label, const std::vector<std::size_t>& extents,
                           const std::vector<std::size_t>& order,
                           const std::vector<std::size_t>& reversed, std::size_t gap,
                           std::int64_t salt) {
  std::vector<std::ptrdiff_t> strides(extents.size(), 0);
  std::ptrdiff_t step = 1, offset = 0;
  for (std::size_t n = order.size(); n-- > 0;) {
    strides[order[n]] = step;
    step *= static_cast<std::ptrdiff_t>(extents[order[n]] + gap);
  }
  for (std::size_t k : reversed) {
    offset += static_cast<std::ptrdiff_t>(extents[k] - 1) * strides[k];
    strides[k] = -strides[k];
  }
  const auto len = static_cast<std::size_t>(step);
  Kokkos::View<T*, Mem> storage(std::string(label), len);
  auto host = Kokkos::create_mirror_view(storage);
  std::int64_t n = 0;
  for_each_index(extents, [&](const std::vector<std::size_t>& i) {
    std::ptrdiff_t o = offset;
    for (std::size_t k = 0; k < i.size(); ++k) o += static_cast<std::ptrdiff_t>(i[k]) * strides[k];
    host(static_cast<std::size_t>(o)) = wave<T>(n++, salt);
  });
  Kokkos::deep_copy(storage, host);
  const strided::StridedView<T, strided::Identity, Mem> view(storage.data(), len, extents, strides,
                                                             offset);
  return {storage, view};
}

/// Prints the result's hash over every logical element (row-major order), its first, middle and
/// last elements.
template <class T, class Mem>
void print(const char* name, const Tensor<T, Mem>& c) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.storage);
  const std::ptrdiff_t origin = c.view.data() - c.storage.data();
  std::vector<std::size_t> extents;
  for (std::size_t k = 0; k < c.view.rank(); ++k) extents.push_back(c.view.extent(k));
  BitsHash hash;
  std::vector<T> values;
  for_each_index(extents, [&](const std::vector<std::size_t>& i) {
    std::ptrdiff_t o = origin;
    for (std::size_t k = 0; k < i.size(); ++k)
      o += static_cast<std::ptrdiff_t>(i[k]) * c.view.stride(k);
    values.push_back(host(static_cast<std::size_t>(o)));
  });
  hash.add(values.data(), values.size() * sizeof(T));
  std::printf("%-24s %zu %016llx%016llx %s %s %s\n", name, values.size(),
              static_cast<unsigned long long>(hash.fnv()),
              static_cast<unsigned long long>(hash.mix()), hex(values.front()).c_str(),
              hex(values[values.size() / 2]).c_str(), hex(values.back()).c_str());
}

template <class Exec, class Mem>
void probe(const Exec& exec) {
  std::printf("space %s\n", Exec::name());  // not compared: the driver drops this line
  using V = std::vector<std::size_t>;
  const V none;
  {  // one GEMM of several blocks: row-major operands
    auto a = make_tensor<double, Mem>("a", {150, 130}, {0, 1}, none, 0, 1);
    auto b = make_tensor<double, Mem>("b", {130, 170}, {0, 1}, none, 0, 2);
    auto c = make_tensor<double, Mem>("c", {150, 170}, {0, 1}, none, 0, 3);
    strided::contract(exec, "ik,kj->ij", c.view, a.view, b.view, 1.0, 0.0);
    print("gemm.f64", c);
    // beta != 0, operands transposed, reversed and gapped in memory, C column-major
    auto at = make_tensor<double, Mem>("at", {130, 150}, {1, 0}, {0}, 3, 4);
    auto bt = make_tensor<double, Mem>("bt", {170, 130}, {0, 1}, {1}, 1, 5);
    auto ct = make_tensor<double, Mem>("ct", {170, 150}, {1, 0}, {1}, 2, 6);
    strided::contract(exec, "ki,jk->ji", ct.view, at.view, bt.view, -0.75, 1.25);
    print("gemm.f64.layouts", ct);
  }
  {  // float, and float with beta
    auto a = make_tensor<float, Mem>("a", {150, 130}, {1, 0}, none, 0, 7);
    auto b = make_tensor<float, Mem>("b", {130, 170}, {0, 1}, {0}, 0, 8);
    auto c = make_tensor<float, Mem>("c", {150, 170}, {0, 1}, none, 1, 9);
    strided::contract(exec, "ik,kj->ij", c.view, a.view, b.view, 1.0f, 0.0f);
    print("gemm.f32", c);
    strided::contract(exec, "ik,kj->ij", c.view, a.view, b.view, 0.3f, -1.0f);
    print("gemm.f32.beta", c);
  }
  {  // complex, conjugated operands
    auto a = make_tensor<Complex, Mem>("a", {90, 80}, {0, 1}, none, 0, 10);
    auto b = make_tensor<Complex, Mem>("b", {80, 100}, {1, 0}, {1}, 0, 11);
    auto c = make_tensor<Complex, Mem>("c", {90, 100}, {0, 1}, none, 0, 12);
    strided::contract(exec, "ik,kj->ij", c.view, a.view.conj(), b.view, Complex(1, 0),
                      Complex(0, 0));
    print("gemm.complex.conj_a", c);
    strided::contract(exec, "ik,kj->ij", c.view, a.view, b.view.conj(), Complex(0.5, -1),
                      Complex(1, 0.25));
    print("gemm.complex.conj_b", c);
  }
  {  // batches: a few large ones, then many small ones in permuted layouts
    auto a = make_tensor<double, Mem>("a", {4, 64, 50}, {0, 1, 2}, none, 0, 13);
    auto b = make_tensor<double, Mem>("b", {4, 50, 70}, {1, 0, 2}, none, 0, 14);
    auto c = make_tensor<double, Mem>("c", {4, 64, 70}, {2, 0, 1}, none, 0, 15);
    strided::contract(exec, "bik,bkj->bij", c.view, a.view, b.view, 1.0, 0.0);
    print("batched.4", c);
    auto sa = make_tensor<double, Mem>("sa", {500, 6, 5}, {1, 0, 2}, {0}, 0, 16);
    auto sb = make_tensor<double, Mem>("sb", {500, 5, 7}, {0, 2, 1}, none, 1, 17);
    auto sc = make_tensor<double, Mem>("sc", {7, 500, 6}, {1, 0, 2}, none, 0, 18);
    strided::contract(exec, "bik,bkj->jbi", sc.view, sa.view, sb.view, 1.0, 0.0);
    print("batched.500.small", sc);
    auto za = make_tensor<Complex, Mem>("za", {300, 4, 6}, {0, 1, 2}, none, 0, 19);
    auto zb = make_tensor<Complex, Mem>("zb", {300, 6, 5}, {0, 2, 1}, none, 0, 20);
    auto zc = make_tensor<Complex, Mem>("zc", {300, 4, 5}, {0, 1, 2}, none, 0, 21);
    strided::contract(exec, "bik,bkj->bij", zc.view, za.view.conj(), zb.view, Complex(1, 0),
                      Complex(0, 0));
    print("batched.300.complex", zc);
  }
  {  // trace axes, multi-axis groups, a full contraction
    auto a = make_tensor<double, Mem>("a", {100, 3, 60}, {2, 0, 1}, none, 0, 22);
    auto b = make_tensor<double, Mem>("b", {2, 60, 80}, {0, 1, 2}, {1}, 0, 23);
    auto c = make_tensor<double, Mem>("c", {100, 80}, {0, 1}, none, 0, 24);
    strided::contract(exec, "ixk,ykj->ij", c.view, a.view, b.view, 1.0, 0.0);
    print("trace", c);
    auto ga = make_tensor<double, Mem>("ga", {30, 12, 11}, {1, 2, 0}, none, 0, 25);
    auto gb = make_tensor<double, Mem>("gb", {11, 12, 40}, {0, 1, 2}, {2}, 0, 26);
    auto gc = make_tensor<double, Mem>("gc", {40, 30}, {0, 1}, none, 0, 27);
    strided::contract(exec, "abc,cbd->da", gc.view, ga.view, gb.view, 1.0, 0.0);
    print("groups.permuted", gc);
    auto fa = make_tensor<double, Mem>("fa", {300, 200}, {1, 0}, none, 0, 28);
    auto fb = make_tensor<double, Mem>("fb", {300, 200}, {0, 1}, {0}, 0, 29);
    auto fc = make_tensor<double, Mem>("fc", {}, {}, none, 0, 30);
    strided::contract(exec, "ij,ij->", fc.view, fa.view, fb.view, 1.0, 0.0);
    print("full", fc);
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  strided_test::KokkosSession kokkos(argc, argv);  // --threads=N
  if (!kokkos.check_concurrency(stderr)) return 1;
  const std::string space = strided_test::probe_space(argc, argv);
  if (space == "serial")
    probe<Kokkos::Serial, Kokkos::HostSpace>(Kokkos::Serial());
  else if (space == "default")
    probe<Kokkos::DefaultExecutionSpace, Kokkos::DefaultExecutionSpace::memory_space>(
        Kokkos::DefaultExecutionSpace());
  else
    probe<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>(
        Kokkos::DefaultHostExecutionSpace());
  return 0;
}
