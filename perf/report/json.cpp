// The machine-readable part of the report: one JSON object per line per measured row, so that
// other tools can compare runs and libraries (PERFORMANCE.md, "Method").
#include <cstdio>
#include <string>

#include "print.hpp"

namespace strided_report {

namespace {

/// Ids and variant names are plain identifiers, but escape what JSON requires anyway.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void print_row(const std::string& workload, const Row& row, int threads,
               const std::string& algorithm, const char* extra) {
  std::printf(
      "{\"workload\": %s, \"variant\": %s, \"median_s\": %.6e, \"gbps\": %.4f, \"threads\": "
      "%d, \"algorithm\": %s%s}\n",
      quoted(workload).c_str(), quoted(row.variant).c_str(), row.seconds, row.gbps(), threads,
      quoted(algorithm).c_str(), extra);
}

}  // namespace

void print_json(const std::vector<WorkloadResult>& results, const Limits& limits, int threads,
                const std::string& algorithm) {
  std::printf("\n");
  for (const Row* row : {&limits.copy, &limits.copy_nt, &limits.read, &limits.add, &limits.add_nt,
                         &limits.device_copy, &limits.device_read})
    if (row->seconds > 0)  // the device rows only on a device build
      print_row("limits." + row->variant, Row{"stream", row->seconds, row->bytes, true}, threads,
                algorithm, "");
  for (const WorkloadResult& w : results) {
    for (const Row& row : w.rows) {
      // Call overhead (W8) is not judged against a bandwidth: no limit, no fraction.
      char extra[192];
      if (!w.has_limit())
        std::snprintf(extra, sizeof extra, ", \"per_call\": %s, \"correct\": %s",
                      w.per_call ? "true" : "false", row.correct ? "true" : "false");
      else
        std::snprintf(extra, sizeof extra,
                      ", \"limit\": \"%s\", \"of_limit\": %.4f, \"of_run_limit\": %.4f, "
                      "\"per_call\": false, \"correct\": %s",
                      to_string(w.limit), row.gbps() / w.limit_gbps(limits),
                      row.gbps() / limits.best(w.limit), row.correct ? "true" : "false");
      std::string extras = extra;
      if (row.flops > 0) {  // a contraction: its GFLOP/s as well
        char gflops[48];
        std::snprintf(gflops, sizeof gflops, ", \"gflops\": %.4f", row.gflops());
        extras += gflops;
      }
      print_row(w.id, row, threads, algorithm, extras.c_str());
    }
  }
}

}  // namespace strided_report
