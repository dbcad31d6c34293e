#include "workloads.hpp"

#include <algorithm>

namespace strided_report {

std::vector<Workload> all_workloads() {
  std::vector<Workload> all;
  for (auto group : {permute_workloads, reduce_workloads, elementwise_workloads, small_workloads})
    for (Workload& w : group()) all.push_back(std::move(w));
  // The groups follow the code (permutations, reductions, ...); the report follows the design's
  // numbering. Stable: each group keeps its own order within a number (W9.rank2 before rank12).
  std::stable_sort(all.begin(), all.end(), [](const Workload& a, const Workload& b) {
    return std::stoi(a.id.substr(1)) < std::stoi(b.id.substr(1));
  });
  // Permutations of odd extents, then the contractions (issue 28): families after the W rows.
  for (Workload& w : odd_workloads()) all.push_back(std::move(w));
  for (Workload& w : contract_workloads()) all.push_back(std::move(w));
  // The rows on the default execution space (the GPU on a device build) come last.
  for (Workload& w : device_workloads()) all.push_back(std::move(w));
  return all;
}

}  // namespace strided_report
