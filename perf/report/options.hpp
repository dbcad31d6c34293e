#ifndef STRIDED_REPORT_OPTIONS_HPP
#define STRIDED_REPORT_OPTIONS_HPP

// The report's command line. Parsed before Kokkos starts, because --threads decides how Kokkos
// is initialized; arguments meant for Kokkos itself (--kokkos-*) are passed through.
#include <algorithm>
#include <string>
#include <vector>

namespace strided_report {

struct Options {
  int threads = 0;       ///< 0: Kokkos' own default (environment, --kokkos-threads)
  std::string only;      ///< run only workloads whose id contains this
  bool quick = false;    ///< smaller sizes, fewer repetitions
  bool json = false;     ///< one JSON object per measured row
  bool explain = false;  ///< the plan chosen for each workload
  bool help = false;
  std::string algorithm = "auto";        ///< --algorithm: host, device or auto (the library's)
  bool determinism_probe = false;        ///< internal: child of the determinism check
  std::vector<std::string> kokkos_args;  ///< --kokkos-* arguments, passed to Kokkos unchanged

  /// Whether a workload (or section) with this id is selected by --only. `family`: --only names
  /// a family exactly, a dot-separated part of some workload id (W1, T, D); then only the ids
  /// with that part are selected ("--only T" runs the T rows, not W8.copyT256). Otherwise the
  /// ids that contain it.
  bool selects(const std::string& id, bool family = false) const {
    if (only.empty()) return true;
    return family ? has_part(id, only) : id.find(only) != std::string::npos;
  }

  /// Whether `part` is one of the dot-separated parts of `id` ("W1" of "D.W1.perm3210").
  static bool has_part(const std::string& id, const std::string& part) {
    for (std::size_t at = 0; at <= id.size();) {
      const std::size_t end = std::min(id.find('.', at), id.size());
      if (id.compare(at, end - at, part) == 0) return true;
      at = end + 1;
    }
    return false;
  }
};

/// Parses argv; throws std::invalid_argument with a message on a bad argument.
Options parse_options(int argc, char* argv[]);

/// The --help text.
const char* usage();

/// argv for Kokkos::initialize: the program name, the --kokkos-* arguments, and the thread count
/// under the option name of the Kokkos version in use. The strings must outlive initialize.
std::vector<std::string> kokkos_arguments(const Options& options, const char* program);

}  // namespace strided_report

#endif
