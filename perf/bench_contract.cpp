// Tensor contractions (issue 28): the TCCG cases of contract_cases.hpp (column-major, f64,
// scaled extents) through strided::contract, beside the bare GEMM of the same m, n, k on
// operands packed beforehand, plain loops packing then that GEMM, and (small cases) a plain loop
// einsum; and kept plans of 16 x 16 x 16 contractions against one-shot calls. Counters: GFLOP/s
// (2 m n k per iteration). Each result is compared with the bare GEMM's after the timed loop.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "contract_cases.hpp"

namespace {

using strided_contract_cases::Case;
using strided_contract_cases::CaseSpec;

enum class Variant { Contract, BareGemm, PlainPack, EinsumLoop, KeptPlan };

/// The cases' data, built on first use and freed before Kokkos::finalize.
Case& shared_case(const CaseSpec& spec, const std::string& key) {
  using Cache = std::map<std::string, std::unique_ptr<Case>>;
  Cache& cache = strided_bench::shared_data<Cache>();
  std::unique_ptr<Case>& c = cache[key];
  if (!c) {
    c = std::make_unique<Case>(spec);
    c->bare_gemm();  // the reference result
    Kokkos::fence();
    if (!c->bare_matches_einsum()) throw std::runtime_error(key + ": wrong bare GEMM result");
  }
  return *c;
}

void run(benchmark::State& state, const CaseSpec& spec, const std::string& key, Variant v) {
  Case& c = shared_case(spec, key);
  const strided::ContractionPlan plan = c.plan();
  c.poison();
  for (auto _ : state) {
    switch (v) {
      case Variant::Contract:
        c.contract();
        break;
      case Variant::KeptPlan:
        c.contract(plan);
        break;
      case Variant::BareGemm:
        c.bare_gemm();
        Kokkos::fence();
        break;
      case Variant::PlainPack:
        c.plain_pack_gemm();
        break;
      case Variant::EinsumLoop:
        c.einsum_loop();
        break;
    }
    benchmark::ClobberMemory();
  }
  const bool ok = v == Variant::BareGemm ? c.bare_matches_einsum() : c.c_matches_bare();
  if (!ok) {
    state.SkipWithError("wrong result");
    return;
  }
  state.counters["GFLOP/s"] = benchmark::Counter(c.flops() * 1e-9 * double(state.iterations()),
                                                 benchmark::Counter::kIsRate);
  strided_bench::set_bytes(state, c.bytes());
  state.SetLabel(c.describe());
}

void add(const std::string& group, const CaseSpec& spec, const std::string& variant, Variant v,
         bool per_call) {
  const std::string key = group + "/" + spec.name;
  auto* b = benchmark::RegisterBenchmark(
      ("contract/" + key + "/" + variant).c_str(),
      [spec, key, v](benchmark::State& state) { run(state, spec, key, v); });
  b->UseRealTime()->Unit(per_call ? benchmark::kMicrosecond : benchmark::kMillisecond);
  if (!per_call) b->MinTime(0.5);
}

/// Registered before main runs them (strided-bench's main calls RunSpecifiedBenchmarks).
[[maybe_unused]] const bool registered = [] {
  for (const CaseSpec& spec : strided_contract_cases::tccg_cases()) {
    add("tccg", spec, "strided", Variant::Contract, false);
    add("tccg", spec, "bare_gemm", Variant::BareGemm, false);
    add("tccg", spec, "plain_pack_gemm", Variant::PlainPack, false);
  }
  for (const CaseSpec& spec : strided_contract_cases::small_cases()) {
    add("small", spec, "strided", Variant::Contract, false);
    add("small", spec, "bare_gemm", Variant::BareGemm, false);
    add("small", spec, "plain_pack_gemm", Variant::PlainPack, false);
    add("small", spec, "einsum_loop", Variant::EinsumLoop, false);
  }
  for (const CaseSpec& spec : strided_contract_cases::plan_cases()) {
    add("plan16", spec, "strided_kept_plan", Variant::KeptPlan, true);
    add("plan16", spec, "strided_one_shot", Variant::Contract, true);
    add("plan16", spec, "bare_gemm", Variant::BareGemm, true);
  }
  return true;
}();

}  // namespace
