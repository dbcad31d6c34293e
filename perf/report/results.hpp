#ifndef STRIDED_REPORT_RESULTS_HPP
#define STRIDED_REPORT_RESULTS_HPP

// What a run measures, as plain values: the bandwidth limits, and for each workload its rows
// (Strided first, then the peers), its targets and whether it meets them.
#include <string>
#include <utility>
#include <vector>

namespace strided_report {

/// The limit a workload is judged against (PERFORMANCE.md, "Targets"). DeviceCopy, DeviceRead:
/// the default execution space's own copy and read, for the D.* rows when it is not the host's.
enum class LimitKind { Copy, Read, Add, DeviceCopy, DeviceRead, None };

const char* to_string(LimitKind kind);

/// One measured variant of a workload (or one STREAM kernel).
struct Row {
  std::string variant;  ///< "strided" or the peer's name
  double seconds = 0;   ///< median time of one call
  double bytes = 0;     ///< logical bytes of one call: operands read once, outputs written once
  bool correct = true;
  double flops = 0;  ///< floating-point operations of one call (T: 2 m n k); 0 when not counted
  /// A workload row's seconds per call, of every round; `seconds` is their median.
  std::vector<double> samples{};
  double gbps() const { return seconds > 0 ? bytes / seconds * 1e-9 : 0; }
  double gflops() const { return seconds > 0 ? flops / seconds * 1e-9 : 0; }
  /// Adds timed samples of `calls` calls each; `seconds` becomes the median of all.
  void add_samples(const std::vector<double>& timed, double calls = 1);
};

/// The STREAM-like kernels: copy and a+b with plain and with non-temporal stores, and a read;
/// on a device build also the device's copy and read (seconds 0 when not measured).
struct Limits {
  Row copy, copy_nt, read, add, add_nt, device_copy, device_read;
  bool has_device() const { return device_copy.seconds > 0; }
  /// The limit of a kind in GB/s: the best of its store variants.
  double best(LimitKind kind) const;
};

/// Each kernel's faster row of `a` and `b` (limits measured before and after the workloads).
Limits best_of(const Limits& a, const Limits& b);

/// A performance target: a fraction of the workload's limit, or a ceiling on Strided's time
/// relative to a peer's (W8 against a hand loop, the reproducible sum against parallel_reduce).
struct Target {
  enum class Kind { OfLimit, TimeRatio } kind = Kind::OfLimit;
  double value = 0;
  std::string peer;  ///< TimeRatio only

  static Target of_limit(double fraction) { return {Kind::OfLimit, fraction, {}}; }
  static Target time_ratio(double ratio, std::string peer) {
    return {Kind::TimeRatio, ratio, std::move(peer)};
  }
};

struct WorkloadResult {
  std::string id;
  LimitKind limit = LimitKind::Copy;
  std::vector<Target> targets;
  std::vector<Row> rows;  ///< rows[0] is Strided's
  std::string plan;       ///< strided::explain output, with --explain
  std::string note;       ///< shown below the table (T: the sizes and GEMM shape)
  bool per_call = false;  ///< W8: call overhead, shown in ns per call rather than as bandwidth
  /// The row that is this workload's limit rather than a peer (T: "bare_gemm", the GEMM of the
  /// same shape on operands packed beforehand); empty when the limit is a STREAM kernel.
  std::string limit_row;

  const Row* find(const std::string& variant) const;
  bool correct() const;
  /// Whether the rows have a fraction of a limit: not call overhead (W8), not LimitKind::None.
  bool has_limit() const { return !per_call && limit != LimitKind::None; }
  /// The STREAM kernels of its limit's kind, measured in turns with its variants (seconds 0
  /// where not measured: the device's kinds, and workloads without a limit).
  Limits own_limits;
  /// Its limit in GB/s: its own (measured in turns with it) where measured, else the run's.
  double limit_gbps(const Limits& run) const;
};

/// How a workload fares against one of its targets.
struct Verdict {
  bool met = false;
  std::string target;  ///< e.g. ">=85% copy", "<=1.5x hand_loop"
  std::string actual;  ///< e.g. "33% copy", "1.31x hand_loop"
};

/// Strided against its fastest correct peer (every row whose variant does not start with
/// "strided" and is not the workload's limit row: plain loops, Kokkos, Kokkos Kernels). Not for W8
/// (per_call), whose targets bound the call overhead against its hand loop.
struct PeerComparison {
  const Row* peer = nullptr;  ///< null: no peer measured
  double speedup = 0;         ///< peer time / Strided time: above 1 Strided is faster
  bool faster() const { return speedup >= 1; }
  /// Slower by more than the run-to-run noise of these shared machines (5%).
  bool slower_beyond_noise() const { return peer && speedup < 1 / 1.05; }
};

PeerComparison compare_with_best_peer(const WorkloadResult& w);

/// One verdict per target of `w` (none when Strided's row or the peer is missing).
std::vector<Verdict> judge(const WorkloadResult& w, const Limits& limits);

}  // namespace strided_report

#endif
