// The closing summary: targets met and missed at this thread count, wrong results, and the
// determinism verdict.
#include <cstdio>
#include <string>

#include "print.hpp"

namespace strided_report {

void print_summary(const std::vector<WorkloadResult>& results, const Limits& limits, int threads,
                   bool quick, const DeterminismReport* determinism) {
  std::size_t judged = 0, met = 0;
  std::string below, wrong, slower;
  for (const WorkloadResult& w : results) {
    const PeerComparison peer = compare_with_best_peer(w);
    if (peer.peer && !peer.faster()) {
      char text[160];
      std::snprintf(text, sizeof text, "\n  %s: %.2fx %s%s", w.id.c_str(), peer.speedup,
                    peer.peer->variant.c_str(),
                    peer.slower_beyond_noise() ? "" : " (within the 5% noise of one run)");
      slower += text;
    }
    for (const Row& row : w.rows)
      if (!row.correct) wrong += "\n  " + w.id + " " + row.variant;
    const std::vector<Verdict> verdicts = judge(w, limits);
    if (verdicts.empty()) continue;  // no target (W8 at 16 elements)
    ++judged;
    if (!w.find("strided")->correct) continue;  // a wrong result meets nothing; listed below
    std::string missed;
    for (const Verdict& v : verdicts)
      if (!v.met) missed += (missed.empty() ? "" : ", ") + v.actual + ", target " + v.target;
    if (missed.empty())
      ++met;
    else
      below += "\n  " + w.id + ": " + missed;
  }
  std::printf("\nSummary at %d thread%s%s:\n", threads, threads == 1 ? "" : "s",
              quick ? " (--quick: reduced sizes, the fractions are indicative only)" : "");
  if (judged > 0)
    std::printf("%zu of %zu workloads meet their PERFORMANCE.md targets.\n", met, judged);
  if (!below.empty()) std::printf("Below target:%s\n", below.c_str());
  std::printf("%s\n", slower.empty() ? "Faster than every peer in every workload."
                                     : ("SLOWER than a peer (speed-up below 1):" + slower).c_str());
  if (wrong.empty())
    std::printf("Every result checked: correct.\n");
  else
    std::printf("WRONG results:%s\n", wrong.c_str());
  if (determinism)
    std::printf("Reproducible reductions: %s.\n",
                determinism->identical() ? "IDENTICAL bits everywhere" : "DIFFERENT bits");
}

}  // namespace strided_report
