// strided-report: the performance report (docs/performance.md). Starts Kokkos at the requested
// thread count, measures the bandwidth limits, runs the selected workloads of PERFORMANCE.md
// beside their peers, shows the determinism contract, and prints the table, plans, JSON and
// summary.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <strided/strided.hpp>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "determinism.hpp"
#include "limits.hpp"
#include "options.hpp"
#include "print.hpp"
#include "progress.hpp"
#include "sizes.hpp"
#include "timing.hpp"
#include "workloads.hpp"

namespace strided_report {

namespace {

#if defined(STRIDED_REPORT_HAVE_KOKKOSKERNELS)
constexpr bool have_kokkoskernels = true;
#else
constexpr bool have_kokkoskernels = false;
#endif

/// strided::Algorithm of an --algorithm value (checked by parse_options).
strided::Algorithm to_algorithm(const std::string& name) {
  if (name == "host") return strided::Algorithm::Host;
  if (name == "device") return strided::Algorithm::Device;
  return strided::Algorithm::Auto;
}

void print_header(const Options& options, int threads, const Repetitions& reps) {
  // The D.* rows run on Kokkos' default execution space: named when it is not the host's.
  const bool device_elsewhere =
      !std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::DefaultHostExecutionSpace>;
  std::printf(
      "strided-report: Strided %s on Kokkos %d.%d.%d, %s with %d thread%s%s%s, "
      "algorithm %s%s;\nin-register transposes compiled for %s (the compiler's target flags)\n",
      strided::version_string, KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100,
      KOKKOS_VERSION % 100, Kokkos::DefaultHostExecutionSpace::name(), threads,
      threads == 1 ? "" : "s", device_elsewhere ? ", D.* rows on " : "",
      device_elsewhere ? Kokkos::DefaultExecutionSpace::name() : "", options.algorithm.c_str(),
      have_kokkoskernels ? ", KokkosBlas peers" : " (built without Kokkos Kernels)",
      strided::detail::simd::isa_name());
  // A figure holds for the machine it ran on: name it.
  const strided::detail::MachineInfo& m = strided::detail::machine();
  std::printf("machine: %s; L1d %zu KiB, L2 %zu KiB, L3 %s (%s); %u hardware threads\n", m.cpu,
              m.l1d_bytes / 1024, m.l2_bytes / 1024,
              m.l3_bytes ? (std::to_string(m.l3_bytes >> 20) + " MiB").c_str() : "none found",
              m.from_sysfs ? "sysfs" : "sysconf or defaults", std::thread::hardware_concurrency());
  const Repetitions round = reps.per_round();
  char count[160];
  if (reps.min == reps.max)
    std::snprintf(count, sizeof count, "one warm-up, then %d repetitions", reps.min);
  else
    std::snprintf(count, sizeof count,
                  "a workload's variants in turn, %d rounds of one warm-up and %d to %d "
                  "repetitions (stopping after %.2f s once %d are done)",
                  reps.rounds, round.min, round.max, round.budget_s, round.min);
  std::printf(
      "%s sizes; %s, median of all quoted;\nbytes = operands read once + outputs written once\n",
      options.quick ? "--quick: reduced" : "PERFORMANCE.md", count);
  std::fflush(stdout);  // before the progress line starts on stderr
}

std::vector<WorkloadResult> run_workloads(const std::vector<Workload>& workloads,
                                          const Options& options, const Sizes& sizes,
                                          const Repetitions& reps, const StreamArrays& arrays,
                                          Progress& progress) {
  std::vector<WorkloadResult> results;
  for (std::size_t k = 0; k < workloads.size(); ++k) {
    const Workload& w = workloads[k];
    WorkloadResult result;
    result.id = w.id;
    result.limit = w.limit;
    result.targets = w.targets;
    result.limit_row = w.limit_row;
    // The variants take turns, round after round, and the workload's own limit after them:
    // drift during the workload reaches them all.
    const Repetitions round_reps = reps.per_round();
    for (int round = 0; round < reps.rounds; ++round) {
      std::string step = "[" + std::to_string(k + 1) + "/" + std::to_string(workloads.size());
      if (reps.rounds > 1)
        step += ", round " + std::to_string(round + 1) + "/" + std::to_string(reps.rounds);
      step += "]";
      Bench bench(result, sizes, round_reps, options.explain && round == 0, progress, step);
      w.run(bench);
      // Not where the limit is a row of the workload's own (T) or there is none (W8's calls).
      if (result.has_limit() && result.limit_row.empty())
        measure_host_limit(result.limit, arrays, round_reps, progress,
                           step + " " + result.id + " own limit: ", result.own_limits);
    }
    results.push_back(std::move(result));
  }
  return results;
}

int run_report(const Options& options) {
  strided::Options defaults;
  defaults.algorithm = to_algorithm(options.algorithm);
  strided::set_default_options(defaults);  // the whole run, before any kernel
  const Sizes sizes = options.quick ? Sizes::quick() : Sizes::full();
  // Workloads: 6 to 12 samples in 3 rounds; the limits (no peers to take turns with) take the
  // same counts in one.
  const Repetitions reps = options.quick ? Repetitions{3, 3, 0.0, 1} : Repetitions{6, 12, 1.0, 3};
  std::vector<Workload> all = all_workloads();
  const bool family = std::any_of(all.begin(), all.end(), [&](const Workload& w) {
    return Options::has_part(w.id, options.only);
  });
  std::vector<Workload> workloads;
  for (Workload& w : all)
    if (options.selects(w.id, family)) workloads.push_back(std::move(w));
  const bool with_determinism = options.selects("determinism", family);
  if (workloads.empty() && !with_determinism) {
    std::fprintf(stderr, "strided-report: no workload id contains '%s'\n", options.only.c_str());
    return 2;
  }

  const int threads = static_cast<int>(Kokkos::DefaultHostExecutionSpace().concurrency());
  print_header(options, threads, reps);
  Progress progress;
  // Limits before and after the workloads: the machine's bandwidth drifts during a run.
  Limits before, after;
  std::vector<WorkloadResult> results;
  if (!workloads.empty()) {
    const StreamArrays arrays(sizes.limit_bytes);
    before = measure_limits(arrays, reps, progress);
    results = run_workloads(workloads, options, sizes, reps, arrays, progress);
    after = measure_limits(arrays, reps, progress);
  }
  std::optional<DeterminismReport> determinism;
  if (with_determinism) determinism = check_determinism(progress);
  progress.clear();

  const Limits limits = best_of(before, after);
  if (!workloads.empty()) {
    print_limits(before, after, sizes.limit_bytes, results);
    print_table(results, limits);
    print_notes(results);
    if (options.explain) print_plans(results);
  }
  if (determinism) print_determinism(*determinism);
  if (options.json) print_json(results, limits, threads, options.algorithm);
  print_summary(results, limits, threads, options.quick, determinism ? &*determinism : nullptr);

  bool ok = !determinism || determinism->identical();
  for (const WorkloadResult& r : results) ok = ok && r.correct();
  return ok ? 0 : 1;
}

}  // namespace

}  // namespace strided_report

int main(int argc, char* argv[]) {
  using namespace strided_report;
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "strided-report: %s\n\n%s", e.what(), usage());
    return 2;
  }
  if (options.help) {
    std::fputs(usage(), stdout);
    return 0;
  }
  std::vector<std::string> args = kokkos_arguments(options, argv[0]);
  std::vector<char*> kokkos_argv;
  for (std::string& a : args) kokkos_argv.push_back(a.data());
  int kokkos_argc = static_cast<int>(kokkos_argv.size());
  kokkos_argv.push_back(nullptr);
  Kokkos::ScopeGuard kokkos(kokkos_argc, kokkos_argv.data());
  try {
    return options.determinism_probe ? run_determinism_probe() : run_report(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "\nstrided-report: %s\n", e.what());
    return 1;
  }
}
