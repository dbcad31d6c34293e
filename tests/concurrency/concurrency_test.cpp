// Kernels called at once from several std::threads, each on its own execution-space instance and
// with its own Options, one kept plan shared by all, and the process defaults replaced while
// they run. Every result is checked: element-wise results against a plain loop, reductions
// against the bits the same call gave on the main thread before the threads started. Built with
// ThreadSanitizer in CI (`bash cmake/run.sh tsan`), where any data race fails the run.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <strided/strided.hpp>

namespace {

constexpr std::size_t ROWS = 96, COLS = 80;
constexpr int ROUNDS = 6;

/// Row-major source data and the per-thread outputs of one worker.
struct Work {
  std::vector<double> a, b, out, sums;
  std::vector<float> f;
  std::string failure;  ///< first mismatch, empty when every result was right
};

bool same_bits(double x, double y) {
  return std::memcmp(&x, &y, sizeof x) == 0;
}

/// The options a worker runs with: each differs in algorithm, tile policy or tile budget.
strided::Options options_of(int worker) {
  strided::Options o;
  o.algorithm = worker % 2 ? strided::Algorithm::Device : strided::Algorithm::Host;
  o.tile_policy = worker % 3 == 2 ? strided::TilePolicy::MDRange : strided::TilePolicy::Range;
  o.planner.block_bytes = worker % 2 ? 8192 : 32768;
  o.planner.max_tile_elements = worker % 2 ? 1024 : 65536;
  o.stage_copies = worker == 3;
  return o;
}

/// One round of kernels on `exec` with `options`, checked; reductions against `expected`.
template <class Exec>
void run_round(const Exec& exec, const strided::Options& options,
               const strided::KernelPlan<2>& shared_plan, const std::vector<double>& expected,
               Work& w) {
  const strided::StridedView<const double> a(w.a.data(), w.a.size(), {ROWS, COLS}, {COLS, 1});
  const strided::StridedView<const double> b(w.b.data(), w.b.size(), {ROWS, COLS}, {COLS, 1});
  // The transpose of a into `out`, read back as a COLS x ROWS row-major matrix.
  const strided::StridedView<double> out(w.out.data(), w.out.size(), {ROWS, COLS}, {1, ROWS});
  const strided::StridedView<double> sums(w.sums.data(), w.sums.size(), {COLS}, {1});
  const strided::StridedView<const float> f(w.f.data(), w.f.size(), {ROWS, COLS}, {COLS, 1});
  const auto fail = [&](const std::string& what, std::size_t i) {
    if (w.failure.empty()) w.failure = what + " wrong at element " + std::to_string(i);
  };

  strided::copy_into(exec, out, a, options);
  for (std::size_t i = 0; i < ROWS; ++i)
    for (std::size_t j = 0; j < COLS; ++j)
      if (w.out[j * ROWS + i] != w.a[i * COLS + j]) fail("copy_into", i * COLS + j);
  strided::zip_map_into(
      exec, out, [](double x, double y) { return x - 2 * y; }, a, b, options);
  for (std::size_t i = 0; i < ROWS; ++i)
    for (std::size_t j = 0; j < COLS; ++j)
      if (w.out[j * ROWS + i] != w.a[i * COLS + j] - 2 * w.b[i * COLS + j])
        fail("zip_map_into", i * COLS + j);
  // The plan every worker shares (made on the main thread): a + b into out.
  strided::zip_map_into(
      exec, shared_plan, out, [](double x) { return x + 1; }, a);
  for (std::size_t i = 0; i < ROWS; ++i)
    for (std::size_t j = 0; j < COLS; ++j)
      if (w.out[j * ROWS + i] != w.a[i * COLS + j] + 1) fail("shared plan", i * COLS + j);

  const double got[] = {strided::sum(exec, a, options), strided::dot(exec, a, b, options),
                        strided::dot<double>(exec, f, f, options),
                        (strided::sum_axes(exec, sums, a, {0}, options), w.sums[7])};
  for (std::size_t k = 0; k < expected.size(); ++k)
    if (!same_bits(got[k], expected[k])) fail("reduction " + std::to_string(k), k);
  // A call without options, under the defaults another thread keeps replacing.
  if (!same_bits(strided::sum(exec, a), strided::sum(exec, a, strided::Options{})))
    fail("sum under changing defaults", 0);
}

std::vector<double> reference_reductions(const Work& w, const strided::Options& options) {
  Work copy = w;
  const Kokkos::Serial serial;
  const strided::StridedView<const double> a(copy.a.data(), copy.a.size(), {ROWS, COLS}, {COLS, 1});
  const strided::StridedView<const double> b(copy.b.data(), copy.b.size(), {ROWS, COLS}, {COLS, 1});
  const strided::StridedView<const float> f(copy.f.data(), copy.f.size(), {ROWS, COLS}, {COLS, 1});
  const strided::StridedView<double> sums(copy.sums.data(), copy.sums.size(), {COLS}, {1});
  return {strided::sum(serial, a, options), strided::dot(serial, a, b, options),
          strided::dot<double>(serial, f, f, options),
          (strided::sum_axes(serial, sums, a, {0}, options), copy.sums[7])};
}

Work make_work(int worker) {
  Work w;
  w.a.resize(ROWS * COLS);
  w.b.resize(ROWS * COLS);
  w.f.resize(ROWS * COLS);
  w.out.assign(ROWS * COLS, 0);
  w.sums.assign(COLS, 0);
  for (std::size_t i = 0; i < w.a.size(); ++i) {
    w.a[i] = 1.0 / static_cast<double>(1 + (i * 7 + static_cast<std::size_t>(worker)) % 101);
    w.b[i] = static_cast<double>(i % 13) - 6.5;
    w.f[i] = static_cast<float>(w.a[i]) * 3;
  }
  return w;
}

// Calls without an instance use one default instance per space, created on the first such
// call: threads whose first instance-less calls come at once must all get that one instance
// (the creation raced; ThreadSanitizer reports it). First in this file, so that no call made it
// before.
TEST(Concurrency, FirstInstanceLessCallsAtOnceShareOneDefaultInstance) {
  constexpr int CALLERS = 4;
  std::atomic<int> ready{0};
  std::vector<const Kokkos::Serial*> seen(CALLERS, nullptr);
  std::vector<std::thread> callers;
  for (int t = 0; t < CALLERS; ++t)
    callers.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < CALLERS) std::this_thread::yield();
      seen[t] = &strided::compat::default_instance<Kokkos::Serial>();
    });
  for (auto& c : callers) c.join();
  for (int t = 1; t < CALLERS; ++t) EXPECT_EQ(seen[t], seen[0]) << "caller " << t;
  // The instance works: a kernel runs on it.
  std::vector<double> a(64, 0.5);
  const strided::StridedView<const double> v(a.data(), a.size(), {8, 8}, {1, 8});
  EXPECT_EQ(strided::sum(*seen[0], v), 32.0);
}

