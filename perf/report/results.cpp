#include "results.hpp"

#include <algorithm>
#include <cstdio>

#include "timing.hpp"

namespace strided_report {

const char* to_string(LimitKind kind) {
  switch (kind) {
    case LimitKind::Copy:
      return "copy";
    case LimitKind::Read:
      return "read";
    case LimitKind::Add:
      return "a+b";
    case LimitKind::DeviceCopy:
      return "dcopy";
    case LimitKind::DeviceRead:
      return "dread";
    case LimitKind::None:
      return "none";
  }
  return "?";
}

double Limits::best(LimitKind kind) const {
  switch (kind) {
    case LimitKind::Copy:
      return std::max(copy.gbps(), copy_nt.gbps());
    case LimitKind::Read:
      return read.gbps();
    case LimitKind::Add:
      return std::max(add.gbps(), add_nt.gbps());
    case LimitKind::DeviceCopy:
      return device_copy.gbps();
    case LimitKind::DeviceRead:
      return device_read.gbps();
    case LimitKind::None:
      return 0;
  }
  return 0;
}

Limits best_of(const Limits& a, const Limits& b) {
  auto faster = [](const Row& x, const Row& y) { return x.gbps() >= y.gbps() ? x : y; };
  return {faster(a.copy, b.copy),
          faster(a.copy_nt, b.copy_nt),
          faster(a.read, b.read),
          faster(a.add, b.add),
          faster(a.add_nt, b.add_nt),
          faster(a.device_copy, b.device_copy),
          faster(a.device_read, b.device_read)};
}

const Row* WorkloadResult::find(const std::string& variant) const {
  for (const Row& r : rows)
    if (r.variant == variant) return &r;
  return nullptr;
}

void Row::add_samples(const std::vector<double>& timed, double calls) {
  for (double t : timed) samples.push_back(t / calls);
  seconds = median(samples);
}

double WorkloadResult::limit_gbps(const Limits& run) const {
  const double own = own_limits.best(limit);
  return own > 0 ? own : run.best(limit);
}

bool WorkloadResult::correct() const {
  return std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.correct; });
}

namespace {

std::string formatted(const char* pattern, double value, const std::string& what) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value, what.c_str());
  return text;
}

}  // namespace

PeerComparison compare_with_best_peer(const WorkloadResult& w) {
  PeerComparison c;
  const Row* strided = w.find("strided");
  // W8 measures the cost of a call against a hand-written loop, with its own ceiling on the ratio
  // (a library call checks its operands); judged by its targets, not by speed.
  if (w.per_call || !strided || !strided->correct || strided->seconds <= 0) return c;
  for (const Row& r : w.rows)
    if (r.variant.rfind("strided", 0) != 0 && r.variant != w.limit_row && r.correct &&
        r.seconds > 0 && (!c.peer || r.seconds < c.peer->seconds))
      c.peer = &r;
  if (c.peer) c.speedup = c.peer->seconds / strided->seconds;
  return c;
}

std::vector<Verdict> judge(const WorkloadResult& w, const Limits& limits) {
  std::vector<Verdict> verdicts;
  const Row* strided = w.find("strided");
  if (!strided) return verdicts;
  for (const Target& t : w.targets) {
    if (t.kind == Target::Kind::OfLimit) {
      if (w.limit == LimitKind::None) continue;  // nothing to take a fraction of
      const double fraction = strided->gbps() / w.limit_gbps(limits);
      verdicts.push_back({fraction >= t.value,
                          formatted(">=%.0f%% %s", 100 * t.value, to_string(w.limit)),
                          formatted("%.0f%% %s", 100 * fraction, to_string(w.limit))});
    } else if (const Row* peer = w.find(t.peer)) {
      const double ratio = strided->seconds / peer->seconds;
      verdicts.push_back({ratio <= t.value, formatted("<=%.2fx %s", t.value, t.peer),
                          formatted("%.2fx %s", ratio, t.peer)});
    }
  }
  return verdicts;
}

}  // namespace strided_report
