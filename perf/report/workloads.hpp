#ifndef STRIDED_REPORT_WORKLOADS_HPP
#define STRIDED_REPORT_WORKLOADS_HPP

// The workloads of PERFORMANCE.md. Each builds its data when it runs and frees it when done,
// so that the report never holds more than one workload's arrays (and the limits' three).
#include <functional>
#include <string>
#include <vector>

#include "bench.hpp"
#include "results.hpp"

namespace strided_report {

struct Workload {
  std::string id;  ///< "W1.perm3210": PERFORMANCE.md's id, with the size for W8; "D." prefixed
                   ///< for the rows on the default execution space
  LimitKind limit;
  std::vector<Target> targets;
  /// Measures Strided ("strided", first) and then each peer through `bench`.
  std::function<void(Bench&)> run;
  std::string limit_row = {};  ///< the row that is the limit, not a peer (T: "bare_gemm")
};

std::vector<Workload> permute_workloads();      ///< W1, W2, W3, W9 (workloads_permute.cpp)
std::vector<Workload> odd_workloads();          ///< O (workloads_permute.cpp)
std::vector<Workload> reduce_workloads();       ///< W4, W6 (workloads_reduce.cpp)
std::vector<Workload> elementwise_workloads();  ///< W5, W7 (workloads_elementwise.cpp)
std::vector<Workload> small_workloads();        ///< W8 (workloads_small.cpp)
/// T: contractions of the TCCG set beside the bare GEMM of the same shape, plain packing then
/// that GEMM, and kept plans of small operands (workloads_contract.cpp; none when the report is
/// built without the contract component)
std::vector<Workload> contract_workloads();
/// D.W1, D.W3, D.W4, D.X1: on Kokkos::DefaultExecutionSpace, no targets (workloads_device.cpp)
std::vector<Workload> device_workloads();

/// All of them, in the order of PERFORMANCE.md (W1 to W9), then the T rows, then the D.* rows.
std::vector<Workload> all_workloads();

}  // namespace strided_report

#endif