TEST(Concurrency, ThreadsOnOwnInstancesWithOwnOptions) {
  constexpr int WORKERS = 4;
  const strided::Options before = strided::default_options();
  std::vector<Work> work;
  std::vector<std::vector<double>> expected;
  for (int t = 0; t < WORKERS; ++t) {
    work.push_back(make_work(t));
    expected.push_back(reference_reductions(work.back(), options_of(t)));
  }
  // One plan for every worker's `out` and `a` (the same layouts): shared, used concurrently.
  std::vector<double> any_out(ROWS * COLS), any_a(ROWS * COLS);
  const auto shared_plan = strided::make_plan(
      strided::StridedView<double>(any_out.data(), any_out.size(), {ROWS, COLS}, {1, ROWS}),
      strided::StridedView<const double>(any_a.data(), any_a.size(), {ROWS, COLS}, {COLS, 1}));

  std::atomic<bool> stop{false};
  // Replaces the defaults while the workers run (only the algorithm changes, so one-shot calls
  // without options keep their bits).
  std::thread changer([&] {
    strided::Options o = before;
    for (int i = 0; !stop.load(); ++i) {
      o.algorithm = i % 2 ? strided::Algorithm::Device : strided::Algorithm::Host;
      strided::set_default_options(o);
      std::this_thread::yield();
    }
  });
  // Workers 1.. on Kokkos::Serial instances of their own; worker 0 on this thread, with the
  // host-parallel space's instance (Kokkos' Threads backend takes work from the thread that
  // initialized Kokkos only).
  const auto work_on = [&](const auto& exec, int t) {
    const strided::Options options = options_of(t);
    for (int r = 0; r < ROUNDS; ++r) run_round(exec, options, shared_plan, expected[t], work[t]);
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < WORKERS; ++t)
    workers.emplace_back([&, t] { work_on(Kokkos::Serial(Kokkos::NewInstance{}), t); });
  work_on(Kokkos::DefaultHostExecutionSpace(), 0);
  for (auto& w : workers) w.join();
  stop = true;
  changer.join();
  strided::set_default_options(before);
  for (int t = 0; t < WORKERS; ++t) EXPECT_EQ(work[t].failure, "") << "worker " << t;
}

}  // namespace
