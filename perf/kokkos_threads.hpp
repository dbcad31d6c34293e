#ifndef STRIDED_PERF_KOKKOS_THREADS_HPP
#define STRIDED_PERF_KOKKOS_THREADS_HPP

// `--threads N` for the perf programs, passed to Kokkos under its version's name: Kokkos 3.4 knows
// only --kokkos-threads, and from 3.7 on --kokkos-num-threads (the old name deprecated, then
// ignored with a warning), so a program given the other name runs on Kokkos' default threads.

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <string>
#include <vector>

namespace strided_perf {

/// Kokkos' own option for `threads` threads.
inline std::string kokkos_threads_option(int threads) {
#if KOKKOS_VERSION >= 30700
  return "--kokkos-num-threads=" + std::to_string(threads);
#else
  return "--kokkos-threads=" + std::to_string(threads);
#endif
}

/// A program's arguments with `--threads N` replaced by kokkos_threads_option(N), as the argc
/// and argv that Kokkos::ScopeGuard takes (the strings live as long as this object).
class KokkosArguments {
 public:
  KokkosArguments(int argc, char** argv) {
    for (int i = 0; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--threads" && i + 1 < argc)
        strings_.push_back(kokkos_threads_option(std::atoi(argv[++i])));
      else
        strings_.push_back(arg);
    }
    for (std::string& s : strings_) pointers_.push_back(s.data());
    argc_ = static_cast<int>(strings_.size());
    pointers_.push_back(nullptr);
  }
  KokkosArguments(const KokkosArguments&) = delete;
  KokkosArguments& operator=(const KokkosArguments&) = delete;
  int& argc() { return argc_; }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;
  int argc_ = 0;
};

}  // namespace strided_perf

#endif
