// Benchmark main: Kokkos owns the threads; after the runs, each result is printed as a fraction
// of the copy bandwidth measured in the same run (the `limit/copy` benchmarks).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace {

/// Console output as usual, plus a closing table of GB/s relative to the same-run limits.
class FractionReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      auto it = run.counters.find("GB/s");
      if (it == run.counters.end() || run.error_occurred) continue;
      // With --benchmark_repetitions only the medians enter the table.
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "median") continue;
      const std::string name = run.benchmark_name();
      m_gbps.emplace_back(name, it->second.value);
      if (name.rfind("limit/", 0) == 0) {
        double& best = m_limit[name.substr(6, name.find('/', 6) - 6)];
        if (it->second.value > best) best = it->second.value;
      }
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const double copy = std::max(m_limit["copy"], m_limit["copy_nt"]);
    const double read = m_limit["read"], add = std::max(m_limit["add"], m_limit["add_nt"]);
    if (copy <= 0) return;
    std::printf(
        "\nSame-run limits (copy and a+b: best of plain and non-temporal stores): copy %.2f GB/s, "
        "read %.2f, a+b %.2f\n%-56s %8s %8s %8s %8s\n",
        copy, read, add, "benchmark", "GB/s", "of copy", "of read", "of a+b");
    for (const auto& [name, gbps] : m_gbps)
      std::printf("%-56s %8.2f %7.0f%% %7.0f%% %7.0f%%\n", name.c_str(), gbps, 100 * gbps / copy,
                  read > 0 ? 100 * gbps / read : 0.0, add > 0 ? 100 * gbps / add : 0.0);
  }

 private:
  std::vector<std::pair<std::string, double>> m_gbps;
  std::map<std::string, double> m_limit;
};

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  benchmark::Initialize(&argc, argv);
  FractionReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  for (auto& release : strided_bench::finalizers()) release();
  return 0;
}
