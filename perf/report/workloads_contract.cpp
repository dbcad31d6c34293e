// T: tensor contractions (issue 28) with strided::contract, on the TCCG cases of
// perf/contract_cases.hpp (column-major as in TCCG, f64, extents scaled so that one contraction
// takes about 0.1-0.4 s on one core). Each beside the bare GEMM of the same m, n, k on operands
// packed beforehand (the limit of the class: "bare_gemm", its "of limit" column is its time over
// the row's), plain loops packing what needs it then that GEMM ("plain_pack_gemm"), and for two
// small cases a plain loop einsum. Targets (issue 28): within 1.25x of the bare GEMM, never
// slower than plain packing. T.plan: a kept plan of 16 x 16 x 16 contractions against one-shot
// calls, per call. Every result is compared with the bare GEMM's (itself checked on a sample
// against sums over the contracted labels). Without the contract component: no T rows.
#include <string>
#include <vector>

#include "workloads.hpp"

#if defined(STRIDED_REPORT_HAVE_CONTRACT)
#include <Kokkos_Core.hpp>

#include "contract_cases.hpp"

namespace strided_report {

namespace {

using strided_contract_cases::Case;
using strided_contract_cases::CaseSpec;

/// Without its trailing newline (explain's text ends a line).
std::string trimmed(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

void run_tccg(Bench& bench, const CaseSpec& spec, bool with_einsum) {
  Case c(spec);
  bench.note(c.describe());
  const strided::ContractionPlan plan = c.plan();
  bench.explain([&] { return trimmed(strided::explain(plan)); });
  // The reference: the bare GEMM's result, checked on a sample against sums over k.
  c.bare_gemm();
  Kokkos::fence();
  const bool reference = c.bare_matches_einsum();
  auto variant = [&](const std::string& name, auto&& run) {
    c.poison();
    bench.measure(name, c.bytes(), run, [&] { return reference && c.c_matches_bare(); });
    bench.count_flops(c.flops());
  };
  variant("strided", [&] { c.contract(); });
  c.poison_bare();
  bench.measure(
      "bare_gemm", c.bytes(), [&] { c.bare_gemm(); }, [&] { return c.bare_matches_einsum(); });
  bench.count_flops(c.flops());
  variant("plain_pack_gemm", [&] { c.plain_pack_gemm(); });
  if (with_einsum) variant("einsum_loop", [&] { c.einsum_loop(); });
}

/// A kept plan against one-shot calls (planning each time), per call.
void run_plan(Bench& bench, const CaseSpec& spec) {
  Case c(spec);
  bench.note(c.describe());
  const strided::ContractionPlan plan = c.plan();
  bench.explain([&] { return trimmed(strided::explain(plan)); });
  c.bare_gemm();
  Kokkos::fence();
  const bool reference = c.bare_matches_einsum();
  const std::size_t calls = 400;
  auto variant = [&](const std::string& name, auto&& run) {
    c.poison();
    bench.measure_calls(name, c.bytes(), calls, run,
                        [&] { return reference && c.c_matches_bare(); });
    bench.count_flops(c.flops());
  };
  variant("strided", [&] { c.contract(plan); });
  variant("strided_one_shot", [&] { c.contract(); });
  c.poison_bare();
  bench.measure_calls(
      "bare_gemm", c.bytes(), calls, [&] { c.bare_gemm(); },
      [&] { return c.bare_matches_einsum(); });
  bench.count_flops(c.flops());
}

}  // namespace

std::vector<Workload> contract_workloads() {
  std::vector<Workload> list;
  // Issue 28: within 1.25x of the bare GEMM of the same flops; never slower than plain packing.
  const std::vector<Target> tccg{Target::time_ratio(1.25, "bare_gemm"),
                                 Target::time_ratio(1.0, "plain_pack_gemm")};
  for (const CaseSpec& spec : strided_contract_cases::tccg_cases())
    list.push_back({"T." + spec.name, LimitKind::None, tccg,
                    [spec](Bench& bench) { run_tccg(bench, spec, false); }, "bare_gemm"});
  for (const CaseSpec& spec : strided_contract_cases::small_cases())
    list.push_back({"T.small." + spec.name, LimitKind::None, tccg,
                    [spec](Bench& bench) { run_tccg(bench, spec, true); }, "bare_gemm"});
  // A kept plan costs less per call than a one-shot call (the row "strided" is the kept plan).
  for (const CaseSpec& spec : strided_contract_cases::plan_cases())
    list.push_back({"T.plan." + spec.name,
                    LimitKind::None,
                    {Target::time_ratio(1.0, "strided_one_shot")},
                    [spec](Bench& bench) { run_plan(bench, spec); },
                    "bare_gemm"});
  return list;
}

}  // namespace strided_report

#else

namespace strided_report {

std::vector<Workload> contract_workloads() {
  return {};
}

}  // namespace strided_report

#endif
