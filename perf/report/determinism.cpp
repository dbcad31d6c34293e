#include "determinism.hpp"

#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <strided/strided.hpp>

namespace strided_report {

namespace {

constexpr std::size_t count = std::size_t(1) << 22;

/// splitmix64: well-mixed bits from an index, the same in every process.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// A signed mantissa of `bits` bits scaled by 2^e, e in [low, low + span): mixed signs and
/// magnitudes, so that every order of the additions rounds differently.
double awkward(std::uint64_t h, int bits, int low, int span) {
  const auto mantissa =
      static_cast<std::int64_t>(h >> (64 - bits)) - (std::int64_t(1) << (bits - 1));
  return std::ldexp(static_cast<double>(mantissa),
                    low + static_cast<int>(h % static_cast<std::uint64_t>(span)));
}

struct Data {
  Kokkos::View<double*, Kokkos::HostSpace> values{"values", count};
  Kokkos::View<float*, Kokkos::HostSpace> x{"x", count}, y{"y", count};
  Data() {
    for (std::size_t i = 0; i < count; ++i) {
      values(i) = awkward(mix(i), 40, -30, 50);
      // 24-bit mantissas: exact in f32.
      x(i) = static_cast<float>(awkward(mix(i + count), 24, -10, 20));
      y(i) = static_cast<float>(awkward(mix(i + 2 * count), 24, -10, 20));
    }
  }
};

std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

template <class Space>
DeterminismReport::Line sums_on(const Space& space, const Data& d, std::string where) {
  return {std::move(where), true, bits(strided::sum(space, strided::view(d.values))),
          bits(strided::dot<double>(space, strided::view(d.x), strided::view(d.y)))};
}

std::string threads_text(int n) {
  return std::to_string(n) + (n == 1 ? " thread" : " threads");
}

/// This program's path: /proc/self/exe would name the shell that popen starts.
std::string own_path() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

/// Runs this program with --determinism-probe --threads `threads` and reads its line.
DeterminismReport::Line child_sums(const std::string& program, int threads) {
  DeterminismReport::Line line{"child process, " + threads_text(threads), false, 0, 0};
  if (program.empty() || program.find('\'') != std::string::npos) return line;
  const std::string command =
      "'" + program + "' --determinism-probe --threads " + std::to_string(threads) + " 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return line;
  // Kokkos may print warnings of its own: the probe's line is the one that starts with "probe".
  char text[256];
  char space[64] = {};
  int got_threads = 0;
  unsigned long long sum = 0, dot = 0;
  bool read = false;
  while (!read && std::fgets(text, sizeof text, pipe))
    read = std::sscanf(text, "probe %63s %d %llx %llx", space, &got_threads, &sum, &dot) == 4;
  const int status = pclose(pipe);
  if (read && status == 0) {
    line = {std::string(space) + ", " + threads_text(got_threads) + ", child process", true, sum,
            dot};
  }
  return line;
}

}  // namespace

bool DeterminismReport::identical() const {
  for (const Line& l : lines)
    if (!l.ran || l.sum != lines.front().sum || l.dot != lines.front().dot) return false;
  return !lines.empty();
}

DeterminismReport check_determinism(Progress& progress) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  DeterminismReport report;
  {
    progress.show("[determinism] in this process ...");
    const Data d;
#if defined(KOKKOS_ENABLE_SERIAL)
    report.lines.push_back(sums_on(Kokkos::Serial(), d, "Serial, in this process"));
#endif
    const Exec exec;
    report.lines.push_back(sums_on(exec, d,
                                   std::string(Exec::name()) + ", " +
                                       threads_text(static_cast<int>(exec.concurrency())) +
                                       ", in this process"));
    double loop = 0;
    for (std::size_t i = 0; i < count; ++i) loop += d.values(i);
    report.loop_sum = bits(loop);
  }  // the children need no copy of our data in memory beside theirs
  const std::string program = own_path();
  for (int threads : {1, 2}) {
    progress.show("[determinism] child process at " + threads_text(threads) + " ...");
    report.lines.push_back(child_sums(program, threads));
  }
  return report;
}

void print_determinism(const DeterminismReport& r) {
  std::printf(
      "\nDeterminism: the same data and shape give the same bits on every backend and thread "
      "count\n  %-40s %-20s %s\n",
      "computed on", "sum of 2^22 f64", "f32 dot in f64, 2^22");
  for (const auto& l : r.lines) {
    if (l.ran)
      std::printf("  %-40s 0x%016llx   0x%016llx\n", l.where.c_str(),
                  static_cast<unsigned long long>(l.sum), static_cast<unsigned long long>(l.dot));
    else
      std::printf("  %-40s could not be run\n", l.where.c_str());
  }
  const bool loop_differs = !r.lines.empty() && r.loop_sum != r.lines.front().sum;
  std::printf("  %s\n  (a left-to-right loop gives 0x%016llx for the sum%s)\n",
              r.identical() ? "IDENTICAL" : "DIFFERENT",
              static_cast<unsigned long long>(r.loop_sum),
              loop_differs ? ": the order of the additions matters for these values" : "");
}

int run_determinism_probe() {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const Data d;
  const Exec exec;
  const auto line = sums_on(exec, d, "");
  std::printf("probe %s %d 0x%016llx 0x%016llx\n", Exec::name(),
              static_cast<int>(exec.concurrency()), static_cast<unsigned long long>(line.sum),
              static_cast<unsigned long long>(line.dot));
  return 0;
}

}  // namespace strided_report
