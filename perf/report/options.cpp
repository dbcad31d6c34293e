#include "options.hpp"

#include <Kokkos_Core.hpp>
#include <stdexcept>

#include "../kokkos_threads.hpp"

namespace strided_report {

namespace {

int parse_threads(const std::string& text) {
  std::size_t used = 0;
  int n = 0;
  try {
    n = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || n < 1)
    throw std::invalid_argument("--threads needs a positive integer, got '" + text + "'");
  return n;
}

std::string parse_algorithm(const std::string& text) {
  if (text != "auto" && text != "host" && text != "device")
    throw std::invalid_argument("--algorithm needs host, device or auto, got '" + text + "'");
  return text;
}

}  // namespace

const char* usage() {
  return R"(usage: strided-report [options] [--kokkos-...]

Runs the workloads W1-W9 of the design's PERFORMANCE.md on Kokkos' default host execution space
beside their peers and the machine's bandwidth limits measured in the same run, checks every
result, shows the determinism contract, and says which workloads meet their targets. The T rows
(with the contract component) time tensor contractions of the TCCG set beside the bare GEMM of
the same shape and plain packing then that GEMM, and kept plans of small contractions. The D.*
rows run W1.perm3210, W3.transpose, W4.sum_contig, W4.rowsum, W4.colsum and the exact sum
X1.exact_sum on Kokkos' default execution space (the GPU on a CUDA or HIP build), without
targets.

  --threads N    run on N threads (passed to Kokkos); default: Kokkos' own choice
  --only SUBSTR  run only the workloads whose id contains SUBSTR (e.g. W4.colsum,
                 determinism), or, when SUBSTR is a whole dot-separated part of an id
                 (W1, T, D), those with that part; the limits are always measured
  --quick        smaller sizes and 3 repetitions in one round: a smoke test of seconds
  --json         also print one JSON object per measured row
  --explain      also print the plan Strided chose for each workload
  --algorithm A  host, device or auto (default): the default options' algorithm for
                 the whole run; device runs the host workloads through the GPU algorithm
  --help         this text
Arguments starting with --kokkos- go to Kokkos unchanged.
Exit status: 0 when every result is right and the reductions are reproducible, 1 when not,
2 on a usage error. Missing a performance target does not fail the run.
)";
}

Options parse_options(int argc, char* argv[]) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--threads") {
      o.threads = parse_threads(value());
    } else if (arg.rfind("--threads=", 0) == 0) {
      o.threads = parse_threads(arg.substr(10));
    } else if (arg == "--only") {
      o.only = value();
    } else if (arg.rfind("--only=", 0) == 0) {
      o.only = arg.substr(7);
    } else if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--json") {
      o.json = true;
    } else if (arg == "--explain") {
      o.explain = true;
    } else if (arg == "--algorithm") {
      o.algorithm = parse_algorithm(value());
    } else if (arg.rfind("--algorithm=", 0) == 0) {
      o.algorithm = parse_algorithm(arg.substr(12));
    } else if (arg == "--help" || arg == "-h") {
      o.help = true;
    } else if (arg == "--determinism-probe") {
      o.determinism_probe = true;
    } else if (arg.rfind("--kokkos-", 0) == 0) {
      o.kokkos_args.push_back(arg);
    } else {
      throw std::invalid_argument("unknown argument '" + arg + "'");
    }
  }
  return o;
}

std::vector<std::string> kokkos_arguments(const Options& options, const char* program) {
  std::vector<std::string> args{program};
  args.insert(args.end(), options.kokkos_args.begin(), options.kokkos_args.end());
  // A command-line option rather than Kokkos::InitArguments, which Kokkos 4 removed.
  if (options.threads > 0) args.push_back(strided_perf::kokkos_threads_option(options.threads));
  return args;
}

}  // namespace strided_report
