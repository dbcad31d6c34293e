// The human-readable part of the report: limits, the workload table and the plans.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "limits.hpp"
#include "print.hpp"

namespace strided_report {

std::string format_time(double seconds) {
  char text[32];
  if (seconds < 1e-6)
    std::snprintf(text, sizeof text, "%.1f ns", seconds * 1e9);
  else if (seconds < 1e-3)
    std::snprintf(text, sizeof text, "%.2f us", seconds * 1e6);
  else if (seconds < 1)
    std::snprintf(text, sizeof text, "%.2f ms", seconds * 1e3);
  else
    std::snprintf(text, sizeof text, "%.2f s", seconds);
  return text;
}

void print_limits(const Limits& before, const Limits& after, std::size_t array_bytes,
                  const std::vector<WorkloadResult>& results) {
  const Limits best = best_of(before, after);
  std::printf(
      "\nBandwidth limits in GB/s (STREAM-like over arrays of %zu MiB, measured before and after "
      "the workloads;\nthe limit of a kind is the best of its store variants and of both runs). "
      "A workload's fraction is of\nits own limit: the same kernels measured in turns with its "
      "variants (their range: last column)\n",
      array_bytes >> 20);
  std::printf("  %-6s %8s %14s %8s   %-20s   %s\n", "kind", "plain", "non-temporal", "limit",
              "limit before / after", "workloads' own");
  auto line = [&](const char* kind, const Row& plain, const Row* nt, LimitKind k) {
    char nt_text[16] = "-", own[32] = "-";
    if (nt) std::snprintf(nt_text, sizeof nt_text, "%.2f", nt->gbps());
    std::vector<double> owns;  // the workloads' own limits of this kind
    for (const WorkloadResult& w : results)
      if (w.limit == k && w.own_limits.best(k) > 0) owns.push_back(w.own_limits.best(k));
    if (!owns.empty()) {
      const auto [low, high] = std::minmax_element(owns.begin(), owns.end());
      std::snprintf(own, sizeof own, "%.2f to %.2f", *low, *high);
    }
    char before_after[32];
    std::snprintf(before_after, sizeof before_after, "%.2f / %.2f", before.best(k), after.best(k));
    std::printf("  %-6s %8.2f %14s %8.2f   %-20s   %s\n", kind, plain.gbps(), nt_text, best.best(k),
                before_after, own);
  };
  line("copy", best.copy, &best.copy_nt, LimitKind::Copy);
  line("read", best.read, nullptr, LimitKind::Read);
  line("a+b", best.add, &best.add_nt, LimitKind::Add);
  if (best.has_device()) {  // the D.* rows' limits: the default execution space's copy and read
    std::printf("On %s (the D.* rows), %zu MiB arrays, no non-temporal variant:\n",
                Kokkos::DefaultExecutionSpace::name(), device_limit_bytes >> 20);
    line("dcopy", best.device_copy, nullptr, LimitKind::DeviceCopy);
    line("dread", best.device_read, nullptr, LimitKind::DeviceRead);
  }
}

namespace {

/// One table line, without the trailing blanks of empty last columns.
void print_line(const char* workload, const char* variant, const std::string& median,
                const char* gbps, const char* fraction, const char* speedup,
                const std::string& verdict, const std::string& target) {
  char text[512];
  std::snprintf(text, sizeof text, "%-18s %-24s %11s %8s %10s %9s  %-7s %s", workload, variant,
                median.c_str(), gbps, fraction, speedup, verdict.c_str(), target.c_str());
  std::string line = text;
  line.erase(line.find_last_not_of(' ') + 1);
  std::printf("%s\n", line.c_str());
}

/// ", FASTER than plain_loop (1.51x)": Strided's row against its fastest peer.
std::string versus_best_peer(const WorkloadResult& w) {
  const PeerComparison c = compare_with_best_peer(w);
  if (!c.peer) return "";
  char text[96];
  std::snprintf(text, sizeof text, "%s than %s (%.2fx)", c.faster() ? "FASTER" : "SLOWER",
                c.peer->variant.c_str(), c.speedup);
  return text;
}

}  // namespace

void print_table(const std::vector<WorkloadResult>& results, const Limits& limits) {
  std::printf(
      "\nWorkloads (median of the repetitions; of limit: of the workload's own; speed-up: how "
      "many times faster Strided is\nthan the peer)\n");
  print_line("workload", "variant", "median", "GB/s", "of limit", "speed-up", "verdict",
             "target (Strided's figure); against the fastest peer");
  for (const WorkloadResult& w : results) {
    const Row* strided = w.find("strided");
    const std::vector<Verdict> verdicts = judge(w, limits);
    for (std::size_t r = 0; r < w.rows.size(); ++r) {
      const Row& row = w.rows[r];
      char gbps[16], fraction[24] = "-", speedup[16] = "";
      if (row.flops > 0)  // a contraction: GFLOP/s
        std::snprintf(gbps, sizeof gbps, "%.2fGF/s", row.gflops());
      else
        std::snprintf(gbps, sizeof gbps, "%.2f", row.gbps());
      const Row* limit_row = w.limit_row.empty() ? nullptr : w.find(w.limit_row);
      if (limit_row && !w.per_call)  // the limit is a row of its own: a fraction of its time
        std::snprintf(fraction, sizeof fraction, "%.0f%% %s",
                      100 * limit_row->seconds / row.seconds, w.limit_row.c_str());
      else if (w.has_limit())  // call overhead is not a bandwidth question
        std::snprintf(fraction, sizeof fraction, "%.0f%% %s",
                      100 * row.gbps() / w.limit_gbps(limits), to_string(w.limit));
      if (strided && &row != strided)
        std::snprintf(speedup, sizeof speedup, "%.2fx", row.seconds / strided->seconds);
      std::string verdict, target;
      if (!row.correct) {
        verdict = "WRONG";
      } else if (&row == strided && !verdicts.empty()) {
        verdict = verdicts[0].met ? "meets" : "BELOW";
        target = verdicts[0].target + " (" + verdicts[0].actual + ")";
      }
      if (&row == strided && row.correct) {
        const std::string peer = versus_best_peer(w);
        target += target.empty() || peer.empty() ? peer : "; " + peer;
      }
      print_line(r == 0 ? w.id.c_str() : "", row.variant.c_str(), format_time(row.seconds), gbps,
                 fraction, speedup, verdict, target);
      // Further targets of Strided's row on lines of their own.
      for (std::size_t v = 1; &row == strided && row.correct && v < verdicts.size(); ++v)
        print_line("", "", "", "", "", "", verdicts[v].met ? "meets" : "BELOW",
                   verdicts[v].target + " (" + verdicts[v].actual + ")");
    }
  }
}

void print_notes(const std::vector<WorkloadResult>& results) {
  bool any = false;
  for (const WorkloadResult& w : results) {
    if (w.note.empty()) continue;
    if (!any) std::printf("\nNotes\n");
    any = true;
    std::printf("  %s: %s\n", w.id.c_str(), w.note.c_str());
  }
}

void print_plans(const std::vector<WorkloadResult>& results) {
  std::printf(
      "\nPlans (strided::explain of each workload's plan; the D.* rows: of their kept plans)\n");
  for (const WorkloadResult& w : results)
    if (!w.plan.empty()) std::printf("%s: %s\n", w.id.c_str(), w.plan.c_str());
}

}  // namespace strided_report
